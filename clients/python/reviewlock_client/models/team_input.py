from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.policy_input import PolicyInput


T = TypeVar("T", bound="TeamInput")


@_attrs_define
class TeamInput:
    """Create or update a team. On update, an absent field keeps its value.

    Attributes:
        display_name (None | str | Unset):
        policy (None | PolicyInput | Unset):
    """

    display_name: None | str | Unset = UNSET
    policy: None | PolicyInput | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.policy_input import PolicyInput  # noqa: PLC0415

        display_name: None | str | Unset
        if isinstance(self.display_name, Unset):
            display_name = UNSET
        else:
            display_name = self.display_name

        policy: dict[str, Any] | None | Unset
        if isinstance(self.policy, Unset):
            policy = UNSET
        elif isinstance(self.policy, PolicyInput):
            policy = self.policy.to_dict()
        else:
            policy = self.policy

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if display_name is not UNSET:
            field_dict["display_name"] = display_name
        if policy is not UNSET:
            field_dict["policy"] = policy

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.policy_input import PolicyInput  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_display_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        display_name = _parse_display_name(d.pop("display_name", UNSET))

        def _parse_policy(data: object) -> None | PolicyInput | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                policy_type_0 = PolicyInput.from_dict(data)

                return policy_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PolicyInput | Unset, data)

        policy = _parse_policy(d.pop("policy", UNSET))

        team_input = cls(
            display_name=display_name,
            policy=policy,
        )

        return team_input
