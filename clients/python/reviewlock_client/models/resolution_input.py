from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.resolution_action import ResolutionAction, check_resolution_action
from ..types import UNSET, Unset

T = TypeVar("T", bound="ResolutionInput")


@_attrs_define
class ResolutionInput:
    """The user's resolution of a deadlock (R9).

    Attributes:
        action (ResolutionAction):
        reason (str):  Example: A fresh engineer joined the team for this..
        agent (None | str | Unset): For `assign`: an agent who is not locked out. Example: new-eng.
    """

    action: ResolutionAction
    reason: str
    agent: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        action: str = self.action

        reason = self.reason

        agent: None | str | Unset
        if isinstance(self.agent, Unset):
            agent = UNSET
        else:
            agent = self.agent

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
                "reason": reason,
            }
        )
        if agent is not UNSET:
            field_dict["agent"] = agent

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = check_resolution_action(d.pop("action"))

        reason = d.pop("reason")

        def _parse_agent(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent = _parse_agent(d.pop("agent", UNSET))

        resolution_input = cls(
            action=action,
            reason=reason,
            agent=agent,
        )

        return resolution_input
