from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.scope import Scope, check_scope

T = TypeVar("T", bound="CallingToken")


@_attrs_define
class CallingToken:
    """The token a request is made with.

    Attributes:
        agent (None | str): The agent an `agent` token acts as.
        id (None | UUID): Null for the server-wide admin token set by `REVIEWLOCK_ADMIN_TOKEN`, which is
            configuration, not a stored token.
        name (str):  Example: alice.
        scope (Scope): What a token may do. `read` ⊂ `coordinator` ⊂ `admin`; `user` is `read` plus resolving
            escalations and lifting lockouts; `agent` is `read` plus acting as its one agent.
        server_wide (bool): A server-wide admin token: an admin of every team.
    """

    agent: None | str
    id: None | UUID
    name: str
    scope: Scope
    server_wide: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent: None | str
        agent = self.agent

        id: None | str
        if isinstance(self.id, UUID):
            id = str(self.id)
        else:
            id = self.id

        name = self.name

        scope: str = self.scope

        server_wide = self.server_wide

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agent": agent,
                "id": id,
                "name": name,
                "scope": scope,
                "server_wide": server_wide,
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

        def _parse_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                id_type_0 = UUID(data)

                return id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        id = _parse_id(d.pop("id"))

        name = d.pop("name")

        scope = check_scope(d.pop("scope"))

        server_wide = d.pop("server_wide")

        calling_token = cls(
            agent=agent,
            id=id,
            name=name,
            scope=scope,
            server_wide=server_wide,
        )

        calling_token.additional_properties = d
        return calling_token

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
