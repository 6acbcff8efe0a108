//! A write's reply is the state its own transaction left: built from the rows it locked, loaded
//! and changed, it must equal what a read returns right after, for every kind of write.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::Reply;
use crate::examples::Team;

/// Asserts that the reply's status (the body, or its `artifact` for a review) is the status a
/// GET returns now; returns the state.
async fn same_as_read(t: &Team, key: &str, reply: Reply, what: &str) -> String {
    let body = reply.ok();
    let written = if body.get("review").is_some() { &body["artifact"] } else { body };
    let read = t.status(key).await;
    assert_eq!(written, &read, "{what}: the reply differs from the status read after it");
    read["state"].as_str().unwrap().to_owned()
}

#[sqlx::test]
async fn every_write_replies_with_the_state_a_read_returns_after_it(pool: PgPool) {
    let t = Team::new(pool, json!({ "required_approvals": 2 }), &["a", "b", "c"]).await;
    t.api.agent("t", "q2", json!({ "roles": ["tester"], "can_review": true, "can_author": false })).await;
    let reviews = |n: i32| t.url(&format!("/artifacts/m/versions/{n}/reviews"));
    let user = t.user.clone();

    let created = t
        .api
        .post(
            &t.url("/artifacts"),
            &t.coord,
            json!({ "key": "m", "title": "M", "author": "a",
        "contributors": [{ "agent": "b", "role": "pair" }], "paths": ["src/m/**"] }),
        )
        .await;
    assert_eq!(same_as_read(&t, "m", created, "create").await, "in_review");
    // One approval of two: recorded, still in review.
    let first = t.approve("m", 1).await;
    assert_eq!(same_as_read(&t, "m", first, "first approval").await, "in_review");
    // Approved: the cycle ends.
    let second = t.api.post(&reviews(1), &t.coord, json!({ "reviewer": "q2", "verdict": "approve" })).await;
    assert_eq!(same_as_read(&t, "m", second, "approval").await, "approved");
    // A new cycle, then a rejection of a version with a contributor: two lockouts.
    let v2 = t
        .version("m", json!({ "author": "a", "contributors": [{ "agent": "b", "role": "co_author" }] }))
        .await;
    let v2 = v2.expect(201, None).clone();
    let listed = t.api.get(&t.url("/artifacts/m/versions/2"), &t.coord).await;
    assert_eq!(&v2, listed.expect(200, None), "a version's reply is the version a read returns");
    let rejected = t.reject("m", 2, json!({ "action": "reassign" })).await;
    assert_eq!(same_as_read(&t, "m", rejected, "rejection").await, "changes_requested");
    // Assigned, released, assigned again.
    let assigned = t.assign("m", "c").await;
    assert_eq!(same_as_read(&t, "m", assigned, "assignment").await, "in_revision");
    let released = t.api.delete(&t.url("/artifacts/m/assignment"), &t.coord).await;
    assert_eq!(same_as_read(&t, "m", released, "release").await, "changes_requested");
    t.assign("m", "c").await.expect(201, None);
    // The revision is rejected: nobody is left, the artifact deadlocks with its escalation.
    t.version("m", json!({ "author": "c" })).await.expect(201, None);
    let deadlocked = t.reject("m", 3, json!({ "action": "reassign" })).await;
    assert_eq!(same_as_read(&t, "m", deadlocked, "deadlock").await, "deadlocked");
    // The user lifts one lockout and assigns that agent.
    let lift = t.api.post(&t.url("/artifacts/m/lockouts/a/lift"), &user, json!({ "reason": "ok" })).await;
    assert_eq!(same_as_read(&t, "m", lift, "lift").await, "deadlocked");
    let body = json!({ "action": "assign", "agent": "a", "reason": "fresh start" });
    let resolved = t.api.post(&t.url("/artifacts/m/resolution"), &user, body).await;
    assert_eq!(same_as_read(&t, "m", resolved, "resolution").await, "in_revision");
    // A deadlock abandoned by the user.
    t.version("m", json!({ "author": "a" })).await.expect(201, None);
    t.reject("m", 4, json!({ "action": "reassign" })).await.expect(201, None);
    let body = json!({ "action": "abandon", "reason": "not needed" });
    let abandoned = t.api.post(&t.url("/artifacts/m/resolution"), &user, body).await;
    assert_eq!(same_as_read(&t, "m", abandoned, "abandon").await, "abandoned");
    assert_eq!(t.status("m").await["escalation"], Value::Null);
}
