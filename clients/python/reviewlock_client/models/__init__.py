"""Contains all the data models used in inputs/outputs"""

from .agent import Agent
from .agent_changed import AgentChanged
from .agent_created_event import AgentCreatedEvent
from .agent_created_event_type import AgentCreatedEventType
from .agent_detail import AgentDetail
from .agent_input import AgentInput
from .agent_kind import AgentKind
from .agent_lockout import AgentLockout
from .agent_page import AgentPage
from .agent_updated_event import AgentUpdatedEvent
from .agent_updated_event_type import AgentUpdatedEventType
from .artifact_created import ArtifactCreated
from .artifact_created_event import ArtifactCreatedEvent
from .artifact_created_event_type import ArtifactCreatedEventType
from .artifact_input import ArtifactInput
from .artifact_page import ArtifactPage
from .artifact_status import ArtifactStatus
from .artifact_summary import ArtifactSummary
from .assigned_by import AssignedBy
from .assignment import Assignment
from .assignment_created import AssignmentCreated
from .assignment_created_event import AssignmentCreatedEvent
from .assignment_created_event_type import AssignmentCreatedEventType
from .assignment_input import AssignmentInput
from .assignment_released import AssignmentReleased
from .assignment_released_event import AssignmentReleasedEvent
from .assignment_released_event_type import AssignmentReleasedEventType
from .check_input import CheckInput
from .check_result import CheckResult
from .code import Code
from .contributor import Contributor
from .contributor_role import ContributorRole
from .created_token import CreatedToken
from .created_webhook import CreatedWebhook
from .delivery_attempt import DeliveryAttempt
from .delivery_list import DeliveryList
from .delivery_state import DeliveryState
from .denial import Denial
from .disabled_reason import DisabledReason
from .escalation import Escalation
from .escalation_details import EscalationDetails
from .escalation_page import EscalationPage
from .escalation_resolved import EscalationResolved
from .escalation_resolved_event import EscalationResolvedEvent
from .escalation_resolved_event_type import EscalationResolvedEventType
from .event_page import EventPage
from .evidence import Evidence
from .field_error import FieldError
from .forge import Forge
from .forge_changed import ForgeChanged
from .forge_created_event import ForgeCreatedEvent
from .forge_created_event_type import ForgeCreatedEventType
from .forge_deleted_event import ForgeDeletedEvent
from .forge_deleted_event_type import ForgeDeletedEventType
from .forge_disabled_event import ForgeDisabledEvent
from .forge_disabled_event_type import ForgeDisabledEventType
from .forge_input import ForgeInput
from .forge_kind import ForgeKind
from .forge_list import ForgeList
from .forge_updated_event import ForgeUpdatedEvent
from .forge_updated_event_type import ForgeUpdatedEventType
from .grounds import Grounds
from .lift_input import LiftInput
from .lockout import Lockout
from .lockout_lifted import LockoutLifted
from .lockout_lifted_event import LockoutLiftedEvent
from .lockout_lifted_event_type import LockoutLiftedEventType
from .lockout_page import LockoutPage
from .pending_remedy import PendingRemedy
from .policy import Policy
from .policy_input import PolicyInput
from .problem import Problem
from .profile import Profile
from .ref_check_artifact import RefCheckArtifact
from .ref_check_input import RefCheckInput
from .ref_check_result import RefCheckResult
from .rejection import Rejection
from .remedy import Remedy
from .remedy_action import RemedyAction
from .resolution_action import ResolutionAction
from .resolution_input import ResolutionInput
from .retry_outcome import RetryOutcome
from .review import Review
from .review_approved import ReviewApproved
from .review_approved_event import ReviewApprovedEvent
from .review_approved_event_type import ReviewApprovedEventType
from .review_input import ReviewInput
from .review_kind import ReviewKind
from .review_outcome import ReviewOutcome
from .review_rejected import ReviewRejected
from .review_rejected_event import ReviewRejectedEvent
from .review_rejected_event_type import ReviewRejectedEventType
from .rotated_secret import RotatedSecret
from .rotation_input import RotationInput
from .scope import Scope
from .server_token_input import ServerTokenInput
from .state import State
from .team import Team
from .team_changed import TeamChanged
from .team_created_event import TeamCreatedEvent
from .team_created_event_type import TeamCreatedEventType
from .team_input import TeamInput
from .team_updated_event import TeamUpdatedEvent
from .team_updated_event_type import TeamUpdatedEventType
from .token import Token
from .token_created import TokenCreated
from .token_created_event import TokenCreatedEvent
from .token_created_event_type import TokenCreatedEventType
from .token_input import TokenInput
from .token_list import TokenList
from .token_ref import TokenRef
from .token_revoked import TokenRevoked
from .token_revoked_event import TokenRevokedEvent
from .token_revoked_event_type import TokenRevokedEventType
from .verdict import Verdict
from .version import Version
from .version_input import VersionInput
from .version_kind import VersionKind
from .version_page import VersionPage
from .version_submitted import VersionSubmitted
from .version_submitted_event import VersionSubmittedEvent
from .version_submitted_event_type import VersionSubmittedEventType
from .webhook import Webhook
from .webhook_changed import WebhookChanged
from .webhook_created_event import WebhookCreatedEvent
from .webhook_created_event_type import WebhookCreatedEventType
from .webhook_deleted_event import WebhookDeletedEvent
from .webhook_deleted_event_type import WebhookDeletedEventType
from .webhook_disabled_event import WebhookDisabledEvent
from .webhook_disabled_event_type import WebhookDisabledEventType
from .webhook_input import WebhookInput
from .webhook_list import WebhookList
from .webhook_patch import WebhookPatch
from .webhook_updated_event import WebhookUpdatedEvent
from .webhook_updated_event_type import WebhookUpdatedEventType

__all__ = (
    "Agent",
    "AgentChanged",
    "AgentCreatedEvent",
    "AgentCreatedEventType",
    "AgentDetail",
    "AgentInput",
    "AgentKind",
    "AgentLockout",
    "AgentPage",
    "AgentUpdatedEvent",
    "AgentUpdatedEventType",
    "ArtifactCreated",
    "ArtifactCreatedEvent",
    "ArtifactCreatedEventType",
    "ArtifactInput",
    "ArtifactPage",
    "ArtifactStatus",
    "ArtifactSummary",
    "AssignedBy",
    "Assignment",
    "AssignmentCreated",
    "AssignmentCreatedEvent",
    "AssignmentCreatedEventType",
    "AssignmentInput",
    "AssignmentReleased",
    "AssignmentReleasedEvent",
    "AssignmentReleasedEventType",
    "CheckInput",
    "CheckResult",
    "Code",
    "Contributor",
    "ContributorRole",
    "CreatedToken",
    "CreatedWebhook",
    "DeliveryAttempt",
    "DeliveryList",
    "DeliveryState",
    "Denial",
    "DisabledReason",
    "Escalation",
    "EscalationDetails",
    "EscalationPage",
    "EscalationResolved",
    "EscalationResolvedEvent",
    "EscalationResolvedEventType",
    "EventPage",
    "Evidence",
    "FieldError",
    "Forge",
    "ForgeChanged",
    "ForgeCreatedEvent",
    "ForgeCreatedEventType",
    "ForgeDeletedEvent",
    "ForgeDeletedEventType",
    "ForgeDisabledEvent",
    "ForgeDisabledEventType",
    "ForgeInput",
    "ForgeKind",
    "ForgeList",
    "ForgeUpdatedEvent",
    "ForgeUpdatedEventType",
    "Grounds",
    "LiftInput",
    "Lockout",
    "LockoutLifted",
    "LockoutLiftedEvent",
    "LockoutLiftedEventType",
    "LockoutPage",
    "PendingRemedy",
    "Policy",
    "PolicyInput",
    "Problem",
    "Profile",
    "RefCheckArtifact",
    "RefCheckInput",
    "RefCheckResult",
    "Rejection",
    "Remedy",
    "RemedyAction",
    "ResolutionAction",
    "ResolutionInput",
    "RetryOutcome",
    "Review",
    "ReviewApproved",
    "ReviewApprovedEvent",
    "ReviewApprovedEventType",
    "ReviewInput",
    "ReviewKind",
    "ReviewOutcome",
    "ReviewRejected",
    "ReviewRejectedEvent",
    "ReviewRejectedEventType",
    "RotatedSecret",
    "RotationInput",
    "Scope",
    "ServerTokenInput",
    "State",
    "Team",
    "TeamChanged",
    "TeamCreatedEvent",
    "TeamCreatedEventType",
    "TeamInput",
    "TeamUpdatedEvent",
    "TeamUpdatedEventType",
    "Token",
    "TokenCreated",
    "TokenCreatedEvent",
    "TokenCreatedEventType",
    "TokenInput",
    "TokenList",
    "TokenRef",
    "TokenRevoked",
    "TokenRevokedEvent",
    "TokenRevokedEventType",
    "Verdict",
    "Version",
    "VersionInput",
    "VersionKind",
    "VersionPage",
    "VersionSubmitted",
    "VersionSubmittedEvent",
    "VersionSubmittedEventType",
    "Webhook",
    "WebhookChanged",
    "WebhookCreatedEvent",
    "WebhookCreatedEventType",
    "WebhookDeletedEvent",
    "WebhookDeletedEventType",
    "WebhookDisabledEvent",
    "WebhookDisabledEventType",
    "WebhookInput",
    "WebhookList",
    "WebhookPatch",
    "WebhookUpdatedEvent",
    "WebhookUpdatedEventType",
)
