from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.scope import Scope, check_scope
from ..types import UNSET, Unset

T = TypeVar("T", bound="TokenInput")


@_attrs_define
class TokenInput:
    """
    Attributes:
        name (str): Who or what holds the token, e.g. `orchestrator` or `alice`.
        scope (Scope): What a token may do. `read` ⊂ `coordinator` ⊂ `admin`; `user` is `read` plus resolving
            escalations and lifting lockouts; `agent` is `read` plus acting as its one agent.
        agent (None | str | Unset): For scope `agent`: the agent the token acts as (and only for that scope).
    """

    name: str
    scope: Scope
    agent: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        scope: str = self.scope

        agent: None | str | Unset
        if isinstance(self.agent, Unset):
            agent = UNSET
        else:
            agent = self.agent

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "scope": scope,
            }
        )
        if agent is not UNSET:
            field_dict["agent"] = agent

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        scope = check_scope(d.pop("scope"))

        def _parse_agent(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent = _parse_agent(d.pop("agent", UNSET))

        token_input = cls(
            name=name,
            scope=scope,
            agent=agent,
        )

        return token_input
