from typing import Literal

State = Literal["abandoned", "approved", "changes_requested", "deadlocked", "in_review", "in_revision"]

STATE_VALUES: set[State] = {
    "abandoned",
    "approved",
    "changes_requested",
    "deadlocked",
    "in_review",
    "in_revision",
}


def check_state(value: str) -> State:
    if value in STATE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {STATE_VALUES!r}")
