from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.scope import Scope, check_scope

T = TypeVar("T", bound="TokenRevoked")


@_attrs_define
class TokenRevoked:
    """
    Attributes:
        name (str):  Example: orchestrator.
        scope (Scope): What a token may do. `read` ⊂ `coordinator` ⊂ `admin`; `user` is `read` plus resolving
            escalations and lifting lockouts; `agent` is `read` plus acting as its one agent.
        token_id (UUID):
    """

    name: str
    scope: Scope
    token_id: UUID

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        scope: str = self.scope

        token_id = str(self.token_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "scope": scope,
                "token_id": token_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        scope = check_scope(d.pop("scope"))

        token_id = UUID(d.pop("token_id"))

        token_revoked = cls(
            name=name,
            scope=scope,
            token_id=token_id,
        )

        return token_revoked
