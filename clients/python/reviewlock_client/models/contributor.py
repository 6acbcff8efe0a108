from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.contributor_role import ContributorRole, check_contributor_role

T = TypeVar("T", bound="Contributor")


@_attrs_define
class Contributor:
    """An agent credited on a version besides its author.

    Attributes:
        agent (str):
        role (ContributorRole): How a contributor took part in a version; every role is credited alike (R6).
    """

    agent: str
    role: ContributorRole

    def to_dict(self) -> dict[str, Any]:
        agent = self.agent

        role: str = self.role

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "agent": agent,
                "role": role,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent = d.pop("agent")

        role = check_contributor_role(d.pop("role"))

        contributor = cls(
            agent=agent,
            role=role,
        )

        return contributor
