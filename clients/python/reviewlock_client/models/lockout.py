from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Lockout")


@_attrs_define
class Lockout:
    """
    Attributes:
        agent (str):  Example: runtime-eng.
        artifact (str):  Example: auth.
        locked_at (datetime.datetime):
        reason (None | str):  Example: Error handling is missing..
        reviewer (str):  Example: quality-reviewer.
        version (int): The rejected version the agent was credited on. Example: 1.
    """

    agent: str
    artifact: str
    locked_at: datetime.datetime
    reason: None | str
    reviewer: str
    version: int

    def to_dict(self) -> dict[str, Any]:
        agent = self.agent

        artifact = self.artifact

        locked_at = self.locked_at.isoformat()

        reason: None | str
        reason = self.reason

        reviewer = self.reviewer

        version = self.version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "agent": agent,
                "artifact": artifact,
                "locked_at": locked_at,
                "reason": reason,
                "reviewer": reviewer,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent = d.pop("agent")

        artifact = d.pop("artifact")

        locked_at = datetime.datetime.fromisoformat(d.pop("locked_at"))

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        reviewer = d.pop("reviewer")

        version = d.pop("version")

        lockout = cls(
            agent=agent,
            artifact=artifact,
            locked_at=locked_at,
            reason=reason,
            reviewer=reviewer,
            version=version,
        )

        return lockout
