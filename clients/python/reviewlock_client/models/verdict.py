from typing import Literal

Verdict = Literal["approve", "reject"]

VERDICT_VALUES: set[Verdict] = {
    "approve",
    "reject",
}


def check_verdict(value: str) -> Verdict:
    if value in VERDICT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VERDICT_VALUES!r}")
