//! Webhooks and commit statuses (docs/webhooks.md, docs/integrations.md), with this process's
//! delivery worker running against receivers on 127.0.0.1: subscriptions and forges through the
//! API, Standard Webhooks signatures checked by the `standardwebhooks` package, seq order, a
//! receiver down then up, `410 Gone`, rotation, retries by hand, and the statuses of a whole
//! review cycle on a fake GitHub (each request checked against GitHub's OpenAPI description) and
//! a fake GitLab. Several replicas and `kill -9` are in tests/deliveries.rs.

use std::time::Duration;

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::{ADMIN, Api};
use crate::examples::Team;
use crate::receiver::{Receiver, seq, validate_github_statuses, verify_signatures};

const WAIT: Duration = Duration::from_secs(30);

/// The team `t` on an API whose deliveries reach 127.0.0.1, with this process's delivery
/// worker running.
async fn team(pool: PgPool) -> Team {
    let api = Api::delivering(pool);
    Team::on(api, Value::Null, &["a", "b"]).await
}

async fn subscribe(t: &Team, url: &str, events: Value) -> Value {
    let body = json!({ "url": url, "events": events, "description": "test receiver" });
    t.api.post("/v1/teams/t/webhooks", ADMIN, body).await.expect(201, None).clone()
}

/// The team's events after `after`, as `GET …/events` shows them.
async fn events_after(t: &Team, after: i64) -> Vec<Value> {
    let page = t.api.get(&format!("/v1/teams/t/events?after={after}&limit=500"), &t.coord).await;
    page.expect(200, None)["items"].as_array().unwrap().clone()
}

/// The webhook or forge at `url` once `done` holds of it (the delivery worker records an
/// attempt after the receiver has seen it).
async fn once(t: &Team, url: &str, done: impl Fn(&Value) -> bool) -> Value {
    let started = std::time::Instant::now();
    loop {
        let target = t.api.get(url, ADMIN).await.expect(200, None).clone();
        if done(&target) {
            return target;
        }
        assert!(started.elapsed() < WAIT, "not as expected: {target}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The webhook or forge at `url` once its delivery worker has disabled it.
async fn disabled(t: &Team, url: &str) -> Value {
    once(t, url, |target| target["enabled"] == false).await
}

/// Creates `key` (version 1 with ref `sha1`), rejects it, assigns `b`, revises it (ref `sha2`)
/// and approves version 2.
async fn review_cycle(t: &Team, key: &str, sha1: &str, sha2: &str) {
    let create = json!({ "key": key, "title": key, "author": "a", "ref": sha1 });
    t.api.post("/v1/teams/t/artifacts", &t.coord, create).await.expect(201, None);
    t.reject(key, 1, json!({ "action": "reassign" })).await.expect(201, None);
    t.assign(key, "b").await.expect(201, None);
    t.version(key, json!({ "author": "b", "ref": sha2 })).await.expect(201, None);
    t.approve(key, 2).await.expect(201, None);
}

#[sqlx::test]
async fn a_subscription_is_an_admins_and_its_secret_is_shown_once(pool: PgPool) {
    let t = team(pool).await;
    let api = &t.api;
    let coord = t.coord.clone();
    let body = json!({ "url": "http://127.0.0.1:9/hook", "events": ["review.*"] });
    api.post("/v1/teams/t/webhooks", &coord, body.clone()).await.expect(403, Some("forbidden"));

    let key = [("idempotency-key", "hook-1")];
    let created = api
        .send_with(axum::http::Method::POST, "/v1/teams/t/webhooks", Some(ADMIN), Some(body.clone()), &key)
        .await;
    let created = created.expect(201, None).clone();
    let secret = created["secret"].as_str().unwrap();
    assert!(secret.starts_with("whsec_") && secret.len() > 40, "{secret}");
    assert_eq!(created["events"], json!(["review.*"]));
    assert_eq!(created["enabled"], true);
    let id = created["id"].as_str().unwrap().to_owned();
    // A replay answers the webhook without its secret; neither the list nor the webhook shows it.
    let replay =
        api.send_with(axum::http::Method::POST, "/v1/teams/t/webhooks", Some(ADMIN), Some(body), &key).await;
    assert!(replay.expect(200, None).get("secret").is_none());
    let one = api.get(&format!("/v1/teams/t/webhooks/{id}"), ADMIN).await.expect(200, None).clone();
    let list = api.get("/v1/teams/t/webhooks", ADMIN).await.expect(200, None).clone();
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    for shown in [&one, &list] {
        assert!(!shown.to_string().contains(secret), "the secret is shown again: {shown}");
    }
    let stored: Vec<u8> =
        sqlx::query_scalar("select secret from delivery_targets").fetch_one(&api.pool).await.unwrap();
    assert!(!stored.windows(secret.len()).any(|w| w == secret.as_bytes()), "the secret is stored in clear");
    api.get(&format!("/v1/teams/t/webhooks/{id}"), &coord).await.expect(403, Some("forbidden"));

    // Bad input names every field at fault and changes nothing.
    let before = api.footprint().await;
    let bad = json!({ "url": "ftp://example.com/x", "events": ["review.*", "review.withdrawn", "reviews.*"], "after": -1 });
    let refused = api.post("/v1/teams/t/webhooks", ADMIN, bad).await;
    let fields: Vec<&str> = refused.expect(422, Some("invalid_field"))["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["events[1]", "events[2]"]);
    let refused = api.post("/v1/teams/t/webhooks", ADMIN, json!({ "url": "ftp://example.com/x" })).await;
    assert_eq!(refused.expect(422, Some("invalid_field"))["errors"][0]["field"], "url");
    api.post("/v1/teams/t/webhooks", ADMIN, json!({ "url": "http://127.0.0.1:9/", "after": -1 }))
        .await
        .expect(422, Some("invalid_field"));
    let patch = json!({ "events": ["nope"] });
    api.send(axum::http::Method::PATCH, &format!("/v1/teams/t/webhooks/{id}"), Some(ADMIN), Some(patch))
        .await
        .expect(422, Some("invalid_field"));
    assert_eq!(api.footprint().await, before);

    // Changed, rotated, deleted: each an event of the log, none with a secret.
    let patch = json!({ "events": [], "description": "everything" });
    let changed = api
        .send(axum::http::Method::PATCH, &format!("/v1/teams/t/webhooks/{id}"), Some(ADMIN), Some(patch))
        .await;
    assert_eq!(changed.expect(200, None)["events"], json!([]));
    assert!(changed.headers.contains_key("reviewlock-seq"));
    let rotated =
        api.post(&format!("/v1/teams/t/webhooks/{id}/rotate"), ADMIN, json!({ "grace_seconds": 60 })).await;
    let rotated = rotated.expect(200, None).clone();
    assert_ne!(rotated["secret"], created["secret"]);
    let one = api.get(&format!("/v1/teams/t/webhooks/{id}"), ADMIN).await.expect(200, None).clone();
    assert_eq!(one["previous_secret_expires_at"], rotated["previous_secret_expires_at"]);
    api.post(&format!("/v1/teams/t/webhooks/{id}/rotate"), ADMIN, json!({ "grace_seconds": -1 }))
        .await
        .expect(422, Some("invalid_field"));
    api.delete(&format!("/v1/teams/t/webhooks/{id}"), ADMIN).await.expect(204, None);
    api.get(&format!("/v1/teams/t/webhooks/{id}"), ADMIN).await.expect(404, Some("not_found"));
    let log = events_after(&t, 0).await;
    let kinds: Vec<&str> =
        log.iter().filter_map(|e| e["type"].as_str()).filter(|k| k.starts_with("webhook.")).collect();
    assert_eq!(kinds, ["webhook.created", "webhook.updated", "webhook.updated", "webhook.deleted"]);
    let text = serde_json::to_string(&log).unwrap();
    for secret in [created["secret"].as_str().unwrap(), rotated["secret"].as_str().unwrap()] {
        assert!(!text.contains(secret), "a secret in the event log");
    }
    assert_eq!(log.iter().find(|e| e["type"] == "webhook.created").unwrap()["data"]["host"], "127.0.0.1");
}

#[sqlx::test]
async fn without_the_settings_http_private_addresses_and_missing_keys_are_refused(pool: PgPool) {
    // The defaults of `reviewlock serve`: https only, public addresses only, no key.
    let api = Api::new(pool);
    api.team("t", Value::Null).await;
    let before = api.footprint().await;
    for (url, says) in [
        ("http://127.0.0.1:9/hook", "https"),
        ("https://127.0.0.1:9/hook", "non-public"),
        ("https://10.1.2.3/hook", "non-public"),
        ("https://169.254.169.254/latest/meta-data", "non-public"),
        ("https://[::1]/hook", "non-public"),
        ("https://localhost/hook", "non-public"),
    ] {
        let refused = api.post("/v1/teams/t/webhooks", ADMIN, json!({ "url": url })).await;
        let error = &refused.expect(422, Some("invalid_field"))["errors"][0];
        assert_eq!(error["field"], "url");
        assert!(error["message"].as_str().unwrap().contains(says), "{url}: {error}");
    }
    let forge = json!({ "kind": "gitlab", "api_url": "https://192.168.1.10/api/v4", "repository": "g/p", "token": "t" });
    api.put("/v1/teams/t/forges/gitlab", ADMIN, forge).await.expect(422, Some("invalid_field"));
    // A public address passes the check, and without REVIEWLOCK_SECRET_KEY nothing can be stored.
    let refused =
        api.post("/v1/teams/t/webhooks", ADMIN, json!({ "url": "https://93.184.215.14/hook" })).await;
    assert!(
        refused.expect(503, Some("unavailable"))["detail"]
            .as_str()
            .unwrap()
            .contains("REVIEWLOCK_SECRET_KEY")
    );
    assert_eq!(api.footprint().await, before);
}

#[sqlx::test]
async fn deliveries_are_signed_in_order_and_none_is_lost_while_the_receiver_is_down(pool: PgPool) {
    let t = team(pool).await;
    let receiver = Receiver::start().await;
    let hook = subscribe(&t, &format!("{}/hook", receiver.url), json!([])).await;
    let (id, secret) = (hook["id"].as_str().unwrap(), hook["secret"].as_str().unwrap());
    let start = hook["delivery"]["cursor"].as_i64().unwrap();

    review_cycle(&t, "auth", &"1".repeat(40), &"2".repeat(40)).await;
    let expected: Vec<i64> =
        events_after(&t, start).await.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
    assert_eq!(expected.len(), 5);
    let got = receiver.until(WAIT, |r| r.len() >= expected.len()).await;
    assert_eq!(got.iter().map(seq).collect::<Vec<_>>(), expected, "each event once, in seq order");
    verify_signatures(secret, &got);
    // Each body is the event exactly as the log serves it.
    let served = events_after(&t, start).await;
    for (delivery, event) in got.iter().zip(&served) {
        let body = delivery.json();
        assert_eq!(body["type"], event["type"]);
        assert_eq!(body["data"], *event);
        assert_eq!(delivery.header("webhook-id"), format!("msg_{}_{}", id.replace('-', ""), event["seq"]));
        assert_eq!(delivery.header("content-type"), "application/json");
    }

    // Down: the next event fails, and waits for its retry; later events wait behind it.
    receiver.answer(503);
    review_cycle(&t, "billing", &"3".repeat(40), &"4".repeat(40)).await;
    receiver.until(WAIT, |r| r.iter().any(|d| d.answered == 503)).await;
    let url = format!("/v1/teams/t/webhooks/{id}");
    let failing =
        once(&t, &url, |w| w["delivery"]["failed_attempts"].as_i64() >= Some(1)).await["delivery"].clone();
    assert!(failing["next_attempt_at"].is_string() && failing["failing_since"].is_string(), "{failing}");
    let log = t.api.get(&format!("{url}/deliveries"), ADMIN).await.expect(200, None)["items"].clone();
    let failed = &log[0];
    assert_eq!((failed["succeeded"].clone(), failed["response_status"].clone()), (json!(false), json!(503)));
    assert_eq!(failed["seq"], expected.last().unwrap() + 1);
    // The backlog shows in /metrics, per target.
    t.api.state.database_gauges.refresh(&t.api.state.pool).await;
    let metrics = t.api.send(axum::http::Method::GET, "/metrics", None, None).await;
    let page = String::from_utf8(metrics.bytes.clone()).unwrap();
    assert!(
        page.contains(&format!(
            "reviewlock_delivery_oldest_undelivered_seconds{{team=\"t\",target=\"{id}\",kind=\"webhook\"}}"
        )),
        "{page}"
    );
    assert!(page.contains("reviewlock_deliveries_total{kind=\"webhook\",outcome=\"failure\"}"));

    // Up again, and a retry asked for by hand: everything arrives, in order, the failed event
    // with the webhook-id it failed with.
    receiver.answer(200);
    let delivery = failed["id"].as_str().unwrap();
    let retried = t.api.post(&format!("{url}/deliveries/{delivery}/retry"), ADMIN, json!({})).await;
    assert_eq!(retried.expect(200, None)["scheduled"], true);
    let all: Vec<i64> = events_after(&t, start).await.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
    let got = receiver
        .until(WAIT, |r| r.iter().filter(|d| d.answered == 200).count() >= all.len() - expected.len())
        .await;
    let delivered: Vec<i64> = got.iter().filter(|d| d.answered != 503).map(seq).collect();
    assert_eq!(delivered, all, "none lost, none twice, in order");
    let failed_id = got.iter().find(|d| d.answered == 503).unwrap().header("webhook-id").to_owned();
    assert_eq!(
        got.iter().filter(|d| d.header("webhook-id") == failed_id).count(),
        2,
        "the retry keeps its webhook-id"
    );
    verify_signatures(secret, &got);
    let last = *all.last().unwrap();
    let caught_up = once(&t, &url, |w| w["delivery"]["cursor"] == last).await["delivery"].clone();
    assert_eq!(caught_up["failed_attempts"], 0);

    // A delivered event sent again by hand keeps its webhook-id too.
    let log =
        t.api.get(&format!("{url}/deliveries?limit=100"), ADMIN).await.expect(200, None)["items"].clone();
    let first = log.as_array().unwrap().last().unwrap();
    let again = t
        .api
        .post(&format!("{url}/deliveries/{}/retry", first["id"].as_str().unwrap()), ADMIN, json!({}))
        .await;
    let attempt = again.expect(200, None)["attempt"].clone();
    assert_eq!((attempt["manual"].clone(), attempt["succeeded"].clone()), (json!(true), json!(true)));
    assert_eq!(attempt["webhook_id"], first["webhook_id"]);

    // The log pages newest first, by the cursor each page returns; a cursor it did not return
    // is refused.
    let log =
        t.api.get(&format!("{url}/deliveries?limit=100"), ADMIN).await.expect(200, None)["items"].clone();
    let all: Vec<Value> = log.as_array().unwrap().iter().map(|d| d["id"].clone()).collect();
    assert!(all.len() > 2, "{log}");
    let mut paged = Vec::new();
    let mut next = format!("{url}/deliveries?limit=2");
    loop {
        let page = t.api.get(&next, ADMIN).await.expect(200, None).clone();
        assert!(page["items"].as_array().unwrap().len() <= 2, "{page}");
        paged.extend(page["items"].as_array().unwrap().iter().map(|d| d["id"].clone()));
        assert!(paged.len() <= all.len(), "more than the log: {paged:?} of {all:?}");
        match page["next_cursor"].as_str() {
            Some(cursor) => next = format!("{url}/deliveries?limit=2&cursor={cursor}"),
            None => break,
        }
    }
    assert_eq!(paged, all);
    let bad = t.api.get(&format!("{url}/deliveries?cursor=not-a-cursor"), ADMIN).await;
    assert_eq!(bad.expect(422, Some("invalid_field"))["errors"][0]["field"], "cursor");
}

#[sqlx::test]
async fn filters_gone_and_enabling_again(pool: PgPool) {
    let t = team(pool).await;
    let receiver = Receiver::start().await;
    let hook = subscribe(&t, &receiver.url, json!(["review.*"])).await;
    let id = hook["id"].as_str().unwrap().to_owned();
    let url = format!("/v1/teams/t/webhooks/{id}");

    // A test delivery, signed like any other.
    let test = t.api.post(&format!("{url}/test"), ADMIN, json!({})).await.expect(200, None).clone();
    assert_eq!((test["succeeded"].clone(), test["event_type"].clone()), (json!(true), json!("webhook.test")));
    let got = receiver.until(WAIT, |r| !r.is_empty()).await;
    assert_eq!(got[0].json()["data"]["webhook"], json!(id));
    verify_signatures(hook["secret"].as_str().unwrap(), &got);

    // Only reviews: the creation, the assignment and the version are not sent.
    receiver.answer(410);
    review_cycle(&t, "auth", &"1".repeat(40), &"2".repeat(40)).await;
    receiver.until(WAIT, |r| r.iter().any(|d| d.answered == 410)).await;
    let gone = disabled(&t, &url).await;
    assert_eq!(gone["disabled_reason"], "gone");
    let log = events_after(&t, 0).await;
    let disabled =
        log.iter().find(|e| e["type"] == "webhook.disabled").expect("an event says it was disabled");
    assert_eq!(disabled["data"]["disabled_reason"], "gone");

    // Enabled again, it resumes from its cursor: the rejection that got 410, then the approval.
    receiver.answer(204);
    let enable = json!({ "enabled": true });
    t.api.send(axum::http::Method::PATCH, &url, Some(ADMIN), Some(enable)).await.expect(200, None);
    let got = receiver.until(WAIT, |r| r.iter().filter(|d| d.answered == 204).count() >= 3).await;
    let kinds: Vec<String> = got.iter().map(|d| d.json()["type"].as_str().unwrap().to_owned()).collect();
    assert_eq!(kinds, ["webhook.test", "review.rejected", "review.rejected", "review.approved"]);
    assert_eq!(got[1].header("webhook-id"), got[2].header("webhook-id"));
}

#[sqlx::test]
async fn a_rotation_signs_with_both_secrets_until_the_grace_period_ends(pool: PgPool) {
    let t = team(pool).await;
    let receiver = Receiver::start().await;
    let hook = subscribe(&t, &receiver.url, json!(["artifact.created"])).await;
    let id = hook["id"].as_str().unwrap();
    let rotated = t.api.post(&format!("/v1/teams/t/webhooks/{id}/rotate"), ADMIN, json!({})).await;
    let rotated = rotated.expect(200, None).clone();
    let expires: chrono::DateTime<chrono::Utc> =
        rotated["previous_secret_expires_at"].as_str().unwrap().parse().unwrap();
    let hours = (expires - chrono::Utc::now()).num_minutes() as f64 / 60.0;
    assert!((23.9..=24.0).contains(&hours), "24 hours by default: {hours}");
    let create = json!({ "key": "auth", "title": "auth", "author": "a" });
    t.api.post("/v1/teams/t/artifacts", &t.coord, create).await.expect(201, None);
    let got = receiver.until(WAIT, |r| !r.is_empty()).await;
    assert_eq!(got[0].header("webhook-signature").split(' ').count(), 2);
    verify_signatures(rotated["secret"].as_str().unwrap(), &got);
    verify_signatures(hook["secret"].as_str().unwrap(), &got);

    // With no grace period, the old secret signs nothing more.
    t.api
        .post(&format!("/v1/teams/t/webhooks/{id}/rotate"), ADMIN, json!({ "grace_seconds": 0 }))
        .await
        .expect(200, None);
    let create = json!({ "key": "web", "title": "web", "author": "a" });
    t.api.post("/v1/teams/t/artifacts", &t.coord, create).await.expect(201, None);
    let got = receiver.until(WAIT, |r| r.len() >= 2).await;
    assert_eq!(got[1].header("webhook-signature").split(' ').count(), 1);
}

#[sqlx::test]
async fn github_and_gitlab_get_the_statuses_of_a_whole_review_cycle_in_order(pool: PgPool) {
    let t = team(pool).await;
    let (github, gitlab) = (Receiver::start().await, Receiver::start().await);
    github.answer(201);
    gitlab.answer(201);
    let forge = json!({ "kind": "github", "api_url": github.url, "repository": "acme/web", "token": "ghp_secret-token-1" });
    t.api.put("/v1/teams/t/forges/github", &t.coord, forge.clone()).await.expect(403, Some("forbidden"));
    let created = t.api.put("/v1/teams/t/forges/github", ADMIN, forge).await.expect(201, None).clone();
    assert_eq!((created["context"].clone(), created["enabled"].clone()), (json!("reviewlock"), json!(true)));
    let lab = json!({ "kind": "gitlab", "api_url": format!("{}/api/v4", gitlab.url), "repository": "acme/tools/web",
                      "token": "glpat-secret-token-2", "context": "review" });
    t.api.put("/v1/teams/t/forges/gitlab", ADMIN, lab.clone()).await.expect(201, None);
    t.api.put("/v1/teams/t/forges/gitlab", ADMIN, lab).await.expect(200, None);
    let bad = json!({ "kind": "github", "repository": "no-owner", "token": "" });
    let refused = t.api.put("/v1/teams/t/forges/Bad_Name", ADMIN, bad).await;
    let fields: Vec<&str> = refused.expect(422, Some("invalid_field"))["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["name", "repository", "token"]);
    for shown in [
        t.api.get("/v1/teams/t/forges", ADMIN).await.body,
        t.api.get("/v1/teams/t/forges/github", ADMIN).await.body,
    ] {
        assert!(!shown.to_string().contains("secret-token"), "a forge token is shown: {shown}");
    }

    let (sha1, sha2) = ("a".repeat(40), "b".repeat(40));
    review_cycle(&t, "auth", &sha1, &sha2).await;
    // A version whose ref is not a commit SHA gets no status.
    let create = json!({ "key": "docs", "title": "docs", "author": "a", "ref": "main" });
    t.api.post("/v1/teams/t/artifacts", &t.coord, create).await.expect(201, None);

    let expected = [
        (sha1.as_str(), "pending", "in review: version 1 by a"),
        (sha1.as_str(), "failure", "rejected by q: error handling is missing — a locked out"),
        (sha2.as_str(), "pending", "in review: version 2 by b"),
        (sha2.as_str(), "success", "approved by q"),
    ];
    let got = github.until(WAIT, |r| r.len() >= expected.len()).await;
    let seen: Vec<(String, String, String)> = got
        .iter()
        .map(|r| {
            let body = r.json();
            let sha = r.path.rsplit('/').next().unwrap().to_owned();
            (
                sha,
                body["state"].as_str().unwrap().to_owned(),
                body["description"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let want: Vec<(String, String, String)> =
        expected.iter().map(|(s, st, d)| (s.to_string(), st.to_string(), d.to_string())).collect();
    assert_eq!(seen, want);
    for r in &got {
        assert_eq!(r.path, format!("/repos/acme/web/statuses/{}", r.path.rsplit('/').next().unwrap()));
        assert_eq!(r.header("authorization"), "Bearer ghp_secret-token-1");
        assert_eq!(r.header("accept"), "application/vnd.github+json");
        assert_eq!(r.header("x-github-api-version"), "2022-11-28");
        assert_eq!(r.json()["context"], "reviewlock");
        assert_eq!(r.json()["target_url"], "https://reviewlock.example.com/ui/#/teams/t/artifacts/auth");
    }
    validate_github_statuses(&got);

    let got = gitlab.until(WAIT, |r| r.len() >= expected.len()).await;
    let states: Vec<(String, String)> =
        got.iter().map(|r| (r.path.clone(), r.json()["state"].as_str().unwrap().to_owned())).collect();
    let path = |sha: &str| format!("/api/v4/projects/acme%2Ftools%2Fweb/statuses/{sha}");
    assert_eq!(
        states,
        [
            (path(&sha1), "pending".to_owned()),
            (path(&sha1), "failed".to_owned()),
            (path(&sha2), "pending".to_owned()),
            (path(&sha2), "success".to_owned())
        ]
    );
    for r in &got {
        assert_eq!(r.header("private-token"), "glpat-secret-token-2");
        assert_eq!(r.json()["name"], "review");
    }

    // Both logs list the attempts; the forge is removed and posts nothing more.
    let last = events_after(&t, 0).await.last().unwrap()["seq"].clone();
    once(&t, "/v1/teams/t/forges/github", |f| f["delivery"]["cursor"] == last).await;
    let log =
        t.api.get("/v1/teams/t/forges/github/deliveries", ADMIN).await.expect(200, None)["items"].clone();
    assert!(log.as_array().unwrap().len() >= 4 && log[0]["response_status"] == 201, "{log}");
    t.api.delete("/v1/teams/t/forges/github", ADMIN).await.expect(204, None);
    t.api.get("/v1/teams/t/forges/github", ADMIN).await.expect(404, Some("not_found"));
    let kinds: Vec<String> = events_after(&t, 0)
        .await
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_owned())
        .filter(|k| k.starts_with("forge."))
        .collect();
    assert_eq!(kinds, ["forge.created", "forge.created", "forge.updated", "forge.deleted"]);
}

#[sqlx::test]
async fn a_forge_failing_for_five_days_is_disabled_and_says_so(pool: PgPool) {
    let t = team(pool).await;
    let github = Receiver::start().await;
    github.answer(500);
    let forge = json!({ "kind": "github", "api_url": github.url, "repository": "acme/web", "token": "t" });
    t.api.put("/v1/teams/t/forges/github", ADMIN, forge).await.expect(201, None);
    let create = json!({ "key": "auth", "title": "auth", "author": "a", "ref": "c".repeat(40) });
    t.api.post("/v1/teams/t/artifacts", &t.coord, create).await.expect(201, None);
    github.until(WAIT, |r| !r.is_empty()).await;
    // Failing since six days: the next failure gives up.
    once(&t, "/v1/teams/t/forges/github", |f| f["delivery"]["failed_attempts"] == 1).await;
    sqlx::query(
        "update delivery_targets set failing_since = now() - interval '6 days', next_attempt_at = now()",
    )
    .execute(&t.api.pool)
    .await
    .unwrap();
    t.api.state.outbox.wake.notify_one();
    github.until(WAIT, |r| r.len() >= 2).await;
    assert_eq!(disabled(&t, "/v1/teams/t/forges/github").await["disabled_reason"], "failing");
    let log = events_after(&t, 0).await;
    assert!(log.iter().any(|e| e["type"] == "forge.disabled" && e["data"]["disabled_reason"] == "failing"));
}

/// docs/webhooks.md lists every event type of the spec, each with its `data` schema.
#[test]
fn the_guide_lists_every_event_type() {
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/webhooks.md")).unwrap();
    let spec = serde_json::to_value(reviewlock::openapi()).unwrap();
    let mapping =
        spec["components"]["schemas"]["Event"]["discriminator"]["mapping"].as_object().unwrap().clone();
    assert_eq!(mapping.len(), reviewlock::resources::events::EVENT_TYPES.len());
    for (kind, schema) in mapping {
        let name = schema.as_str().unwrap().rsplit('/').next().unwrap();
        let data = spec["components"]["schemas"][name]["properties"]["data"]["$ref"].as_str().unwrap();
        let data = data.rsplit('/').next().unwrap();
        let row = format!("| `{kind}` |");
        let line = guide
            .lines()
            .find(|l| l.starts_with(&row))
            .unwrap_or_else(|| panic!("docs/webhooks.md has no row for {kind}"));
        assert!(line.contains(&format!("`{data}`")), "the row of {kind} names its data, {data}: {line}");
    }
}

/// After a key rotation, a start seals every secret again with the new key: the old key is then
/// no longer needed, and deliveries sign as before.
#[sqlx::test]
async fn secrets_are_sealed_again_with_a_new_key(pool: PgPool) {
    use reviewlock::app::deliver;
    use reviewlock::seal::Keys;
    let t = team(pool).await;
    let receiver = Receiver::start().await;
    let hook = subscribe(&t, &receiver.url, json!(["artifact.created"])).await;
    let forge = json!({ "kind": "github", "api_url": receiver.url, "repository": "acme/web", "token": "t" });
    t.api.put("/v1/teams/t/forges/github", ADMIN, forge).await.expect(201, None);
    let stored = || async {
        sqlx::query_scalar::<_, Vec<u8>>("select secret from delivery_targets order by kind")
            .fetch_all(&t.api.pool)
            .await
            .unwrap()
    };
    let before = stored().await;

    let new_key = "YW5vdGhlciByZXZpZXdsb2NrIGtleSwgMzIgYnl0ZXM=";
    let rotated = Keys::parse(new_key, &[crate::common::SECRET_KEY.to_owned()]).unwrap();
    assert_eq!(deliver::reseal(&t.api.state.pool, &rotated).await.unwrap(), 2);
    assert_eq!(deliver::reseal(&t.api.state.pool, &rotated).await.unwrap(), 0, "nothing left to seal again");
    let after = stored().await;
    assert!(before.iter().zip(&after).all(|(b, a)| b != a));
    assert!(after.iter().all(|sealed| rotated.is_current(sealed)));

    // Only the new key now: a webhook delivery still signs with the subscription's secret.
    let only_new = Keys::parse(new_key, &[]).unwrap();
    let row = sqlx::query_as::<_, reviewlock::store::targets::TargetRow>(
        "select * from delivery_targets where kind = 'webhook'",
    )
    .fetch_one(&t.api.pool)
    .await
    .unwrap();
    assert_eq!(deliver::signing_secrets(&only_new, &row).unwrap(), [hook["secret"].as_str().unwrap()]);
    let old_only = Keys::parse(crate::common::SECRET_KEY, &[]).unwrap();
    assert!(deliver::signing_secrets(&old_only, &row).is_err(), "the old key opens nothing any more");
}

/// A GitLab that keeps each commit status as GitLab does: a status that would set a commit's
/// status of that name to the state it is in is refused with GitLab's 400; only a finished one
/// is replaced. What it was sent: (state, description, the status it answered).
struct FakeGitlab {
    url: String,
    seen: std::sync::Arc<std::sync::Mutex<Vec<(String, String, u16)>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for FakeGitlab {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl FakeGitlab {
    async fn start() -> FakeGitlab {
        use axum::http::StatusCode;
        use std::collections::HashMap;
        use std::sync::{Arc, Mutex};
        let seen: Arc<Mutex<Vec<(String, String, u16)>>> = Arc::default();
        let held: Arc<Mutex<HashMap<(String, String), String>>> = Arc::default();
        let (log, statuses) = (seen.clone(), held.clone());
        let handler = move |uri: axum::http::Uri, body: axum::body::Bytes| {
            let (log, statuses) = (log.clone(), statuses.clone());
            async move {
                let body: Value = serde_json::from_slice(&body).unwrap();
                let state = body["state"].as_str().unwrap().to_owned();
                let key = (uri.path().to_owned(), body["name"].as_str().unwrap().to_owned());
                let mut statuses = statuses.lock().unwrap();
                let (status, answer) = match statuses.get(&key).map(String::as_str) {
                    Some(now) if now == state && matches!(now, "pending" | "running") => (
                        StatusCode::BAD_REQUEST,
                        json!({ "message": format!("Cannot transition status via :enqueue from :{now} (Reason(s): Status cannot transition via \"enqueue\")") }),
                    ),
                    _ => {
                        statuses.insert(key, state.clone());
                        (StatusCode::CREATED, json!({ "status": state }))
                    }
                };
                let description = body["description"].as_str().unwrap().to_owned();
                log.lock().unwrap().push((state, description, status.as_u16()));
                (status, axum::Json(answer))
            }
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let app = axum::Router::new().fallback(handler);
        let task = tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        FakeGitlab { url, seen, task }
    }

    async fn until(&self, done: impl Fn(&[(String, String, u16)]) -> bool) -> Vec<(String, String, u16)> {
        let started = std::time::Instant::now();
        loop {
            let seen = self.seen.lock().unwrap().clone();
            if done(&seen) {
                return seen;
            }
            assert!(started.elapsed() < WAIT, "GitLab was sent {seen:?}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Under a policy of two approvals the first keeps the version pending, which GitLab refuses
/// to set again (400): the commit shows pending already, so the delivery is done, and the
/// approval that follows reaches GitLab at once instead of waiting behind retries.
#[sqlx::test]
async fn gitlab_refusing_a_state_the_commit_has_does_not_hold_the_statuses_back(pool: PgPool) {
    let policy = json!({ "profile": "standard", "required_approvals": 2 });
    let t = Team::on(Api::delivering(pool), policy, &["a"]).await;
    t.api.agent("t", "q2", json!({ "can_review": true, "can_author": false })).await;
    let gitlab = FakeGitlab::start().await;
    let forge = json!({ "kind": "gitlab", "api_url": format!("{}/api/v4", gitlab.url), "repository": "acme/web",
                        "token": "glpat-token" });
    t.api.put("/v1/teams/t/forges/gitlab", ADMIN, forge).await.expect(201, None);

    let sha = "c".repeat(40);
    let create = json!({ "key": "auth", "title": "auth", "author": "a", "ref": sha });
    t.api.post("/v1/teams/t/artifacts", &t.coord, create).await.expect(201, None);
    t.approve("auth", 1).await.expect(201, None);
    t.review("auth", 1, json!({ "reviewer": "q2", "verdict": "approve" })).await.expect(201, None);
    assert_eq!(t.status("auth").await["state"], "approved");

    let seen = gitlab.until(|s| s.iter().any(|(state, ..)| state == "success")).await;
    let states: Vec<(&str, u16)> =
        seen.iter().map(|(state, _, answered)| (state.as_str(), *answered)).collect();
    assert_eq!(states, [("pending", 201), ("pending", 400), ("success", 201)], "{seen:?}");
    assert_eq!(seen[2].1, "approved by q2");

    // The forge is caught up, and its log shows GitLab's 400 as delivered.
    let last = events_after(&t, 0).await.last().unwrap()["seq"].clone();
    let forge = once(&t, "/v1/teams/t/forges/gitlab", |f| f["delivery"]["cursor"] == last).await;
    assert_eq!(forge["delivery"]["failed_attempts"], 0, "{forge}");
    let log =
        t.api.get("/v1/teams/t/forges/gitlab/deliveries", ADMIN).await.expect(200, None)["items"].clone();
    let refused: Vec<&Value> =
        log.as_array().unwrap().iter().filter(|d| d["response_status"] == 400).collect();
    assert_eq!(refused.len(), 1, "{log}");
    assert_eq!(refused[0]["succeeded"], true, "{log}");
    assert!(refused[0]["response_body"].as_str().unwrap().contains("Cannot transition status"), "{log}");
}
