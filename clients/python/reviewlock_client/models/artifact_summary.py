from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.state import State, check_state

T = TypeVar("T", bound="ArtifactSummary")


@_attrs_define
class ArtifactSummary:
    """An artifact in a list.

    Attributes:
        current_version (int): The current version's number. Example: 2.
        cycle (int):  Example: 1.
        key (str):  Example: auth.
        kind (None | str):  Example: module.
        original_author (str):  Example: runtime-eng.
        revision (int):  Example: 3.
        state (State): The states of an artifact (PROTOCOL §3).
        title (str):  Example: Authentication module.
        updated_at (datetime.datetime):
    """

    current_version: int
    cycle: int
    key: str
    kind: None | str
    original_author: str
    revision: int
    state: State
    title: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        current_version = self.current_version

        cycle = self.cycle

        key = self.key

        kind: None | str
        kind = self.kind

        original_author = self.original_author

        revision = self.revision

        state: str = self.state

        title = self.title

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "current_version": current_version,
                "cycle": cycle,
                "key": key,
                "kind": kind,
                "original_author": original_author,
                "revision": revision,
                "state": state,
                "title": title,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        current_version = d.pop("current_version")

        cycle = d.pop("cycle")

        key = d.pop("key")

        def _parse_kind(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        kind = _parse_kind(d.pop("kind"))

        original_author = d.pop("original_author")

        revision = d.pop("revision")

        state = check_state(d.pop("state"))

        title = d.pop("title")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        artifact_summary = cls(
            current_version=current_version,
            cycle=cycle,
            key=key,
            kind=kind,
            original_author=original_author,
            revision=revision,
            state=state,
            title=title,
            updated_at=updated_at,
        )

        artifact_summary.additional_properties = d
        return artifact_summary

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
