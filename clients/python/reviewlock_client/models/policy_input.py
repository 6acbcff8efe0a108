from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.profile import Profile, check_profile
from ..types import UNSET, Unset

T = TypeVar("T", bound="PolicyInput")


@_attrs_define
class PolicyInput:
    """A team's policy (R11). On update, an absent field keeps its value.

    Attributes:
        profile (None | Profile | Unset):
        required_approvals (int | None | Unset): Distinct approvals that close a version, 1 to 100.
    """

    profile: None | Profile | Unset = UNSET
    required_approvals: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        profile: None | str | Unset
        if isinstance(self.profile, Unset):
            profile = UNSET
        elif isinstance(self.profile, str):
            profile = self.profile
        else:
            profile = self.profile

        required_approvals: int | None | Unset
        if isinstance(self.required_approvals, Unset):
            required_approvals = UNSET
        else:
            required_approvals = self.required_approvals

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if profile is not UNSET:
            field_dict["profile"] = profile
        if required_approvals is not UNSET:
            field_dict["required_approvals"] = required_approvals

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_profile(data: object) -> None | Profile | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                profile_type_0 = check_profile(data)

                return profile_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Profile | Unset, data)

        profile = _parse_profile(d.pop("profile", UNSET))

        def _parse_required_approvals(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        required_approvals = _parse_required_approvals(d.pop("required_approvals", UNSET))

        policy_input = cls(
            profile=profile,
            required_approvals=required_approvals,
        )

        return policy_input
