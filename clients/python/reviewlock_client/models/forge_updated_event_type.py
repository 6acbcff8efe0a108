from typing import Literal

ForgeUpdatedEventType = Literal["forge.updated"]

FORGE_UPDATED_EVENT_TYPE_VALUES: set[ForgeUpdatedEventType] = {
    "forge.updated",
}


def check_forge_updated_event_type(value: str) -> ForgeUpdatedEventType:
    if value in FORGE_UPDATED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {FORGE_UPDATED_EVENT_TYPE_VALUES!r}")
