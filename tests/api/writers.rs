//! Every writer is someone (R16): agents' aliases, unique in the team, and checks that name the
//! writer by id or alias, or cannot name it at all.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::Reply;
use crate::errors::{invalid_fields, problem};
use crate::examples::Team;

async fn check(t: &Team, body: Value) -> Reply {
    t.api.post(&t.url("/checks"), &t.coord, body).await
}

async fn aliases(t: &Team, agent: &str) -> Value {
    t.api.get(&t.url(&format!("/agents/{agent}")), &t.coord).await.expect(200, None)["aliases"].clone()
}

#[sqlx::test]
async fn an_alias_names_one_agent_of_the_team(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    let names = json!({ "aliases": ["general-purpose", "a@example.com"] });
    let reply = t.api.put(&t.url("/agents/a"), &t.coord, names).await;
    assert_eq!(reply.expect(200, None)["aliases"], json!(["a@example.com", "general-purpose"]));
    assert_eq!(aliases(&t, "a").await, json!(["a@example.com", "general-purpose"]));
    let listed = t.api.get(&t.url("/agents"), &t.coord).await;
    let listed = listed.expect(200, None)["items"].as_array().unwrap().clone();
    assert!(listed.iter().any(|g| g["id"] == "a" && g["aliases"][1] == "general-purpose"), "{listed:?}");

    // Another agent's alias, another agent's id, or an id that is another agent's alias: refused,
    // nothing changed.
    for (agent, body) in [
        ("b", json!({ "aliases": ["general-purpose"] })),
        ("b", json!({ "aliases": ["b-bot", "a"] })),
        ("general-purpose", json!({})),
    ] {
        let before = t.api.footprint().await;
        let reply = t.api.put(&t.url(&format!("/agents/{agent}")), &t.coord, body).await;
        problem(&reply, 409, "alias_taken");
        assert_eq!(t.api.footprint().await, before, "{agent}");
    }
    assert_eq!(aliases(&t, "b").await, json!([]));
    let missing = t.api.get(&t.url("/agents/general-purpose"), &t.coord).await;
    problem(&missing, 404, "not_found");

    // Aliases are replaced as a whole: once `a` lets go of a name, `b` may take it.
    t.api.put(&t.url("/agents/a"), &t.coord, json!({ "aliases": ["a@example.com"] })).await.expect(200, None);
    t.api
        .put(&t.url("/agents/b"), &t.coord, json!({ "aliases": ["general-purpose"] }))
        .await
        .expect(200, None);
    assert_eq!(aliases(&t, "a").await, json!(["a@example.com"]));
    assert_eq!(aliases(&t, "b").await, json!(["general-purpose"]));
    // An update that leaves `aliases` out keeps them.
    t.api.put(&t.url("/agents/b"), &t.coord, json!({ "display_name": "B" })).await.expect(200, None);
    assert_eq!(aliases(&t, "b").await, json!(["general-purpose"]));

    // A blank, multi-line or repeated alias is refused by its field.
    let body = json!({ "aliases": ["ok", " ", "x\ny", "ok"] });
    let reply = t.api.put(&t.url("/agents/b"), &t.coord, body).await;
    assert_eq!(invalid_fields(&reply), ["aliases[1]", "aliases[2]", "aliases[3]"]);
}

#[sqlx::test]
async fn a_check_names_its_writer_by_alias_or_answers_for_the_most_restricted_writer(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.api.put(&t.url("/agents/a"), &t.coord, json!({ "aliases": ["runtime-eng"] })).await.expect(200, None);
    t.api
        .put(&t.url("/agents/b"), &t.coord, json!({ "aliases": ["plugin:reviser"] }))
        .await
        .expect(200, None);
    let body = json!({ "key": "web", "title": "web", "author": "a", "paths": ["src/web/**"] });
    t.api.post(&t.url("/artifacts"), &t.coord, body).await.expect(201, None);
    t.reject("web", 1, json!({ "action": "reassign" })).await.expect(201, None);

    // By alias: the agent it names, as if named by id.
    let locked = check(&t, json!({ "alias": "runtime-eng", "paths": ["src/web/a.rs"] })).await;
    let locked = locked.expect(200, None);
    assert_eq!((&locked["allowed"], &locked["agent"]), (&json!(false), &json!("a")));
    assert_eq!(locked["denials"][0]["code"], "agent_locked_out");
    let free = check(&t, json!({ "alias": "plugin:reviser", "paths": ["src/web/a.rs"] })).await;
    assert_eq!(free.answer(), json!({ "allowed": true, "agent": "b", "denials": [] }));
    // An id is a name too.
    let by_id = check(&t, json!({ "alias": "a", "paths": ["src/web/a.rs"] })).await;
    assert_eq!(by_id.expect(200, None)["agent"], "a");

    // A name that names nobody, or no name at all: refused where any lockout covers the file,
    // naming who is locked out; allowed elsewhere.
    for unnamed in [json!({ "alias": "Explore" }), json!({})] {
        let mut body = unnamed.clone();
        body["paths"] = json!(["src/web/a.rs", "README.md"]);
        let reply = check(&t, body).await;
        let reply = reply.expect(200, None);
        assert_eq!((&reply["allowed"], &reply["agent"]), (&json!(false), &Value::Null), "{unnamed}");
        assert_eq!(reply["denials"].as_array().unwrap().len(), 1, "{reply}");
        let denial = &reply["denials"][0];
        assert_eq!((&denial["code"], &denial["artifact"]), (&json!("unknown_writer"), &json!("web")));
        let detail = denial["detail"].as_str().unwrap();
        assert!(detail.contains("'src/web/a.rs'") && detail.contains("locked for a"), "{detail}");
        let mut body = unnamed.clone();
        body["paths"] = json!(["README.md", "src/other/x.rs"]);
        let reply = check(&t, body).await;
        assert_eq!(reply.answer(), json!({ "allowed": true, "agent": null, "denials": [] }));
        // Asked about the artifact itself: refused while anyone is locked out of it.
        let mut body = unnamed.clone();
        body["artifact"] = json!("web");
        let reply = check(&t, body).await;
        assert_eq!(reply.expect(200, None)["denials"][0]["code"], "unknown_writer");
    }
    // Once the lockout is lifted, nobody is refused anything.
    let lift = t.url("/artifacts/web/lockouts/a/lift");
    t.api
        .post(&lift, &t.user, json!({ "reason": "The rejection was about b's file." }))
        .await
        .expect(200, None);
    let reply = check(&t, json!({ "alias": "Explore", "paths": ["src/web/a.rs"] })).await;
    assert_eq!(reply.expect(200, None)["allowed"], true);

    // An id and a name at once, or a name that cannot be one: refused by field.
    let reply = check(&t, json!({ "agent": "a", "alias": "runtime-eng", "paths": ["x"] })).await;
    assert_eq!(invalid_fields(&reply), ["alias"]);
    let reply = check(&t, json!({ "alias": "two\nlines", "paths": ["x"] })).await;
    assert_eq!(invalid_fields(&reply), ["alias"]);
}
