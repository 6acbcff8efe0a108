from typing import Literal

DisabledReason = Literal["failing", "gone"]

DISABLED_REASON_VALUES: set[DisabledReason] = {
    "failing",
    "gone",
}


def check_disabled_reason(value: str) -> DisabledReason:
    if value in DISABLED_REASON_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DISABLED_REASON_VALUES!r}")
