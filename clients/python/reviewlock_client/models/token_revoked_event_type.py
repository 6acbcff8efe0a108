from typing import Literal

TokenRevokedEventType = Literal["token.revoked"]

TOKEN_REVOKED_EVENT_TYPE_VALUES: set[TokenRevokedEventType] = {
    "token.revoked",
}


def check_token_revoked_event_type(value: str) -> TokenRevokedEventType:
    if value in TOKEN_REVOKED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TOKEN_REVOKED_EVENT_TYPE_VALUES!r}")
