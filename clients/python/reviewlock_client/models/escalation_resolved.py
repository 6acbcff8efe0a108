from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.resolution_action import ResolutionAction, check_resolution_action
from ..models.state import State, check_state

T = TypeVar("T", bound="EscalationResolved")


@_attrs_define
class EscalationResolved:
    """
    Attributes:
        action (ResolutionAction):
        agent (None | str): The agent assigned; null for `abandon`. Example: new-eng.
        reason (str):  Example: A fresh engineer joined the team for this..
        state (State): The states of an artifact (PROTOCOL §3).
    """

    action: ResolutionAction
    agent: None | str
    reason: str
    state: State

    def to_dict(self) -> dict[str, Any]:
        action: str = self.action

        agent: None | str
        agent = self.agent

        reason = self.reason

        state: str = self.state

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
                "agent": agent,
                "reason": reason,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = check_resolution_action(d.pop("action"))

        def _parse_agent(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent = _parse_agent(d.pop("agent"))

        reason = d.pop("reason")

        state = check_state(d.pop("state"))

        escalation_resolved = cls(
            action=action,
            agent=agent,
            reason=reason,
            state=state,
        )

        return escalation_resolved
