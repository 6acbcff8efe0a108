from typing import Literal

AssignmentReleasedEventType = Literal["assignment.released"]

ASSIGNMENT_RELEASED_EVENT_TYPE_VALUES: set[AssignmentReleasedEventType] = {
    "assignment.released",
}


def check_assignment_released_event_type(value: str) -> AssignmentReleasedEventType:
    if value in ASSIGNMENT_RELEASED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ASSIGNMENT_RELEASED_EVENT_TYPE_VALUES!r}")
