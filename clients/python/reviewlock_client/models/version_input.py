from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.contributor import Contributor


T = TypeVar("T", bound="VersionInput")


@_attrs_define
class VersionInput:
    """A new version of an artifact.

    Attributes:
        author (str): The assignee after a rejection; the current author for a supersede. Example: revision-eng.
        contributors (list[Contributor] | None | Unset):
        ref (None | str | Unset):  Example: 8b41d07.
        summary (None | str | Unset):  Example: Adds error handling to every login path..
    """

    author: str
    contributors: list[Contributor] | None | Unset = UNSET
    ref: None | str | Unset = UNSET
    summary: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        author = self.author

        contributors: list[dict[str, Any]] | None | Unset
        if isinstance(self.contributors, Unset):
            contributors = UNSET
        elif isinstance(self.contributors, list):
            contributors = []
            for contributors_type_0_item_data in self.contributors:
                contributors_type_0_item = contributors_type_0_item_data.to_dict()
                contributors.append(contributors_type_0_item)

        else:
            contributors = self.contributors

        ref: None | str | Unset
        if isinstance(self.ref, Unset):
            ref = UNSET
        else:
            ref = self.ref

        summary: None | str | Unset
        if isinstance(self.summary, Unset):
            summary = UNSET
        else:
            summary = self.summary

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "author": author,
            }
        )
        if contributors is not UNSET:
            field_dict["contributors"] = contributors
        if ref is not UNSET:
            field_dict["ref"] = ref
        if summary is not UNSET:
            field_dict["summary"] = summary

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.contributor import Contributor  # noqa: PLC0415

        d = dict(src_dict)
        author = d.pop("author")

        def _parse_contributors(data: object) -> list[Contributor] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                contributors_type_0 = []
                _contributors_type_0 = data
                for contributors_type_0_item_data in _contributors_type_0:
                    contributors_type_0_item = Contributor.from_dict(contributors_type_0_item_data)

                    contributors_type_0.append(contributors_type_0_item)

                return contributors_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Contributor] | None | Unset, data)

        contributors = _parse_contributors(d.pop("contributors", UNSET))

        def _parse_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ref = _parse_ref(d.pop("ref", UNSET))

        def _parse_summary(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        summary = _parse_summary(d.pop("summary", UNSET))

        version_input = cls(
            author=author,
            contributors=contributors,
            ref=ref,
            summary=summary,
        )

        return version_input
