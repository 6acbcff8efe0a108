from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DeliveryAttempt")


@_attrs_define
class DeliveryAttempt:
    """One delivery attempt, for the delivery log.

    Attributes:
        at (datetime.datetime):
        attempt (int): 1 for the first attempt at the event, 2 for its first retry… Example: 1.
        error (None | str): Why no response came (refused, timed out, a private address…).
        event_type (str): The event's `type` (`webhook.test` for a test delivery).
        id (UUID):
        latency_ms (int):  Example: 84.
        manual (bool): Sent by `POST …/retry` (or a test delivery), outside the schedule.
        response_body (None | str): The start of the response's body (at most 1 KiB).
        response_status (int | None): The response's status; null when none came. Example: 200.
        seq (int | None): The event delivered; null for a test delivery. Example: 42.
        succeeded (bool): A 2xx answered (for commit statuses, every status of the event).
        webhook_id (str): The `webhook-id` sent: the same on every attempt at one event. Example:
            msg_0b5e4f0c3a9e4b7d8c2a1e6f0b1d3c5a_42.
    """

    at: datetime.datetime
    attempt: int
    error: None | str
    event_type: str
    id: UUID
    latency_ms: int
    manual: bool
    response_body: None | str
    response_status: int | None
    seq: int | None
    succeeded: bool
    webhook_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        attempt = self.attempt

        error: None | str
        error = self.error

        event_type = self.event_type

        id = str(self.id)

        latency_ms = self.latency_ms

        manual = self.manual

        response_body: None | str
        response_body = self.response_body

        response_status: int | None
        response_status = self.response_status

        seq: int | None
        seq = self.seq

        succeeded = self.succeeded

        webhook_id = self.webhook_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "attempt": attempt,
                "error": error,
                "event_type": event_type,
                "id": id,
                "latency_ms": latency_ms,
                "manual": manual,
                "response_body": response_body,
                "response_status": response_status,
                "seq": seq,
                "succeeded": succeeded,
                "webhook_id": webhook_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        attempt = d.pop("attempt")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        event_type = d.pop("event_type")

        id = UUID(d.pop("id"))

        latency_ms = d.pop("latency_ms")

        manual = d.pop("manual")

        def _parse_response_body(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        response_body = _parse_response_body(d.pop("response_body"))

        def _parse_response_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        response_status = _parse_response_status(d.pop("response_status"))

        def _parse_seq(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seq = _parse_seq(d.pop("seq"))

        succeeded = d.pop("succeeded")

        webhook_id = d.pop("webhook_id")

        delivery_attempt = cls(
            at=at,
            attempt=attempt,
            error=error,
            event_type=event_type,
            id=id,
            latency_ms=latency_ms,
            manual=manual,
            response_body=response_body,
            response_status=response_status,
            seq=seq,
            succeeded=succeeded,
            webhook_id=webhook_id,
        )

        delivery_attempt.additional_properties = d
        return delivery_attempt

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
