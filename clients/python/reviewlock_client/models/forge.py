from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.disabled_reason import DisabledReason, check_disabled_reason
from ..models.forge_kind import ForgeKind, check_forge_kind

if TYPE_CHECKING:
    from ..models.delivery_state import DeliveryState


T = TypeVar("T", bound="Forge")


@_attrs_define
class Forge:
    """A forge that shows each version's state as a commit status on its `ref` (its token is
    never shown).

        Attributes:
            api_url (str): The forge's API (GitHub Enterprise's `https://ghe.example.com/api/v3`, a self-managed
                GitLab's `https://gitlab.example.com/api/v4`). Example: https://api.github.com.
            context (str): The status's context (GitHub) or name (GitLab): the check branch protection requires. Example:
                reviewlock.
            created_at (datetime.datetime):
            delivery (DeliveryState): Where a target is in its team's log.
            disabled_reason (DisabledReason | None):
            enabled (bool):
            kind (ForgeKind): The forge a team's commit statuses are posted to.
            name (str):  Example: github.
            repository (str): GitHub's `owner/name`, or GitLab's project id or path. Example: acme/web.
            updated_at (datetime.datetime):
    """

    api_url: str
    context: str
    created_at: datetime.datetime
    delivery: DeliveryState
    disabled_reason: DisabledReason | None
    enabled: bool
    kind: ForgeKind
    name: str
    repository: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        api_url = self.api_url

        context = self.context

        created_at = self.created_at.isoformat()

        delivery = self.delivery.to_dict()

        disabled_reason: None | str
        if isinstance(self.disabled_reason, str):
            disabled_reason = self.disabled_reason
        else:
            disabled_reason = self.disabled_reason

        enabled = self.enabled

        kind: str = self.kind

        name = self.name

        repository = self.repository

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "api_url": api_url,
                "context": context,
                "created_at": created_at,
                "delivery": delivery,
                "disabled_reason": disabled_reason,
                "enabled": enabled,
                "kind": kind,
                "name": name,
                "repository": repository,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_state import DeliveryState  # noqa: PLC0415

        d = dict(src_dict)
        api_url = d.pop("api_url")

        context = d.pop("context")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        delivery = DeliveryState.from_dict(d.pop("delivery"))

        def _parse_disabled_reason(data: object) -> DisabledReason | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_reason_type_0 = check_disabled_reason(data)

                return disabled_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DisabledReason | None, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason"))

        enabled = d.pop("enabled")

        kind = check_forge_kind(d.pop("kind"))

        name = d.pop("name")

        repository = d.pop("repository")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        forge = cls(
            api_url=api_url,
            context=context,
            created_at=created_at,
            delivery=delivery,
            disabled_reason=disabled_reason,
            enabled=enabled,
            kind=kind,
            name=name,
            repository=repository,
            updated_at=updated_at,
        )

        forge.additional_properties = d
        return forge

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
