from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="RefCheckInput")


@_attrs_define
class RefCheckInput:
    """May the commit `ref`, which changes these files, land?

    Attributes:
        paths (list[str]): The files the commit changes, repository-relative with `/` separators, normalised as a
            check's are (R15). At most 1000 of at most 1000 bytes each, within the 256 KiB a body
            may hold. Example: ['src/auth/login.rs', 'README.md'].
        ref (str): The commit's SHA: 7 to 40 hexadecimal digits, any case. A version's `ref` names it when
            one is a prefix of the other, both at least 7 hexadecimal digits. Example:
            9fceb02d0ae598e95dc970b74767f19372d61af8.
    """

    paths: list[str]
    ref: str

    def to_dict(self) -> dict[str, Any]:
        paths = self.paths

        ref = self.ref

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "paths": paths,
                "ref": ref,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        paths = cast(list[str], d.pop("paths"))

        ref = d.pop("ref")

        ref_check_input = cls(
            paths=paths,
            ref=ref,
        )

        return ref_check_input
