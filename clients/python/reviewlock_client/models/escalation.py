from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.escalation_details import EscalationDetails


T = TypeVar("T", bound="Escalation")


@_attrs_define
class Escalation:
    """A deadlocked artifact escalated to the user (R9).

    Attributes:
        artifact (str):  Example: billing.
        details (EscalationDetails): What the user needs to decide a deadlock (R9): the cycle's versions, who wrote
            them, each
            rejection and the lockouts, as they were when the artifact deadlocked.
        id (int):  Example: 1.
        opened_at (datetime.datetime):
    """

    artifact: str
    details: EscalationDetails
    id: int
    opened_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        artifact = self.artifact

        details = self.details.to_dict()

        id = self.id

        opened_at = self.opened_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "artifact": artifact,
                "details": details,
                "id": id,
                "opened_at": opened_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.escalation_details import EscalationDetails  # noqa: PLC0415

        d = dict(src_dict)
        artifact = d.pop("artifact")

        details = EscalationDetails.from_dict(d.pop("details"))

        id = d.pop("id")

        opened_at = datetime.datetime.fromisoformat(d.pop("opened_at"))

        escalation = cls(
            artifact=artifact,
            details=details,
            id=id,
            opened_at=opened_at,
        )

        escalation.additional_properties = d
        return escalation

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
