from typing import Literal

ForgeDeletedEventType = Literal["forge.deleted"]

FORGE_DELETED_EVENT_TYPE_VALUES: set[ForgeDeletedEventType] = {
    "forge.deleted",
}


def check_forge_deleted_event_type(value: str) -> ForgeDeletedEventType:
    if value in FORGE_DELETED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {FORGE_DELETED_EVENT_TYPE_VALUES!r}")
