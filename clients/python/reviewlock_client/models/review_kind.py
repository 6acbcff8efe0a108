from typing import Literal

ReviewKind = Literal["focused_rereview", "review"]

REVIEW_KIND_VALUES: set[ReviewKind] = {
    "focused_rereview",
    "review",
}


def check_review_kind(value: str) -> ReviewKind:
    if value in REVIEW_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REVIEW_KIND_VALUES!r}")
