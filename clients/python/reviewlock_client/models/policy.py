from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.profile import Profile, check_profile

T = TypeVar("T", bound="Policy")


@_attrs_define
class Policy:
    """A team's policy (R11).

    Attributes:
        profile (Profile): A team's review profile (R11).
        required_approvals (int): How many distinct approvals close a version; at least 1.
    """

    profile: Profile
    required_approvals: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        profile: str = self.profile

        required_approvals = self.required_approvals

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "profile": profile,
                "required_approvals": required_approvals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        profile = check_profile(d.pop("profile"))

        required_approvals = d.pop("required_approvals")

        policy = cls(
            profile=profile,
            required_approvals=required_approvals,
        )

        policy.additional_properties = d
        return policy

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
