from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.denial import Denial


T = TypeVar("T", bound="CheckResult")


@_attrs_define
class CheckResult:
    """
    Attributes:
        agent (None | str): The agent the check was answered for; null for a writer reviewlock cannot name (R16).
            Example: runtime-eng.
        allowed (bool): True when there is no denial.
        denials (list[Denial]):
        seq (int): The team's event seq the answer reflects: the state after that event, at or past the
            request's `min_seq`. Example: 42.
    """

    agent: None | str
    allowed: bool
    denials: list[Denial]
    seq: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent: None | str
        agent = self.agent

        allowed = self.allowed

        denials = []
        for denials_item_data in self.denials:
            denials_item = denials_item_data.to_dict()
            denials.append(denials_item)

        seq = self.seq

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agent": agent,
                "allowed": allowed,
                "denials": denials,
                "seq": seq,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.denial import Denial  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_agent(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent = _parse_agent(d.pop("agent"))

        allowed = d.pop("allowed")

        denials = []
        _denials = d.pop("denials")
        for denials_item_data in _denials:
            denials_item = Denial.from_dict(denials_item_data)

            denials.append(denials_item)

        seq = d.pop("seq")

        check_result = cls(
            agent=agent,
            allowed=allowed,
            denials=denials,
            seq=seq,
        )

        check_result.additional_properties = d
        return check_result

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
