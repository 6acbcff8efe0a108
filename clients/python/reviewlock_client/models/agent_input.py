from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.agent_kind import AgentKind, check_agent_kind
from ..types import UNSET, Unset

T = TypeVar("T", bound="AgentInput")


@_attrs_define
class AgentInput:
    """Create or update an agent. On update, an absent field keeps its value; on create it takes
    the default shown.

        Attributes:
            active (bool | None | Unset): Retired agents keep their history but may not act; default true.
            aliases (list[str] | None | Unset): Other names of the agent (R16), replacing the current ones: a runtime's
                subagent name
                (Claude Code's and Codex's `agent_type`), a commit author's e-mail address. Each names
                one agent of the team: another agent's id or alias is refused with 409 `alias_taken`.
                Matched exactly; default none. Example: ['revision-engineer', 'revision-eng@example.com'].
            can_author (bool | None | Unset): May write versions; default true.
            can_review (bool | None | Unset): May give verdicts (R1); default false.
            display_name (None | str | Unset):
            expertise (list[str] | None | Unset): Tags an escalation may ask for (R5), such as `typescript`; default none.
            kind (AgentKind | None | Unset):
            roles (list[str] | None | Unset): Free labels such as `lead`, `tester`, `code-reviewer`; default none.
    """

    active: bool | None | Unset = UNSET
    aliases: list[str] | None | Unset = UNSET
    can_author: bool | None | Unset = UNSET
    can_review: bool | None | Unset = UNSET
    display_name: None | str | Unset = UNSET
    expertise: list[str] | None | Unset = UNSET
    kind: AgentKind | None | Unset = UNSET
    roles: list[str] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        active: bool | None | Unset
        if isinstance(self.active, Unset):
            active = UNSET
        else:
            active = self.active

        aliases: list[str] | None | Unset
        if isinstance(self.aliases, Unset):
            aliases = UNSET
        elif isinstance(self.aliases, list):
            aliases = self.aliases

        else:
            aliases = self.aliases

        can_author: bool | None | Unset
        if isinstance(self.can_author, Unset):
            can_author = UNSET
        else:
            can_author = self.can_author

        can_review: bool | None | Unset
        if isinstance(self.can_review, Unset):
            can_review = UNSET
        else:
            can_review = self.can_review

        display_name: None | str | Unset
        if isinstance(self.display_name, Unset):
            display_name = UNSET
        else:
            display_name = self.display_name

        expertise: list[str] | None | Unset
        if isinstance(self.expertise, Unset):
            expertise = UNSET
        elif isinstance(self.expertise, list):
            expertise = self.expertise

        else:
            expertise = self.expertise

        kind: None | str | Unset
        if isinstance(self.kind, Unset):
            kind = UNSET
        elif isinstance(self.kind, str):
            kind = self.kind
        else:
            kind = self.kind

        roles: list[str] | None | Unset
        if isinstance(self.roles, Unset):
            roles = UNSET
        elif isinstance(self.roles, list):
            roles = self.roles

        else:
            roles = self.roles

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if active is not UNSET:
            field_dict["active"] = active
        if aliases is not UNSET:
            field_dict["aliases"] = aliases
        if can_author is not UNSET:
            field_dict["can_author"] = can_author
        if can_review is not UNSET:
            field_dict["can_review"] = can_review
        if display_name is not UNSET:
            field_dict["display_name"] = display_name
        if expertise is not UNSET:
            field_dict["expertise"] = expertise
        if kind is not UNSET:
            field_dict["kind"] = kind
        if roles is not UNSET:
            field_dict["roles"] = roles

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_active(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        active = _parse_active(d.pop("active", UNSET))

        def _parse_aliases(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                aliases_type_0 = cast(list[str], data)

                return aliases_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        aliases = _parse_aliases(d.pop("aliases", UNSET))

        def _parse_can_author(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        can_author = _parse_can_author(d.pop("can_author", UNSET))

        def _parse_can_review(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        can_review = _parse_can_review(d.pop("can_review", UNSET))

        def _parse_display_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        display_name = _parse_display_name(d.pop("display_name", UNSET))

        def _parse_expertise(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                expertise_type_0 = cast(list[str], data)

                return expertise_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        expertise = _parse_expertise(d.pop("expertise", UNSET))

        def _parse_kind(data: object) -> AgentKind | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                kind_type_0 = check_agent_kind(data)

                return kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentKind | None | Unset, data)

        kind = _parse_kind(d.pop("kind", UNSET))

        def _parse_roles(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                roles_type_0 = cast(list[str], data)

                return roles_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        roles = _parse_roles(d.pop("roles", UNSET))

        agent_input = cls(
            active=active,
            aliases=aliases,
            can_author=can_author,
            can_review=can_review,
            display_name=display_name,
            expertise=expertise,
            kind=kind,
            roles=roles,
        )

        return agent_input
