from typing import Literal

AssignmentCreatedEventType = Literal["assignment.created"]

ASSIGNMENT_CREATED_EVENT_TYPE_VALUES: set[AssignmentCreatedEventType] = {
    "assignment.created",
}


def check_assignment_created_event_type(value: str) -> AssignmentCreatedEventType:
    if value in ASSIGNMENT_CREATED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ASSIGNMENT_CREATED_EVENT_TYPE_VALUES!r}")
