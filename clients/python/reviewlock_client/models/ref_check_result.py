from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.ref_check_artifact import RefCheckArtifact


T = TypeVar("T", bound="RefCheckResult")


@_attrs_define
class RefCheckResult:
    """
    Attributes:
        allowed (bool): True when every artifact covering a changed file has an approved version whose `ref` is
            the commit; true when no artifact covers any.
        artifacts (list[RefCheckArtifact]): Each artifact (not abandoned) covering a changed file, in key order.
    """

    allowed: bool
    artifacts: list[RefCheckArtifact]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        allowed = self.allowed

        artifacts = []
        for artifacts_item_data in self.artifacts:
            artifacts_item = artifacts_item_data.to_dict()
            artifacts.append(artifacts_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "allowed": allowed,
                "artifacts": artifacts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ref_check_artifact import RefCheckArtifact  # noqa: PLC0415

        d = dict(src_dict)
        allowed = d.pop("allowed")

        artifacts = []
        _artifacts = d.pop("artifacts")
        for artifacts_item_data in _artifacts:
            artifacts_item = RefCheckArtifact.from_dict(artifacts_item_data)

            artifacts.append(artifacts_item)

        ref_check_result = cls(
            allowed=allowed,
            artifacts=artifacts,
        )

        ref_check_result.additional_properties = d
        return ref_check_result

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
