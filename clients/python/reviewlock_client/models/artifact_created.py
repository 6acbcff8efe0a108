from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.contributor import Contributor


T = TypeVar("T", bound="ArtifactCreated")


@_attrs_define
class ArtifactCreated:
    """
    Attributes:
        author (str):  Example: runtime-eng.
        contributors (list[Contributor] | None): As sent: null when the request had none.
        title (str):  Example: Authentication module.
        version (int): Always 1. Example: 1.
    """

    author: str
    contributors: list[Contributor] | None
    title: str
    version: int

    def to_dict(self) -> dict[str, Any]:
        author = self.author

        contributors: list[dict[str, Any]] | None
        if isinstance(self.contributors, list):
            contributors = []
            for contributors_type_0_item_data in self.contributors:
                contributors_type_0_item = contributors_type_0_item_data.to_dict()
                contributors.append(contributors_type_0_item)

        else:
            contributors = self.contributors

        title = self.title

        version = self.version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "author": author,
                "contributors": contributors,
                "title": title,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.contributor import Contributor  # noqa: PLC0415

        d = dict(src_dict)
        author = d.pop("author")

        def _parse_contributors(data: object) -> list[Contributor] | None:
            if data is None:
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
            return cast(list[Contributor] | None, data)

        contributors = _parse_contributors(d.pop("contributors"))

        title = d.pop("title")

        version = d.pop("version")

        artifact_created = cls(
            author=author,
            contributors=contributors,
            title=title,
            version=version,
        )

        return artifact_created
