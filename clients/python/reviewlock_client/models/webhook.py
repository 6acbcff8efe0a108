from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.disabled_reason import DisabledReason, check_disabled_reason

if TYPE_CHECKING:
    from ..models.delivery_state import DeliveryState


T = TypeVar("T", bound="Webhook")


@_attrs_define
class Webhook:
    """A webhook subscription (its secret is never shown again after creation or rotation).

    Attributes:
        created_at (datetime.datetime):
        delivery (DeliveryState): Where a target is in its team's log.
        description (None | str):  Example: Spawn a reviser on rejections.
        disabled_reason (DisabledReason | None):
        enabled (bool): Whether events are delivered. A webhook whose receiver answered `410 Gone`, or that
            failed for 5 days, is disabled (`disabled_reason`); enabling it resumes from its cursor.
        events (list[str]): The event types it wants, or prefixes (`review.*`); empty for every event. Example:
            ['review.*'].
        id (UUID):
        previous_secret_expires_at (datetime.datetime | None): Until when the previous secret also signs, after a
            rotation.
        updated_at (datetime.datetime):
        url (str):  Example: https://hooks.example.com/reviewlock.
    """

    created_at: datetime.datetime
    delivery: DeliveryState
    description: None | str
    disabled_reason: DisabledReason | None
    enabled: bool
    events: list[str]
    id: UUID
    previous_secret_expires_at: datetime.datetime | None
    updated_at: datetime.datetime
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        delivery = self.delivery.to_dict()

        description: None | str
        description = self.description

        disabled_reason: None | str
        if isinstance(self.disabled_reason, str):
            disabled_reason = self.disabled_reason
        else:
            disabled_reason = self.disabled_reason

        enabled = self.enabled

        events = self.events

        id = str(self.id)

        previous_secret_expires_at: None | str
        if isinstance(self.previous_secret_expires_at, datetime.datetime):
            previous_secret_expires_at = self.previous_secret_expires_at.isoformat()
        else:
            previous_secret_expires_at = self.previous_secret_expires_at

        updated_at = self.updated_at.isoformat()

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "delivery": delivery,
                "description": description,
                "disabled_reason": disabled_reason,
                "enabled": enabled,
                "events": events,
                "id": id,
                "previous_secret_expires_at": previous_secret_expires_at,
                "updated_at": updated_at,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_state import DeliveryState  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        delivery = DeliveryState.from_dict(d.pop("delivery"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

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

        id = UUID(d.pop("id"))

        def _parse_previous_secret_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                previous_secret_expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return previous_secret_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        previous_secret_expires_at = _parse_previous_secret_expires_at(d.pop("previous_secret_expires_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        url = d.pop("url")

        webhook = cls(
            created_at=created_at,
            delivery=delivery,
            description=description,
            disabled_reason=disabled_reason,
            enabled=enabled,
            events=events,
            id=id,
            previous_secret_expires_at=previous_secret_expires_at,
            updated_at=updated_at,
            url=url,
        )

        webhook.additional_properties = d
        return webhook

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
