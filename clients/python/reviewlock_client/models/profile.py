from typing import Literal

Profile = Literal["standard", "waza"]

PROFILE_VALUES: set[Profile] = {
    "standard",
    "waza",
}


def check_profile(value: str) -> Profile:
    if value in PROFILE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {PROFILE_VALUES!r}")
