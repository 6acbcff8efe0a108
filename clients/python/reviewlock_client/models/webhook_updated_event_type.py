from typing import Literal

WebhookUpdatedEventType = Literal["webhook.updated"]

WEBHOOK_UPDATED_EVENT_TYPE_VALUES: set[WebhookUpdatedEventType] = {
    "webhook.updated",
}


def check_webhook_updated_event_type(value: str) -> WebhookUpdatedEventType:
    if value in WEBHOOK_UPDATED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_UPDATED_EVENT_TYPE_VALUES!r}")
