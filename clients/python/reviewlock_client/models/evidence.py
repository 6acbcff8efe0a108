from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="Evidence")


@_attrs_define
class Evidence:
    """The grounds of a waza rejection (R11): all four are required under that profile.

    Attributes:
        affected_scope (None | str | Unset):
        approval_condition (None | str | Unset):
        counter_evidence (None | str | Unset):
        violated_requirement (None | str | Unset):
    """

    affected_scope: None | str | Unset = UNSET
    approval_condition: None | str | Unset = UNSET
    counter_evidence: None | str | Unset = UNSET
    violated_requirement: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        affected_scope: None | str | Unset
        if isinstance(self.affected_scope, Unset):
            affected_scope = UNSET
        else:
            affected_scope = self.affected_scope

        approval_condition: None | str | Unset
        if isinstance(self.approval_condition, Unset):
            approval_condition = UNSET
        else:
            approval_condition = self.approval_condition

        counter_evidence: None | str | Unset
        if isinstance(self.counter_evidence, Unset):
            counter_evidence = UNSET
        else:
            counter_evidence = self.counter_evidence

        violated_requirement: None | str | Unset
        if isinstance(self.violated_requirement, Unset):
            violated_requirement = UNSET
        else:
            violated_requirement = self.violated_requirement

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if affected_scope is not UNSET:
            field_dict["affected_scope"] = affected_scope
        if approval_condition is not UNSET:
            field_dict["approval_condition"] = approval_condition
        if counter_evidence is not UNSET:
            field_dict["counter_evidence"] = counter_evidence
        if violated_requirement is not UNSET:
            field_dict["violated_requirement"] = violated_requirement

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_affected_scope(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        affected_scope = _parse_affected_scope(d.pop("affected_scope", UNSET))

        def _parse_approval_condition(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        approval_condition = _parse_approval_condition(d.pop("approval_condition", UNSET))

        def _parse_counter_evidence(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        counter_evidence = _parse_counter_evidence(d.pop("counter_evidence", UNSET))

        def _parse_violated_requirement(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        violated_requirement = _parse_violated_requirement(d.pop("violated_requirement", UNSET))

        evidence = cls(
            affected_scope=affected_scope,
            approval_condition=approval_condition,
            counter_evidence=counter_evidence,
            violated_requirement=violated_requirement,
        )

        return evidence
