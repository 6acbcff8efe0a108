from typing import Literal

ArtifactCreatedEventType = Literal["artifact.created"]

ARTIFACT_CREATED_EVENT_TYPE_VALUES: set[ArtifactCreatedEventType] = {
    "artifact.created",
}


def check_artifact_created_event_type(value: str) -> ArtifactCreatedEventType:
    if value in ARTIFACT_CREATED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ARTIFACT_CREATED_EVENT_TYPE_VALUES!r}")
