from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.state import State, check_state
from ..models.version_kind import VersionKind, check_version_kind

if TYPE_CHECKING:
    from ..models.contributor import Contributor


T = TypeVar("T", bound="VersionSubmitted")


@_attrs_define
class VersionSubmitted:
    """
    Attributes:
        author (str):  Example: revision-eng.
        contributors (list[Contributor] | None): As sent: null when the request had none.
        cycle (int):  Example: 1.
        kind (VersionKind): Why a version was accepted (PROTOCOL §4, after R13).
        state (State): The states of an artifact (PROTOCOL §3).
        version (int):  Example: 2.
    """

    author: str
    contributors: list[Contributor] | None
    cycle: int
    kind: VersionKind
    state: State
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

        cycle = self.cycle

        kind: str = self.kind

        state: str = self.state

        version = self.version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "author": author,
                "contributors": contributors,
                "cycle": cycle,
                "kind": kind,
                "state": state,
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

        cycle = d.pop("cycle")

        kind = check_version_kind(d.pop("kind"))

        state = check_state(d.pop("state"))

        version = d.pop("version")

        version_submitted = cls(
            author=author,
            contributors=contributors,
            cycle=cycle,
            kind=kind,
            state=state,
            version=version,
        )

        return version_submitted
