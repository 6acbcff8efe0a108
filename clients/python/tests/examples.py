"""README Examples 1 and 3 through the generated Python client, against a running reviewlock.

Also a usage example, checked with `mypy --strict`: typed bodies, a refusal read as a typed
problem, an idempotent retry, a 304, and the event stream followed with a timeout.

    REVIEWLOCK_URL=http://127.0.0.1:8080 REVIEWLOCK_ADMIN_TOKEN=rl_… python examples.py
"""

from __future__ import annotations

import os
from typing import TypeVar, assert_type

from reviewlock_client import AuthenticatedClient
from reviewlock_client.api.agents import put_agent
from reviewlock_client.api.artifacts import create_artifact, get_artifact
from reviewlock_client.api.assignment import assign
from reviewlock_client.api.checks import check
from reviewlock_client.api.escalations import escalations
from reviewlock_client.api.events import events
from reviewlock_client.api.reviews import review
from reviewlock_client.api.teams import put_team
from reviewlock_client.api.tokens import create_token
from reviewlock_client.api.versions import submit_version
from reviewlock_client.events import Event, follow_events
from reviewlock_client.models import (
    AgentInput,
    ArtifactInput,
    ArtifactStatus,
    AssignmentInput,
    CheckInput,
    CheckResult,
    CreatedToken,
    EscalationPage,
    EventPage,
    Problem,
    Remedy,
    ReviewInput,
    ReviewOutcome,
    ReviewRejectedEvent,
    TeamInput,
    TokenInput,
    Version,
    VersionInput,
)

T = TypeVar("T")
URL = os.environ.get("REVIEWLOCK_URL", "http://127.0.0.1:8080")
ADMIN = os.environ["REVIEWLOCK_ADMIN_TOKEN"]
TEAM = "acme"


def expect(reply: object, kind: type[T]) -> T:
    """The reply as the type the call answers on success; anything else fails loudly."""
    assert isinstance(reply, kind), f"expected {kind.__name__}, got {reply!r}"
    return reply


def refused(reply: object) -> Problem:
    """The problem a refused call answers."""
    return expect(reply, Problem)


def secret(created: CreatedToken) -> str:
    # A creation (201) carries the secret; a replay (200) answers a Token without it.
    return created.token


def main() -> None:
    admin = AuthenticatedClient(base_url=URL, token=ADMIN)
    put_team.sync(TEAM, client=admin, body=TeamInput(display_name="Acme"))
    coord_token = create_token.sync(TEAM, client=admin, body=TokenInput(name="orchestrator", scope="coordinator"))
    user_token = create_token.sync(TEAM, client=admin, body=TokenInput(name="me", scope="user"))
    coord = AuthenticatedClient(base_url=URL, token=secret(expect(coord_token, CreatedToken)))
    AuthenticatedClient(base_url=URL, token=secret(expect(user_token, CreatedToken)))
    for engineer in ["runtime-eng", "revision-eng", "quality-eng"]:
        put_agent.sync(TEAM, engineer, client=coord, body=AgentInput(roles=["engineer"]))
    reviewer = AgentInput(roles=["tester"], can_review=True, can_author=False)
    put_agent.sync(TEAM, "quality-reviewer", client=coord, body=reviewer)

    # Example 1: reject → locked out → assign another → approve.
    after = expect(events.sync(TEAM, client=coord), EventPage).next_after
    body = ArtifactInput(
        key="auth", title="Authentication module", paths=["src/auth/**"], author="runtime-eng", ref="3f2a9c1"
    )
    assert expect(create_artifact.sync(TEAM, client=coord, body=body), ArtifactStatus).state == "in_review"
    rejection = ReviewInput(
        reviewer="quality-reviewer",
        verdict="reject",
        grounds="quality",
        reason="Error handling is missing.",
        remedy=Remedy(action="reassign"),
    )
    outcome = expect(review.sync(TEAM, "auth", 1, client=coord, body=rejection), ReviewOutcome)
    assert outcome.artifact.state == "changes_requested"
    assert [lockout.agent for lockout in outcome.artifact.lockouts] == ["runtime-eng"]
    # The author is refused, as a typed problem with its stable code.
    problem = refused(assign.sync(TEAM, "auth", client=coord, body=AssignmentInput(agent="runtime-eng")))
    assert (problem.status, problem.code) == (409, "agent_locked_out"), problem
    hook = CheckInput(agent="runtime-eng", paths=["src/auth/login.rs"])
    assert expect(check.sync(TEAM, client=coord, body=hook), CheckResult).allowed is False
    # The assignment, retried with the same Idempotency-Key: answered once, replayed once.
    assignment = AssignmentInput(agent="revision-eng")
    first = assign.sync_detailed(TEAM, "auth", client=coord, body=assignment, idempotency_key="assign-auth-1")
    again = assign.sync_detailed(TEAM, "auth", client=coord, body=assignment, idempotency_key="assign-auth-1")
    assert expect(first.parsed, ArtifactStatus).state == "in_revision"
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.headers.get("idempotency-replayed") == "true" and again.content == first.content
    version = VersionInput(author="revision-eng", ref="8b41d07")
    assert expect(submit_version.sync(TEAM, "auth", client=coord, body=version), Version).number == 2
    approval = ReviewInput(reviewer="quality-reviewer", verdict="approve")
    approved = expect(review.sync(TEAM, "auth", 2, client=coord, body=approval), ReviewOutcome).artifact
    assert (approved.state, approved.lockouts) == ("approved", [])
    # A conditional read: 304 while the artifact is unchanged.
    read = get_artifact.sync_detailed(TEAM, "auth", client=coord)
    etag = read.headers["etag"]
    unchanged = get_artifact.sync_detailed(TEAM, "auth", client=coord, if_none_match=etag)
    assert unchanged.status_code == 304 and unchanged.content == b""
    # Typed: a 304 parses to None, not to an `Any` that would hide the other types from mypy.
    assert_type(unchanged.parsed, ArtifactStatus | Problem | None)
    assert unchanged.parsed is None
    page = expect(events.sync(TEAM, client=coord, after=after), EventPage)
    want = ["artifact.created", "review.rejected", "assignment.created", "version.submitted", "review.approved"]
    assert [event.type_ for event in page.items] == want, page.items
    # The same events, followed live as Server-Sent Events, for at most 10 seconds.
    followed: list[Event] = []
    for event in follow_events(coord, TEAM, after=after, timeout=10):
        followed.append(event)
        if isinstance(event, ReviewRejectedEvent):
            assert event.data.lockouts == ["runtime-eng"] and event.data.state == "changes_requested"
        if len(followed) == len(want):
            break
    assert [event.type_ for event in followed] == want

    # Example 3: every eligible agent locked out → the user decides.
    body = ArtifactInput(key="billing", title="Billing", author="runtime-eng")
    assert expect(create_artifact.sync(TEAM, client=coord, body=body), ArtifactStatus).state == "in_review"
    reject = ReviewInput(
        reviewer="quality-reviewer", verdict="reject", reason="Still wrong.", remedy=Remedy(action="reassign")
    )
    for n, reviser in [(1, "revision-eng"), (2, "quality-eng")]:
        rejected = expect(review.sync(TEAM, "billing", n, client=coord, body=reject), ReviewOutcome)
        assert rejected.artifact.state == "changes_requested"
        expect(assign.sync(TEAM, "billing", client=coord, body=AssignmentInput(agent=reviser)), ArtifactStatus)
        written = submit_version.sync(TEAM, "billing", client=coord, body=VersionInput(author=reviser))
        assert expect(written, Version).number == n + 1
    deadlocked = expect(review.sync(TEAM, "billing", 3, client=coord, body=reject), ReviewOutcome)
    assert deadlocked.artifact.state == "deadlocked"
    open_escalations = expect(escalations.sync(TEAM, client=coord), EscalationPage)
    assert open_escalations.items[0].details.authors == ["runtime-eng", "revision-eng", "quality-eng"]
    problem = refused(assign.sync(TEAM, "billing", client=coord, body=AssignmentInput(agent="runtime-eng")))
    assert problem.code == "deadlocked", problem
    print("python client: examples 1 and 3 passed")


if __name__ == "__main__":
    main()
