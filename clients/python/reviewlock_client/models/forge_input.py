from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.forge_kind import ForgeKind, check_forge_kind
from ..types import UNSET, Unset

T = TypeVar("T", bound="ForgeInput")


@_attrs_define
class ForgeInput:
    """A forge's settings, all of them (a `PUT`).

    Attributes:
        kind (ForgeKind): The forge a team's commit statuses are posted to.
        repository (str): GitHub's `owner/name`, or GitLab's project id or path (`group/project`). Example: acme/web.
        token (str): A token that may set commit statuses (GitHub: `repo:status` or a fine-grained token
            with "Commit statuses: write"; GitLab: `api` scope, Developer role). Stored sealed,
            never shown or logged. Example: ghp_….
        api_url (None | str | Unset): The forge's API; absent: `https://api.github.com` or `https://gitlab.com/api/v4`.
        context (None | str | Unset): The status's context or name; `reviewlock` when absent. Example: reviewlock.
        enabled (bool | None | Unset): `false` pauses the statuses; `true` (the default) sends them, resuming from the
            cursor.
    """

    kind: ForgeKind
    repository: str
    token: str
    api_url: None | str | Unset = UNSET
    context: None | str | Unset = UNSET
    enabled: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind: str = self.kind

        repository = self.repository

        token = self.token

        api_url: None | str | Unset
        if isinstance(self.api_url, Unset):
            api_url = UNSET
        else:
            api_url = self.api_url

        context: None | str | Unset
        if isinstance(self.context, Unset):
            context = UNSET
        else:
            context = self.context

        enabled: bool | None | Unset
        if isinstance(self.enabled, Unset):
            enabled = UNSET
        else:
            enabled = self.enabled

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "repository": repository,
                "token": token,
            }
        )
        if api_url is not UNSET:
            field_dict["api_url"] = api_url
        if context is not UNSET:
            field_dict["context"] = context
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = check_forge_kind(d.pop("kind"))

        repository = d.pop("repository")

        token = d.pop("token")

        def _parse_api_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        api_url = _parse_api_url(d.pop("api_url", UNSET))

        def _parse_context(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        context = _parse_context(d.pop("context", UNSET))

        def _parse_enabled(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        enabled = _parse_enabled(d.pop("enabled", UNSET))

        forge_input = cls(
            kind=kind,
            repository=repository,
            token=token,
            api_url=api_url,
            context=context,
            enabled=enabled,
        )

        return forge_input
