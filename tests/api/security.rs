//! Security: another team's tokens reach nothing and every scope is checked, on every `/v1`
//! route of the spec (so a new route cannot skip either test); revocation is immediate; secrets
//! are never logged nor stored, only their SHA-256; per-token rate limiting.

use std::collections::BTreeSet;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use http_body_util::BodyExt;
use reviewlock::rate_limit::{RateLimit, RateLimiter};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use tower::ServiceExt;

use crate::common::{ADMIN, Api};
use crate::errors::problem;

/// What a route needs of a token of its own team.
#[derive(Debug, Clone, Copy)]
enum Need {
    /// Any token of the team.
    Read,
    /// `coordinator` or `admin`.
    Coordinator,
    Admin,
    /// Only `user` (`admin` does not include it).
    User,
    /// `coordinator`, `admin`, or the `agent` token of this agent (the one the body names).
    Actor(&'static str),
    /// Any token of the team except an `agent` token of another agent than this one.
    Check(&'static str),
    /// Only a server-wide admin token: no team's token at all.
    ServerAdmin,
}

/// Who holds a token of the team.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holder {
    Read,
    Coordinator,
    User,
    Admin,
    Agent(&'static str),
}

impl Need {
    fn allows(self, holder: Holder) -> bool {
        use Holder as H;
        match self {
            Need::Read => true,
            Need::Coordinator => matches!(holder, H::Coordinator | H::Admin),
            Need::Admin => holder == H::Admin,
            Need::User => holder == H::User,
            Need::Actor(agent) => matches!(holder, H::Coordinator | H::Admin) || holder == H::Agent(agent),
            Need::Check(agent) => !matches!(holder, H::Agent(a) if a != agent),
            Need::ServerAdmin => false,
        }
    }
}

/// The minimum scope of every `/v1` route, with a plausible body for its writes (`null`: none).
/// Path parameters are filled by [`fill`]. Every route of the spec must be here.
fn route_table() -> Vec<(&'static str, &'static str, Need, Value)> {
    use Need::*;
    let none = Value::Null;
    vec![
        ("GET", "/v1/teams/{team}", Read, none.clone()),
        ("PUT", "/v1/teams/{team}", Admin, json!({ "display_name": "Taken over" })),
        ("GET", "/v1/teams/{team}/agents", Read, none.clone()),
        ("GET", "/v1/teams/{team}/agents/{agent}", Read, none.clone()),
        ("PUT", "/v1/teams/{team}/agents/{agent}", Coordinator, json!({ "roles": ["intruder"] })),
        ("GET", "/v1/teams/{team}/artifacts", Read, none.clone()),
        (
            "POST",
            "/v1/teams/{team}/artifacts",
            Actor("ann"),
            json!({ "key": "planted", "title": "Planted", "author": "ann" }),
        ),
        ("GET", "/v1/teams/{team}/artifacts/{key}", Read, none.clone()),
        ("POST", "/v1/teams/{team}/artifacts/{key}/assignment", Coordinator, json!({ "agent": "eve" })),
        ("DELETE", "/v1/teams/{team}/artifacts/{key}/assignment", Coordinator, none.clone()),
        (
            "POST",
            "/v1/teams/{team}/artifacts/{key}/lockouts/{agent}/lift",
            User,
            json!({ "reason": "Let me in." }),
        ),
        (
            "POST",
            "/v1/teams/{team}/artifacts/{key}/resolution",
            User,
            json!({ "action": "assign", "agent": "eve", "reason": "Let me in." }),
        ),
        ("GET", "/v1/teams/{team}/artifacts/{key}/versions", Read, none.clone()),
        ("POST", "/v1/teams/{team}/artifacts/{key}/versions", Actor("ann"), json!({ "author": "ann" })),
        ("GET", "/v1/teams/{team}/artifacts/{key}/versions/{n}", Read, none.clone()),
        (
            "POST",
            "/v1/teams/{team}/artifacts/{key}/versions/{n}/reviews",
            Actor("rev"),
            json!({ "reviewer": "rev", "verdict": "approve" }),
        ),
        (
            "POST",
            "/v1/teams/{team}/checks",
            Check("ann"),
            json!({ "agent": "ann", "paths": ["src/auth/a.rs"] }),
        ),
        (
            "POST",
            "/v1/teams/{team}/ref-checks",
            Read,
            json!({ "ref": "0123456789abcdef", "paths": ["src/auth/a.rs"] }),
        ),
        ("GET", "/v1/teams/{team}/escalations", Read, none.clone()),
        ("GET", "/v1/teams/{team}/events", Read, none.clone()),
        ("GET", "/v1/teams/{team}/events/stream", Read, none.clone()),
        ("GET", "/v1/teams/{team}/lockouts", Read, none.clone()),
        ("GET", "/v1/teams/{team}/tokens", Admin, none.clone()),
        ("POST", "/v1/teams/{team}/tokens", Admin, json!({ "name": "backdoor", "scope": "admin" })),
        ("DELETE", "/v1/teams/{team}/tokens/{id}", Admin, none.clone()),
        ("GET", "/v1/tokens", ServerAdmin, none.clone()),
        ("POST", "/v1/tokens", ServerAdmin, json!({ "name": "backdoor" })),
        ("DELETE", "/v1/tokens/{id}", ServerAdmin, none.clone()),
        ("GET", "/v1/teams/{team}/webhooks", Admin, none.clone()),
        ("POST", "/v1/teams/{team}/webhooks", Admin, json!({ "url": "http://127.0.0.1:9/planted" })),
        ("GET", "/v1/teams/{team}/webhooks/{id}", Admin, none.clone()),
        ("PATCH", "/v1/teams/{team}/webhooks/{id}", Admin, json!({ "url": "http://127.0.0.1:9/planted" })),
        ("DELETE", "/v1/teams/{team}/webhooks/{id}", Admin, none.clone()),
        ("POST", "/v1/teams/{team}/webhooks/{id}/rotate", Admin, json!({})),
        ("POST", "/v1/teams/{team}/webhooks/{id}/test", Admin, none.clone()),
        ("GET", "/v1/teams/{team}/webhooks/{id}/deliveries", Admin, none.clone()),
        ("POST", "/v1/teams/{team}/webhooks/{id}/deliveries/{delivery}/retry", Admin, none.clone()),
        ("GET", "/v1/teams/{team}/forges", Admin, none.clone()),
        (
            "PUT",
            "/v1/teams/{team}/forges/{name}",
            Admin,
            json!({ "kind": "github", "api_url": "http://127.0.0.1:9", "repository": "evil/repo", "token": "t" }),
        ),
        ("GET", "/v1/teams/{team}/forges/{name}", Admin, none.clone()),
        ("DELETE", "/v1/teams/{team}/forges/{name}", Admin, none.clone()),
        ("GET", "/v1/teams/{team}/forges/{name}/deliveries", Admin, none.clone()),
        ("POST", "/v1/teams/{team}/forges/{name}/deliveries/{delivery}/retry", Admin, none),
    ]
}

/// Every method × path under `/v1` in the OpenAPI spec.
fn spec_routes() -> BTreeSet<(String, String)> {
    let spec = serde_json::to_value(reviewlock::openapi()).unwrap();
    let mut routes = BTreeSet::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        if !path.starts_with("/v1/") {
            continue;
        }
        for method in ["get", "put", "post", "delete", "patch", "head", "options", "trace"] {
            if item.get(method).is_some() {
                routes.insert((method.to_uppercase(), path.clone()));
            }
        }
    }
    routes
}

#[test]
fn the_route_table_covers_every_route_of_the_spec() {
    let spec = spec_routes();
    assert!(spec.len() >= 20, "the spec lists the /v1 routes: {spec:?}");
    let table: BTreeSet<(String, String)> =
        route_table().iter().map(|(m, p, _, _)| (m.to_string(), p.to_string())).collect();
    let missing: Vec<_> = spec.difference(&table).collect();
    let stale: Vec<_> = table.difference(&spec).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "give every route of the spec its minimum scope in route_table(): missing {missing:?}, not in the spec {stale:?}"
    );
}

/// The target team `alpha`: agents ann (engineer, locked out of `auth`), eve (engineer) and rev
/// (reviewer); the artifact `auth`, whose version 1 ann wrote and rev rejected; and a spare read
/// token whose id fills `{id}`. Also a team `beta` with its agent bob.
struct Fixture {
    api: Api,
    spare_token: String,
}

async fn fixture(pool: PgPool) -> Fixture {
    let api = Api::with_state(pool, |s| s.outbox = crate::common::outbox());
    for team in ["alpha", "beta"] {
        api.team(team, Value::Null).await;
    }
    api.agent("alpha", "ann", json!({ "roles": ["engineer"] })).await;
    api.agent("alpha", "eve", json!({ "roles": ["engineer"] })).await;
    api.agent("alpha", "rev", json!({ "roles": ["tester"], "can_review": true, "can_author": false })).await;
    api.agent("beta", "bob", json!({ "roles": ["engineer"] })).await;
    let artifact = json!({ "key": "auth", "title": "Auth", "paths": ["src/auth/**"], "author": "ann" });
    api.post("/v1/teams/alpha/artifacts", ADMIN, artifact).await.expect(201, None);
    let review = json!({ "reviewer": "rev", "verdict": "reject", "reason": "No.", "remedy": { "action": "reassign" } });
    api.post("/v1/teams/alpha/artifacts/auth/versions/1/reviews", ADMIN, review).await.ok();
    let spare = api.post("/v1/teams/alpha/tokens", ADMIN, json!({ "name": "spare", "scope": "read" })).await;
    let spare_token = spare.expect(201, None)["id"].as_str().unwrap().to_owned();
    Fixture { api, spare_token }
}

impl Fixture {
    /// `path` with real ids of team alpha.
    fn fill(&self, path: &str) -> String {
        let path = path
            .replace("{team}", "alpha")
            .replace("{key}", "auth")
            .replace("{agent}", "ann")
            .replace("{n}", "1")
            .replace("{id}", &self.spare_token)
            .replace("{name}", "github")
            .replace("{delivery}", &self.spare_token);
        assert!(!path.contains('{'), "a path parameter this test does not know how to fill: {path}");
        path
    }

    /// A token of `team` for `holder`.
    async fn token(&self, team: &str, holder: Holder) -> String {
        let body = match holder {
            Holder::Read => json!({ "name": "t", "scope": "read" }),
            Holder::Coordinator => json!({ "name": "t", "scope": "coordinator" }),
            Holder::User => json!({ "name": "t", "scope": "user" }),
            Holder::Admin => json!({ "name": "t", "scope": "admin" }),
            Holder::Agent(agent) => json!({ "name": "t", "scope": "agent", "agent": agent }),
        };
        let reply = self.api.post(&format!("/v1/teams/{team}/tokens"), ADMIN, body).await;
        reply.expect(201, None)["token"].as_str().unwrap().to_owned()
    }
}

/// Sends a request and returns its status and JSON body; an event stream's body is not read
/// (it would never end).
async fn call(api: &Api, method: &str, path: &str, token: &str, body: &Value) -> (StatusCode, Value) {
    let mut request = Request::builder()
        .method(Method::from_bytes(method.as_bytes()).unwrap())
        .uri(path)
        .header(header::AUTHORIZATION, format!("Bearer {token}"));
    let body = if body.is_null() {
        Body::empty()
    } else {
        request = request.header(header::CONTENT_TYPE, "application/json");
        Body::from(body.to_string())
    };
    let response = api.app.clone().oneshot(request.body(body).unwrap()).await.unwrap();
    let status = response.status();
    let stream = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
    if stream {
        return (status, Value::Null);
    }
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

#[sqlx::test]
async fn another_teams_tokens_of_every_scope_reach_nothing_on_any_route(pool: PgPool) {
    let f = fixture(pool).await;
    let mut intruders = Vec::new();
    for holder in [Holder::Read, Holder::Coordinator, Holder::User, Holder::Admin, Holder::Agent("bob")] {
        intruders.push((holder, f.token("beta", holder).await));
    }
    let team_before = f.api.get("/v1/teams/alpha", ADMIN).await.ok().clone();
    let before = f.api.footprint().await;
    let spec = spec_routes();
    let mut tried = 0;
    for (method, path, _, body) in route_table() {
        assert!(spec.contains(&(method.to_owned(), path.to_owned())), "{method} {path} is not in the spec");
        let url = f.fill(path);
        for (holder, token) in &intruders {
            let (status, reply) = call(&f.api, method, &url, token, &body).await;
            let code = reply["code"].as_str().unwrap_or_default();
            assert!(
                (status == StatusCode::NOT_FOUND && code == "not_found")
                    || (status == StatusCode::FORBIDDEN && code == "forbidden"),
                "beta's {holder:?} token on {method} {url}: {status} {reply}"
            );
            tried += 1;
        }
    }
    assert_eq!(tried, spec.len() * intruders.len());
    assert_eq!(f.api.footprint().await, before, "another team's tokens changed something");
    assert_eq!(f.api.get("/v1/teams/alpha", ADMIN).await.ok(), &team_before);
}

#[sqlx::test]
async fn every_route_refuses_the_scopes_below_its_minimum(pool: PgPool) {
    let f = fixture(pool).await;
    let holders = [
        Holder::Read,
        Holder::Coordinator,
        Holder::User,
        Holder::Admin,
        Holder::Agent("ann"),
        Holder::Agent("rev"),
    ];
    let mut tokens = Vec::new();
    for holder in holders {
        tokens.push((holder, f.token("alpha", holder).await));
    }
    let (mut refused, mut allowed) = (0, 0);
    for (method, path, need, body) in route_table() {
        let url = f.fill(path);
        for (holder, token) in &tokens {
            let before = f.api.footprint().await;
            let (status, reply) = call(&f.api, method, &url, token, &body).await;
            if need.allows(*holder) {
                assert_ne!(
                    status,
                    StatusCode::FORBIDDEN,
                    "{holder:?} may {method} {url} ({need:?}): {reply}"
                );
                assert!(status != StatusCode::UNAUTHORIZED && !status.is_server_error(), "{status} {reply}");
                allowed += 1;
            } else {
                assert_eq!(
                    (status, reply["code"].as_str()),
                    (StatusCode::FORBIDDEN, Some("forbidden")),
                    "{holder:?} may not {method} {url} ({need:?}): {reply}"
                );
                assert_eq!(f.api.footprint().await, before, "a refused {method} {url} changed something");
                refused += 1;
            }
        }
    }
    assert!(refused > 50 && allowed > 50, "refused {refused}, allowed {allowed}");
}

/// Creates a token of `alpha` with `body`; returns (id, secret).
async fn create_token(api: &Api, body: Value) -> (String, String) {
    let created = api.post("/v1/teams/alpha/tokens", ADMIN, body).await.expect(201, None).clone();
    (created["id"].as_str().unwrap().to_owned(), created["token"].as_str().unwrap().to_owned())
}

#[sqlx::test]
async fn revoking_an_agent_or_user_token_takes_effect_at_once(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    api.agent("alpha", "ann", json!({ "roles": ["engineer"] })).await;
    let team_admin = api.token("alpha", "admin").await;
    let (agent_id, agent) =
        create_token(&api, json!({ "name": "ann-bot", "scope": "agent", "agent": "ann" })).await;
    let (user_id, user) = create_token(&api, json!({ "name": "me", "scope": "user" })).await;
    let check = json!({ "agent": "ann", "paths": ["src/a.rs"] });

    // Both work...
    api.get("/v1/teams/alpha", &agent).await.expect(200, None);
    api.post("/v1/teams/alpha/checks", &agent, check.clone()).await.expect(200, None);
    api.get("/v1/teams/alpha/lockouts", &user).await.expect(200, None);

    // ...until revoked: the very next request is 401, whatever it asks.
    api.delete(&format!("/v1/teams/alpha/tokens/{agent_id}"), ADMIN).await.expect(204, None);
    problem(&api.get("/v1/teams/alpha", &agent).await, 401, "unauthenticated");
    problem(&api.post("/v1/teams/alpha/checks", &agent, check.clone()).await, 401, "unauthenticated");
    let artifact = json!({ "key": "k", "title": "K", "author": "ann" });
    problem(&api.post("/v1/teams/alpha/artifacts", &agent, artifact).await, 401, "unauthenticated");

    // A team admin revokes the user token.
    api.delete(&format!("/v1/teams/alpha/tokens/{user_id}"), &team_admin).await.expect(204, None);
    problem(&api.get("/v1/teams/alpha/lockouts", &user).await, 401, "unauthenticated");
    let resolution = json!({ "action": "abandon", "reason": "x" });
    let reply = api.post("/v1/teams/alpha/artifacts/k/resolution", &user, resolution).await;
    problem(&reply, 401, "unauthenticated");
    // Its feed is closed to it too.
    let (status, _) = call(&api, "GET", "/v1/teams/alpha/events/stream", &user, &Value::Null).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // The other tokens are unaffected.
    api.get("/v1/teams/alpha/tokens", &team_admin).await.expect(200, None);
}

#[sqlx::test]
async fn tokens_are_stored_and_looked_up_only_as_their_sha256(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    api.agent("alpha", "ann", json!({ "roles": ["engineer"] })).await;
    let mut secrets = Vec::new();
    for (i, body) in [
        json!({ "name": "c", "scope": "coordinator" }),
        json!({ "name": "a", "scope": "agent", "agent": "ann" }),
        json!({ "name": "u", "scope": "user" }),
    ]
    .into_iter()
    .enumerate()
    {
        let key = format!("create-{i}");
        let reply = api
            .send_with(
                Method::POST,
                "/v1/teams/alpha/tokens",
                Some(ADMIN),
                Some(body),
                &[("idempotency-key", key.as_str())],
            )
            .await;
        let created = reply.expect(201, None);
        secrets.push((
            created["id"].as_str().unwrap().to_owned(),
            created["token"].as_str().unwrap().to_owned(),
        ));
    }
    for (id, secret) in &secrets {
        let hash: Vec<u8> = sqlx::query_scalar("select secret_hash from tokens where id = $1::uuid")
            .bind(id)
            .fetch_one(&api.pool)
            .await
            .unwrap();
        assert_eq!(hash.len(), 32, "a SHA-256");
        assert_eq!(hash, Sha256::digest(secret.as_bytes()).to_vec());
        // The lookup is by the whole hash: a secret off by its last character, or cut short,
        // is unknown.
        let mut near = secret.clone();
        let last = near.pop().unwrap();
        let other = if last == '0' { '1' } else { '0' };
        for wrong in [format!("{near}{other}"), near.clone(), secret.to_uppercase()] {
            problem(&api.get("/v1/teams/alpha", &wrong).await, 401, "unauthenticated");
        }
        api.get("/v1/teams/alpha", secret).await.expect(200, None);
    }

    // No column of any table holds a secret, in text or as bytes.
    let tables: Vec<String> = sqlx::query_scalar(
        "select table_name::text from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE'",
    )
    .fetch_all(&api.pool)
    .await
    .unwrap();
    assert!(
        tables.iter().any(|t| t == "tokens") && tables.iter().any(|t| t == "idempotency_keys"),
        "{tables:?}"
    );
    for table in &tables {
        let dump: String = {
            // The name comes from the catalog, quoted.
            let sql = format!("select coalesce(string_agg(to_jsonb(t)::text, ' '), '') from \"{table}\" t");
            sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        }
        .fetch_one(&api.pool)
        .await
        .unwrap();
        for (_, secret) in &secrets {
            assert!(!dump.contains(secret.as_str()), "table {table} holds a secret");
            assert!(!dump.contains(&hex::encode(secret.as_bytes())), "table {table} holds a secret's bytes");
        }
    }
}

#[sqlx::test]
async fn each_token_is_rate_limited_on_its_own(pool: PgPool) {
    let setup = Api::new(pool.clone());
    setup.team("alpha", Value::Null).await;
    let first = setup.token("alpha", "read").await;
    let second = setup.token("alpha", "coordinator").await;
    let limiter = RateLimiter::new(RateLimit::new(1.0, 2));
    let api = Api::with_state(pool, |state| state.auth.rate_limiter = limiter.clone());
    let url = "/v1/teams/alpha";

    // Unknown tokens are 401 however many they are, and get no bucket.
    for i in 0..10 {
        problem(&api.get(url, &format!("rl_made_up_{i}")).await, 401, "unauthenticated");
    }
    problem(&api.send(Method::GET, url, None, None).await, 401, "unauthenticated");
    assert_eq!(limiter.buckets(), 0, "no bucket before a token authenticates");

    // A burst of two, then 429 with Retry-After.
    api.get(url, &first).await.expect(200, None);
    api.get(url, &first).await.expect(200, None);
    let before = api.footprint().await;
    let reply = api.get(url, &first).await;
    problem(&reply, 429, "rate_limited");
    let retry_after: u64 = reply.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert_eq!(retry_after, 1, "one request per second comes back");
    // Writes too, before anything else is checked, and they change nothing.
    let reply = api.put("/v1/teams/alpha/agents/ann", &first, json!({})).await;
    problem(&reply, 429, "rate_limited");
    assert!(reply.headers.contains_key("retry-after"));
    assert_eq!(api.footprint().await, before);

    // Another token is unaffected.
    api.get(url, &second).await.expect(200, None);
    api.put("/v1/teams/alpha/agents/ann", &second, json!({})).await.expect(201, None);
    assert_eq!(limiter.buckets(), 2);

    // After waiting as told, the first token works again.
    tokio::time::sleep(Duration::from_secs(retry_after) + Duration::from_millis(100)).await;
    api.get(url, &first).await.expect(200, None);
}
