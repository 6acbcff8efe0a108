from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.remedy_action import RemedyAction, check_remedy_action

T = TypeVar("T", bound="PendingRemedy")


@_attrs_define
class PendingRemedy:
    """The remedy of the rejection that opened the current revision, with who asked for it.

    Attributes:
        action (RemedyAction): What a rejecting reviewer asks for (R3).
        agent (None | str):  Example: revision-eng.
        expertise (list[str]):
        reason (str):  Example: Error handling is missing..
        reviewer (str):  Example: quality-reviewer.
    """

    action: RemedyAction
    agent: None | str
    expertise: list[str]
    reason: str
    reviewer: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action: str = self.action

        agent: None | str
        agent = self.agent

        expertise = self.expertise

        reason = self.reason

        reviewer = self.reviewer

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "agent": agent,
                "expertise": expertise,
                "reason": reason,
                "reviewer": reviewer,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = check_remedy_action(d.pop("action"))

        def _parse_agent(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent = _parse_agent(d.pop("agent"))

        expertise = cast(list[str], d.pop("expertise"))

        reason = d.pop("reason")

        reviewer = d.pop("reviewer")

        pending_remedy = cls(
            action=action,
            agent=agent,
            expertise=expertise,
            reason=reason,
            reviewer=reviewer,
        )

        pending_remedy.additional_properties = d
        return pending_remedy

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
