from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.review_kind import ReviewKind, check_review_kind
from ..models.state import State, check_state
from ..models.verdict import Verdict, check_verdict
from ..types import UNSET, Unset

T = TypeVar("T", bound="ReviewApproved")


@_attrs_define
class ReviewApproved:
    """
    Attributes:
        kind (ReviewKind): What kind of review a verdict was.
        reviewer (str):  Example: quality-reviewer.
        state (State): The states of an artifact (PROTOCOL §3).
        verdict (Verdict): A reviewer's verdict on a version.
        version (int):  Example: 2.
        approvals (int | Unset): When more approvals are needed: the distinct approvals so far. Example: 1.
        required_approvals (int | Unset): When more approvals are needed: how many close the version. Example: 2.
    """

    kind: ReviewKind
    reviewer: str
    state: State
    verdict: Verdict
    version: int
    approvals: int | Unset = UNSET
    required_approvals: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind: str = self.kind

        reviewer = self.reviewer

        state: str = self.state

        verdict: str = self.verdict

        version = self.version

        approvals = self.approvals

        required_approvals = self.required_approvals

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "reviewer": reviewer,
                "state": state,
                "verdict": verdict,
                "version": version,
            }
        )
        if approvals is not UNSET:
            field_dict["approvals"] = approvals
        if required_approvals is not UNSET:
            field_dict["required_approvals"] = required_approvals

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = check_review_kind(d.pop("kind"))

        reviewer = d.pop("reviewer")

        state = check_state(d.pop("state"))

        verdict = check_verdict(d.pop("verdict"))

        version = d.pop("version")

        approvals = d.pop("approvals", UNSET)

        required_approvals = d.pop("required_approvals", UNSET)

        review_approved = cls(
            kind=kind,
            reviewer=reviewer,
            state=state,
            verdict=verdict,
            version=version,
            approvals=approvals,
            required_approvals=required_approvals,
        )

        return review_approved
