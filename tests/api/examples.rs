//! PROTOCOL §6: the seed's four examples, and each of its anti-patterns as a refused call.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::Api;

/// A team with authors `a`, `b`, `c`, reviewer `q` (who cannot author) and a coordinator token.
pub struct Team {
    pub api: Api,
    pub coord: String,
    pub user: String,
}

impl Team {
    pub async fn new(pool: PgPool, policy: Value, authors: &[&str]) -> Team {
        Team::on(Api::new(pool), policy, authors).await
    }

    /// The team `t` on this API, with these authors and the reviewer `q`.
    pub async fn on(api: Api, policy: Value, authors: &[&str]) -> Team {
        api.team("t", policy).await;
        for a in authors {
            api.agent("t", a, json!({ "kind": "ai", "roles": ["engineer"] })).await;
        }
        api.agent("t", "q", json!({ "roles": ["tester"], "can_review": true, "can_author": false })).await;
        let coord = api.token("t", "coordinator").await;
        let user = api.token("t", "user").await;
        Team { api, coord, user }
    }

    pub fn url(&self, path: &str) -> String {
        format!("/v1/teams/t{path}")
    }

    pub async fn create(&self, key: &str, author: &str) -> crate::common::Reply {
        self.api
            .post(
                &self.url("/artifacts"),
                &self.coord,
                json!({ "key": key, "title": key, "author": author, "ref": "r1" }),
            )
            .await
    }

    pub async fn version(&self, key: &str, body: Value) -> crate::common::Reply {
        self.api.post(&self.url(&format!("/artifacts/{key}/versions")), &self.coord, body).await
    }

    pub async fn review(&self, key: &str, n: i32, body: Value) -> crate::common::Reply {
        self.api.post(&self.url(&format!("/artifacts/{key}/versions/{n}/reviews")), &self.coord, body).await
    }

    pub async fn reject(&self, key: &str, n: i32, remedy: Value) -> crate::common::Reply {
        let body = json!({ "reviewer": "q", "verdict": "reject", "grounds": "quality",
                           "reason": "error handling is missing", "remedy": remedy });
        self.review(key, n, body).await
    }

    pub async fn approve(&self, key: &str, n: i32) -> crate::common::Reply {
        self.review(key, n, json!({ "reviewer": "q", "verdict": "approve" })).await
    }

    pub async fn assign(&self, key: &str, agent: &str) -> crate::common::Reply {
        self.api
            .post(&self.url(&format!("/artifacts/{key}/assignment")), &self.coord, json!({ "agent": agent }))
            .await
    }

    pub async fn status(&self, key: &str) -> Value {
        self.api.get(&self.url(&format!("/artifacts/{key}")), &self.coord).await.expect(200, None).clone()
    }
}

fn lockout_agents(status: &Value) -> Vec<&str> {
    status["lockouts"].as_array().unwrap().iter().map(|l| l["agent"].as_str().unwrap()).collect()
}

#[sqlx::test]
async fn example_1_reassign_after_rejection(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    // 1. A writes the authentication module.
    let created = t.create("auth", "a").await;
    assert_eq!(created.expect(201, None)["state"], "in_review");
    // 2. Q rejects: another engineer should fix it.
    let rejected = t.reject("auth", 1, json!({ "action": "reassign" })).await;
    let artifact = &rejected.expect(201, None)["artifact"];
    // 3. A is locked out of this artifact.
    assert_eq!(artifact["state"], "changes_requested");
    assert_eq!(lockout_agents(artifact), ["a"]);
    assert_eq!(artifact["eligible_agents"], json!(["b"]));
    // R7: A may write another artifact at any time.
    t.create("billing", "a").await.expect(201, None);
    // 4. The coordinator verifies before spawning: A is refused, B is assigned.
    t.assign("auth", "a").await.expect(409, Some("agent_locked_out"));
    assert_eq!(t.assign("auth", "b").await.expect(201, None)["state"], "in_revision");
    // 5. B produces v2.
    let v2 = t.version("auth", json!({ "author": "b", "ref": "r2" })).await;
    assert_eq!(v2.expect(201, None)["number"], 2);
    assert_eq!(lockout_agents(&t.status("auth").await), ["a"], "lockouts persist until approval");
    // 6. Q approves v2.
    let approved = t.approve("auth", 2).await;
    let artifact = &approved.expect(201, None)["artifact"];
    assert_eq!(artifact["state"], "approved");
    // 7. The lockout clears.
    assert!(lockout_agents(artifact).is_empty());
    let lockouts = t.api.get(&t.url("/lockouts"), &t.coord).await;
    assert_eq!(lockouts.expect(200, None)["items"], json!([]));
}

#[sqlx::test]
async fn example_2_escalate_for_expertise(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.api.agent("t", "lead", json!({ "roles": ["lead"], "can_review": true })).await;
    t.create("ts-config", "a").await.expect(201, None);
    let body = json!({ "reviewer": "lead", "verdict": "reject", "reason": "needs deeper TS knowledge",
                       "remedy": { "action": "escalate", "expertise": ["typescript"] } });
    let rejected = t.review("ts-config", 1, body).await;
    let artifact = &rejected.expect(201, None)["artifact"];
    assert_eq!(artifact["pending_remedy"]["action"], "escalate");
    assert_eq!(artifact["eligible_agents"], json!([]), "nobody has the expertise yet");
    assert_eq!(artifact["state"], "changes_requested", "an escalation does not deadlock");
    // The coordinator adds a TypeScript expert.
    t.api.agent("t", "ts", json!({ "expertise": ["typescript"] })).await;
    // An agent without the expertise is refused.
    t.assign("ts-config", "b").await.expect(409, Some("expertise_mismatch"));
    t.assign("ts-config", "ts").await.expect(201, None);
    t.version("ts-config", json!({ "author": "ts" })).await.expect(201, None);
    let body = json!({ "reviewer": "lead", "verdict": "approve" });
    assert_eq!(t.review("ts-config", 2, body).await.expect(201, None)["artifact"]["state"], "approved");
}

#[sqlx::test]
async fn example_3_deadlock_goes_to_the_user(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b", "c"]).await;
    t.create("module", "a").await.expect(201, None);
    t.reject("module", 1, json!({ "action": "reassign" })).await.expect(201, None);
    t.assign("module", "b").await.expect(201, None);
    t.version("module", json!({ "author": "b" })).await.expect(201, None);
    t.reject("module", 2, json!({ "action": "reassign" })).await.expect(201, None);
    t.assign("module", "c").await.expect(201, None);
    t.version("module", json!({ "author": "c" })).await.expect(201, None);
    let artifact =
        t.reject("module", 3, json!({ "action": "reassign" })).await.expect(201, None)["artifact"].clone();
    assert_eq!(artifact["state"], "deadlocked");
    assert_eq!(lockout_agents(&artifact), ["a", "b", "c"]);
    // The open escalation lists all three, with the versions and rejections.
    let escalations = t.api.get(&t.url("/escalations"), &t.coord).await.expect(200, None).clone();
    let details = &escalations["items"][0]["details"];
    assert_eq!(escalations["items"][0]["artifact"], "module");
    assert_eq!(details["authors"], json!(["a", "b", "c"]));
    assert_eq!(details["rejections"].as_array().unwrap().len(), 3);
    assert_eq!(details["lockouts"].as_array().unwrap().len(), 3);
    // Any assignment is refused, a locked-out author included.
    for agent in ["a", "b", "c"] {
        t.assign("module", agent).await.expect(409, Some("deadlocked"));
    }
    // D joins; the coordinator still cannot assign at a deadlock.
    t.api.agent("t", "d", json!({})).await;
    t.assign("module", "d").await.expect(409, Some("deadlocked"));
    // Even the user cannot re-admit a locked-out author.
    let resolution = t.url("/artifacts/module/resolution");
    for agent in ["a", "b", "c"] {
        let body = json!({ "action": "assign", "agent": agent, "reason": "try again" });
        t.api.post(&resolution, &t.user, body).await.expect(409, Some("agent_locked_out"));
    }
    let body = json!({ "action": "assign", "agent": "d", "reason": "fresh eyes" });
    t.api.post(&resolution, &t.coord, body.clone()).await.expect(403, Some("forbidden"));
    let resolved = t.api.post(&resolution, &t.user, body).await;
    assert_eq!(resolved.expect(200, None)["state"], "in_revision");
    assert_eq!(resolved.body["assignment"]["agent"], "d");
    assert_eq!(resolved.body["escalation"], Value::Null);
    assert_eq!(t.api.get(&t.url("/escalations"), &t.coord).await.body["items"], json!([]));
    t.version("module", json!({ "author": "d" })).await.expect(201, None);
    assert_eq!(t.approve("module", 4).await.expect(201, None)["artifact"]["state"], "approved");
}

#[sqlx::test]
async fn example_4_reviewer_names_the_original_author(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("module", "a").await.expect(201, None);
    let before = t.status("module").await;
    t.reject("module", 1, json!({ "action": "reassign", "agent": "a" }))
        .await
        .expect(409, Some("locked_out_agent_named"));
    // Nothing was recorded.
    let after = t.status("module").await;
    assert_eq!(after["state"], "in_review");
    assert_eq!(after["lockouts"], json!([]));
    assert_eq!(after["revision"], before["revision"]);
    assert_eq!(after["current_version"]["reviews"], json!([]));
    // The reviewer names a different agent.
    let rejected = t.reject("module", 1, json!({ "action": "reassign", "agent": "b" })).await;
    let artifact = &rejected.expect(201, None)["artifact"];
    assert_eq!(artifact["pending_remedy"]["agent"], "b");
    t.assign("module", "b").await.expect(201, None);
}

/// A rejected `module` by `a` with `b` assigned.
async fn in_revision(pool: PgPool) -> Team {
    let t = Team::new(pool, Value::Null, &["a", "b", "c"]).await;
    t.create("module", "a").await.expect(201, None);
    t.reject("module", 1, json!({ "action": "reassign" })).await.expect(201, None);
    t.assign("module", "b").await.expect(201, None);
    t
}

#[sqlx::test]
async fn anti_pattern_self_revision(pool: PgPool) {
    let t = in_revision(pool).await;
    t.version("module", json!({ "author": "a" })).await.expect(409, Some("agent_locked_out"));
    assert_eq!(t.status("module").await["current_version"]["number"], 1);
}

#[sqlx::test]
async fn anti_pattern_locked_out_author_as_co_author_advisor_or_pair(pool: PgPool) {
    let t = in_revision(pool).await;
    for role in ["co_author", "advisor", "pair"] {
        let body = json!({ "author": "b", "contributors": [{ "agent": "a", "role": role }] });
        let reply = t.version("module", body).await;
        reply.expect(409, Some("agent_locked_out"));
        assert!(reply.body["detail"].as_str().unwrap().contains(role), "the refusal names the role");
    }
    assert_eq!(t.status("module").await["current_version"]["number"], 1);
}

#[sqlx::test]
async fn anti_pattern_readmission_at_deadlock_by_a_coordinator(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    t.create("module", "a").await.expect(201, None);
    let rejected = t.reject("module", 1, json!({ "action": "reassign" })).await;
    assert_eq!(rejected.expect(201, None)["artifact"]["state"], "deadlocked");
    t.assign("module", "a").await.expect(409, Some("deadlocked"));
    t.version("module", json!({ "author": "a" })).await.expect(409, Some("agent_locked_out"));
    let lift = t.url("/artifacts/module/lockouts/a/lift");
    t.api.post(&lift, &t.coord, json!({ "reason": "let a retry" })).await.expect(403, Some("forbidden"));
    assert_eq!(t.status("module").await["state"], "deadlocked");
}

#[sqlx::test]
async fn anti_pattern_lockout_applied_across_artifacts(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("auth", "a").await.expect(201, None);
    t.create("billing", "b").await.expect(201, None);
    t.reject("auth", 1, json!({ "action": "reassign" })).await.expect(201, None);
    // A is locked out of auth only: it may author billing's next version and review it.
    t.api.agent("t", "a", json!({ "can_review": true })).await;
    let body = json!({ "reviewer": "a", "verdict": "approve" });
    t.review("billing", 1, body).await.expect(201, None);
    t.version("billing", json!({ "author": "a" })).await.expect(201, None);
    let check = t.api.post(&t.url("/checks"), &t.coord, json!({ "agent": "a", "artifact": "billing" })).await;
    assert_eq!(check.expect(200, None)["allowed"], true, "a may supersede its own billing v2");
    let check = t.api.post(&t.url("/checks"), &t.coord, json!({ "agent": "a", "artifact": "auth" })).await;
    assert_eq!(check.expect(200, None)["denials"][0]["code"], "agent_locked_out");
    let check =
        t.api.post(&t.url("/checks"), &t.coord, json!({ "agent": "a", "artifact": "new-thing" })).await;
    assert_eq!(check.expect(200, None)["allowed"], true);
}

#[sqlx::test]
async fn anti_pattern_naming_the_author(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("module", "a").await.expect(201, None);
    let remedy = json!({ "action": "escalate", "expertise": ["auth"], "agent": "a" });
    t.reject("module", 1, remedy).await.expect(409, Some("locked_out_agent_named"));
    assert_eq!(t.status("module").await["state"], "in_review");
}

#[sqlx::test]
async fn anti_pattern_clearing_a_lockout_before_approval(pool: PgPool) {
    let t = in_revision(pool).await;
    // No coordinator call clears a lockout: not a lift, not a release, not a new assignment.
    let lift = t.url("/artifacts/module/lockouts/a/lift");
    t.api.post(&lift, &t.coord, json!({ "reason": "done" })).await.expect(403, Some("forbidden"));
    t.api.delete(&t.url("/artifacts/module/assignment"), &t.coord).await.expect(200, None);
    t.assign("module", "c").await.expect(201, None);
    t.version("module", json!({ "author": "c" })).await.expect(201, None);
    assert_eq!(lockout_agents(&t.status("module").await), ["a"]);
    // A rejection of the revision adds to them; approval clears them all.
    t.reject("module", 2, json!({ "action": "reassign" })).await.expect(201, None);
    assert_eq!(lockout_agents(&t.status("module").await), ["a", "c"]);
    t.assign("module", "b").await.expect(201, None);
    t.version("module", json!({ "author": "b" })).await.expect(201, None);
    t.approve("module", 3).await.expect(201, None);
    assert!(lockout_agents(&t.status("module").await).is_empty());
    // The history stays.
    let cleared: i64 = sqlx::query_scalar("select count(*) from lockouts where cleared_by = 'approval'")
        .fetch_one(&t.api.pool)
        .await
        .unwrap();
    assert_eq!(cleared, 2);
}

#[sqlx::test]
async fn anti_pattern_revising_without_a_verified_assignment(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("module", "a").await.expect(201, None);
    t.reject("module", 1, json!({ "action": "reassign" })).await.expect(201, None);
    t.version("module", json!({ "author": "b" })).await.expect(409, Some("not_assignee"));
}
