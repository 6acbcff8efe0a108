from typing import Literal

ForgeCreatedEventType = Literal["forge.created"]

FORGE_CREATED_EVENT_TYPE_VALUES: set[ForgeCreatedEventType] = {
    "forge.created",
}


def check_forge_created_event_type(value: str) -> ForgeCreatedEventType:
    if value in FORGE_CREATED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {FORGE_CREATED_EVENT_TYPE_VALUES!r}")
