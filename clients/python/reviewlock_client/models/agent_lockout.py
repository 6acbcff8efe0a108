from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AgentLockout")


@_attrs_define
class AgentLockout:
    """An active lockout of the agent.

    Attributes:
        artifact (str):  Example: auth.
        locked_at (datetime.datetime):
        reason (None | str):  Example: Error handling is missing..
        reviewer (str):  Example: quality-reviewer.
        version (int): The rejected version the agent was credited on. Example: 1.
    """

    artifact: str
    locked_at: datetime.datetime
    reason: None | str
    reviewer: str
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        artifact = self.artifact

        locked_at = self.locked_at.isoformat()

        reason: None | str
        reason = self.reason

        reviewer = self.reviewer

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
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
        artifact = d.pop("artifact")

        locked_at = datetime.datetime.fromisoformat(d.pop("locked_at"))

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        reviewer = d.pop("reviewer")

        version = d.pop("version")

        agent_lockout = cls(
            artifact=artifact,
            locked_at=locked_at,
            reason=reason,
            reviewer=reviewer,
            version=version,
        )

        agent_lockout.additional_properties = d
        return agent_lockout

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
