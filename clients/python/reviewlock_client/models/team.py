from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.policy import Policy


T = TypeVar("T", bound="Team")


@_attrs_define
class Team:
    """
    Attributes:
        created_at (datetime.datetime):
        display_name (None | str):  Example: Acme.
        id (str):  Example: acme.
        policy (Policy): A team's policy (R11).
        updated_at (datetime.datetime):
    """

    created_at: datetime.datetime
    display_name: None | str
    id: str
    policy: Policy
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        display_name: None | str
        display_name = self.display_name

        id = self.id

        policy = self.policy.to_dict()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "display_name": display_name,
                "id": id,
                "policy": policy,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.policy import Policy  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_display_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        display_name = _parse_display_name(d.pop("display_name"))

        id = d.pop("id")

        policy = Policy.from_dict(d.pop("policy"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        team = cls(
            created_at=created_at,
            display_name=display_name,
            id=id,
            policy=policy,
            updated_at=updated_at,
        )

        team.additional_properties = d
        return team

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
