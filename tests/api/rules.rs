//! PROTOCOL §4 over HTTP: one test per rule or refusal code that the seed's examples
//! (`examples.rs`) do not already cover. Every refusal is checked for its status and `code` and
//! for what follows it: the artifact's status and the event log are as they were.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::Reply;
use crate::errors::{invalid_fields, problem};
use crate::examples::Team;

/// The agents of a list of lockouts, or of `lockouts` in an artifact status.
fn agents(lockouts: &Value) -> Vec<&str> {
    let list = if lockouts.is_array() { lockouts } else { &lockouts["lockouts"] };
    list.as_array().unwrap().iter().map(|l| l["agent"].as_str().unwrap()).collect()
}

/// The keys of a page of artifacts.
fn keys(page: &Value) -> Vec<&str> {
    page["items"].as_array().unwrap().iter().map(|a| a["key"].as_str().unwrap()).collect()
}

/// The team's event types in seq order, straight from the table.
async fn event_types(t: &Team) -> Vec<String> {
    sqlx::query_scalar("select type from events where team_id = 't' order by seq")
        .fetch_all(&t.api.pool)
        .await
        .unwrap()
}

/// An artifact's status and the team's event log, taken before a refused write.
struct Before {
    key: String,
    status: Value,
    events: Vec<String>,
}

impl Before {
    async fn take(t: &Team, key: &str) -> Before {
        Before { key: key.to_owned(), status: t.status(key).await, events: event_types(t).await }
    }

    /// Asserts the reply is this refusal and that it changed nothing: the status (state,
    /// lockouts, assignment, current version and its reviews, `revision`) and the event log are
    /// exactly as before.
    async fn refused(&self, t: &Team, reply: Reply, status: u16, code: &str) -> Reply {
        problem(&reply, status, code);
        assert_eq!(t.status(&self.key).await, self.status, "a refused write ({code}) changes nothing");
        assert_eq!(event_types(t).await, self.events, "a refused write ({code}) appends no event");
        reply
    }
}

fn evidence() -> Value {
    json!({
        "counter_evidence": "login() panics on an empty password",
        "violated_requirement": "REQ-7: every input is validated",
        "affected_scope": "src/auth/login.rs",
        "approval_condition": "empty passwords are refused with a test",
    })
}

// R1 ------------------------------------------------------------------------------------------

#[sqlx::test]
async fn r1_only_active_reviewers_judge(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.api.agent("t", "retired", json!({ "can_review": true, "active": false })).await;
    t.create("module", "a").await.expect(201, None);
    let before = Before::take(&t, "module").await;
    // `b` may author but not review; `retired` was a reviewer; `ghost` is nobody.
    for reviewer in ["b", "retired", "ghost"] {
        for verdict in [
            json!({ "reviewer": reviewer, "verdict": "approve" }),
            json!({ "reviewer": reviewer, "verdict": "reject", "reason": "no",
                    "remedy": { "action": "reassign" } }),
        ] {
            let reply = t.review("module", 1, verdict).await;
            before.refused(&t, reply, 409, "not_a_reviewer").await;
        }
    }
    // Reactivated, the reviewer judges.
    t.api.agent("t", "retired", json!({ "active": true })).await;
    let body = json!({ "reviewer": "retired", "verdict": "approve" });
    let reply = t.review("module", 1, body).await;
    assert_eq!(reply.expect(201, None)["artifact"]["state"], "approved");
}

#[sqlx::test]
async fn r1_never_their_own_work(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    // `r` reviews and authors.
    t.api.agent("t", "r", json!({ "can_review": true, "can_author": true })).await;
    t.create("by-r", "r").await.expect(201, None);
    let before = Before::take(&t, "by-r").await;
    let reply = t.review("by-r", 1, json!({ "reviewer": "r", "verdict": "approve" })).await;
    before.refused(&t, reply, 409, "self_review").await;
    // A contributor in any role is credited too.
    for (key, role) in [("co", "co_author"), ("pair", "pair"), ("advice", "advisor")] {
        let body = json!({ "key": key, "title": key, "author": "a",
                           "contributors": [{ "agent": "r", "role": role }] });
        t.api.post(&t.url("/artifacts"), &t.coord, body).await.expect(201, None);
        let before = Before::take(&t, key).await;
        let body = json!({ "reviewer": "r", "verdict": "reject", "reason": "mine",
                           "remedy": { "action": "reassign" } });
        let reply = t.review(key, 1, body).await;
        before.refused(&t, reply, 409, "self_review").await;
        // Another reviewer judges it.
        t.approve(key, 1).await.expect(201, None);
    }
}

// R2 ------------------------------------------------------------------------------------------

#[sqlx::test]
async fn r2_stale_version(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("module", "a").await.expect(201, None);
    // The author supersedes v1 before anyone judged it.
    t.version("module", json!({ "author": "a", "ref": "r2" })).await.expect(201, None);
    let before = Before::take(&t, "module").await;
    let reply = t.approve("module", 1).await;
    before.refused(&t, reply, 409, "stale_version").await;
    let reply = t.reject("module", 1, json!({ "action": "reassign" })).await;
    before.refused(&t, reply, 409, "stale_version").await;
    assert!(
        t.api.get(&t.url("/artifacts/module/versions/1"), &t.coord).await.expect(200, None)["reviews"]
            .as_array()
            .unwrap()
            .is_empty(),
        "nothing was recorded on v1"
    );
    assert_eq!(t.approve("module", 2).await.expect(201, None)["artifact"]["state"], "approved");
}

#[sqlx::test]
async fn r2_stale_ref(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    // `Team::create` submits v1 with ref `r1`.
    t.create("module", "a").await.expect(201, None);
    let before = Before::take(&t, "module").await;
    let body = json!({ "reviewer": "q", "verdict": "approve", "ref": "r0" });
    let reply = t.review("module", 1, body).await;
    before.refused(&t, reply, 409, "stale_ref").await;
    let body = json!({ "reviewer": "q", "verdict": "reject", "ref": "r0", "reason": "bad",
                       "remedy": { "action": "reassign" } });
    let reply = t.review("module", 1, body).await;
    before.refused(&t, reply, 409, "stale_ref").await;
    // The ref the version carries binds.
    let body = json!({ "reviewer": "q", "verdict": "approve", "ref": "r1" });
    let reply = t.review("module", 1, body).await;
    assert_eq!(reply.expect(201, None)["review"]["ref"], "r1");
    // A version without a ref matches no ref.
    t.api
        .post(&t.url("/artifacts"), &t.coord, json!({ "key": "bare", "title": "bare", "author": "a" }))
        .await
        .expect(201, None);
    let before = Before::take(&t, "bare").await;
    let body = json!({ "reviewer": "q", "verdict": "approve", "ref": "r1" });
    let reply = t.review("bare", 1, body).await;
    before.refused(&t, reply, 409, "stale_ref").await;
}

#[sqlx::test]
async fn r2_version_decided(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.api.agent("t", "q2", json!({ "can_review": true })).await;
    // Rejected: no more verdicts, approvals included.
    t.create("rejected", "a").await.expect(201, None);
    t.reject("rejected", 1, json!({ "action": "reassign" })).await.expect(201, None);
    let before = Before::take(&t, "rejected").await;
    for body in [
        json!({ "reviewer": "q2", "verdict": "approve" }),
        json!({ "reviewer": "q2", "verdict": "reject", "reason": "also", "remedy": { "action": "reassign" } }),
    ] {
        let reply = t.review("rejected", 1, body).await;
        before.refused(&t, reply, 409, "version_decided").await;
    }
    // Still decided while the revision is assigned.
    t.assign("rejected", "b").await.expect(201, None);
    let before = Before::take(&t, "rejected").await;
    let reply = t.review("rejected", 1, json!({ "reviewer": "q2", "verdict": "approve" })).await;
    before.refused(&t, reply, 409, "version_decided").await;
    // Approved with the needed approvals (one by default): no more verdicts either.
    t.create("approved", "a").await.expect(201, None);
    t.approve("approved", 1).await.expect(201, None);
    let before = Before::take(&t, "approved").await;
    let body = json!({ "reviewer": "q2", "verdict": "reject", "reason": "late",
                       "remedy": { "action": "reassign" } });
    let reply = t.review("approved", 1, body).await;
    before.refused(&t, reply, 409, "version_decided").await;
    assert!(agents(&t.status("approved").await).is_empty());
}

#[sqlx::test]
async fn r2_duplicate_review(pool: PgPool) {
    // Two approvals close a version, so it is still open after the first.
    let t = Team::new(pool, json!({ "required_approvals": 2 }), &["a", "b"]).await;
    t.create("module", "a").await.expect(201, None);
    let first = t.approve("module", 1).await;
    assert_eq!(first.expect(201, None)["artifact"]["state"], "in_review");
    let before = Before::take(&t, "module").await;
    let reply = t.approve("module", 1).await;
    before.refused(&t, reply, 409, "duplicate_review").await;
    // Changing one's mind is a second verdict too.
    let reply = t.reject("module", 1, json!({ "action": "reassign" })).await;
    before.refused(&t, reply, 409, "duplicate_review").await;
    assert_eq!(t.status("module").await["current_version"]["reviews"].as_array().unwrap().len(), 1);
}

#[sqlx::test]
async fn r2_a_version_above_the_current_is_not_found(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("module", "a").await.expect(201, None);
    let before = Before::take(&t, "module").await;
    for n in [2, 0, -1, i32::MIN, i32::MAX] {
        let reply = t.approve("module", n).await;
        before.refused(&t, reply, 404, "not_found").await;
    }
    let reply = t.reject("module", 2, json!({ "action": "reassign" })).await;
    before.refused(&t, reply, 404, "not_found").await;
    problem(&t.api.get(&t.url("/artifacts/module/versions/2"), &t.coord).await, 404, "not_found");
}

// R3 ------------------------------------------------------------------------------------------

#[sqlx::test]
async fn r3_a_rejection_locks_out_the_author_and_every_contributor(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b", "c", "d", "e"]).await;
    let body = json!({ "key": "module", "title": "module", "author": "a", "contributors": [
        { "agent": "b", "role": "co_author" }, { "agent": "c", "role": "pair" },
        { "agent": "d", "role": "advisor" } ] });
    t.api.post(&t.url("/artifacts"), &t.coord, body).await.expect(201, None);
    let rejected = t.reject("module", 1, json!({ "action": "reassign" })).await;
    let artifact = &rejected.expect(201, None)["artifact"];
    assert_eq!(artifact["state"], "changes_requested");
    assert_eq!(agents(artifact), ["a", "b", "c", "d"]);
    for l in artifact["lockouts"].as_array().unwrap() {
        assert_eq!(l["artifact"], "module");
        assert_eq!(l["version"], 1);
        assert_eq!(l["reviewer"], "q");
        assert_eq!(l["reason"], "error handling is missing");
        assert!(l["locked_at"].is_string());
    }
    assert_eq!(artifact["eligible_agents"], json!(["e"]));
    assert_eq!(artifact["pending_remedy"]["action"], "reassign");
    assert_eq!(artifact["pending_remedy"]["reviewer"], "q");
    let lockouts = t.api.get(&t.url("/lockouts?artifact=module"), &t.coord).await;
    assert_eq!(agents(&lockouts.expect(200, None)["items"]), ["a", "b", "c", "d"]);
    // Every credited agent is refused, as author and as contributor.
    for agent in ["a", "b", "c", "d"] {
        t.assign("module", agent).await.expect(409, Some("agent_locked_out"));
    }
    t.assign("module", "e").await.expect(201, None);
    let body = json!({ "author": "e", "contributors": [{ "agent": "d", "role": "advisor" }] });
    t.version("module", body).await.expect(409, Some("agent_locked_out"));
    t.version("module", json!({ "author": "e" })).await.expect(201, None);
}

#[sqlx::test]
async fn r3_a_rejection_carries_a_reason_and_a_remedy(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("module", "a").await.expect(201, None);
    let before = Before::take(&t, "module").await;
    let cases = [
        (json!({ "reviewer": "q", "verdict": "reject", "remedy": { "action": "reassign" } }), "reason"),
        (
            json!({ "reviewer": "q", "verdict": "reject", "reason": "  ", "remedy": { "action": "reassign" } }),
            "reason",
        ),
        (json!({ "reviewer": "q", "verdict": "reject", "reason": "bad" }), "remedy"),
        (
            json!({ "reviewer": "q", "verdict": "reject", "reason": "bad", "remedy": { "action": "escalate" } }),
            "remedy.expertise",
        ),
        (
            json!({ "reviewer": "q", "verdict": "reject", "reason": "bad",
                    "remedy": { "action": "escalate", "expertise": [] } }),
            "remedy.expertise",
        ),
    ];
    for (body, field) in cases {
        let reply = t.review("module", 1, body).await;
        let reply = before.refused(&t, reply, 422, "invalid_field").await;
        assert_eq!(invalid_fields(&reply), [field]);
    }
    // With both, the rejection is recorded.
    let body = json!({ "reviewer": "q", "verdict": "reject", "grounds": "security", "reason": "bad",
                       "remedy": { "action": "escalate", "expertise": ["auth"] } });
    let reply = t.review("module", 1, body).await;
    let outcome = reply.expect(201, None);
    assert_eq!(outcome["review"]["grounds"], "security");
    assert_eq!(outcome["review"]["remedy"]["expertise"], json!(["auth"]));
    assert_eq!(outcome["artifact"]["state"], "changes_requested");
}

// R4 ------------------------------------------------------------------------------------------

#[sqlx::test]
async fn r4_the_remedy_names_an_agent_who_may_author(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b", "c"]).await;
    t.api.agent("t", "gone", json!({ "active": false })).await;
    let body = json!({ "key": "module", "title": "module", "author": "a",
                       "contributors": [{ "agent": "b", "role": "co_author" }] });
    t.api.post(&t.url("/artifacts"), &t.coord, body).await.expect(201, None);
    let before = Before::take(&t, "module").await;
    // Unknown, retired, and `q` who may not author.
    for agent in ["ghost", "gone", "q"] {
        let reply = t.reject("module", 1, json!({ "action": "reassign", "agent": agent })).await;
        before.refused(&t, reply, 409, "invalid_agent").await;
    }
    // A contributor of the rejected version is locked out by this very rejection.
    let reply = t.reject("module", 1, json!({ "action": "reassign", "agent": "b" })).await;
    before.refused(&t, reply, 409, "locked_out_agent_named").await;
    let reply = t.reject("module", 1, json!({ "action": "reassign", "agent": "c" })).await;
    assert_eq!(reply.expect(201, None)["artifact"]["pending_remedy"]["agent"], "c");
}

// R5 ------------------------------------------------------------------------------------------

#[sqlx::test]
async fn r5_an_assignment_needs_a_pending_revision_and_an_agent_who_may_author(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b", "c"]).await;
    t.api.agent("t", "gone", json!({ "active": false })).await;
    t.create("module", "a").await.expect(201, None);
    // Nothing was rejected yet.
    let before = Before::take(&t, "module").await;
    let reply = t.assign("module", "b").await;
    before.refused(&t, reply, 409, "invalid_state").await;
    t.reject("module", 1, json!({ "action": "reassign" })).await.expect(201, None);
    let before = Before::take(&t, "module").await;
    for agent in ["gone", "ghost", "q"] {
        let reply = t.assign("module", agent).await;
        before.refused(&t, reply, 409, "invalid_agent").await;
    }
    let assigned = t.assign("module", "b").await;
    let artifact = assigned.expect(201, None);
    assert_eq!(artifact["state"], "in_revision");
    assert_eq!(artifact["assignment"]["agent"], "b");
    assert_eq!(artifact["assignment"]["assigned_by"], "coordinator");
    // At most one assignment is active.
    let before = Before::take(&t, "module").await;
    let reply = t.assign("module", "c").await;
    before.refused(&t, reply, 409, "invalid_state").await;
    let reply = t.assign("module", "b").await;
    before.refused(&t, reply, 409, "invalid_state").await;
}

#[sqlx::test]
async fn r5_releasing_the_assignment_reopens_the_revision(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b", "c"]).await;
    let assignment = t.url("/artifacts/module/assignment");
    t.create("module", "a").await.expect(201, None);
    // Nothing to release in review.
    let before = Before::take(&t, "module").await;
    let reply = t.api.delete(&assignment, &t.coord).await;
    before.refused(&t, reply, 409, "invalid_state").await;
    t.reject("module", 1, json!({ "action": "reassign" })).await.expect(201, None);
    t.assign("module", "b").await.expect(201, None);
    let released = t.api.delete(&assignment, &t.coord).await;
    let artifact = released.expect(200, None);
    assert_eq!(artifact["state"], "changes_requested");
    assert_eq!(artifact["assignment"], Value::Null);
    assert_eq!(agents(artifact), ["a"], "a release clears no lockout");
    assert_eq!(artifact["pending_remedy"]["action"], "reassign");
    let before = Before::take(&t, "module").await;
    let reply = t.api.delete(&assignment, &t.coord).await;
    before.refused(&t, reply, 409, "invalid_state").await;
    // The released agent may no longer write; another may be assigned.
    let reply = t.version("module", json!({ "author": "b" })).await;
    before.refused(&t, reply, 409, "not_assignee").await;
    t.assign("module", "c").await.expect(201, None);
}

// R6 ------------------------------------------------------------------------------------------

#[sqlx::test]
async fn r6_only_the_assignee_writes_the_revision(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b", "c"]).await;
    t.create("module", "a").await.expect(201, None);
    t.reject("module", 1, json!({ "action": "reassign" })).await.expect(201, None);
    t.assign("module", "b").await.expect(201, None);
    let before = Before::take(&t, "module").await;
    let reply = t.version("module", json!({ "author": "c" })).await;
    before.refused(&t, reply, 409, "not_assignee").await;
    // The assignee may credit an agent who is not locked out.
    let body = json!({ "author": "b", "contributors": [{ "agent": "c", "role": "pair" }], "ref": "r2" });
    let v2 = t.version("module", body).await;
    let v2 = v2.expect(201, None);
    assert_eq!(v2["number"], 2);
    assert_eq!(v2["cycle"], 1);
    assert_eq!(v2["contributors"], json!([{ "agent": "c", "role": "pair" }]));
    let status = t.status("module").await;
    assert_eq!(status["state"], "in_review");
    assert_eq!(status["assignment"], Value::Null, "the assignment ended with the version");
    assert_eq!(status["pending_remedy"], Value::Null);
}

#[sqlx::test]
async fn r6_the_author_supersedes_the_version_under_review(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("module", "a").await.expect(201, None);
    let v2 = t.version("module", json!({ "author": "a", "ref": "r2" })).await;
    let v2 = v2.expect(201, None);
    assert_eq!(v2["number"], 2);
    assert_eq!(v2["cycle"], 1);
    let status = t.status("module").await;
    assert_eq!(status["state"], "in_review");
    assert_eq!(status["cycle"], 1);
    assert_eq!(status["current_version"]["number"], 2);
    assert_eq!(status["current_version"]["ref"], "r2");
    // Nobody else supersedes it.
    let before = Before::take(&t, "module").await;
    let reply = t.version("module", json!({ "author": "b" })).await;
    before.refused(&t, reply, 409, "invalid_state").await;
}

// R8 ------------------------------------------------------------------------------------------

#[sqlx::test]
async fn r8_approval_ends_the_cycle_and_a_new_version_starts_the_next(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("module", "a").await.expect(201, None);
    t.reject("module", 1, json!({ "action": "reassign" })).await.expect(201, None);
    t.assign("module", "b").await.expect(201, None);
    t.version("module", json!({ "author": "b" })).await.expect(201, None);
    let approved = t.approve("module", 2).await;
    let artifact = approved.expect(201, None)["artifact"].clone();
    assert_eq!(artifact["state"], "approved");
    assert!(agents(&artifact).is_empty());
    assert_eq!(artifact["pending_remedy"], Value::Null);
    let cleared: Vec<(String, String)> = sqlx::query_as(
        "select agent_id, cleared_by from lockouts where cleared_at is not null order by agent_id",
    )
    .fetch_all(&t.api.pool)
    .await
    .unwrap();
    assert_eq!(cleared, [("a".to_owned(), "approval".to_owned())]);
    // The once locked-out author writes the next version: cycle 2 starts.
    let v3 = t.version("module", json!({ "author": "a", "ref": "r3" })).await;
    let v3 = v3.expect(201, None);
    assert_eq!(v3["number"], 3);
    assert_eq!(v3["cycle"], 2);
    let status = t.status("module").await;
    assert_eq!(status["state"], "in_review");
    assert_eq!(status["cycle"], 2);
    assert_eq!(status["current_version"]["author"], "a");
    assert!(agents(&status).is_empty());
    let versions = t.api.get(&t.url("/artifacts/module/versions"), &t.coord).await;
    let cycles: Vec<i64> = versions.expect(200, None)["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["cycle"].as_i64().unwrap())
        .collect();
    assert_eq!(cycles, [1, 1, 2]);
}

// R9 ------------------------------------------------------------------------------------------

#[sqlx::test]
async fn r9_the_user_abandons_a_deadlocked_artifact(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    let resolution = t.url("/artifacts/module/resolution");
    t.create("module", "a").await.expect(201, None);
    let rejected = t.reject("module", 1, json!({ "action": "reassign" })).await;
    let artifact = &rejected.expect(201, None)["artifact"];
    assert_eq!(artifact["state"], "deadlocked");
    assert!(artifact["escalation"]["opened_at"].is_string());
    assert_eq!(artifact["escalation"]["details"]["authors"], json!(["a"]));
    let before = Before::take(&t, "module").await;
    // `assign` names its agent; `abandon` names none.
    let reply = t.api.post(&resolution, &t.user, json!({ "action": "assign", "reason": "someone" })).await;
    let reply = before.refused(&t, reply, 422, "invalid_field").await;
    assert_eq!(invalid_fields(&reply), ["agent"]);
    let body = json!({ "action": "abandon", "agent": "a", "reason": "stop" });
    let reply = t.api.post(&resolution, &t.user, body).await;
    let reply = before.refused(&t, reply, 422, "invalid_field").await;
    assert_eq!(invalid_fields(&reply), ["agent"]);
    let body = json!({ "action": "abandon" });
    let reply = t.api.post(&resolution, &t.user, body).await;
    let reply = before.refused(&t, reply, 422, "invalid_field").await;
    assert_eq!(invalid_fields(&reply), ["reason"]);
    // Only the user resolves.
    let body = json!({ "action": "abandon", "reason": "not worth it" });
    let reply = t.api.post(&resolution, &t.coord, body.clone()).await;
    before.refused(&t, reply, 403, "forbidden").await;
    let abandoned = t.api.post(&resolution, &t.user, body).await;
    let artifact = abandoned.expect(200, None);
    assert_eq!(artifact["state"], "abandoned");
    assert_eq!(artifact["escalation"], Value::Null);
    assert_eq!(artifact["assignment"], Value::Null);
    let escalations = t.api.get(&t.url("/escalations"), &t.coord).await;
    assert_eq!(escalations.expect(200, None)["items"], json!([]));
    let resolved: Value =
        sqlx::query_scalar("select resolution from escalations where resolved_at is not null")
            .fetch_one(&t.api.pool)
            .await
            .unwrap();
    assert_eq!(resolved["action"], "abandon");
    assert_eq!(resolved["reason"], "not worth it");
    // Abandoned is terminal: no version, assignment, verdict or second resolution.
    t.api.agent("t", "d", json!({})).await;
    let before = Before::take(&t, "module").await;
    let reply = t.version("module", json!({ "author": "d" })).await;
    before.refused(&t, reply, 409, "invalid_state").await;
    let reply = t.assign("module", "d").await;
    before.refused(&t, reply, 409, "invalid_state").await;
    let reply = t.approve("module", 1).await;
    before.refused(&t, reply, 409, "version_decided").await;
    let body = json!({ "action": "assign", "agent": "d", "reason": "after all" });
    let reply = t.api.post(&resolution, &t.user, body).await;
    before.refused(&t, reply, 409, "invalid_state").await;
}

#[sqlx::test]
async fn r9_only_a_deadlocked_artifact_is_resolved(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    let resolution = t.url("/artifacts/module/resolution");
    t.create("module", "a").await.expect(201, None);
    let abandon = json!({ "action": "abandon", "reason": "stop" });
    let assign = json!({ "action": "assign", "agent": "b", "reason": "go" });
    let before = Before::take(&t, "module").await;
    for body in [&abandon, &assign] {
        let reply = t.api.post(&resolution, &t.user, body.clone()).await;
        before.refused(&t, reply, 409, "invalid_state").await;
    }
    // A rejection with someone left to assign is the coordinator's, not the user's.
    t.reject("module", 1, json!({ "action": "reassign" })).await.expect(201, None);
    let before = Before::take(&t, "module").await;
    assert_eq!(before.status["state"], "changes_requested");
    for body in [&abandon, &assign] {
        let reply = t.api.post(&resolution, &t.user, body.clone()).await;
        before.refused(&t, reply, 409, "invalid_state").await;
    }
}

// R10 -----------------------------------------------------------------------------------------

#[sqlx::test]
async fn r10_only_the_user_lifts_a_lockout(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b", "c"]).await;
    let lift = |agent: &str| t.url(&format!("/artifacts/module/lockouts/{agent}/lift"));
    let body = json!({ "key": "module", "title": "module", "author": "a",
                       "contributors": [{ "agent": "b", "role": "co_author" }] });
    t.api.post(&t.url("/artifacts"), &t.coord, body).await.expect(201, None);
    t.reject("module", 1, json!({ "action": "reassign" })).await.expect(201, None);
    let before = Before::take(&t, "module").await;
    assert_eq!(agents(&before.status), ["a", "b"]);
    let reason = json!({ "reason": "a fixed the root cause elsewhere" });
    let reply = t.api.post(&lift("a"), &t.coord, reason.clone()).await;
    before.refused(&t, reply, 403, "forbidden").await;
    let reply = t.api.post(&lift("a"), &t.user, json!({})).await;
    let reply = before.refused(&t, reply, 422, "invalid_field").await;
    assert_eq!(invalid_fields(&reply), ["reason"]);
    let reply = t.api.post(&lift("a"), &t.user, json!({ "reason": " " })).await;
    let reply = before.refused(&t, reply, 422, "invalid_field").await;
    assert_eq!(invalid_fields(&reply), ["reason"]);
    // `c` has no lockout to lift.
    let reply = t.api.post(&lift("c"), &t.user, reason.clone()).await;
    before.refused(&t, reply, 404, "not_found").await;
    // One agent at a time.
    let lifted = t.api.post(&lift("a"), &t.user, reason.clone()).await;
    let artifact = lifted.expect(200, None);
    assert_eq!(agents(artifact), ["b"]);
    assert_eq!(artifact["state"], "changes_requested");
    assert!(artifact["revision"].as_i64() > before.status["revision"].as_i64());
    assert_eq!(artifact["eligible_agents"], json!(["a", "c"]));
    let event: (String, Option<String>, Value) =
        sqlx::query_as("select type, actor, data from events where team_id = 't' order by seq desc limit 1")
            .fetch_one(&t.api.pool)
            .await
            .unwrap();
    assert_eq!(event.0, "lockout.lifted");
    assert_eq!(event.1.as_deref(), Some("a"));
    assert_eq!(event.2["reason"], reason["reason"]);
    let history: (String, String) = sqlx::query_as(
        "select cleared_by, lift_reason from lockouts where agent_id = 'a' and cleared_at is not null",
    )
    .fetch_one(&t.api.pool)
    .await
    .unwrap();
    assert_eq!(history, ("lift".to_owned(), "a fixed the root cause elsewhere".to_owned()));
    // The agents' views agree: `a` has no active lockout left, `b` still has its own.
    let a = t.api.get(&t.url("/agents/a"), &t.coord).await;
    assert_eq!(a.expect(200, None)["lockouts"], json!([]));
    let b = t.api.get(&t.url("/agents/b"), &t.coord).await;
    assert_eq!(b.expect(200, None)["lockouts"][0]["artifact"], "module");
    // Lifted twice is not found; `a` may now be assigned and write the revision.
    let before = Before::take(&t, "module").await;
    let reply = t.api.post(&lift("a"), &t.user, reason).await;
    before.refused(&t, reply, 404, "not_found").await;
    t.assign("module", "a").await.expect(201, None);
    t.version("module", json!({ "author": "a" })).await.expect(201, None);
}

// R11 -----------------------------------------------------------------------------------------

#[sqlx::test]
async fn r11_waza_incomplete_rejection(pool: PgPool) {
    let t = Team::new(pool, json!({ "profile": "waza" }), &["a", "b"]).await;
    t.create("module", "a").await.expect(201, None);
    let before = Before::take(&t, "module").await;
    let reject = |evidence: Option<Value>| {
        let mut body = json!({ "reviewer": "q", "verdict": "reject", "reason": "wrong",
                               "remedy": { "action": "reassign" } });
        if let Some(e) = evidence {
            body["evidence"] = e;
        }
        t.review("module", 1, body)
    };
    let reply = reject(None).await;
    let reply = before.refused(&t, reply, 422, "incomplete_rejection").await;
    for field in ["counter_evidence", "violated_requirement", "affected_scope", "approval_condition"] {
        assert!(reply.body["detail"].as_str().unwrap().contains(field));
    }
    for field in ["counter_evidence", "violated_requirement", "affected_scope", "approval_condition"] {
        let mut partial = evidence();
        partial.as_object_mut().unwrap().remove(field);
        let reply = reject(Some(partial)).await;
        let reply = before.refused(&t, reply, 422, "incomplete_rejection").await;
        let detail = reply.body["detail"].as_str().unwrap();
        assert!(
            detail.ends_with(&format!("missing: {field}")),
            "the refusal names exactly the missing field: {detail}"
        );
    }
    let rejected = reject(Some(evidence())).await;
    let outcome = rejected.expect(201, None);
    assert_eq!(outcome["review"]["evidence"], evidence());
    assert_eq!(outcome["artifact"]["state"], "changes_requested");
}

#[sqlx::test]
async fn r11_waza_rejecting_reviewer_excluded(pool: PgPool) {
    let t = Team::new(pool, json!({ "profile": "waza" }), &["a", "b"]).await;
    // `r` reviews and may author: only the waza exclusion keeps it from the revision.
    t.api.agent("t", "r", json!({ "can_review": true, "can_author": true })).await;
    t.create("module", "a").await.expect(201, None);
    let reject = |remedy: Value| {
        let body = json!({ "reviewer": "r", "verdict": "reject", "reason": "wrong",
                           "remedy": remedy, "evidence": evidence() });
        t.review("module", 1, body)
    };
    let before = Before::take(&t, "module").await;
    let reply = reject(json!({ "action": "reassign", "agent": "r" })).await;
    before.refused(&t, reply, 409, "rejecting_reviewer_excluded").await;
    let rejected = reject(json!({ "action": "reassign" })).await;
    let artifact = &rejected.expect(201, None)["artifact"];
    assert_eq!(artifact["state"], "changes_requested");
    assert_eq!(agents(artifact), ["a"], "the reviewer is excluded, not locked out");
    assert_eq!(artifact["eligible_agents"], json!(["b"]));
    // Not assigned…
    let before = Before::take(&t, "module").await;
    let reply = t.assign("module", "r").await;
    before.refused(&t, reply, 409, "rejecting_reviewer_excluded").await;
    t.assign("module", "b").await.expect(201, None);
    // …nor credited on the next version, in any role.
    let before = Before::take(&t, "module").await;
    for role in ["co_author", "pair", "advisor"] {
        let body = json!({ "author": "b", "contributors": [{ "agent": "r", "role": role }] });
        let reply = t.version("module", body).await;
        before.refused(&t, reply, 409, "rejecting_reviewer_excluded").await;
    }
    let reply = t.version("module", json!({ "author": "r" })).await;
    before.refused(&t, reply, 409, "rejecting_reviewer_excluded").await;
    let check = t.api.post(&t.url("/checks"), &t.coord, json!({ "agent": "r", "artifact": "module" })).await;
    assert_eq!(check.expect(200, None)["denials"][0]["code"], "rejecting_reviewer_excluded");
    t.version("module", json!({ "author": "b" })).await.expect(201, None);
    // But it judges the next version: a focused re-review.
    let approved = t.review("module", 2, json!({ "reviewer": "r", "verdict": "approve" })).await;
    let outcome = approved.expect(201, None);
    assert_eq!(outcome["review"]["kind"], "focused_rereview");
    assert_eq!(outcome["artifact"]["state"], "approved");
    let version = t.api.get(&t.url("/artifacts/module/versions/2"), &t.coord).await;
    assert_eq!(version.expect(200, None)["reviews"][0]["kind"], "focused_rereview");
    let first = t.api.get(&t.url("/artifacts/module/versions/1"), &t.coord).await;
    assert_eq!(first.expect(200, None)["reviews"][0]["kind"], "review");
}

#[sqlx::test]
async fn r11_waza_the_excluded_reviewer_counts_towards_a_deadlock(pool: PgPool) {
    // `a` and `r` may author; once `a` is locked out and `r` excluded, nobody is left.
    let t = Team::new(pool, json!({ "profile": "waza" }), &["a"]).await;
    t.api.agent("t", "r", json!({ "can_review": true, "can_author": true })).await;
    t.create("module", "a").await.expect(201, None);
    let body = json!({ "reviewer": "r", "verdict": "reject", "reason": "wrong",
                       "remedy": { "action": "reassign" }, "evidence": evidence() });
    let rejected = t.review("module", 1, body).await;
    let artifact = &rejected.expect(201, None)["artifact"];
    assert_eq!(artifact["state"], "deadlocked");
    assert_eq!(artifact["eligible_agents"], json!([]));
    // Even the user may not hand the revision to the excluded reviewer.
    let body = json!({ "action": "assign", "agent": "r", "reason": "only one left" });
    let before = Before::take(&t, "module").await;
    let reply = t.api.post(&t.url("/artifacts/module/resolution"), &t.user, body).await;
    before.refused(&t, reply, 409, "rejecting_reviewer_excluded").await;
}

#[sqlx::test]
async fn r11_required_approvals(pool: PgPool) {
    let t = Team::new(pool, json!({ "required_approvals": 2 }), &["a", "b"]).await;
    t.api.agent("t", "q2", json!({ "can_review": true })).await;
    // Two distinct approvals close a version.
    t.create("module", "a").await.expect(201, None);
    let first = t.approve("module", 1).await;
    let artifact = &first.expect(201, None)["artifact"];
    assert_eq!(artifact["state"], "in_review");
    assert_eq!(artifact["current_version"]["reviews"].as_array().unwrap().len(), 1);
    let second = t.review("module", 1, json!({ "reviewer": "q2", "verdict": "approve" })).await;
    assert_eq!(second.expect(201, None)["artifact"]["state"], "approved");
    // A single rejection decides, even after an approval.
    t.create("other", "a").await.expect(201, None);
    t.approve("other", 1).await.expect(201, None);
    let body = json!({ "reviewer": "q2", "verdict": "reject", "reason": "no",
                       "remedy": { "action": "reassign" } });
    let rejected = t.review("other", 1, body).await;
    let artifact = &rejected.expect(201, None)["artifact"];
    assert_eq!(artifact["state"], "changes_requested");
    assert_eq!(agents(artifact), ["a"]);
    // A supersede starts the count again: approvals bind to one version.
    t.create("third", "a").await.expect(201, None);
    t.approve("third", 1).await.expect(201, None);
    t.version("third", json!({ "author": "a" })).await.expect(201, None);
    let again = t.review("third", 2, json!({ "reviewer": "q2", "verdict": "approve" })).await;
    assert_eq!(again.expect(201, None)["artifact"]["state"], "in_review");
}

// R12 -----------------------------------------------------------------------------------------

#[sqlx::test]
async fn r12_every_change_is_one_event(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b", "c"]).await;
    let mut expected = event_types(&t).await;
    assert_eq!(expected.first().map(String::as_str), Some("team.created"));
    // Each step: a write, and the one event it appends (none for a refusal).
    macro_rules! step {
        ($write:expr, $status:expr, $event:expr) => {{
            let reply = $write.await;
            reply.expect($status, None);
            let event: Option<&str> = $event;
            expected.extend(event.map(str::to_owned));
            assert_eq!(event_types(&t).await, expected, "after {}", stringify!($write));
        }};
    }
    let assignment = t.url("/artifacts/module/assignment");
    step!(t.create("module", "a"), 201, Some("artifact.created"));
    step!(t.create("module", "b"), 409, None);
    step!(t.version("module", json!({ "author": "b" })), 409, None);
    step!(t.reject("module", 1, json!({ "action": "reassign" })), 201, Some("review.rejected"));
    step!(t.approve("module", 1), 409, None);
    step!(t.assign("module", "a"), 409, None);
    step!(t.assign("module", "b"), 201, Some("assignment.created"));
    step!(t.api.delete(&assignment, &t.coord), 200, Some("assignment.released"));
    step!(t.api.delete(&assignment, &t.coord), 409, None);
    step!(t.assign("module", "c"), 201, Some("assignment.created"));
    step!(t.version("module", json!({ "author": "c" })), 201, Some("version.submitted"));
    step!(t.version("module", json!({ "author": "c" })), 201, Some("version.submitted"));
    step!(t.approve("module", 3), 201, Some("review.approved"));
    step!(t.approve("module", 3), 409, None);
    step!(t.version("module", json!({ "author": "a" })), 201, Some("version.submitted"));
    step!(t.reject("module", 4, json!({ "action": "reassign" })), 201, Some("review.rejected"));
    let lift = t.url("/artifacts/module/lockouts/a/lift");
    step!(t.api.post(&lift, &t.coord, json!({ "reason": "x" })), 403, None);
    step!(t.api.post(&lift, &t.user, json!({ "reason": "x" })), 200, Some("lockout.lifted"));
    // A deadlock is one event, and so is its resolution.
    let body = json!({ "key": "solo", "title": "solo", "author": "a", "contributors": [
        { "agent": "b", "role": "co_author" }, { "agent": "c", "role": "advisor" } ] });
    step!(t.api.post(&t.url("/artifacts"), &t.coord, body), 201, Some("artifact.created"));
    step!(t.reject("solo", 1, json!({ "action": "reassign" })), 201, Some("review.rejected"));
    let resolution = t.url("/artifacts/solo/resolution");
    let body = json!({ "action": "abandon", "reason": "stop" });
    step!(t.api.post(&resolution, &t.user, body.clone()), 200, Some("escalation.resolved"));
    step!(t.api.post(&resolution, &t.user, body), 409, None);
    // The deadlocking rejection says so in its data.
    let data: Value = sqlx::query_scalar(
        "select data from events where team_id = 't' and artifact = 'solo' and type = 'review.rejected'",
    )
    .fetch_one(&t.api.pool)
    .await
    .unwrap();
    assert_eq!(data["deadlocked"], true);
    assert_eq!(data["lockouts"], json!(["a", "b", "c"]));

    // The feed pages through the same events in seq order with `after`/`limit`/`next_after`.
    let mut after = 0;
    let mut seen = Vec::new();
    let mut seqs = Vec::new();
    loop {
        let page = t.api.get(&t.url(&format!("/events?after={after}&limit=3")), &t.coord).await;
        let page = page.expect(200, None).clone();
        let items = page["items"].as_array().unwrap();
        assert!(items.len() <= 3);
        if items.is_empty() {
            assert_eq!(page["next_after"], after, "an empty page keeps `after`");
            break;
        }
        for e in items {
            seqs.push(e["seq"].as_i64().unwrap());
            seen.push(e["type"].as_str().unwrap().to_owned());
            assert!(e["at"].is_string());
            assert!(e["data"].is_object());
        }
        assert_eq!(page["next_after"], items.last().unwrap()["seq"]);
        after = page["next_after"].as_i64().unwrap();
    }
    assert_eq!(seen, expected);
    assert_eq!(seqs, (1..=expected.len() as i64).collect::<Vec<_>>());
    let page = t.api.get(&t.url("/events?after=0&limit=1"), &t.coord).await;
    let page = page.expect(200, None);
    assert_eq!(page["items"][0]["type"], "team.created");
    assert_eq!(page["next_after"], 1);
    // The last `artifact.created` (solo's) has seq = its position + 1.
    let solo = expected.iter().rposition(|e| e == "artifact.created").unwrap();
    let created = t.api.get(&t.url(&format!("/events?after={solo}&limit=1")), &t.coord).await;
    let created = &created.expect(200, None)["items"][0];
    assert_eq!(created["type"], "artifact.created");
    assert_eq!(created["artifact"], "solo");
    assert_eq!(created["actor"], "a");
    assert_eq!(created["token"]["name"], "coordinator-token");
}

// The database backs R6 ------------------------------------------------------------------------

#[sqlx::test]
async fn database_refuses_a_version_crediting_a_locked_out_agent(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("module", "a").await.expect(201, None);
    t.reject("module", 1, json!({ "action": "reassign" })).await.expect(201, None);
    let id: i64 = sqlx::query_scalar("select id from artifacts where team_id = 't' and key = 'module'")
        .fetch_one(&t.api.pool)
        .await
        .unwrap();
    // Behind the service's back: a version by the locked-out author.
    let err = sqlx::query(
        "insert into versions (artifact_id, number, team_id, cycle, author) values ($1, 2, 't', 1, 'a')",
    )
    .bind(id)
    .execute(&t.api.pool)
    .await
    .unwrap_err();
    let db = err.as_database_error().expect("a database error");
    assert_eq!(db.constraint(), Some("versions_credit_not_locked_out"));
    // And a version by another author crediting it as a contributor.
    let mut tx = t.api.pool.begin().await.unwrap();
    sqlx::query(
        "insert into versions (artifact_id, number, team_id, cycle, author) values ($1, 2, 't', 1, 'b')",
    )
    .bind(id)
    .execute(&mut *tx)
    .await
    .unwrap();
    let err = sqlx::query(
        "insert into version_contributors (artifact_id, number, team_id, agent_id, role, position)
         values ($1, 2, 't', 'a', 'advisor', 1)",
    )
    .bind(id)
    .execute(&mut *tx)
    .await
    .unwrap_err();
    let db = err.as_database_error().expect("a database error");
    assert_eq!(db.constraint(), Some("versions_credit_not_locked_out"));
    tx.rollback().await.unwrap();
    assert_eq!(t.status("module").await["current_version"]["number"], 1);
}

// Checks --------------------------------------------------------------------------------------

#[sqlx::test]
async fn checks_match_paths_of_locked_out_artifacts(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    let read = t.api.token("t", "read").await;
    let body = json!({ "key": "auth", "title": "auth", "author": "a",
                       "paths": ["src/auth/**", "config/*.toml"] });
    let created = t.api.post(&t.url("/artifacts"), &t.coord, body).await;
    assert_eq!(created.expect(201, None)["paths"], json!(["src/auth/**", "config/*.toml"]));
    let check = async |body: Value| t.api.post(&t.url("/checks"), &read, body).await;
    // Before the rejection, `a` may write its files.
    let reply = check(json!({ "agent": "a", "paths": ["src/auth/login.rs"] })).await;
    assert_eq!(reply.expect(200, None)["allowed"], true);
    t.reject("auth", 1, json!({ "action": "reassign" })).await.expect(201, None);
    let reply = check(json!({ "agent": "a", "paths": ["src/auth/login.rs"] })).await;
    let result = reply.expect(200, None);
    assert_eq!(result["allowed"], false);
    assert_eq!(result["denials"].as_array().unwrap().len(), 1);
    assert_eq!(result["denials"][0]["code"], "agent_locked_out");
    assert_eq!(result["denials"][0]["artifact"], "auth");
    assert!(result["denials"][0]["detail"].as_str().unwrap().contains("src/auth/login.rs"));
    // `**` crosses directories; `*` does not cross `/`.
    for (paths, allowed) in [
        (json!(["src/auth/deep/er/mod.rs"]), false),
        (json!(["config/app.toml"]), false),
        (json!(["config/sub/x.toml"]), true),
        (json!(["src/billing.rs", "README.md"]), true),
        (json!(["README.md", "config/app.toml"]), false),
        (json!([]), true),
    ] {
        let reply = check(json!({ "agent": "a", "paths": paths })).await;
        assert_eq!(reply.expect(200, None)["allowed"], allowed, "{paths}");
    }
    // Another agent may write them.
    let reply = check(json!({ "agent": "b", "paths": ["src/auth/login.rs"] })).await;
    assert_eq!(reply.answer(), json!({ "allowed": true, "agent": "b", "denials": [] }));
    // By artifact: the lockout, a missing assignment, an agent who is nobody.
    let reply = check(json!({ "agent": "a", "artifact": "auth" })).await;
    assert_eq!(reply.expect(200, None)["denials"][0]["code"], "agent_locked_out");
    let reply = check(json!({ "agent": "b", "artifact": "auth" })).await;
    assert_eq!(reply.expect(200, None)["denials"][0]["code"], "not_assignee");
    let reply = check(json!({ "agent": "ghost", "artifact": "auth" })).await;
    let result = reply.expect(200, None);
    assert_eq!(result["allowed"], false);
    assert_eq!(result["denials"][0]["code"], "invalid_agent");
    assert_eq!(result["denials"][0]["artifact"], serde_json::Value::Null, "the agent itself may not write");
    let reply = check(json!({ "agent": "ghost", "paths": ["README.md"] })).await;
    assert_eq!(reply.expect(200, None)["denials"][0]["code"], "invalid_agent");
    // Both at once: one denial each.
    let reply = check(json!({ "agent": "a", "artifact": "auth", "paths": ["config/app.toml"] })).await;
    assert_eq!(reply.expect(200, None)["denials"].as_array().unwrap().len(), 2);
    // Neither: nothing to check.
    let reply = check(json!({ "agent": "a" })).await;
    assert_eq!(invalid_fields(&reply), ["artifact"]);
    // A team that does not exist is not found, whichever the check asks about.
    for body in
        [json!({ "agent": "a", "paths": ["src/auth/login.rs"] }), json!({ "agent": "a", "artifact": "auth" })]
    {
        let reply = t.api.post("/v1/teams/nope/checks", crate::common::ADMIN, body).await;
        problem(&reply, 404, "not_found");
    }
    // A check writes nothing.
    let events = event_types(&t).await;
    check(json!({ "agent": "a", "artifact": "auth" })).await.expect(200, None);
    assert_eq!(event_types(&t).await, events);
}

#[sqlx::test]
async fn a_deadlock_whose_lockouts_were_lifted_still_waits_for_the_user(pool: PgPool) {
    // `a` is the only author: the first rejection deadlocks `auth`.
    let t = Team::new(pool, Value::Null, &["a"]).await;
    t.create("auth", "a").await.expect(201, None);
    t.reject("auth", 1, json!({ "action": "reassign" })).await.expect(201, None);
    let lift = t.url("/artifacts/auth/lockouts/a/lift");
    t.api.post(&lift, &t.user, json!({ "reason": "a has learnt" })).await.expect(200, None);
    let status = t.status("auth").await;
    assert_eq!((status["state"].as_str(), agents(&status).len()), (Some("deadlocked"), 0));
    // Nobody is locked out any more: the answer says what is true, that the user must resolve it.
    let reply = t.api.post(&t.url("/checks"), &t.coord, json!({ "agent": "a", "artifact": "auth" })).await;
    let denial = &reply.expect(200, None)["denials"][0];
    assert_eq!(denial["code"], "deadlocked");
    let detail = denial["detail"].as_str().unwrap();
    assert!(!detail.contains("every eligible agent is locked out"), "{detail}");
    assert!(detail.contains("lifted") && detail.contains("the user resolves it"), "{detail}");
    let before = Before::take(&t, "auth").await;
    let reply = before.refused(&t, t.assign("auth", "a").await, 409, "deadlocked").await;
    assert!(reply.body["detail"].as_str().unwrap().contains("the user resolves it"), "{}", reply.body);
    // The user does.
    let body = json!({ "action": "assign", "agent": "a", "reason": "a has learnt" });
    let resolved = t.api.post(&t.url("/artifacts/auth/resolution"), &t.user, body).await;
    assert_eq!(resolved.expect(200, None)["state"], "in_revision");
}

// Lists ---------------------------------------------------------------------------------------

#[sqlx::test]
async fn lists_of_artifacts_filter_and_page(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b", "c"]).await;
    t.create("alpha", "a").await.expect(201, None);
    t.create("beta", "b").await.expect(201, None);
    t.create("gamma", "a").await.expect(201, None);
    // `b` only contributes to delta, and is locked out of it after the rejection.
    let body = json!({ "key": "delta", "title": "delta", "author": "c",
                       "contributors": [{ "agent": "b", "role": "advisor" }] });
    t.api.post(&t.url("/artifacts"), &t.coord, body).await.expect(201, None);
    t.reject("beta", 1, json!({ "action": "reassign" })).await.expect(201, None);
    t.reject("delta", 1, json!({ "action": "reassign" })).await.expect(201, None);
    let list = async |query: &str| t.api.get(&t.url(&format!("/artifacts{query}")), &t.coord).await;
    let all = list("").await;
    assert_eq!(keys(all.expect(200, None)), ["alpha", "beta", "delta", "gamma"]);
    assert_eq!(all.body["next_cursor"], Value::Null);
    let page = list("?state=changes_requested").await;
    assert_eq!(keys(page.expect(200, None)), ["beta", "delta"]);
    let page = list("?state=in_review").await;
    assert_eq!(keys(page.expect(200, None)), ["alpha", "gamma"]);
    let page = list("?state=approved").await;
    assert!(keys(page.expect(200, None)).is_empty());
    // Authored or locked out.
    let page = list("?agent=a").await;
    assert_eq!(keys(page.expect(200, None)), ["alpha", "gamma"]);
    let page = list("?agent=b").await;
    assert_eq!(keys(page.expect(200, None)), ["beta", "delta"]);
    let page = list("?agent=b&state=changes_requested&limit=1").await;
    assert_eq!(keys(page.expect(200, None)), ["beta"]);
    assert_eq!(page.body["next_cursor"], "beta");
    // One at a time through the cursor.
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let query = match &cursor {
            Some(c) => format!("?limit=1&cursor={c}"),
            None => "?limit=1".to_owned(),
        };
        let page = list(&query).await;
        let body = page.expect(200, None);
        seen.extend(keys(body).into_iter().map(str::to_owned));
        match body["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    assert_eq!(seen, ["alpha", "beta", "delta", "gamma"]);
    let summary = &list("?limit=1").await.body["items"][0];
    assert_eq!(summary["state"], "in_review");
    assert_eq!(summary["original_author"], "a");
    assert_eq!(summary["current_version"], 1);
    // An unknown state is a shape error.
    let reply = list("?state=done").await;
    assert_eq!(invalid_fields(&reply), ["state"]);
    let reply = list("?limit=0").await;
    assert_eq!(invalid_fields(&reply), ["limit"]);
}

#[sqlx::test]
async fn lists_of_versions_carry_their_reviews(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("module", "a").await.expect(201, None);
    t.reject("module", 1, json!({ "action": "reassign" })).await.expect(201, None);
    t.assign("module", "b").await.expect(201, None);
    t.version("module", json!({ "author": "b", "ref": "r2", "summary": "handles errors" }))
        .await
        .expect(201, None);
    let versions = t.url("/artifacts/module/versions");
    let read = t.api.token("t", "read").await;
    let all = t.api.get(&versions, &read).await;
    let all = all.expect(200, None);
    assert_eq!(all["next_cursor"], Value::Null);
    let items = all["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["number"], 1);
    assert_eq!(items[0]["author"], "a");
    assert_eq!(items[0]["reviews"][0]["verdict"], "reject");
    assert_eq!(items[0]["reviews"][0]["reviewer"], "q");
    assert_eq!(items[0]["reviews"][0]["remedy"]["action"], "reassign");
    assert_eq!(items[1]["number"], 2);
    assert_eq!(items[1]["author"], "b");
    assert_eq!(items[1]["summary"], "handles errors");
    assert_eq!(items[1]["reviews"], json!([]));
    let first = t.api.get(&format!("{versions}?limit=1"), &t.coord).await;
    let first = first.expect(200, None);
    assert_eq!(first["items"].as_array().unwrap().len(), 1);
    assert_eq!(first["items"][0]["number"], 1);
    let cursor = first["next_cursor"].as_str().unwrap().to_owned();
    let second = t.api.get(&format!("{versions}?limit=1&cursor={cursor}"), &t.coord).await;
    let second = second.expect(200, None);
    assert_eq!(second["items"][0]["number"], 2);
    assert_eq!(second["next_cursor"], Value::Null);
    let one = t.api.get(&format!("{versions}/2"), &t.coord).await;
    let one = one.expect(200, None);
    assert_eq!(one["author"], "b");
    assert_eq!(one["ref"], "r2");
    assert_eq!(one["cycle"], 1);
    for n in ["3", "0", "-1", "-2147483648", "2147483647"] {
        problem(&t.api.get(&format!("{versions}/{n}"), &t.coord).await, 404, "not_found");
    }
    problem(&t.api.get(&t.url("/artifacts/nothing/versions"), &t.coord).await, 404, "not_found");
}

#[sqlx::test]
async fn lists_of_lockouts_filter_by_agent_and_artifact(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b", "c"]).await;
    let body = json!({ "key": "auth", "title": "auth", "author": "a",
                       "contributors": [{ "agent": "b", "role": "pair" }] });
    t.api.post(&t.url("/artifacts"), &t.coord, body).await.expect(201, None);
    t.create("billing", "a").await.expect(201, None);
    t.reject("auth", 1, json!({ "action": "reassign" })).await.expect(201, None);
    t.reject("billing", 1, json!({ "action": "reassign" })).await.expect(201, None);
    let lockouts = async |query: &str| t.api.get(&t.url(&format!("/lockouts{query}")), &t.coord).await;
    let pairs = |reply: &Reply| -> Vec<(String, String)> {
        reply.body["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| (l["artifact"].as_str().unwrap().to_owned(), l["agent"].as_str().unwrap().to_owned()))
            .collect()
    };
    let p = |a: &str, b: &str| (a.to_owned(), b.to_owned());
    let all = lockouts("").await;
    all.expect(200, None);
    assert_eq!(pairs(&all), [p("auth", "a"), p("auth", "b"), p("billing", "a")]);
    let reply = lockouts("?agent=a").await;
    reply.expect(200, None);
    assert_eq!(pairs(&reply), [p("auth", "a"), p("billing", "a")]);
    let reply = lockouts("?artifact=auth").await;
    reply.expect(200, None);
    assert_eq!(pairs(&reply), [p("auth", "a"), p("auth", "b")]);
    let reply = lockouts("?agent=b&artifact=billing").await;
    assert_eq!(reply.expect(200, None)["items"], json!([]));
    let reply = lockouts("?agent=c").await;
    assert_eq!(reply.expect(200, None)["items"], json!([]));
    // Filters select: an unknown agent and an unknown artifact answer alike, with no lockouts
    // and the list's ETag.
    for query in
        ["?agent=ghost", "?artifact=nothing", "?artifact=auth&agent=ghost", "?artifact=nothing&agent=a"]
    {
        let reply = lockouts(query).await;
        assert_eq!(reply.expect(200, None)["items"], json!([]), "{query}");
        assert_eq!(reply.headers["etag"], all.headers["etag"], "{query}");
    }
    // An approval takes the artifact's lockouts off the list.
    t.assign("billing", "c").await.expect(201, None);
    t.version("billing", json!({ "author": "c" })).await.expect(201, None);
    t.approve("billing", 2).await.expect(201, None);
    let reply = lockouts("?agent=a").await;
    reply.expect(200, None);
    assert_eq!(pairs(&reply), [p("auth", "a")]);
}

#[sqlx::test]
async fn an_artifact_key_with_a_slash(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    let created = t.create("src/auth.rs", "a").await;
    assert_eq!(created.expect(201, None)["key"], "src/auth.rs");
    // In a path, the `/` is encoded.
    let key = "src%2Fauth.rs";
    let status = t.status(key).await;
    assert_eq!(status["key"], "src/auth.rs");
    let rejected = t.reject(key, 1, json!({ "action": "reassign" })).await;
    assert_eq!(rejected.expect(201, None)["artifact"]["state"], "changes_requested");
    t.assign(key, "b").await.expect(201, None);
    t.version(key, json!({ "author": "b" })).await.expect(201, None);
    let versions = t.api.get(&t.url(&format!("/artifacts/{key}/versions/1")), &t.coord).await;
    assert_eq!(versions.expect(200, None)["reviews"][0]["verdict"], "reject");
    let lockouts = t.api.get(&t.url(&format!("/lockouts?artifact={key}")), &t.coord).await;
    let lockouts = lockouts.expect(200, None);
    assert_eq!(lockouts["items"][0]["artifact"], "src/auth.rs");
    assert_eq!(agents(&lockouts["items"]), ["a"]);
    let reply =
        t.api.post(&t.url("/checks"), &t.coord, json!({ "agent": "a", "artifact": "src/auth.rs" })).await;
    assert_eq!(reply.expect(200, None)["denials"][0]["code"], "agent_locked_out");
    assert_eq!(t.approve(key, 2).await.expect(201, None)["artifact"]["state"], "approved");
}

#[sqlx::test]
async fn creating_an_artifact_whose_key_exists_conflicts(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("module", "a").await.expect(201, None);
    let before = Before::take(&t, "module").await;
    for author in ["a", "b"] {
        let reply = t.create("module", author).await;
        before.refused(&t, reply, 409, "artifact_exists").await;
    }
    // Another team may use the key.
    t.api.team("u", Value::Null).await;
    t.api.agent("u", "a", json!({})).await;
    let body = json!({ "key": "module", "title": "module", "author": "a" });
    t.api.post("/v1/teams/u/artifacts", crate::common::ADMIN, body).await.expect(201, None);
}
