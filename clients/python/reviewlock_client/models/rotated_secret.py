from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RotatedSecret")


@_attrs_define
class RotatedSecret:
    """The new signing secret of a webhook, shown only in this response.

    Attributes:
        previous_secret_expires_at (datetime.datetime): Until when the previous secret also signs (both signatures are
            sent meanwhile).
        secret (str):  Example: whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwAbCdEfGhIjK=.
    """

    previous_secret_expires_at: datetime.datetime
    secret: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        previous_secret_expires_at = self.previous_secret_expires_at.isoformat()

        secret = self.secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "previous_secret_expires_at": previous_secret_expires_at,
                "secret": secret,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        previous_secret_expires_at = datetime.datetime.fromisoformat(d.pop("previous_secret_expires_at"))

        secret = d.pop("secret")

        rotated_secret = cls(
            previous_secret_expires_at=previous_secret_expires_at,
            secret=secret,
        )

        rotated_secret.additional_properties = d
        return rotated_secret

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
