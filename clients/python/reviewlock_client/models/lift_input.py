from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="LiftInput")


@_attrs_define
class LiftInput:
    """The user's early lift of one lockout (R10).

    Attributes:
        reason (str):  Example: The rejection was about a file this agent did not write..
    """

    reason: str

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        reason = d.pop("reason")

        lift_input = cls(
            reason=reason,
        )

        return lift_input
