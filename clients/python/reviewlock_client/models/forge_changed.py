from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.disabled_reason import DisabledReason, check_disabled_reason
from ..models.forge_kind import ForgeKind, check_forge_kind

T = TypeVar("T", bound="ForgeChanged")


@_attrs_define
class ForgeChanged:
    """A forge as the change leaves it (its token never appears).

    Attributes:
        api_url (str):  Example: https://api.github.com.
        context (str):  Example: reviewlock.
        disabled_reason (DisabledReason | None):
        enabled (bool):
        forge (str):  Example: github.
        kind (ForgeKind): The forge a team's commit statuses are posted to.
        repository (str):  Example: acme/web.
    """

    api_url: str
    context: str
    disabled_reason: DisabledReason | None
    enabled: bool
    forge: str
    kind: ForgeKind
    repository: str

    def to_dict(self) -> dict[str, Any]:
        api_url = self.api_url

        context = self.context

        disabled_reason: None | str
        if isinstance(self.disabled_reason, str):
            disabled_reason = self.disabled_reason
        else:
            disabled_reason = self.disabled_reason

        enabled = self.enabled

        forge = self.forge

        kind: str = self.kind

        repository = self.repository

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "api_url": api_url,
                "context": context,
                "disabled_reason": disabled_reason,
                "enabled": enabled,
                "forge": forge,
                "kind": kind,
                "repository": repository,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        api_url = d.pop("api_url")

        context = d.pop("context")

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

        forge = d.pop("forge")

        kind = check_forge_kind(d.pop("kind"))

        repository = d.pop("repository")

        forge_changed = cls(
            api_url=api_url,
            context=context,
            disabled_reason=disabled_reason,
            enabled=enabled,
            forge=forge,
            kind=kind,
            repository=repository,
        )

        return forge_changed
