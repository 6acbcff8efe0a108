//! `PUT/GET /v1/teams/{team}/agents/{agent}` and `GET /v1/teams/{team}/agents`.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::{ADMIN, Api};
use crate::errors::{invalid_fields, problem};

#[sqlx::test]
async fn put_agent_creates_with_defaults_then_updates(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let coordinator = api.token("alpha", "coordinator").await;

    let reply = api.put("/v1/teams/alpha/agents/ann", &coordinator, json!({})).await;
    let created = reply.expect(201, None).clone();
    assert_eq!(created["id"], "ann");
    assert_eq!(created["display_name"], Value::Null);
    assert_eq!(created["kind"], "ai");
    assert_eq!(created["roles"], json!([]));
    assert_eq!(created["expertise"], json!([]));
    assert_eq!(created["can_author"], true);
    assert_eq!(created["can_review"], false);
    assert_eq!(created["active"], true);
    assert!(created["created_at"].is_string() && created["updated_at"].is_string());

    let reply = api.put("/v1/teams/alpha/agents/ann", &coordinator, json!({ "display_name": "Ann" })).await;
    let updated = reply.expect(200, None);
    assert_eq!(updated["display_name"], "Ann");
    assert_eq!(updated["created_at"], created["created_at"]);

    // A full create sets every field.
    let body = json!({
        "display_name": "Bob", "kind": "human", "roles": ["lead", "code-reviewer"],
        "can_review": true, "can_author": false, "expertise": ["rust", "auth"], "active": false
    });
    let reply = api.put("/v1/teams/alpha/agents/bob", &coordinator, body.clone()).await;
    let bob = reply.expect(201, None);
    for (field, value) in body.as_object().unwrap() {
        assert_eq!(&bob[field], value, "{field}");
    }
}

#[sqlx::test]
async fn put_agent_update_merges_with_what_is_stored(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let full = json!({
        "display_name": "Ann", "kind": "human", "roles": ["lead"], "can_review": true,
        "can_author": false, "expertise": ["rust"], "active": true
    });
    api.agent("alpha", "ann", full.clone()).await;

    // One field changes; every absent one keeps its value (not its default).
    let reply = api.put("/v1/teams/alpha/agents/ann", ADMIN, json!({ "active": false })).await;
    let ann = reply.expect(200, None);
    let mut expected = full.clone();
    expected["active"] = json!(false);
    for (field, value) in expected.as_object().unwrap() {
        assert_eq!(&ann[field], value, "{field}");
    }

    // An empty list is a value, not an absence.
    let reply = api.put("/v1/teams/alpha/agents/ann", ADMIN, json!({ "roles": [] })).await;
    let ann = reply.expect(200, None);
    assert_eq!(ann["roles"], json!([]));
    assert_eq!(ann["expertise"], json!(["rust"]));
    assert_eq!(ann["kind"], "human");

    let reply = api
        .put(
            "/v1/teams/alpha/agents/ann",
            ADMIN,
            json!({ "kind": "ai", "expertise": ["typescript", "auth"], "can_author": true }),
        )
        .await;
    let ann = reply.expect(200, None);
    assert_eq!(ann["kind"], "ai");
    assert_eq!(ann["expertise"], json!(["typescript", "auth"]));
    assert_eq!(ann["can_author"], true);
    assert_eq!(ann["can_review"], true);
    assert_eq!(ann["display_name"], "Ann");
    assert_eq!(ann["active"], false);

    // GET shows the same.
    let got = api.get("/v1/teams/alpha/agents/ann", ADMIN).await;
    let got = got.expect(200, None);
    for field in ["display_name", "kind", "roles", "can_review", "can_author", "expertise", "active"] {
        assert_eq!(got[field], ann[field], "{field}");
    }
}

#[sqlx::test]
async fn put_agent_validates_its_fields(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let many: Vec<String> = (0..65).map(|i| format!("tag-{i}")).collect();
    let sixty_four: Vec<String> = (0..64).map(|i| format!("tag-{i}")).collect();
    let long_tag = "x".repeat(65);
    let cases = [
        (json!({ "roles": ["lead", "lead"] }), vec!["roles[1]"]),
        (json!({ "expertise": ["rust", "go", "rust"] }), vec!["expertise[2]"]),
        (json!({ "roles": [""] }), vec!["roles[0]"]),
        (json!({ "expertise": ["  "] }), vec!["expertise[0]"]),
        (json!({ "roles": ["two\nlines"] }), vec!["roles[0]"]),
        (json!({ "roles": many }), vec!["roles"]),
        (json!({ "expertise": many }), vec!["expertise"]),
        (json!({ "roles": ["ok", long_tag] }), vec!["roles[1]"]),
        (json!({ "expertise": [long_tag] }), vec!["expertise[0]"]),
        (json!({ "display_name": "" }), vec!["display_name"]),
        (json!({ "display_name": "x".repeat(201) }), vec!["display_name"]),
        (json!({ "kind": "robot" }), vec!["kind"]),
        (json!({ "active": "no" }), vec!["active"]),
        (json!({ "roles": "lead" }), vec!["roles"]),
        (
            json!({ "display_name": " ", "roles": ["a", "a"], "expertise": [""] }),
            vec!["display_name", "roles[1]", "expertise[0]"],
        ),
    ];
    for (body, fields) in &cases {
        let reply = api.put("/v1/teams/alpha/agents/ann", ADMIN, body.clone()).await;
        assert_eq!(&invalid_fields(&reply), fields, "{body}");
    }
    problem(&api.get("/v1/teams/alpha/agents/ann", ADMIN).await, 404, "not_found");

    // Agent ids are slugs.
    let too_long = "a".repeat(64);
    for bad in ["Ann", "-ann", "ann_b", "ann.b", "%C3%A9", too_long.as_str()] {
        let reply = api.put(&format!("/v1/teams/alpha/agents/{bad}"), ADMIN, json!({})).await;
        assert_eq!(invalid_fields(&reply), ["agent"], "{bad}");
    }

    // The limits themselves are accepted.
    let longest = "a".repeat(63);
    let reply = api
        .put(
            &format!("/v1/teams/alpha/agents/{longest}"),
            ADMIN,
            json!({ "roles": sixty_four, "expertise": ["x".repeat(64)], "display_name": "x".repeat(200) }),
        )
        .await;
    assert_eq!(reply.expect(201, None)["id"], longest);

    // An update is validated the same way and leaves the agent unchanged.
    api.agent("alpha", "ann", json!({ "roles": ["lead"] })).await;
    let reply = api.put("/v1/teams/alpha/agents/ann", ADMIN, json!({ "roles": ["lead", "lead"] })).await;
    assert_eq!(invalid_fields(&reply), ["roles[1]"]);
    let ann = api.get("/v1/teams/alpha/agents/ann", ADMIN).await;
    assert_eq!(ann.expect(200, None)["roles"], json!(["lead"]));
}

#[sqlx::test]
async fn put_agent_on_a_missing_team_is_404(pool: PgPool) {
    let api = Api::new(pool);
    let reply = api.put("/v1/teams/nowhere/agents/ann", ADMIN, json!({})).await;
    problem(&reply, 404, "not_found");
    problem(&api.get("/v1/teams/nowhere/agents", ADMIN).await, 404, "not_found");
    problem(&api.get("/v1/teams/nowhere/agents/ann", ADMIN).await, 404, "not_found");
}

#[sqlx::test]
async fn get_agent_shows_it_with_its_lockouts(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let created = api
        .agent("alpha", "ann", json!({ "display_name": "Ann", "roles": ["tester"], "can_review": true }))
        .await;
    let read = api.token("alpha", "read").await;
    let reply = api.get("/v1/teams/alpha/agents/ann", &read).await;
    let ann = reply.expect(200, None);
    assert_eq!(ann["lockouts"], json!([]));
    let mut without_lockouts = ann.clone();
    without_lockouts.as_object_mut().unwrap().remove("lockouts");
    assert_eq!(without_lockouts, created);

    let reply = api.get("/v1/teams/alpha/agents/bob", &read).await;
    problem(&reply, 404, "not_found");
}

#[sqlx::test]
async fn list_agents_pages_by_cursor(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let read = api.token("alpha", "read").await;

    let empty = api.get("/v1/teams/alpha/agents", &read).await;
    assert_eq!(empty.expect(200, None), &json!({ "items": [], "next_cursor": null }));

    // Created out of order; listed in id order.
    for id in ["eve", "bob", "dan", "ann", "cat"] {
        api.agent("alpha", id, json!({})).await;
    }
    let ids = |body: &Value| -> Vec<String> {
        body["items"].as_array().unwrap().iter().map(|a| a["id"].as_str().unwrap().to_owned()).collect()
    };

    let all = api.get("/v1/teams/alpha/agents", &read).await;
    let all = all.expect(200, None);
    assert_eq!(ids(all), ["ann", "bob", "cat", "dan", "eve"]);
    assert_eq!(all["next_cursor"], Value::Null);
    assert_eq!(all["items"][0]["kind"], "ai");
    assert_eq!(all["items"][0]["can_author"], true);

    let mut pages = vec![];
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            None => "/v1/teams/alpha/agents?limit=2".to_owned(),
            Some(c) => format!("/v1/teams/alpha/agents?limit=2&cursor={c}"),
        };
        let page = api.get(&path, &read).await;
        let page = page.expect(200, None);
        pages.push(ids(page));
        match page["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
        assert!(pages.len() <= 3, "paging does not end: {pages:?}");
    }
    assert_eq!(pages, [vec!["ann", "bob"], vec!["cat", "dan"], vec!["eve"]]);

    // A page that ends exactly at the last agent has no next cursor.
    let exact = api.get("/v1/teams/alpha/agents?limit=5", &read).await;
    let exact = exact.expect(200, None);
    assert_eq!(ids(exact).len(), 5);
    assert_eq!(exact["next_cursor"], Value::Null);
    let first = api.get("/v1/teams/alpha/agents?limit=2", &read).await;
    assert_eq!(first.expect(200, None)["next_cursor"], "bob");
}

#[sqlx::test]
async fn list_agents_refuses_a_bad_limit(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    for query in ["limit=0", "limit=501", "limit=-1"] {
        let reply = api.get(&format!("/v1/teams/alpha/agents?{query}"), ADMIN).await;
        assert_eq!(invalid_fields(&reply), ["limit"], "{query}");
    }
    for query in ["limit=abc", "limit=1.5", "page=2"] {
        let reply = api.get(&format!("/v1/teams/alpha/agents?{query}"), ADMIN).await;
        problem(&reply, 422, "invalid_field");
    }
    for query in ["limit=1", "limit=500"] {
        api.get(&format!("/v1/teams/alpha/agents?{query}"), ADMIN).await.expect(200, None);
    }
}
