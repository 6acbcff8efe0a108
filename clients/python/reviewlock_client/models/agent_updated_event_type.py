from typing import Literal

AgentUpdatedEventType = Literal["agent.updated"]

AGENT_UPDATED_EVENT_TYPE_VALUES: set[AgentUpdatedEventType] = {
    "agent.updated",
}


def check_agent_updated_event_type(value: str) -> AgentUpdatedEventType:
    if value in AGENT_UPDATED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AGENT_UPDATED_EVENT_TYPE_VALUES!r}")
