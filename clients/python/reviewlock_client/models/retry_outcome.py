from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.delivery_attempt import DeliveryAttempt


T = TypeVar("T", bound="RetryOutcome")


@_attrs_define
class RetryOutcome:
    """What a retry did: sent the event again now (`attempt`), or, for an event not yet
    delivered, made its target's next attempt due now (`scheduled`).

        Attributes:
            attempt (DeliveryAttempt | None):
            scheduled (bool): True when the event is still ahead of the target's cursor: its delivery is now due,
                in order, by the delivery workers.
    """

    attempt: DeliveryAttempt | None
    scheduled: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery_attempt import DeliveryAttempt  # noqa: PLC0415

        attempt: dict[str, Any] | None
        if isinstance(self.attempt, DeliveryAttempt):
            attempt = self.attempt.to_dict()
        else:
            attempt = self.attempt

        scheduled = self.scheduled

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempt": attempt,
                "scheduled": scheduled,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_attempt import DeliveryAttempt  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_attempt(data: object) -> DeliveryAttempt | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                attempt_type_0 = DeliveryAttempt.from_dict(data)

                return attempt_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DeliveryAttempt | None, data)

        attempt = _parse_attempt(d.pop("attempt"))

        scheduled = d.pop("scheduled")

        retry_outcome = cls(
            attempt=attempt,
            scheduled=scheduled,
        )

        retry_outcome.additional_properties = d
        return retry_outcome

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
