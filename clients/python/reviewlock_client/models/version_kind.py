from typing import Literal

VersionKind = Literal["first", "new_cycle", "revision", "supersede"]

VERSION_KIND_VALUES: set[VersionKind] = {
    "first",
    "new_cycle",
    "revision",
    "supersede",
}


def check_version_kind(value: str) -> VersionKind:
    if value in VERSION_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VERSION_KIND_VALUES!r}")
