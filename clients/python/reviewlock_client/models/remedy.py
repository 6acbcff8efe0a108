from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.remedy_action import RemedyAction, check_remedy_action
from ..types import UNSET, Unset

T = TypeVar("T", bound="Remedy")


@_attrs_define
class Remedy:
    """What a rejecting reviewer asks for (R3).

    Attributes:
        action (RemedyAction): What a rejecting reviewer asks for (R3).
        agent (None | str | Unset): A recommended agent; it must not be locked out (R4).
        expertise (list[str] | Unset): For `escalate`: the tags the reviser must have, at least one.
    """

    action: RemedyAction
    agent: None | str | Unset = UNSET
    expertise: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        action: str = self.action

        agent: None | str | Unset
        if isinstance(self.agent, Unset):
            agent = UNSET
        else:
            agent = self.agent

        expertise: list[str] | Unset = UNSET
        if not isinstance(self.expertise, Unset):
            expertise = self.expertise

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
            }
        )
        if agent is not UNSET:
            field_dict["agent"] = agent
        if expertise is not UNSET:
            field_dict["expertise"] = expertise

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = check_remedy_action(d.pop("action"))

        def _parse_agent(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent = _parse_agent(d.pop("agent", UNSET))

        expertise = cast(list[str], d.pop("expertise", UNSET))

        remedy = cls(
            action=action,
            agent=agent,
            expertise=expertise,
        )

        return remedy
