from typing import Literal

TokenCreatedEventType = Literal["token.created"]

TOKEN_CREATED_EVENT_TYPE_VALUES: set[TokenCreatedEventType] = {
    "token.created",
}


def check_token_created_event_type(value: str) -> TokenCreatedEventType:
    if value in TOKEN_CREATED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TOKEN_CREATED_EVENT_TYPE_VALUES!r}")
