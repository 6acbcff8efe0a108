from typing import Literal

TeamUpdatedEventType = Literal["team.updated"]

TEAM_UPDATED_EVENT_TYPE_VALUES: set[TeamUpdatedEventType] = {
    "team.updated",
}


def check_team_updated_event_type(value: str) -> TeamUpdatedEventType:
    if value in TEAM_UPDATED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TEAM_UPDATED_EVENT_TYPE_VALUES!r}")
