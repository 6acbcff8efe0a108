from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.remedy import Remedy


T = TypeVar("T", bound="Rejection")


@_attrs_define
class Rejection:
    """A rejection of a version, as an escalation lists it.

    Attributes:
        reason (None | str):  Example: Still wrong..
        remedy (None | Remedy):
        reviewer (str):  Example: quality-reviewer.
        version (int):  Example: 3.
    """

    reason: None | str
    remedy: None | Remedy
    reviewer: str
    version: int

    def to_dict(self) -> dict[str, Any]:
        from ..models.remedy import Remedy  # noqa: PLC0415

        reason: None | str
        reason = self.reason

        remedy: dict[str, Any] | None
        if isinstance(self.remedy, Remedy):
            remedy = self.remedy.to_dict()
        else:
            remedy = self.remedy

        reviewer = self.reviewer

        version = self.version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reason": reason,
                "remedy": remedy,
                "reviewer": reviewer,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.remedy import Remedy  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        def _parse_remedy(data: object) -> None | Remedy:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                remedy_type_0 = Remedy.from_dict(data)

                return remedy_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Remedy, data)

        remedy = _parse_remedy(d.pop("remedy"))

        reviewer = d.pop("reviewer")

        version = d.pop("version")

        rejection = cls(
            reason=reason,
            remedy=remedy,
            reviewer=reviewer,
            version=version,
        )

        return rejection
