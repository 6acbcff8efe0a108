from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.state import State, check_state

T = TypeVar("T", bound="AssignmentCreated")


@_attrs_define
class AssignmentCreated:
    """
    Attributes:
        agent (str):  Example: revision-eng.
        note (None | str):  Example: Takes over after the quality rejection..
        state (State): The states of an artifact (PROTOCOL §3).
    """

    agent: str
    note: None | str
    state: State

    def to_dict(self) -> dict[str, Any]:
        agent = self.agent

        note: None | str
        note = self.note

        state: str = self.state

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "agent": agent,
                "note": note,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent = d.pop("agent")

        def _parse_note(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        note = _parse_note(d.pop("note"))

        state = check_state(d.pop("state"))

        assignment_created = cls(
            agent=agent,
            note=note,
            state=state,
        )

        return assignment_created
