from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.artifact_status import ArtifactStatus
    from ..models.review import Review


T = TypeVar("T", bound="ReviewOutcome")


@_attrs_define
class ReviewOutcome:
    """
    Attributes:
        artifact (ArtifactStatus): An artifact's status (PROTOCOL §5).
        review (Review):
    """

    artifact: ArtifactStatus
    review: Review
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        artifact = self.artifact.to_dict()

        review = self.review.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "artifact": artifact,
                "review": review,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.artifact_status import ArtifactStatus  # noqa: PLC0415
        from ..models.review import Review  # noqa: PLC0415

        d = dict(src_dict)
        artifact = ArtifactStatus.from_dict(d.pop("artifact"))

        review = Review.from_dict(d.pop("review"))

        review_outcome = cls(
            artifact=artifact,
            review=review,
        )

        review_outcome.additional_properties = d
        return review_outcome

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
