from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.agent_kind import AgentKind, check_agent_kind
from ..types import UNSET, Unset

T = TypeVar("T", bound="AgentChanged")


@_attrs_define
class AgentChanged:
    """The agent as it is after the change.

    Attributes:
        active (bool):
        agent (str):  Example: revision-eng.
        can_author (bool):
        can_review (bool):
        expertise (list[str]):  Example: ['rust'].
        kind (AgentKind):
        roles (list[str]):  Example: ['engineer'].
        aliases (list[str] | Unset): The agent's aliases (R16); absent from events logged before aliases existed.
            Example: ['general-purpose'].
    """

    active: bool
    agent: str
    can_author: bool
    can_review: bool
    expertise: list[str]
    kind: AgentKind
    roles: list[str]
    aliases: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        active = self.active

        agent = self.agent

        can_author = self.can_author

        can_review = self.can_review

        expertise = self.expertise

        kind: str = self.kind

        roles = self.roles

        aliases: list[str] | Unset = UNSET
        if not isinstance(self.aliases, Unset):
            aliases = self.aliases

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "active": active,
                "agent": agent,
                "can_author": can_author,
                "can_review": can_review,
                "expertise": expertise,
                "kind": kind,
                "roles": roles,
            }
        )
        if aliases is not UNSET:
            field_dict["aliases"] = aliases

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        active = d.pop("active")

        agent = d.pop("agent")

        can_author = d.pop("can_author")

        can_review = d.pop("can_review")

        expertise = cast(list[str], d.pop("expertise"))

        kind = check_agent_kind(d.pop("kind"))

        roles = cast(list[str], d.pop("roles"))

        aliases = cast(list[str], d.pop("aliases", UNSET))

        agent_changed = cls(
            active=active,
            agent=agent,
            can_author=can_author,
            can_review=can_review,
            expertise=expertise,
            kind=kind,
            roles=roles,
            aliases=aliases,
        )

        return agent_changed
