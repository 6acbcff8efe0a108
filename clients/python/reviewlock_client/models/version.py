from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.contributor import Contributor
    from ..models.review import Review


T = TypeVar("T", bound="Version")


@_attrs_define
class Version:
    """
    Attributes:
        author (str):  Example: revision-eng.
        contributors (list[Contributor]):
        cycle (int): The revision cycle the version belongs to. Example: 1.
        number (int):  Example: 2.
        ref (None | str):  Example: 8b41d07.
        reviews (list[Review]):
        submitted_at (datetime.datetime):
        summary (None | str):  Example: Adds error handling to every login path..
    """

    author: str
    contributors: list[Contributor]
    cycle: int
    number: int
    ref: None | str
    reviews: list[Review]
    submitted_at: datetime.datetime
    summary: None | str

    def to_dict(self) -> dict[str, Any]:
        author = self.author

        contributors = []
        for contributors_item_data in self.contributors:
            contributors_item = contributors_item_data.to_dict()
            contributors.append(contributors_item)

        cycle = self.cycle

        number = self.number

        ref: None | str
        ref = self.ref

        reviews = []
        for reviews_item_data in self.reviews:
            reviews_item = reviews_item_data.to_dict()
            reviews.append(reviews_item)

        submitted_at = self.submitted_at.isoformat()

        summary: None | str
        summary = self.summary

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "author": author,
                "contributors": contributors,
                "cycle": cycle,
                "number": number,
                "ref": ref,
                "reviews": reviews,
                "submitted_at": submitted_at,
                "summary": summary,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.contributor import Contributor  # noqa: PLC0415
        from ..models.review import Review  # noqa: PLC0415

        d = dict(src_dict)
        author = d.pop("author")

        contributors = []
        _contributors = d.pop("contributors")
        for contributors_item_data in _contributors:
            contributors_item = Contributor.from_dict(contributors_item_data)

            contributors.append(contributors_item)

        cycle = d.pop("cycle")

        number = d.pop("number")

        def _parse_ref(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ref = _parse_ref(d.pop("ref"))

        reviews = []
        _reviews = d.pop("reviews")
        for reviews_item_data in _reviews:
            reviews_item = Review.from_dict(reviews_item_data)

            reviews.append(reviews_item)

        submitted_at = datetime.datetime.fromisoformat(d.pop("submitted_at"))

        def _parse_summary(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        summary = _parse_summary(d.pop("summary"))

        version = cls(
            author=author,
            contributors=contributors,
            cycle=cycle,
            number=number,
            ref=ref,
            reviews=reviews,
            submitted_at=submitted_at,
            summary=summary,
        )

        return version
