from typing import Literal

ForgeKind = Literal["github", "gitlab"]

FORGE_KIND_VALUES: set[ForgeKind] = {
    "github",
    "gitlab",
}


def check_forge_kind(value: str) -> ForgeKind:
    if value in FORGE_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {FORGE_KIND_VALUES!r}")
