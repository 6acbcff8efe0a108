from typing import Literal

VersionSubmittedEventType = Literal["version.submitted"]

VERSION_SUBMITTED_EVENT_TYPE_VALUES: set[VersionSubmittedEventType] = {
    "version.submitted",
}


def check_version_submitted_event_type(value: str) -> VersionSubmittedEventType:
    if value in VERSION_SUBMITTED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VERSION_SUBMITTED_EVENT_TYPE_VALUES!r}")
