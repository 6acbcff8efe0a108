from typing import Literal

EscalationResolvedEventType = Literal["escalation.resolved"]

ESCALATION_RESOLVED_EVENT_TYPE_VALUES: set[EscalationResolvedEventType] = {
    "escalation.resolved",
}


def check_escalation_resolved_event_type(value: str) -> EscalationResolvedEventType:
    if value in ESCALATION_RESOLVED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ESCALATION_RESOLVED_EVENT_TYPE_VALUES!r}")
