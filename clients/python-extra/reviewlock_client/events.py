"""Following a team's events, typed (hand-written: clients/generate adds it to the package).

The generated ``api.events.event_stream`` reads the whole response, and an event stream never
ends: use :func:`follow_events` instead. It reads ``GET /v1/teams/{team}/events/stream`` as
Server-Sent Events and yields each event as its typed model, until ``timeout`` seconds pass,
the server ends the stream, or the caller stops iterating. Resume after a disconnection with
``after`` = the ``seq`` of the last event received. To poll instead, page with
``api.events.events`` (``after``, and ``wait`` for a long poll).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any, TypeAlias

import httpx

from .client import AuthenticatedClient
from .errors import UnexpectedStatus
from .models import (
    AgentCreatedEvent,
    AgentUpdatedEvent,
    ArtifactCreatedEvent,
    AssignmentCreatedEvent,
    AssignmentReleasedEvent,
    EscalationResolvedEvent,
    EventPage,
    ForgeCreatedEvent,
    ForgeDeletedEvent,
    ForgeDisabledEvent,
    ForgeUpdatedEvent,
    LockoutLiftedEvent,
    Problem,
    ReviewApprovedEvent,
    ReviewRejectedEvent,
    TeamCreatedEvent,
    TeamUpdatedEvent,
    TokenCreatedEvent,
    TokenRevokedEvent,
    VersionSubmittedEvent,
    WebhookCreatedEvent,
    WebhookDeletedEvent,
    WebhookDisabledEvent,
    WebhookUpdatedEvent,
)

# One event of a team's log, as `EventPage.items` holds them (mypy --strict checks that this
# list and the generated one agree): narrow with `isinstance`, or on `.type`.
Event: TypeAlias = (
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
)


class ProblemError(Exception):
    """The stream could not be opened: the problem the server answered."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(f"{problem.code}: {problem.detail}")
        self.problem = problem


def parse_event(data: dict[str, Any]) -> Event:
    """An event as served, as the model its ``type`` names (e.g. ``ReviewRejectedEvent``)."""
    return EventPage.from_dict({"items": [data], "next_after": data.get("seq", 0)}).items[0]


def follow_events(
    client: AuthenticatedClient,
    team: str,
    *,
    after: int | None = None,
    timeout: float = 30.0,
) -> Iterator[Event]:
    """Yields the team's events as they commit, in seq order, for at most ``timeout`` seconds.

    Each is one of the ``…Event`` models of ``EventPage.items``: narrow it with ``isinstance``
    or on ``.type``. ``after`` = 0 starts with the whole log; by default the stream starts with
    the next event to commit.
    """
    deadline = time.monotonic() + timeout
    params = {} if after is None else {"after": after}
    http = client.get_httpx_client()
    # The read timeout bounds each wait for a line: keep-alive comments come every 15 seconds.
    limits = httpx.Timeout(timeout=min(timeout, 20.0))
    url = f"/v1/teams/{team}/events/stream"
    headers = {"Accept": "text/event-stream"}
    with http.stream("GET", url, params=params, headers=headers, timeout=limits) as response:
        if response.status_code != 200:
            body = response.read()
            try:
                raise ProblemError(Problem.from_dict(json.loads(body)))
            except (ValueError, KeyError, TypeError):
                raise UnexpectedStatus(response.status_code, body) from None
        data: list[str] = []
        lines = response.iter_lines()
        while time.monotonic() < deadline:
            try:
                line = next(lines)
            except (StopIteration, httpx.ReadTimeout):
                return
            if line == "":
                # A blank line ends an event; comments (`: keep-alive`) carry no data.
                if data:
                    yield parse_event(json.loads("\n".join(data)))
                data = []
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
