from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RefCheckArtifact")


@_attrs_define
class RefCheckArtifact:
    """What one artifact covering the commit's files says about it.

    Attributes:
        approved (bool): True when that version got the team's `required_approvals` approvals and no rejection.
        artifact (str):  Example: auth.
        detail (str):  Example: version 2 of 'auth' was approved (1 of 1 approvals).
        paths (list[str]): The changed files it covers, as normalised. Example: ['src/auth/login.rs'].
        version (int | None): The number of its version whose `ref` is the commit (the newest when several are), or
            null when none is. Example: 2.
    """

    approved: bool
    artifact: str
    detail: str
    paths: list[str]
    version: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        approved = self.approved

        artifact = self.artifact

        detail = self.detail

        paths = self.paths

        version: int | None
        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "approved": approved,
                "artifact": artifact,
                "detail": detail,
                "paths": paths,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        approved = d.pop("approved")

        artifact = d.pop("artifact")

        detail = d.pop("detail")

        paths = cast(list[str], d.pop("paths"))

        def _parse_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        version = _parse_version(d.pop("version"))

        ref_check_artifact = cls(
            approved=approved,
            artifact=artifact,
            detail=detail,
            paths=paths,
            version=version,
        )

        ref_check_artifact.additional_properties = d
        return ref_check_artifact

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
