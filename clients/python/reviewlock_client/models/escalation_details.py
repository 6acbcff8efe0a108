from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.lockout import Lockout
    from ..models.rejection import Rejection
    from ..models.version import Version


T = TypeVar("T", bound="EscalationDetails")


@_attrs_define
class EscalationDetails:
    """What the user needs to decide a deadlock (R9): the cycle's versions, who wrote them, each
    rejection and the lockouts, as they were when the artifact deadlocked.

        Attributes:
            authors (list[str]): The author of each of those versions, in order. Example: ['runtime-eng', 'revision-eng',
                'quality-eng'].
            lockouts (list[Lockout]): The lockouts active when the artifact deadlocked.
            rejections (list[Rejection]):
            versions (list[Version]): The versions of the cycle that deadlocked, oldest first, with their reviews.
    """

    authors: list[str]
    lockouts: list[Lockout]
    rejections: list[Rejection]
    versions: list[Version]

    def to_dict(self) -> dict[str, Any]:
        authors = self.authors

        lockouts = []
        for lockouts_item_data in self.lockouts:
            lockouts_item = lockouts_item_data.to_dict()
            lockouts.append(lockouts_item)

        rejections = []
        for rejections_item_data in self.rejections:
            rejections_item = rejections_item_data.to_dict()
            rejections.append(rejections_item)

        versions = []
        for versions_item_data in self.versions:
            versions_item = versions_item_data.to_dict()
            versions.append(versions_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "authors": authors,
                "lockouts": lockouts,
                "rejections": rejections,
                "versions": versions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.lockout import Lockout  # noqa: PLC0415
        from ..models.rejection import Rejection  # noqa: PLC0415
        from ..models.version import Version  # noqa: PLC0415

        d = dict(src_dict)
        authors = cast(list[str], d.pop("authors"))

        lockouts = []
        _lockouts = d.pop("lockouts")
        for lockouts_item_data in _lockouts:
            lockouts_item = Lockout.from_dict(lockouts_item_data)

            lockouts.append(lockouts_item)

        rejections = []
        _rejections = d.pop("rejections")
        for rejections_item_data in _rejections:
            rejections_item = Rejection.from_dict(rejections_item_data)

            rejections.append(rejections_item)

        versions = []
        _versions = d.pop("versions")
        for versions_item_data in _versions:
            versions_item = Version.from_dict(versions_item_data)

            versions.append(versions_item)

        escalation_details = cls(
            authors=authors,
            lockouts=lockouts,
            rejections=rejections,
            versions=versions,
        )

        return escalation_details
