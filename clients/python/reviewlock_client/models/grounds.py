from typing import Literal

Grounds = Literal["correctness", "coverage", "other", "quality", "regression", "security"]

GROUNDS_VALUES: set[Grounds] = {
    "correctness",
    "coverage",
    "other",
    "quality",
    "regression",
    "security",
}


def check_grounds(value: str) -> Grounds:
    if value in GROUNDS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GROUNDS_VALUES!r}")
