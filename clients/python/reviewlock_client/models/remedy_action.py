from typing import Literal

RemedyAction = Literal["escalate", "reassign"]

REMEDY_ACTION_VALUES: set[RemedyAction] = {
    "escalate",
    "reassign",
}


def check_remedy_action(value: str) -> RemedyAction:
    if value in REMEDY_ACTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REMEDY_ACTION_VALUES!r}")
