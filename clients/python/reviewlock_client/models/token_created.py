from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.scope import Scope, check_scope

T = TypeVar("T", bound="TokenCreated")


@_attrs_define
class TokenCreated:
    """
    Attributes:
        agent (None | str): The agent an `agent` token acts as.
        name (str):  Example: orchestrator.
        scope (Scope): What a token may do. `read` ⊂ `coordinator` ⊂ `admin`; `user` is `read` plus resolving
            escalations and lifting lockouts; `agent` is `read` plus acting as its one agent.
        token_id (UUID):
    """

    agent: None | str
    name: str
    scope: Scope
    token_id: UUID

    def to_dict(self) -> dict[str, Any]:
        agent: None | str
        agent = self.agent

        name = self.name

        scope: str = self.scope

        token_id = str(self.token_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "agent": agent,
                "name": name,
                "scope": scope,
                "token_id": token_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_agent(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent = _parse_agent(d.pop("agent"))

        name = d.pop("name")

        scope = check_scope(d.pop("scope"))

        token_id = UUID(d.pop("token_id"))

        token_created = cls(
            agent=agent,
            name=name,
            scope=scope,
            token_id=token_id,
        )

        return token_created
