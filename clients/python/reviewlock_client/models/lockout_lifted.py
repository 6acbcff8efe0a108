from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="LockoutLifted")


@_attrs_define
class LockoutLifted:
    """
    Attributes:
        agent (str):  Example: runtime-eng.
        reason (str):  Example: The rejection was about a file this agent did not write..
    """

    agent: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        agent = self.agent

        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "agent": agent,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent = d.pop("agent")

        reason = d.pop("reason")

        lockout_lifted = cls(
            agent=agent,
            reason=reason,
        )

        return lockout_lifted
