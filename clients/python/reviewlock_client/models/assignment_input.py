from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AssignmentInput")


@_attrs_define
class AssignmentInput:
    """
    Attributes:
        agent (str): The agent who will write the next version: not locked out (R5). Example: revision-eng.
        note (None | str | Unset):  Example: Takes over after the quality rejection..
    """

    agent: str
    note: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        agent = self.agent

        note: None | str | Unset
        if isinstance(self.note, Unset):
            note = UNSET
        else:
            note = self.note

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "agent": agent,
            }
        )
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent = d.pop("agent")

        def _parse_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        note = _parse_note(d.pop("note", UNSET))

        assignment_input = cls(
            agent=agent,
            note=note,
        )

        return assignment_input
