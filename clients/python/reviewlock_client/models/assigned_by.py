from typing import Literal

AssignedBy = Literal["coordinator", "user"]

ASSIGNED_BY_VALUES: set[AssignedBy] = {
    "coordinator",
    "user",
}


def check_assigned_by(value: str) -> AssignedBy:
    if value in ASSIGNED_BY_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ASSIGNED_BY_VALUES!r}")
