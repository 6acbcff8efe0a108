from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.forge_deleted_event_type import ForgeDeletedEventType, check_forge_deleted_event_type

if TYPE_CHECKING:
    from ..models.forge_changed import ForgeChanged
    from ..models.token_ref import TokenRef


T = TypeVar("T", bound="ForgeDeletedEvent")


@_attrs_define
class ForgeDeletedEvent:
    """`forge.deleted`: a forge was removed.

    Attributes:
        actor (None | str): The agent the change names, if any. Example: runtime-eng.
        artifact (None | str): The artifact changed; null for a change of the team, an agent or a token. Example: auth.
        at (datetime.datetime):
        data (ForgeChanged): A forge as the change leaves it (its token never appears).
        seq (int): Team-wide, increasing, never reused. Example: 42.
        token (TokenRef):
        type_ (ForgeDeletedEventType):
    """

    actor: None | str
    artifact: None | str
    at: datetime.datetime
    data: ForgeChanged
    seq: int
    token: TokenRef
    type_: ForgeDeletedEventType

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
        from ..models.forge_changed import ForgeChanged  # noqa: PLC0415
        from ..models.token_ref import TokenRef  # noqa: PLC0415

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

        data = ForgeChanged.from_dict(d.pop("data"))

        seq = d.pop("seq")

        token = TokenRef.from_dict(d.pop("token"))

        type_ = check_forge_deleted_event_type(d.pop("type"))

        forge_deleted_event = cls(
            actor=actor,
            artifact=artifact,
            at=at,
            data=data,
            seq=seq,
            token=token,
            type_=type_,
        )

        return forge_deleted_event
