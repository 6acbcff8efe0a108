from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.agent_kind import AgentKind, check_agent_kind

T = TypeVar("T", bound="Agent")


@_attrs_define
class Agent:
    """
    Attributes:
        active (bool):
        aliases (list[str]): Other names of the agent, each naming it alone in the team (R16): a runtime's subagent
            name, a commit author's e-mail address. Example: ['revision-engineer', 'revision-eng@example.com'].
        can_author (bool):
        can_review (bool):
        created_at (datetime.datetime):
        display_name (None | str):  Example: Revision engineer.
        expertise (list[str]):  Example: ['rust', 'auth'].
        id (str):  Example: revision-eng.
        kind (AgentKind):
        roles (list[str]):  Example: ['engineer'].
        updated_at (datetime.datetime):
    """

    active: bool
    aliases: list[str]
    can_author: bool
    can_review: bool
    created_at: datetime.datetime
    display_name: None | str
    expertise: list[str]
    id: str
    kind: AgentKind
    roles: list[str]
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        active = self.active

        aliases = self.aliases

        can_author = self.can_author

        can_review = self.can_review

        created_at = self.created_at.isoformat()

        display_name: None | str
        display_name = self.display_name

        expertise = self.expertise

        id = self.id

        kind: str = self.kind

        roles = self.roles

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "active": active,
                "aliases": aliases,
                "can_author": can_author,
                "can_review": can_review,
                "created_at": created_at,
                "display_name": display_name,
                "expertise": expertise,
                "id": id,
                "kind": kind,
                "roles": roles,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        active = d.pop("active")

        aliases = cast(list[str], d.pop("aliases"))

        can_author = d.pop("can_author")

        can_review = d.pop("can_review")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_display_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        display_name = _parse_display_name(d.pop("display_name"))

        expertise = cast(list[str], d.pop("expertise"))

        id = d.pop("id")

        kind = check_agent_kind(d.pop("kind"))

        roles = cast(list[str], d.pop("roles"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        agent = cls(
            active=active,
            aliases=aliases,
            can_author=can_author,
            can_review=can_review,
            created_at=created_at,
            display_name=display_name,
            expertise=expertise,
            id=id,
            kind=kind,
            roles=roles,
            updated_at=updated_at,
        )

        agent.additional_properties = d
        return agent

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
