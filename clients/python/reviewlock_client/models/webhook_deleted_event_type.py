from typing import Literal

WebhookDeletedEventType = Literal["webhook.deleted"]

WEBHOOK_DELETED_EVENT_TYPE_VALUES: set[WebhookDeletedEventType] = {
    "webhook.deleted",
}


def check_webhook_deleted_event_type(value: str) -> WebhookDeletedEventType:
    if value in WEBHOOK_DELETED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_DELETED_EVENT_TYPE_VALUES!r}")
