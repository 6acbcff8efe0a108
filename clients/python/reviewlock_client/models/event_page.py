from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.agent_created_event import AgentCreatedEvent
    from ..models.agent_updated_event import AgentUpdatedEvent
    from ..models.artifact_created_event import ArtifactCreatedEvent
    from ..models.assignment_created_event import AssignmentCreatedEvent
    from ..models.assignment_released_event import AssignmentReleasedEvent
    from ..models.escalation_resolved_event import EscalationResolvedEvent
    from ..models.forge_created_event import ForgeCreatedEvent
    from ..models.forge_deleted_event import ForgeDeletedEvent
    from ..models.forge_disabled_event import ForgeDisabledEvent
    from ..models.forge_updated_event import ForgeUpdatedEvent
    from ..models.lockout_lifted_event import LockoutLiftedEvent
    from ..models.review_approved_event import ReviewApprovedEvent
    from ..models.review_rejected_event import ReviewRejectedEvent
    from ..models.team_created_event import TeamCreatedEvent
    from ..models.team_updated_event import TeamUpdatedEvent
    from ..models.token_created_event import TokenCreatedEvent
    from ..models.token_revoked_event import TokenRevokedEvent
    from ..models.version_submitted_event import VersionSubmittedEvent
    from ..models.webhook_created_event import WebhookCreatedEvent
    from ..models.webhook_deleted_event import WebhookDeletedEvent
    from ..models.webhook_disabled_event import WebhookDisabledEvent
    from ..models.webhook_updated_event import WebhookUpdatedEvent


T = TypeVar("T", bound="EventPage")


@_attrs_define
class EventPage:
    """A page of the team's events, in seq order.

    Attributes:
        items (list[AgentCreatedEvent | AgentUpdatedEvent | ArtifactCreatedEvent | AssignmentCreatedEvent |
            AssignmentReleasedEvent | EscalationResolvedEvent | ForgeCreatedEvent | ForgeDeletedEvent | ForgeDisabledEvent |
            ForgeUpdatedEvent | LockoutLiftedEvent | ReviewApprovedEvent | ReviewRejectedEvent | TeamCreatedEvent |
            TeamUpdatedEvent | TokenCreatedEvent | TokenRevokedEvent | VersionSubmittedEvent | WebhookCreatedEvent |
            WebhookDeletedEvent | WebhookDisabledEvent | WebhookUpdatedEvent]):
        next_after (int): Pass as `after` for the next poll: the last seq of this page, or `after` when empty. Example:
            42.
    """

    items: list[
        AgentCreatedEvent
        | AgentUpdatedEvent
        | ArtifactCreatedEvent
        | AssignmentCreatedEvent
        | AssignmentReleasedEvent
        | EscalationResolvedEvent
        | ForgeCreatedEvent
        | ForgeDeletedEvent
        | ForgeDisabledEvent
        | ForgeUpdatedEvent
        | LockoutLiftedEvent
        | ReviewApprovedEvent
        | ReviewRejectedEvent
        | TeamCreatedEvent
        | TeamUpdatedEvent
        | TokenCreatedEvent
        | TokenRevokedEvent
        | VersionSubmittedEvent
        | WebhookCreatedEvent
        | WebhookDeletedEvent
        | WebhookDisabledEvent
        | WebhookUpdatedEvent
    ]
    next_after: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.agent_created_event import AgentCreatedEvent  # noqa: PLC0415
        from ..models.agent_updated_event import AgentUpdatedEvent  # noqa: PLC0415
        from ..models.artifact_created_event import ArtifactCreatedEvent  # noqa: PLC0415
        from ..models.assignment_created_event import AssignmentCreatedEvent  # noqa: PLC0415
        from ..models.assignment_released_event import AssignmentReleasedEvent  # noqa: PLC0415
        from ..models.escalation_resolved_event import EscalationResolvedEvent  # noqa: PLC0415
        from ..models.forge_created_event import ForgeCreatedEvent  # noqa: PLC0415
        from ..models.forge_deleted_event import ForgeDeletedEvent  # noqa: PLC0415
        from ..models.forge_updated_event import ForgeUpdatedEvent  # noqa: PLC0415
        from ..models.lockout_lifted_event import LockoutLiftedEvent  # noqa: PLC0415
        from ..models.review_approved_event import ReviewApprovedEvent  # noqa: PLC0415
        from ..models.review_rejected_event import ReviewRejectedEvent  # noqa: PLC0415
        from ..models.team_created_event import TeamCreatedEvent  # noqa: PLC0415
        from ..models.team_updated_event import TeamUpdatedEvent  # noqa: PLC0415
        from ..models.token_created_event import TokenCreatedEvent  # noqa: PLC0415
        from ..models.token_revoked_event import TokenRevokedEvent  # noqa: PLC0415
        from ..models.version_submitted_event import VersionSubmittedEvent  # noqa: PLC0415
        from ..models.webhook_created_event import WebhookCreatedEvent  # noqa: PLC0415
        from ..models.webhook_deleted_event import WebhookDeletedEvent  # noqa: PLC0415
        from ..models.webhook_disabled_event import WebhookDisabledEvent  # noqa: PLC0415
        from ..models.webhook_updated_event import WebhookUpdatedEvent  # noqa: PLC0415

        items = []
        for items_item_data in self.items:
            items_item: dict[str, Any]
            if isinstance(items_item_data, TeamCreatedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, TeamUpdatedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, AgentCreatedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, AgentUpdatedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, TokenCreatedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, TokenRevokedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, ArtifactCreatedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, VersionSubmittedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, ReviewApprovedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, ReviewRejectedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, AssignmentCreatedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, AssignmentReleasedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, EscalationResolvedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, LockoutLiftedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, WebhookCreatedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, WebhookUpdatedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, WebhookDeletedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, WebhookDisabledEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, ForgeCreatedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, ForgeUpdatedEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, ForgeDeletedEvent):
                items_item = items_item_data.to_dict()
            else:
                items_item = items_item_data.to_dict()

            items.append(items_item)

        next_after = self.next_after

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items": items,
                "next_after": next_after,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agent_created_event import AgentCreatedEvent  # noqa: PLC0415
        from ..models.agent_updated_event import AgentUpdatedEvent  # noqa: PLC0415
        from ..models.artifact_created_event import ArtifactCreatedEvent  # noqa: PLC0415
        from ..models.assignment_created_event import AssignmentCreatedEvent  # noqa: PLC0415
        from ..models.assignment_released_event import AssignmentReleasedEvent  # noqa: PLC0415
        from ..models.escalation_resolved_event import EscalationResolvedEvent  # noqa: PLC0415
        from ..models.forge_created_event import ForgeCreatedEvent  # noqa: PLC0415
        from ..models.forge_deleted_event import ForgeDeletedEvent  # noqa: PLC0415
        from ..models.forge_disabled_event import ForgeDisabledEvent  # noqa: PLC0415
        from ..models.forge_updated_event import ForgeUpdatedEvent  # noqa: PLC0415
        from ..models.lockout_lifted_event import LockoutLiftedEvent  # noqa: PLC0415
        from ..models.review_approved_event import ReviewApprovedEvent  # noqa: PLC0415
        from ..models.review_rejected_event import ReviewRejectedEvent  # noqa: PLC0415
        from ..models.team_created_event import TeamCreatedEvent  # noqa: PLC0415
        from ..models.team_updated_event import TeamUpdatedEvent  # noqa: PLC0415
        from ..models.token_created_event import TokenCreatedEvent  # noqa: PLC0415
        from ..models.token_revoked_event import TokenRevokedEvent  # noqa: PLC0415
        from ..models.version_submitted_event import VersionSubmittedEvent  # noqa: PLC0415
        from ..models.webhook_created_event import WebhookCreatedEvent  # noqa: PLC0415
        from ..models.webhook_deleted_event import WebhookDeletedEvent  # noqa: PLC0415
        from ..models.webhook_disabled_event import WebhookDisabledEvent  # noqa: PLC0415
        from ..models.webhook_updated_event import WebhookUpdatedEvent  # noqa: PLC0415

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:

            def _parse_items_item(
                data: object,
            ) -> (
                AgentCreatedEvent
                | AgentUpdatedEvent
                | ArtifactCreatedEvent
                | AssignmentCreatedEvent
                | AssignmentReleasedEvent
                | EscalationResolvedEvent
                | ForgeCreatedEvent
                | ForgeDeletedEvent
                | ForgeDisabledEvent
                | ForgeUpdatedEvent
                | LockoutLiftedEvent
                | ReviewApprovedEvent
                | ReviewRejectedEvent
                | TeamCreatedEvent
                | TeamUpdatedEvent
                | TokenCreatedEvent
                | TokenRevokedEvent
                | VersionSubmittedEvent
                | WebhookCreatedEvent
                | WebhookDeletedEvent
                | WebhookDisabledEvent
                | WebhookUpdatedEvent
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_0 = TeamCreatedEvent.from_dict(data)

                    return componentsschemas_event_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_1 = TeamUpdatedEvent.from_dict(data)

                    return componentsschemas_event_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_2 = AgentCreatedEvent.from_dict(data)

                    return componentsschemas_event_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_3 = AgentUpdatedEvent.from_dict(data)

                    return componentsschemas_event_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_4 = TokenCreatedEvent.from_dict(data)

                    return componentsschemas_event_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_5 = TokenRevokedEvent.from_dict(data)

                    return componentsschemas_event_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_6 = ArtifactCreatedEvent.from_dict(data)

                    return componentsschemas_event_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_7 = VersionSubmittedEvent.from_dict(data)

                    return componentsschemas_event_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_8 = ReviewApprovedEvent.from_dict(data)

                    return componentsschemas_event_type_8
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_9 = ReviewRejectedEvent.from_dict(data)

                    return componentsschemas_event_type_9
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_10 = AssignmentCreatedEvent.from_dict(data)

                    return componentsschemas_event_type_10
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_11 = AssignmentReleasedEvent.from_dict(data)

                    return componentsschemas_event_type_11
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_12 = EscalationResolvedEvent.from_dict(data)

                    return componentsschemas_event_type_12
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_13 = LockoutLiftedEvent.from_dict(data)

                    return componentsschemas_event_type_13
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_14 = WebhookCreatedEvent.from_dict(data)

                    return componentsschemas_event_type_14
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_15 = WebhookUpdatedEvent.from_dict(data)

                    return componentsschemas_event_type_15
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_16 = WebhookDeletedEvent.from_dict(data)

                    return componentsschemas_event_type_16
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_17 = WebhookDisabledEvent.from_dict(data)

                    return componentsschemas_event_type_17
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_18 = ForgeCreatedEvent.from_dict(data)

                    return componentsschemas_event_type_18
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_19 = ForgeUpdatedEvent.from_dict(data)

                    return componentsschemas_event_type_19
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_20 = ForgeDeletedEvent.from_dict(data)

                    return componentsschemas_event_type_20
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_21 = ForgeDisabledEvent.from_dict(data)

                return componentsschemas_event_type_21

            items_item = _parse_items_item(items_item_data)

            items.append(items_item)

        next_after = d.pop("next_after")

        event_page = cls(
            items=items,
            next_after=next_after,
        )

        event_page.additional_properties = d
        return event_page

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
