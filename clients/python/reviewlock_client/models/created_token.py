from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.scope import Scope, check_scope
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreatedToken")


@_attrs_define
class CreatedToken:
    """A new token with its secret, shown only in this response.

    Attributes:
        created_at (datetime.datetime):
        id (UUID):
        name (str):  Example: orchestrator.
        scope (Scope): What a token may do. `read` ⊂ `coordinator` ⊂ `admin`; `user` is `read` plus resolving
            escalations and lifting lockouts; `agent` is `read` plus acting as its one agent.
        token (str): The bearer secret. It is stored only as a hash and cannot be shown again: a replay of
            the request (same `Idempotency-Key`) answers 200 with the token without it. Example:
            rl_5f0c3a9e1b7d4c2a8e6f0b1d3c5a7e9f.
        agent (str | Unset): The agent an `agent` token acts as; absent for other scopes.
    """

    created_at: datetime.datetime
    id: UUID
    name: str
    scope: Scope
    token: str
    agent: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = str(self.id)

        name = self.name

        scope: str = self.scope

        token = self.token

        agent = self.agent

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "id": id,
                "name": name,
                "scope": scope,
                "token": token,
            }
        )
        if agent is not UNSET:
            field_dict["agent"] = agent

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = UUID(d.pop("id"))

        name = d.pop("name")

        scope = check_scope(d.pop("scope"))

        token = d.pop("token")

        agent = d.pop("agent", UNSET)

        created_token = cls(
            created_at=created_at,
            id=id,
            name=name,
            scope=scope,
            token=token,
            agent=agent,
        )

        created_token.additional_properties = d
        return created_token

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
