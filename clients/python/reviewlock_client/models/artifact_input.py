from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.contributor import Contributor


T = TypeVar("T", bound="ArtifactInput")


@_attrs_define
class ArtifactInput:
    """Create an artifact with its version 1, in review.

    Attributes:
        author (str): The agent writing version 1. Example: runtime-eng.
        key (str): Team-unique: lowercase letters, digits, `-`, `_`, `.`, `/` (e.g. `src/auth.rs`, `pr-42`). Example:
            auth.
        title (str):  Example: Authentication module.
        contributors (list[Contributor] | None | Unset):
        kind (None | str | Unset): Free label such as `module`, `config`, `pr`. Example: module.
        paths (list[str] | None | Unset): Glob patterns of the files the artifact covers, matched by the checks:
            repository-relative
            with `/` separators; `*` stops at `/`, `**` crosses it. Stored normalised (R15): `./`,
            repeated `/` and `..` inside the tree are removed (`./src//x/../web/**` is `src/web/**`).
            Refused with 422 `invalid_field` naming the glob (`paths[3]`): an absolute glob, a `..`
            leaving the repository or following a wildcard, a backslash (write `[*]` for a literal
            `*`), a control character, an invalid glob. At most 64 globs of at most 200 bytes each,
            4096 bytes in all. Example: ['src/auth/**'].
        ref (None | str | Unset): Commit SHA, URL or content hash of version 1. Example: 3f2a9c1.
        summary (None | str | Unset):  Example: Login, sessions and token refresh..
    """

    author: str
    key: str
    title: str
    contributors: list[Contributor] | None | Unset = UNSET
    kind: None | str | Unset = UNSET
    paths: list[str] | None | Unset = UNSET
    ref: None | str | Unset = UNSET
    summary: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        author = self.author

        key = self.key

        title = self.title

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

        kind: None | str | Unset
        if isinstance(self.kind, Unset):
            kind = UNSET
        else:
            kind = self.kind

        paths: list[str] | None | Unset
        if isinstance(self.paths, Unset):
            paths = UNSET
        elif isinstance(self.paths, list):
            paths = self.paths

        else:
            paths = self.paths

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
                "key": key,
                "title": title,
            }
        )
        if contributors is not UNSET:
            field_dict["contributors"] = contributors
        if kind is not UNSET:
            field_dict["kind"] = kind
        if paths is not UNSET:
            field_dict["paths"] = paths
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

        key = d.pop("key")

        title = d.pop("title")

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

        def _parse_kind(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        kind = _parse_kind(d.pop("kind", UNSET))

        def _parse_paths(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                paths_type_0 = cast(list[str], data)

                return paths_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        paths = _parse_paths(d.pop("paths", UNSET))

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

        artifact_input = cls(
            author=author,
            key=key,
            title=title,
            contributors=contributors,
            kind=kind,
            paths=paths,
            ref=ref,
            summary=summary,
        )

        return artifact_input
