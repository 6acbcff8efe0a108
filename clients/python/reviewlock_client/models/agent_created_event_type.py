from typing import Literal

AgentCreatedEventType = Literal["agent.created"]

AGENT_CREATED_EVENT_TYPE_VALUES: set[AgentCreatedEventType] = {
    "agent.created",
}


def check_agent_created_event_type(value: str) -> AgentCreatedEventType:
    if value in AGENT_CREATED_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AGENT_CREATED_EVENT_TYPE_VALUES!r}")
