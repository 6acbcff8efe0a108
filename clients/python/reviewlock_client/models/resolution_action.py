from typing import Literal

ResolutionAction = Literal["abandon", "assign"]

RESOLUTION_ACTION_VALUES: set[ResolutionAction] = {
    "abandon",
    "assign",
}


def check_resolution_action(value: str) -> ResolutionAction:
    if value in RESOLUTION_ACTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {RESOLUTION_ACTION_VALUES!r}")
