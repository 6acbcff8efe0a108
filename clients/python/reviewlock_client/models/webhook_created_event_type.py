from typing import Literal

WebhookCreatedEventType = Literal["webhook.created"]

WEBHOOK_CREATED_EVENT_TYPE_VALUES: set[WebhookCreatedEventType] = {
    "webhook.created",
}


def check_webhook_created_event_type(value: str) -> WebhookCreatedEventType:
    if value in WEBHOOK_CREATED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_CREATED_EVENT_TYPE_VALUES!r}")
