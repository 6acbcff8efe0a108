from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.disabled_reason import DisabledReason, check_disabled_reason

T = TypeVar("T", bound="WebhookChanged")


@_attrs_define
class WebhookChanged:
    """A webhook subscription as the change leaves it (its secret never appears).

    Attributes:
        disabled_reason (DisabledReason | None):
        enabled (bool):
        events (list[str]): Its filters; empty for every event. Example: ['review.*'].
        host (str): The host events are sent to (the URL's path and query, which may hold a credential,
            are shown only to admin tokens, by `GET …/webhooks/{id}`). Example: hooks.example.com.
        webhook (UUID):
    """

    disabled_reason: DisabledReason | None
    enabled: bool
    events: list[str]
    host: str
    webhook: UUID

    def to_dict(self) -> dict[str, Any]:
        disabled_reason: None | str
        if isinstance(self.disabled_reason, str):
            disabled_reason = self.disabled_reason
        else:
            disabled_reason = self.disabled_reason

        enabled = self.enabled

        events = self.events

        host = self.host

        webhook = str(self.webhook)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "disabled_reason": disabled_reason,
                "enabled": enabled,
                "events": events,
                "host": host,
                "webhook": webhook,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_disabled_reason(data: object) -> DisabledReason | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_reason_type_0 = check_disabled_reason(data)

                return disabled_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DisabledReason | None, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason"))

        enabled = d.pop("enabled")

        events = cast(list[str], d.pop("events"))

        host = d.pop("host")

        webhook = UUID(d.pop("webhook"))

        webhook_changed = cls(
            disabled_reason=disabled_reason,
            enabled=enabled,
            events=events,
            host=host,
            webhook=webhook,
        )

        return webhook_changed
