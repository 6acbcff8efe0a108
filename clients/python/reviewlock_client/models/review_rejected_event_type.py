from typing import Literal

ReviewRejectedEventType = Literal["review.rejected"]

REVIEW_REJECTED_EVENT_TYPE_VALUES: set[ReviewRejectedEventType] = {
    "review.rejected",
}


def check_review_rejected_event_type(value: str) -> ReviewRejectedEventType:
    if value in REVIEW_REJECTED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REVIEW_REJECTED_EVENT_TYPE_VALUES!r}")
