from typing import Literal

LockoutLiftedEventType = Literal["lockout.lifted"]

LOCKOUT_LIFTED_EVENT_TYPE_VALUES: set[LockoutLiftedEventType] = {
    "lockout.lifted",
}


def check_lockout_lifted_event_type(value: str) -> LockoutLiftedEventType:
    if value in LOCKOUT_LIFTED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LOCKOUT_LIFTED_EVENT_TYPE_VALUES!r}")
