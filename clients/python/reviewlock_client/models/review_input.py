from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.grounds import Grounds, check_grounds
from ..models.verdict import Verdict, check_verdict
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.evidence import Evidence
    from ..models.remedy import Remedy


T = TypeVar("T", bound="ReviewInput")


@_attrs_define
class ReviewInput:
    """A verdict on one version (R1–R4).

    Attributes:
        reviewer (str):  Example: quality-reviewer.
        verdict (Verdict): A reviewer's verdict on a version.
        evidence (Evidence | None | Unset):
        grounds (Grounds | None | Unset):
        reason (None | str | Unset): Required for a rejection. Example: Error handling is missing..
        ref (None | str | Unset): When given, must equal the version's `ref` (R2). Example: 3f2a9c1.
        remedy (None | Remedy | Unset):
    """

    reviewer: str
    verdict: Verdict
    evidence: Evidence | None | Unset = UNSET
    grounds: Grounds | None | Unset = UNSET
    reason: None | str | Unset = UNSET
    ref: None | str | Unset = UNSET
    remedy: None | Remedy | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.evidence import Evidence  # noqa: PLC0415
        from ..models.remedy import Remedy  # noqa: PLC0415

        reviewer = self.reviewer

        verdict: str = self.verdict

        evidence: dict[str, Any] | None | Unset
        if isinstance(self.evidence, Unset):
            evidence = UNSET
        elif isinstance(self.evidence, Evidence):
            evidence = self.evidence.to_dict()
        else:
            evidence = self.evidence

        grounds: None | str | Unset
        if isinstance(self.grounds, Unset):
            grounds = UNSET
        elif isinstance(self.grounds, str):
            grounds = self.grounds
        else:
            grounds = self.grounds

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        ref: None | str | Unset
        if isinstance(self.ref, Unset):
            ref = UNSET
        else:
            ref = self.ref

        remedy: dict[str, Any] | None | Unset
        if isinstance(self.remedy, Unset):
            remedy = UNSET
        elif isinstance(self.remedy, Remedy):
            remedy = self.remedy.to_dict()
        else:
            remedy = self.remedy

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reviewer": reviewer,
                "verdict": verdict,
            }
        )
        if evidence is not UNSET:
            field_dict["evidence"] = evidence
        if grounds is not UNSET:
            field_dict["grounds"] = grounds
        if reason is not UNSET:
            field_dict["reason"] = reason
        if ref is not UNSET:
            field_dict["ref"] = ref
        if remedy is not UNSET:
            field_dict["remedy"] = remedy

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.evidence import Evidence  # noqa: PLC0415
        from ..models.remedy import Remedy  # noqa: PLC0415

        d = dict(src_dict)
        reviewer = d.pop("reviewer")

        verdict = check_verdict(d.pop("verdict"))

        def _parse_evidence(data: object) -> Evidence | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                evidence_type_0 = Evidence.from_dict(data)

                return evidence_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Evidence | None | Unset, data)

        evidence = _parse_evidence(d.pop("evidence", UNSET))

        def _parse_grounds(data: object) -> Grounds | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                grounds_type_0 = check_grounds(data)

                return grounds_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Grounds | None | Unset, data)

        grounds = _parse_grounds(d.pop("grounds", UNSET))

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        def _parse_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ref = _parse_ref(d.pop("ref", UNSET))

        def _parse_remedy(data: object) -> None | Remedy | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                remedy_type_0 = Remedy.from_dict(data)

                return remedy_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Remedy | Unset, data)

        remedy = _parse_remedy(d.pop("remedy", UNSET))

        review_input = cls(
            reviewer=reviewer,
            verdict=verdict,
            evidence=evidence,
            grounds=grounds,
            reason=reason,
            ref=ref,
            remedy=remedy,
        )

        return review_input
