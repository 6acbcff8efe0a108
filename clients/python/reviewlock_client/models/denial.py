from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.code import Code, check_code

T = TypeVar("T", bound="Denial")


@_attrs_define
class Denial:
    """
    Attributes:
        artifact (None | str): The artifact refused, or null when the agent itself may not write. Example: auth.
        code (Code): A stable refusal code (PROTOCOL §4 and §5).
        detail (str):  Example: runtime-eng is locked out of 'auth' (rejected version 1).
    """

    artifact: None | str
    code: Code
    detail: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        artifact: None | str
        artifact = self.artifact

        code: str = self.code

        detail = self.detail

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "artifact": artifact,
                "code": code,
                "detail": detail,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_artifact(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        artifact = _parse_artifact(d.pop("artifact"))

        code = check_code(d.pop("code"))

        detail = d.pop("detail")

        denial = cls(
            artifact=artifact,
            code=code,
            detail=detail,
        )

        denial.additional_properties = d
        return denial

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
