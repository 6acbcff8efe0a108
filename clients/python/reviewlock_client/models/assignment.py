from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.assigned_by import AssignedBy, check_assigned_by

T = TypeVar("T", bound="Assignment")


@_attrs_define
class Assignment:
    """
    Attributes:
        agent (str):  Example: revision-eng.
        assigned_at (datetime.datetime):
        assigned_by (AssignedBy): Who assigned an agent the revision: the coordinator (R5), or the user resolving a
            deadlock (R9).
        note (None | str):  Example: Takes over after the quality rejection..
    """

    agent: str
    assigned_at: datetime.datetime
    assigned_by: AssignedBy
    note: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent = self.agent

        assigned_at = self.assigned_at.isoformat()

        assigned_by: str = self.assigned_by

        note: None | str
        note = self.note

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agent": agent,
                "assigned_at": assigned_at,
                "assigned_by": assigned_by,
                "note": note,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent = d.pop("agent")

        assigned_at = datetime.datetime.fromisoformat(d.pop("assigned_at"))

        assigned_by = check_assigned_by(d.pop("assigned_by"))

        def _parse_note(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        note = _parse_note(d.pop("note"))

        assignment = cls(
            agent=agent,
            assigned_at=assigned_at,
            assigned_by=assigned_by,
            note=note,
        )

        assignment.additional_properties = d
        return assignment

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
