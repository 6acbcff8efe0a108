//! Conditional requests: the artifact's `ETag` is its revision and its team's (whose roster and
//! policy decide `eligible_agents`), and the team's lists carry one that changes with any write
//! of the team; `If-None-Match` answers 304 without a body; a
//! write to an artifact with a stale `If-Match` is 412 `precondition_failed` and changes nothing.

use axum::http::Method;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::{ADMIN, Reply};
use crate::errors::problem;
use crate::examples::Team;

/// A GET of the team path with `If-None-Match`.
async fn get_if_none_match(t: &Team, path: &str, tags: &str) -> Reply {
    t.api.send_with(Method::GET, &t.url(path), Some(&t.coord), None, &[("if-none-match", tags)]).await
}

/// The response's ETag.
#[track_caller]
fn etag(reply: &Reply) -> String {
    reply.headers.get("etag").expect("an ETag").to_str().unwrap().to_owned()
}

#[track_caller]
fn not_modified(reply: &Reply, tag: &str) {
    assert_eq!(reply.status, 304, "expected 304; body: {}", reply.body);
    assert!(reply.bytes.is_empty(), "a 304 has no body");
    assert_eq!(etag(reply), tag, "a 304 carries the ETag");
}

/// The ETag a status with this body has: `"<revision>.<team revision>"`; returns the team part.
#[track_caller]
fn team_part(tag: &str, status: &Value) -> String {
    let (revision, team) = tag.trim_matches('"').split_once('.').expect("an ETag of two revisions");
    assert_eq!(revision, status["revision"].to_string(), "the ETag starts with the artifact's revision");
    team.to_owned()
}

/// The artifact's current ETag, from a plain GET.
async fn artifact_etag(t: &Team, key: &str) -> String {
    let reply = t.api.get(&t.url(&format!("/artifacts/{key}")), &t.coord).await;
    reply.expect(200, None);
    etag(&reply)
}

#[sqlx::test]
async fn an_artifacts_etag_is_its_revision_and_its_teams(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("m", "a").await.expect(201, None);
    let path = "/artifacts/m";
    let first = t.api.get(&t.url(path), &t.coord).await;
    let tag = etag(&first);
    let team = team_part(&tag, first.expect(200, None));
    not_modified(&get_if_none_match(&t, path, &tag).await, &tag);
    // Weak comparison, lists of tags and `*` match; another tag does not.
    let weak = format!("W/{tag}");
    let list = format!("\"nope\", {tag}");
    let weak_list = format!("W/\"nope\",{weak}");
    for tags in [weak.as_str(), list.as_str(), weak_list.as_str(), "*"] {
        not_modified(&get_if_none_match(&t, path, tags).await, &tag);
    }
    let other = get_if_none_match(&t, path, "\"999\", W/\"998\"").await;
    assert_eq!(other.expect(200, None)["key"], "m");
    assert_eq!(etag(&other), tag);
    // A change gives a new ETag: the old one no longer matches.
    t.reject("m", 1, json!({ "action": "reassign" })).await.expect(201, None);
    let changed = get_if_none_match(&t, path, &tag).await;
    let body = changed.expect(200, None);
    let new_tag = etag(&changed);
    assert_ne!(new_tag, tag);
    assert_eq!(team_part(&new_tag, body), team, "the team did not change");
    assert_eq!(body["state"], "changes_requested");
    not_modified(&get_if_none_match(&t, path, &new_tag).await, &new_tag);
    // A write to another artifact leaves this one's ETag alone.
    t.create("n", "b").await.expect(201, None);
    not_modified(&get_if_none_match(&t, path, &new_tag).await, &new_tag);
    // No artifact, no 304.
    problem(&get_if_none_match(&t, "/artifacts/zz", "*").await, 404, "not_found");
}

const LISTS: [&str; 4] = ["/agents", "/artifacts", "/lockouts", "/escalations"];

/// Each list's current ETag, checked to answer 304 to itself.
async fn list_etags(t: &Team) -> Vec<String> {
    let mut tags = Vec::new();
    for list in LISTS {
        let reply = t.api.get(&t.url(list), &t.coord).await;
        reply.expect(200, None);
        let tag = etag(&reply);
        not_modified(&get_if_none_match(t, list, &tag).await, &tag);
        not_modified(&get_if_none_match(t, list, &format!("W/{tag}")).await, &tag);
        tags.push(tag);
    }
    tags
}

/// Every list's old ETag gives 200 with a new ETag.
async fn all_changed(t: &Team, old: &[String], after: &str) -> Vec<String> {
    let mut tags = Vec::new();
    for (list, old) in LISTS.iter().zip(old) {
        let reply = get_if_none_match(t, list, old).await;
        assert_eq!(reply.status, 200, "{list} after {after}: {}", reply.body);
        assert!(reply.body["items"].is_array(), "{list} answers the list");
        let tag = etag(&reply);
        assert_ne!(&tag, old, "{list}'s ETag changes after {after}");
        tags.push(tag);
    }
    tags
}

/// Every list still answers 304 to its ETag.
async fn none_changed(t: &Team, tags: &[String], after: &str) {
    for (list, tag) in LISTS.iter().zip(tags) {
        let reply = get_if_none_match(t, list, tag).await;
        assert_eq!(reply.status, 304, "{list} after {after}: {}", reply.body);
    }
}

#[sqlx::test]
async fn each_list_has_an_etag_that_changes_with_any_write_of_the_team(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    let mut tags = list_etags(&t).await;
    // Reads and refused writes change nothing.
    t.api.get(&t.url("/artifacts/none"), &t.coord).await.expect(404, None);
    t.api.post(&t.url("/checks"), &t.coord, json!({ "agent": "a", "paths": ["x"] })).await.expect(200, None);
    problem(&t.assign("none", "a").await, 404, "not_found");
    none_changed(&t, &tags, "reads and refusals").await;
    // Another team's writes are not this team's.
    t.api.team("u", Value::Null).await;
    t.api.agent("u", "z", json!({})).await;
    none_changed(&t, &tags, "another team's writes").await;

    // Every kind of write of the team changes every list's ETag, whichever list it touches.
    t.create("m", "a").await.expect(201, None);
    tags = all_changed(&t, &tags, "an artifact created").await;
    t.api.agent("t", "c", json!({})).await;
    tags = all_changed(&t, &tags, "an agent created").await;
    t.reject("m", 1, json!({ "action": "reassign" })).await.expect(201, None);
    tags = all_changed(&t, &tags, "a rejection").await;
    t.assign("m", "b").await.expect(201, None);
    tags = all_changed(&t, &tags, "an assignment").await;
    t.version("m", json!({ "author": "b" })).await.expect(201, None);
    tags = all_changed(&t, &tags, "a version").await;
    let token = t.api.post(&t.url("/tokens"), ADMIN, json!({ "name": "x", "scope": "read" })).await;
    tags = all_changed(&t, &tags, "a token created").await;
    let id = token.body["id"].as_str().unwrap();
    t.api.delete(&t.url(&format!("/tokens/{id}")), ADMIN).await.expect(204, None);
    tags = all_changed(&t, &tags, "a token revoked").await;
    t.api.put("/v1/teams/t", ADMIN, json!({ "display_name": "T" })).await.expect(200, None);
    tags = all_changed(&t, &tags, "a team update").await;
    // Deadlock and resolve: the escalation list itself changes.
    t.reject("m", 2, json!({ "action": "reassign" })).await.expect(201, None);
    t.assign("m", "c").await.expect(201, None);
    t.version("m", json!({ "author": "c" })).await.expect(201, None);
    t.reject("m", 3, json!({ "action": "reassign" })).await.expect(201, None);
    let tags = all_changed(&t, &tags, "a deadlock").await;
    let escalations = t.api.get(&t.url("/escalations"), &t.coord).await;
    assert_eq!(escalations.body["items"].as_array().unwrap().len(), 1);
    let lift = t.url("/artifacts/m/lockouts/a/lift");
    t.api.post(&lift, &t.user, json!({ "reason": "ok" })).await.expect(200, None);
    let tags = all_changed(&t, &tags, "a lift").await;
    let body = json!({ "action": "assign", "agent": "a", "reason": "ok" });
    t.api.post(&t.url("/artifacts/m/resolution"), &t.user, body).await.expect(200, None);
    let tags = all_changed(&t, &tags, "a resolution").await;
    none_changed(&t, &tags, "nothing").await;
}

/// A write with `If-Match: tags`.
async fn if_match(
    t: &Team,
    method: Method,
    path: &str,
    token: &str,
    body: Option<Value>,
    tags: &str,
) -> Reply {
    t.api.send_with(method, &t.url(path), Some(token), body, &[("if-match", tags)]).await
}

/// Sends the write with a stale tag (412, nothing changed), then with `current` (success).
#[allow(clippy::too_many_arguments)]
async fn stale_then_current(
    t: &Team,
    method: Method,
    path: &str,
    token: &str,
    body: Option<Value>,
    stale: &str,
    current: &str,
    status: u16,
) -> Reply {
    let before = (t.api.footprint().await, t.status("m").await);
    let refused = if_match(t, method.clone(), path, token, body.clone(), stale).await;
    problem(&refused, 412, "precondition_failed");
    assert_eq!(
        (t.api.footprint().await, t.status("m").await),
        before,
        "{method} {path}: a 412 changes nothing"
    );
    let done = if_match(t, method.clone(), path, token, body, current).await;
    done.expect(status, None);
    done
}

#[sqlx::test]
async fn writes_to_an_artifact_check_if_match(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("m", "a").await.expect(201, None);
    let created = artifact_etag(&t, "m").await;
    // `*` matches any current artifact: a supersede by the author.
    let v = "/artifacts/m/versions";
    if_match(&t, Method::POST, v, &t.coord, Some(json!({ "author": "a" })), "*").await.expect(201, None);
    let mut stale = created;
    let mut current = artifact_etag(&t, "m").await;
    assert_ne!(stale, current);

    // A version.
    let body = json!({ "author": "a", "ref": "r3" });
    stale_then_current(&t, Method::POST, v, &t.coord, Some(body), &stale, &current, 201).await;
    (stale, current) = (current, artifact_etag(&t, "m").await);
    // A review (a rejection locking `a` out); a list naming the current tag matches.
    let body =
        json!({ "reviewer": "q", "verdict": "reject", "reason": "no", "remedy": { "action": "reassign" } });
    let list = format!("\"0\", {current}");
    stale_then_current(
        &t,
        Method::POST,
        "/artifacts/m/versions/3/reviews",
        &t.coord,
        Some(body),
        &stale,
        &list,
        201,
    )
    .await;
    (stale, current) = (current, artifact_etag(&t, "m").await);
    // An assignment and its release.
    let a = "/artifacts/m/assignment";
    stale_then_current(&t, Method::POST, a, &t.coord, Some(json!({ "agent": "b" })), &stale, &current, 201)
        .await;
    (stale, current) = (current, artifact_etag(&t, "m").await);
    stale_then_current(&t, Method::DELETE, a, &t.coord, None, &stale, &current, 200).await;
    // Deadlock: `b` writes version 4 and is rejected too.
    t.assign("m", "b").await.expect(201, None);
    t.version("m", json!({ "author": "b" })).await.expect(201, None);
    t.reject("m", 4, json!({ "action": "reassign" })).await.expect(201, None);
    assert_eq!(t.status("m").await["state"], "deadlocked");
    (stale, current) = (current, artifact_etag(&t, "m").await);
    // The user's lift and resolution.
    let lift = "/artifacts/m/lockouts/b/lift";
    stale_then_current(
        &t,
        Method::POST,
        lift,
        &t.user,
        Some(json!({ "reason": "ok" })),
        &stale,
        &current,
        200,
    )
    .await;
    (stale, current) = (current, artifact_etag(&t, "m").await);
    let body = json!({ "action": "assign", "agent": "b", "reason": "ok" });
    let resolution = "/artifacts/m/resolution";
    let resolved =
        stale_then_current(&t, Method::POST, resolution, &t.user, Some(body), &stale, &current, 200).await;
    assert_eq!(resolved.body["state"], "in_revision");
    // `*` still matches; a weak form of a stale tag does not.
    let stale = artifact_etag(&t, "m").await;
    t.version("m", json!({ "author": "b" })).await.expect(201, None);
    let body = json!({ "reviewer": "q", "verdict": "approve" });
    let weak = format!("W/{stale}");
    problem(
        &if_match(&t, Method::POST, "/artifacts/m/versions/5/reviews", &t.coord, Some(body.clone()), &weak)
            .await,
        412,
        "precondition_failed",
    );
    let approved =
        if_match(&t, Method::POST, "/artifacts/m/versions/5/reviews", &t.coord, Some(body), "*").await;
    assert_eq!(approved.expect(201, None)["artifact"]["state"], "approved");
}

#[sqlx::test]
async fn if_match_on_a_missing_artifact_is_404(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    let reply = if_match(
        &t,
        Method::POST,
        "/artifacts/none/assignment",
        &t.coord,
        Some(json!({ "agent": "a" })),
        "*",
    )
    .await;
    problem(&reply, 404, "not_found");
}

/// `eligible_agents` is part of the status: a change of the roster or the policy changes it, so
/// it changes the ETag of every artifact of the team, and a write sent with the tag read before
/// is refused.
#[sqlx::test]
async fn a_roster_or_policy_change_changes_the_status_etag(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("m", "a").await.expect(201, None);
    t.reject("m", 1, json!({ "action": "reassign" })).await.expect(201, None);
    let path = "/artifacts/m";
    let before = t.api.get(&t.url(path), &t.coord).await;
    let tag = etag(&before);
    assert_eq!(before.body["eligible_agents"], json!(["b"]));

    // A new engineer joins: the body would differ, so no 304.
    t.api.agent("t", "c", json!({ "roles": ["engineer"] })).await;
    let after = get_if_none_match(&t, path, &tag).await;
    assert_eq!(after.expect(200, None)["eligible_agents"], json!(["b", "c"]));
    assert_eq!(after.body["revision"], before.body["revision"], "the artifact itself did not change");
    let new_tag = etag(&after);
    assert_ne!(new_tag, tag);
    // A write that still names the tag it read before is refused.
    let assign = json!({ "agent": "c" });
    let stale = if_match(&t, Method::POST, "/artifacts/m/assignment", &t.coord, Some(assign), &tag).await;
    problem(&stale, 412, "precondition_failed");

    // A policy change is a change of the team too.
    not_modified(&get_if_none_match(&t, path, &new_tag).await, &new_tag);
    let policy = json!({ "policy": { "required_approvals": 2 } });
    t.api.put("/v1/teams/t", ADMIN, policy).await.expect(200, None);
    let changed = get_if_none_match(&t, path, &new_tag).await;
    changed.expect(200, None);
    assert_ne!(etag(&changed), new_tag);
}
