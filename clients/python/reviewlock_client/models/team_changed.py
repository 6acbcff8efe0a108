from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.profile import Profile, check_profile

T = TypeVar("T", bound="TeamChanged")


@_attrs_define
class TeamChanged:
    """The team as it is after the change.

    Attributes:
        display_name (None | str):  Example: Acme.
        profile (Profile): A team's review profile (R11).
        required_approvals (int):  Example: 1.
        team (str):  Example: acme.
    """

    display_name: None | str
    profile: Profile
    required_approvals: int
    team: str

    def to_dict(self) -> dict[str, Any]:
        display_name: None | str
        display_name = self.display_name

        profile: str = self.profile

        required_approvals = self.required_approvals

        team = self.team

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "display_name": display_name,
                "profile": profile,
                "required_approvals": required_approvals,
                "team": team,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_display_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        display_name = _parse_display_name(d.pop("display_name"))

        profile = check_profile(d.pop("profile"))

        required_approvals = d.pop("required_approvals")

        team = d.pop("team")

        team_changed = cls(
            display_name=display_name,
            profile=profile,
            required_approvals=required_approvals,
            team=team,
        )

        return team_changed
