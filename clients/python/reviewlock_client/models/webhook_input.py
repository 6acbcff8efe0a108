from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookInput")


@_attrs_define
class WebhookInput:
    """A new webhook subscription.

    Attributes:
        url (str): Where events are POSTed: `https` (unless the server allows `http`), on a public address
            (unless the server allows private ones). Example: https://hooks.example.com/reviewlock.
        after (int | None | Unset): Deliver the events after this seq too (a backfill); absent: from the next event on.
            Example: 0.
        description (None | str | Unset):
        events (list[str] | Unset): Event types or prefixes (`review.*`); absent or empty for every event. Example:
            ['review.*'].
    """

    url: str
    after: int | None | Unset = UNSET
    description: None | str | Unset = UNSET
    events: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        after: int | None | Unset
        if isinstance(self.after, Unset):
            after = UNSET
        else:
            after = self.after

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = self.events

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if after is not UNSET:
            field_dict["after"] = after
        if description is not UNSET:
            field_dict["description"] = description
        if events is not UNSET:
            field_dict["events"] = events

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_after(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        after = _parse_after(d.pop("after", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        events = cast(list[str], d.pop("events", UNSET))

        webhook_input = cls(
            url=url,
            after=after,
            description=description,
            events=events,
        )

        return webhook_input
