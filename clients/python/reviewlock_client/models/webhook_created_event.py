from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_created_event_type import WebhookCreatedEventType, check_webhook_created_event_type

if TYPE_CHECKING:
    from ..models.token_ref import TokenRef
    from ..models.webhook_changed import WebhookChanged


T = TypeVar("T", bound="WebhookCreatedEvent")


@_attrs_define
class WebhookCreatedEvent:
    """`webhook.created`: a webhook subscription was created.

    Attributes:
        actor (None | str): The agent the change names, if any. Example: runtime-eng.
        artifact (None | str): The artifact changed; null for a change of the team, an agent or a token. Example: auth.
        at (datetime.datetime):
        data (WebhookChanged): A webhook subscription as the change leaves it (its secret never appears).
        seq (int): Team-wide, increasing, never reused. Example: 42.
        token (TokenRef):
        type_ (WebhookCreatedEventType):
    """

    actor: None | str
    artifact: None | str
    at: datetime.datetime
    data: WebhookChanged
    seq: int
    token: TokenRef
    type_: WebhookCreatedEventType

    def to_dict(self) -> dict[str, Any]:
        actor: None | str
        actor = self.actor

        artifact: None | str
        artifact = self.artifact

        at = self.at.isoformat()

        data = self.data.to_dict()

        seq = self.seq

        token = self.token.to_dict()

        type_: str = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "actor": actor,
                "artifact": artifact,
                "at": at,
                "data": data,
                "seq": seq,
                "token": token,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.token_ref import TokenRef  # noqa: PLC0415
        from ..models.webhook_changed import WebhookChanged  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_actor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        actor = _parse_actor(d.pop("actor"))

        def _parse_artifact(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        artifact = _parse_artifact(d.pop("artifact"))

        at = datetime.datetime.fromisoformat(d.pop("at"))

        data = WebhookChanged.from_dict(d.pop("data"))

        seq = d.pop("seq")

        token = TokenRef.from_dict(d.pop("token"))

        type_ = check_webhook_created_event_type(d.pop("type"))

        webhook_created_event = cls(
            actor=actor,
            artifact=artifact,
            at=at,
            data=data,
            seq=seq,
            token=token,
            type_=type_,
        )

        return webhook_created_event
