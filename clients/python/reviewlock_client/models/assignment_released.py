from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.state import State, check_state

T = TypeVar("T", bound="AssignmentReleased")


@_attrs_define
class AssignmentReleased:
    """
    Attributes:
        agent (str):  Example: revision-eng.
        state (State): The states of an artifact (PROTOCOL §3).
    """

    agent: str
    state: State

    def to_dict(self) -> dict[str, Any]:
        agent = self.agent

        state: str = self.state

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "agent": agent,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent = d.pop("agent")

        state = check_state(d.pop("state"))

        assignment_released = cls(
            agent=agent,
            state=state,
        )

        return assignment_released
