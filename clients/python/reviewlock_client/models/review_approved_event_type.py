from typing import Literal

ReviewApprovedEventType = Literal["review.approved"]

REVIEW_APPROVED_EVENT_TYPE_VALUES: set[ReviewApprovedEventType] = {
    "review.approved",
}


def check_review_approved_event_type(value: str) -> ReviewApprovedEventType:
    if value in REVIEW_APPROVED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REVIEW_APPROVED_EVENT_TYPE_VALUES!r}")
