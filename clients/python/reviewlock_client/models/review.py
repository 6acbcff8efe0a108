from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.grounds import Grounds, check_grounds
from ..models.review_kind import ReviewKind, check_review_kind
from ..models.verdict import Verdict, check_verdict

if TYPE_CHECKING:
    from ..models.evidence import Evidence
    from ..models.remedy import Remedy


T = TypeVar("T", bound="Review")


@_attrs_define
class Review:
    """
    Attributes:
        created_at (datetime.datetime):
        evidence (Evidence | None):
        grounds (Grounds | None):
        id (int):  Example: 7.
        kind (ReviewKind): What kind of review a verdict was.
        reason (None | str):  Example: Error handling is missing..
        ref (None | str):  Example: 3f2a9c1.
        remedy (None | Remedy):
        reviewer (str):  Example: quality-reviewer.
        verdict (Verdict): A reviewer's verdict on a version.
        version (int):  Example: 1.
    """

    created_at: datetime.datetime
    evidence: Evidence | None
    grounds: Grounds | None
    id: int
    kind: ReviewKind
    reason: None | str
    ref: None | str
    remedy: None | Remedy
    reviewer: str
    verdict: Verdict
    version: int

    def to_dict(self) -> dict[str, Any]:
        from ..models.evidence import Evidence  # noqa: PLC0415
        from ..models.remedy import Remedy  # noqa: PLC0415

        created_at = self.created_at.isoformat()

        evidence: dict[str, Any] | None
        if isinstance(self.evidence, Evidence):
            evidence = self.evidence.to_dict()
        else:
            evidence = self.evidence

        grounds: None | str
        if isinstance(self.grounds, str):
            grounds = self.grounds
        else:
            grounds = self.grounds

        id = self.id

        kind: str = self.kind

        reason: None | str
        reason = self.reason

        ref: None | str
        ref = self.ref

        remedy: dict[str, Any] | None
        if isinstance(self.remedy, Remedy):
            remedy = self.remedy.to_dict()
        else:
            remedy = self.remedy

        reviewer = self.reviewer

        verdict: str = self.verdict

        version = self.version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "created_at": created_at,
                "evidence": evidence,
                "grounds": grounds,
                "id": id,
                "kind": kind,
                "reason": reason,
                "ref": ref,
                "remedy": remedy,
                "reviewer": reviewer,
                "verdict": verdict,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.evidence import Evidence  # noqa: PLC0415
        from ..models.remedy import Remedy  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_evidence(data: object) -> Evidence | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                evidence_type_0 = Evidence.from_dict(data)

                return evidence_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Evidence | None, data)

        evidence = _parse_evidence(d.pop("evidence"))

        def _parse_grounds(data: object) -> Grounds | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                grounds_type_0 = check_grounds(data)

                return grounds_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Grounds | None, data)

        grounds = _parse_grounds(d.pop("grounds"))

        id = d.pop("id")

        kind = check_review_kind(d.pop("kind"))

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        def _parse_ref(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ref = _parse_ref(d.pop("ref"))

        def _parse_remedy(data: object) -> None | Remedy:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                remedy_type_0 = Remedy.from_dict(data)

                return remedy_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Remedy, data)

        remedy = _parse_remedy(d.pop("remedy"))

        reviewer = d.pop("reviewer")

        verdict = check_verdict(d.pop("verdict"))

        version = d.pop("version")

        review = cls(
            created_at=created_at,
            evidence=evidence,
            grounds=grounds,
            id=id,
            kind=kind,
            reason=reason,
            ref=ref,
            remedy=remedy,
            reviewer=reviewer,
            verdict=verdict,
            version=version,
        )

        return review
