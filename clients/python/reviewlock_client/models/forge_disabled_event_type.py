from typing import Literal

ForgeDisabledEventType = Literal["forge.disabled"]

FORGE_DISABLED_EVENT_TYPE_VALUES: set[ForgeDisabledEventType] = {
    "forge.disabled",
}


def check_forge_disabled_event_type(value: str) -> ForgeDisabledEventType:
    if value in FORGE_DISABLED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {FORGE_DISABLED_EVENT_TYPE_VALUES!r}")
