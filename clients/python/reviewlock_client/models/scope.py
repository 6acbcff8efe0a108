from typing import Literal

Scope = Literal["admin", "agent", "coordinator", "read", "user"]

SCOPE_VALUES: set[Scope] = {
    "admin",
    "agent",
    "coordinator",
    "read",
    "user",
}


def check_scope(value: str) -> Scope:
    if value in SCOPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SCOPE_VALUES!r}")
