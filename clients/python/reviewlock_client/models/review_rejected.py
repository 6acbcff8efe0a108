from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.review_kind import ReviewKind, check_review_kind
from ..models.state import State, check_state
from ..models.verdict import Verdict, check_verdict
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.remedy import Remedy


T = TypeVar("T", bound="ReviewRejected")


@_attrs_define
class ReviewRejected:
    """
    Attributes:
        kind (ReviewKind): What kind of review a verdict was.
        lockouts (list[str]): The agents this rejection locked out (everyone credited on the version). Example:
            ['runtime-eng'].
        reason (str):  Example: Error handling is missing..
        remedy (None | Remedy):
        reviewer (str):  Example: quality-reviewer.
        state (State): The states of an artifact (PROTOCOL §3).
        verdict (Verdict): A reviewer's verdict on a version.
        version (int):  Example: 1.
        deadlocked (bool | Unset): Present, and true, when the rejection deadlocked the artifact and opened an
            escalation.
    """

    kind: ReviewKind
    lockouts: list[str]
    reason: str
    remedy: None | Remedy
    reviewer: str
    state: State
    verdict: Verdict
    version: int
    deadlocked: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.remedy import Remedy  # noqa: PLC0415

        kind: str = self.kind

        lockouts = self.lockouts

        reason = self.reason

        remedy: dict[str, Any] | None
        if isinstance(self.remedy, Remedy):
            remedy = self.remedy.to_dict()
        else:
            remedy = self.remedy

        reviewer = self.reviewer

        state: str = self.state

        verdict: str = self.verdict

        version = self.version

        deadlocked = self.deadlocked

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "lockouts": lockouts,
                "reason": reason,
                "remedy": remedy,
                "reviewer": reviewer,
                "state": state,
                "verdict": verdict,
                "version": version,
            }
        )
        if deadlocked is not UNSET:
            field_dict["deadlocked"] = deadlocked

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.remedy import Remedy  # noqa: PLC0415

        d = dict(src_dict)
        kind = check_review_kind(d.pop("kind"))

        lockouts = cast(list[str], d.pop("lockouts"))

        reason = d.pop("reason")

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

        state = check_state(d.pop("state"))

        verdict = check_verdict(d.pop("verdict"))

        version = d.pop("version")

        deadlocked = d.pop("deadlocked", UNSET)

        review_rejected = cls(
            kind=kind,
            lockouts=lockouts,
            reason=reason,
            remedy=remedy,
            reviewer=reviewer,
            state=state,
            verdict=verdict,
            version=version,
            deadlocked=deadlocked,
        )

        return review_rejected
