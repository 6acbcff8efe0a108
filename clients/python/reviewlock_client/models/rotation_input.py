from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RotationInput")


@_attrs_define
class RotationInput:
    """A rotation of a webhook's signing secret.

    Attributes:
        grace_seconds (int | None | Unset): How long the previous secret goes on signing beside the new one, in seconds
            (0 to 7
            days); 24 hours when absent. Example: 86400.
    """

    grace_seconds: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        grace_seconds: int | None | Unset
        if isinstance(self.grace_seconds, Unset):
            grace_seconds = UNSET
        else:
            grace_seconds = self.grace_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if grace_seconds is not UNSET:
            field_dict["grace_seconds"] = grace_seconds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_grace_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        grace_seconds = _parse_grace_seconds(d.pop("grace_seconds", UNSET))

        rotation_input = cls(
            grace_seconds=grace_seconds,
        )

        return rotation_input
