//! The spec's typed events match what the service emits: every event of a run through each use
//! case reads back as its schema's type and as its `EventData` (no field unknown, missing or of
//! another shape), and the run emits every type. Escalation details likewise.

use std::collections::BTreeSet;

use reviewlock::resources::EscalationDetails;
use reviewlock::resources::events::{EVENT_TYPES, EventData, TypedEvent};
use serde_json::{Value, json};
use sqlx::PgPool;

use std::time::Duration;

use crate::common::{ADMIN, Api};
use crate::examples::Team;
use crate::receiver::Receiver;

/// Where a source file spells an event type as a string literal.
fn type_literals(path: &std::path::Path, found: &mut Vec<String>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            type_literals(&entry.unwrap().path(), found);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        let source = std::fs::read_to_string(path).unwrap();
        for name in EVENT_TYPES {
            if source.contains(&format!("\"{name}\"")) {
                found.push(format!("{}: \"{name}\"", path.display()));
            }
        }
    }
}

/// A use case writes an `EventData` and code that reads an event matches on it: the `type`
/// strings are spelled once, where `EventData` is defined, and nowhere else in `src`.
#[test]
fn event_types_are_spelled_only_where_event_data_is_defined() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    type_literals(&root.join("src"), &mut found);
    let defined = root.join("src/resources/events.rs").display().to_string();
    found.retain(|f| !f.starts_with(&defined));
    assert_eq!(found, Vec::<String>::new());
}

#[sqlx::test]
async fn every_event_reads_back_as_its_schema(pool: PgPool) {
    // A waza team needing two approvals, so an approval can leave a version in review; its
    // deliveries reach 127.0.0.1, with this process's delivery worker running.
    let api = Api::delivering(pool);
    let t = Team::on(api, json!({ "required_approvals": 2 }), &["a", "b", "c"]).await;
    let api = &t.api;
    api.put("/v1/teams/t", ADMIN, json!({ "display_name": "T" })).await.expect(200, None);
    api.agent("t", "q2", json!({ "roles": ["tester"], "can_review": true, "can_author": false })).await;
    api.agent("t", "c", json!({ "expertise": ["rust"] })).await;
    let token = api.post("/v1/teams/t/tokens", ADMIN, json!({ "name": "hook", "scope": "read" })).await;
    let id = token.expect(201, None)["id"].as_str().unwrap().to_owned();
    api.delete(&format!("/v1/teams/t/tokens/{id}"), ADMIN).await.expect(204, None);

    // Approved by two reviewers (one approval first leaves it in review), then a new cycle.
    t.create("auth", "a").await.expect(201, None);
    t.approve("auth", 1).await.expect(201, None);
    t.review("auth", 1, json!({ "reviewer": "q2", "verdict": "approve" })).await.expect(201, None);
    t.version("auth", json!({ "author": "a", "contributors": [{ "agent": "b", "role": "pair" }] }))
        .await
        .expect(201, None);
    // Rejected, assigned, released, assigned again, revised; a lockout lifted by the user.
    t.reject("auth", 2, json!({ "action": "reassign", "agent": "c" })).await.expect(201, None);
    t.assign("auth", "c").await.expect(201, None);
    api.delete(&t.url("/artifacts/auth/assignment"), &t.coord).await.expect(200, None);
    t.assign("auth", "c").await.expect(201, None);
    t.version("auth", json!({ "author": "c" })).await.expect(201, None);
    let lift = t.url("/artifacts/auth/lockouts/a/lift");
    api.post(&lift, &t.user, json!({ "reason": "a only paired on it" })).await.expect(200, None);

    // Deadlocked by three rejections, resolved by the user with a new agent.
    t.create("billing", "a").await.expect(201, None);
    for (n, next) in [(1, "b"), (2, "c")] {
        t.reject("billing", n, json!({ "action": "reassign" })).await.expect(201, None);
        t.assign("billing", next).await.expect(201, None);
        t.version("billing", json!({ "author": next })).await.expect(201, None);
    }
    let deadlocked = t.reject("billing", 3, json!({ "action": "reassign" })).await;
    let artifact = deadlocked.expect(201, None)["artifact"].clone();
    assert_eq!(artifact["state"], "deadlocked");
    api.agent("t", "d", json!({})).await;
    let resolution = json!({ "action": "assign", "agent": "d", "reason": "d joined for this" });
    api.post(&t.url("/artifacts/billing/resolution"), &t.user, resolution).await.expect(200, None);

    // A webhook created, changed, rotated, disabled by a `410 Gone`, deleted; a forge set up,
    // changed, disabled after failing for 5 days, removed.
    let receiver = Receiver::start().await;
    receiver.answer(410);
    let hook = json!({ "url": receiver.url, "events": ["review.*"] });
    let hook = api.post("/v1/teams/t/webhooks", ADMIN, hook).await.expect(201, None)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let hook = format!("/v1/teams/t/webhooks/{hook}");
    let patch = json!({ "description": "reviews" });
    api.send(axum::http::Method::PATCH, &hook, Some(ADMIN), Some(patch)).await.expect(200, None);
    api.post(&format!("{hook}/rotate"), ADMIN, json!({})).await.expect(200, None);
    let forge = json!({ "kind": "github", "api_url": receiver.url, "repository": "acme/web", "token": "t" });
    api.put("/v1/teams/t/forges/github", ADMIN, forge.clone()).await.expect(201, None);
    api.put("/v1/teams/t/forges/github", ADMIN, forge).await.expect(200, None);
    t.version("auth", json!({ "author": "c", "ref": "d".repeat(40) })).await.expect(201, None);
    t.approve("auth", 4).await.expect(201, None);
    receiver.until(Duration::from_secs(30), |r| r.len() >= 2).await;
    sqlx::query(
        "update delivery_targets set failing_since = now() - interval '6 days', next_attempt_at = now()",
    )
    .execute(&api.pool)
    .await
    .unwrap();
    api.state.outbox.wake.notify_one();
    let started = std::time::Instant::now();
    while sqlx::query_scalar::<_, bool>("select bool_or(enabled) from delivery_targets")
        .fetch_one(&api.pool)
        .await
        .unwrap()
    {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the webhook and the forge are not both disabled"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    api.delete(&hook, ADMIN).await.expect(204, None);
    api.delete("/v1/teams/t/forges/github", ADMIN).await.expect(204, None);

    let page = api.get(&t.url("/events?limit=500"), &t.coord).await;
    let events = page.expect(200, None)["items"].as_array().unwrap().clone();
    let mut seen = BTreeSet::new();
    for event in events {
        let kind = event["type"].as_str().unwrap().to_owned();
        if let Err(e) = TypedEvent::parse(event.clone()) {
            panic!("{e}\n{event:#}");
        }
        // Read as the service reads it, and written back, the data is the same to the key: a
        // key absent stays absent, a null stays null.
        let data =
            EventData::parse(&kind, &event["data"].to_string()).unwrap_or_else(|e| panic!("{e}\n{event:#}"));
        assert_eq!(data.type_name(), kind);
        assert_eq!(serde_json::to_value(&data).unwrap(), event["data"], "{event:#}");
        seen.insert(kind);
    }
    let listed: BTreeSet<String> = EVENT_TYPES.iter().map(|t| t.to_string()).collect();
    assert_eq!(seen, listed, "the run emits every event type");

    // The escalation's details read back as `EscalationDetails`.
    let value: Value = artifact["escalation"]["details"].clone();
    let details: Result<EscalationDetails, _> = serde_json::from_value(value.clone());
    let details = details.unwrap_or_else(|e| panic!("{e}\n{value:#}"));
    assert_eq!(details.authors, ["a", "b", "c"]);
}
