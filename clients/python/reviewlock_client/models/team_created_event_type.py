from typing import Literal

TeamCreatedEventType = Literal["team.created"]

TEAM_CREATED_EVENT_TYPE_VALUES: set[TeamCreatedEventType] = {
    "team.created",
}


def check_team_created_event_type(value: str) -> TeamCreatedEventType:
    if value in TEAM_CREATED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TEAM_CREATED_EVENT_TYPE_VALUES!r}")
