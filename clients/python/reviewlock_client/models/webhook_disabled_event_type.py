from typing import Literal

WebhookDisabledEventType = Literal["webhook.disabled"]

WEBHOOK_DISABLED_EVENT_TYPE_VALUES: set[WebhookDisabledEventType] = {
    "webhook.disabled",
}


def check_webhook_disabled_event_type(value: str) -> WebhookDisabledEventType:
    if value in WEBHOOK_DISABLED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_DISABLED_EVENT_TYPE_VALUES!r}")
