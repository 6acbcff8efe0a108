//! Hostile input: body size, string lengths, list sizes, integer ranges, control and exotic
//! unicode characters, SQL-looking text. Every refusal is problem+json with the right code and
//! changes nothing; legal input, however odd, is stored verbatim.

use axum::body::Body;
use axum::http::{Method, Request};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::{ADMIN, Api, Reply};
use crate::errors::{invalid_fields, problem};

const T: &str = "/v1/teams/acme";
const SQL: &str = "'; drop table artifacts; --";

/// Characters a free-text field must refuse: NUL, ESC (an ANSI sequence), DEL, a C1 control.
const CONTROLS: [&str; 5] = ["a\u{0}b", "\u{1b}[31mred", "a\u{7f}b", "a\u{9b}b", "a\rb"];

/// Odd but legal text: RTL override, emoji (with ZWJ and skin tone), combining marks, CJK,
/// SQL-looking input, quotes and backslashes.
const LEGAL: [&str; 6] = [
    "abc\u{202e}fed",
    "ship it 🚀👩🏽‍💻",
    "e\u{301}\u{302}\u{303} Z\u{336}a\u{337}",
    "日本語のテキスト",
    SQL,
    "\"quoted\" \\ back\\slash %00 %s {}",
];

/// A team with two authoring engineers, a reviewer, and `auth` in review (v1 by runtime-eng).
async fn setup(pool: PgPool) -> Api {
    let api = Api::new(pool);
    api.team("acme", Value::Null).await;
    for agent in ["runtime-eng", "revision-eng"] {
        api.agent("acme", agent, json!({ "roles": ["engineer"] })).await;
    }
    api.agent("acme", "quality-reviewer", json!({ "can_review": true, "can_author": false })).await;
    api.post(
        &format!("{T}/artifacts"),
        ADMIN,
        json!({ "key": "auth", "title": "Auth", "author": "runtime-eng" }),
    )
    .await
    .expect(201, None);
    api
}

/// Sends a request that must be refused with `status`/`code` and must change nothing.
async fn refused(
    api: &Api,
    method: Method,
    path: &str,
    body: Option<Value>,
    status: u16,
    code: &str,
) -> Reply {
    let before = api.footprint().await;
    let reply = api.send(method.clone(), path, Some(ADMIN), body).await;
    problem(&reply, status, code);
    assert_eq!(api.footprint().await, before, "{method} {path} was refused but changed something");
    reply
}

/// As [`refused`] for a 422, asserting the field named.
async fn invalid(api: &Api, method: Method, path: &str, body: Value, field: &str) {
    let before = api.footprint().await;
    let reply = api.send(method.clone(), path, Some(ADMIN), Some(body)).await;
    let fields = invalid_fields(&reply);
    assert!(fields.iter().any(|f| f == field), "{method} {path}: expected {field} at fault, got {fields:?}");
    assert_eq!(api.footprint().await, before, "{method} {path} was refused but changed something");
}

fn rejection(reason: &str) -> Value {
    json!({ "reviewer": "quality-reviewer", "verdict": "reject", "reason": reason,
            "remedy": { "action": "reassign" } })
}

#[sqlx::test]
async fn bodies_over_256_kib_are_refused_and_change_nothing(pool: PgPool) {
    let api = setup(pool).await;
    let limit = 256 * 1024;
    let padded = |size: usize| {
        let mut body = json!({ "key": "big", "title": "Big", "author": "runtime-eng" }).to_string();
        body.insert_str(1, &" ".repeat(size - body.len()));
        assert_eq!(body.len(), size);
        body
    };
    for idempotency in [false, true] {
        let before = api.footprint().await;
        let mut request = Request::post(format!("{T}/artifacts"))
            .header("authorization", format!("Bearer {ADMIN}"))
            .header("content-type", "application/json");
        if idempotency {
            request = request.header("idempotency-key", "big-body");
        }
        let reply = api.raw(request.body(Body::from(padded(limit + 1))).unwrap()).await;
        problem(&reply, 413, "payload_too_large");
        assert_eq!(api.footprint().await, before);
    }
    // Exactly at the limit (JSON whitespace is still JSON) is read.
    let request = Request::post(format!("{T}/artifacts"))
        .header("authorization", format!("Bearer {ADMIN}"))
        .header("content-type", "application/json")
        .body(Body::from(padded(limit)))
        .unwrap();
    api.raw(request).await.expect(201, None);
}

#[sqlx::test]
async fn strings_are_bounded_in_characters(pool: PgPool) {
    let api = setup(pool).await;
    let id = |n: usize| "a".repeat(n);
    // Ids: 63 is fine, 64 is not.
    api.put(&format!("/v1/teams/{}", id(63)), ADMIN, json!({})).await.expect(201, None);
    invalid(&api, Method::PUT, &format!("/v1/teams/{}", id(64)), json!({}), "team").await;
    api.put(&format!("{T}/agents/{}", id(63)), ADMIN, json!({})).await.expect(201, None);
    invalid(&api, Method::PUT, &format!("{T}/agents/{}", id(64)), json!({}), "agent").await;
    let artifact = |key: &str, title: &str| json!({ "key": key, "title": title, "author": "runtime-eng" });
    invalid(
        &api,
        Method::POST,
        &format!("{T}/artifacts"),
        json!({ "key": "x", "title": "x", "author": id(64) }),
        "author",
    )
    .await;
    // Keys and titles: 200.
    let key200 = format!("{}/{}", "k".repeat(100), "k".repeat(99));
    api.post(&format!("{T}/artifacts"), ADMIN, artifact(&key200, &"é".repeat(200))).await.expect(201, None);
    invalid(&api, Method::POST, &format!("{T}/artifacts"), artifact(&"k".repeat(201), "t"), "key").await;
    invalid(&api, Method::POST, &format!("{T}/artifacts"), artifact("k201", &"é".repeat(201)), "title").await;
    // Display names and token names: 200.
    api.put(T, ADMIN, json!({ "display_name": "名".repeat(200) })).await.expect(200, None);
    invalid(&api, Method::PUT, T, json!({ "display_name": "名".repeat(201) }), "display_name").await;
    invalid(
        &api,
        Method::PUT,
        &format!("{T}/agents/runtime-eng"),
        json!({ "display_name": "x".repeat(201) }),
        "display_name",
    )
    .await;
    api.post(&format!("{T}/tokens"), ADMIN, json!({ "name": "n".repeat(200), "scope": "read" }))
        .await
        .expect(201, None);
    invalid(
        &api,
        Method::POST,
        &format!("{T}/tokens"),
        json!({ "name": "n".repeat(201), "scope": "read" }),
        "name",
    )
    .await;
    // Summary 10 000, ref 500 (on a supersede by the author of the version in review).
    let version =
        |summary: &str, git_ref: &str| json!({ "author": "runtime-eng", "summary": summary, "ref": git_ref });
    let versions = format!("{T}/artifacts/auth/versions");
    invalid(&api, Method::POST, &versions, version(&"s".repeat(10_001), "r"), "summary").await;
    invalid(&api, Method::POST, &versions, version("s", &"r".repeat(501)), "ref").await;
    api.post(&versions, ADMIN, version(&"ü".repeat(10_000), &"r".repeat(500))).await.expect(201, None);
    // Reason 10 000, evidence 10 000, on a review.
    let reviews = format!("{T}/artifacts/auth/versions/2/reviews");
    invalid(&api, Method::POST, &reviews, rejection(&"r".repeat(10_001)), "reason").await;
    let mut with_evidence = rejection("r");
    with_evidence["evidence"] = json!({ "affected_scope": "x".repeat(10_001) });
    invalid(&api, Method::POST, &reviews, with_evidence, "evidence.affected_scope").await;
    api.post(&reviews, ADMIN, rejection(&"r".repeat(10_000))).await.expect(201, None);
    // Note 10 000, on an assignment.
    let assignment = format!("{T}/artifacts/auth/assignment");
    let assign = |note: String| json!({ "agent": "revision-eng", "note": note });
    invalid(&api, Method::POST, &assignment, assign("n".repeat(10_001)), "note").await;
    api.post(&assignment, ADMIN, assign("n".repeat(10_000))).await.expect(201, None);
    // Reason 10 000 on a lift and a resolution (checked before the scope).
    let lift = format!("{T}/artifacts/auth/lockouts/runtime-eng/lift");
    invalid(&api, Method::POST, &lift, json!({ "reason": "r".repeat(10_001) }), "reason").await;
    let resolution = format!("{T}/artifacts/auth/resolution");
    invalid(
        &api,
        Method::POST,
        &resolution,
        json!({ "action": "abandon", "reason": "r".repeat(10_001) }),
        "reason",
    )
    .await;
}

#[sqlx::test]
async fn lists_are_bounded(pool: PgPool) {
    let api = setup(pool).await;
    let many = |n: usize, prefix: &str| (0..n).map(|i| format!("{prefix}{i}")).collect::<Vec<_>>();
    // Roles and expertise: 64.
    let agent = format!("{T}/agents/wide");
    api.put(&agent, ADMIN, json!({ "roles": many(64, "r"), "expertise": many(64, "e") }))
        .await
        .expect(201, None);
    invalid(&api, Method::PUT, &agent, json!({ "roles": many(65, "r") }), "roles").await;
    invalid(&api, Method::PUT, &agent, json!({ "expertise": many(65, "e") }), "expertise").await;
    // An artifact's paths: 64; contributors: 64.
    let create = |paths: Vec<String>| json!({ "key": "wide", "title": "Wide", "author": "runtime-eng", "paths": paths });
    invalid(&api, Method::POST, &format!("{T}/artifacts"), create(many(65, "src/p")), "paths").await;
    let contributors: Vec<Value> =
        many(65, "c").iter().map(|a| json!({ "agent": a, "role": "co_author" })).collect();
    let mut body = create(vec![]);
    body["contributors"] = json!(contributors);
    invalid(&api, Method::POST, &format!("{T}/artifacts"), body, "contributors").await;
    api.post(&format!("{T}/artifacts"), ADMIN, create(many(64, "src/p"))).await.expect(201, None);
    // A remedy's expertise: 64.
    let mut reject = rejection("no");
    reject["remedy"] = json!({ "action": "escalate", "expertise": many(65, "e") });
    invalid(
        &api,
        Method::POST,
        &format!("{T}/artifacts/auth/versions/1/reviews"),
        reject,
        "remedy.expertise",
    )
    .await;
    // A check's paths: 256.
    let check = |n: usize| json!({ "agent": "runtime-eng", "paths": many(n, "src/f") });
    api.post(&format!("{T}/checks"), ADMIN, check(256)).await.expect(200, None);
    invalid(&api, Method::POST, &format!("{T}/checks"), check(257), "paths").await;
}

#[sqlx::test]
async fn integers_out_of_range_are_refused(pool: PgPool) {
    let api = setup(pool).await;
    // Version numbers in paths: i32, overflow included.
    let v = |n: &str| format!("{T}/artifacts/auth/versions/{n}");
    api.get(&v("1"), ADMIN).await.expect(200, None);
    for n in ["0", "-1", "2147483647"] {
        problem(&api.get(&v(n), ADMIN).await, 404, "not_found");
    }
    for n in ["2147483648", "-2147483649", "99999999999999999999", "1.5", "1e3", "one"] {
        problem(&api.get(&v(n), ADMIN).await, 400, "malformed_request");
        let reviews = format!("{}/reviews", v(n));
        refused(&api, Method::POST, &reviews, Some(rejection("no")), 400, "malformed_request").await;
    }
    // limit: 1 to 500, on every list.
    for list in ["artifacts", "agents", "events", "escalations", "artifacts/auth/versions"] {
        for ok in ["1", "500"] {
            api.get(&format!("{T}/{list}?limit={ok}"), ADMIN).await.expect(200, None);
        }
        for bad in ["0", "-1", "501", "9223372036854775808", "1.5", "x"] {
            let reply = api.get(&format!("{T}/{list}?limit={bad}"), ADMIN).await;
            problem(&reply, 422, "invalid_field");
        }
    }
    // after: a seq, 0 or more.
    api.get(&format!("{T}/events?after=9223372036854775807"), ADMIN).await.expect(200, None);
    for bad in ["-1", "9223372036854775808", "x"] {
        problem(&api.get(&format!("{T}/events?after={bad}"), ADMIN).await, 422, "invalid_field");
    }
    // wait: 0 to 60.
    for bad in ["-1", "61", "9223372036854775808", "0.5"] {
        problem(&api.get(&format!("{T}/events?wait={bad}"), ADMIN).await, 422, "invalid_field");
    }
    // required_approvals: 1 to 100.
    for bad in [json!(0), json!(-1), json!(101), json!(2147483648_i64), json!(1e30), json!(1.5), json!("2")] {
        let body = json!({ "policy": { "required_approvals": bad } });
        let reply = refused(&api, Method::PUT, T, Some(body), 422, "invalid_field").await;
        assert!(reply.body["errors"][0]["field"].as_str().unwrap().starts_with("policy"), "{}", reply.body);
    }
    api.put(T, ADMIN, json!({ "policy": { "required_approvals": 100 } })).await.expect(200, None);
}

/// Every free-text field, as (method, path, body with `TEXT` where the text goes, field).
fn text_fields() -> Vec<(Method, String, Value, &'static str)> {
    let evidence = |name: &str| {
        let mut body = rejection("no");
        body["evidence"] = json!({ name: "TEXT" });
        body
    };
    let reviews = format!("{T}/artifacts/auth/versions/1/reviews");
    vec![
        (Method::PUT, T.into(), json!({ "display_name": "TEXT" }), "display_name"),
        (Method::PUT, format!("{T}/agents/runtime-eng"), json!({ "display_name": "TEXT" }), "display_name"),
        (Method::PUT, format!("{T}/agents/runtime-eng"), json!({ "roles": ["TEXT"] }), "roles[0]"),
        (Method::PUT, format!("{T}/agents/runtime-eng"), json!({ "expertise": ["TEXT"] }), "expertise[0]"),
        (Method::POST, format!("{T}/tokens"), json!({ "name": "TEXT", "scope": "read" }), "name"),
        (
            Method::POST,
            format!("{T}/artifacts"),
            json!({ "key": "new", "title": "TEXT", "author": "runtime-eng" }),
            "title",
        ),
        (
            Method::POST,
            format!("{T}/artifacts"),
            json!({ "key": "new", "title": "t", "kind": "TEXT", "author": "runtime-eng" }),
            "kind",
        ),
        (
            Method::POST,
            format!("{T}/artifacts"),
            json!({ "key": "new", "title": "t", "summary": "TEXT", "author": "runtime-eng" }),
            "summary",
        ),
        (
            Method::POST,
            format!("{T}/artifacts"),
            json!({ "key": "new", "title": "t", "ref": "TEXT", "author": "runtime-eng" }),
            "ref",
        ),
        (
            Method::POST,
            format!("{T}/artifacts/auth/versions"),
            json!({ "author": "runtime-eng", "summary": "TEXT" }),
            "summary",
        ),
        (Method::POST, reviews.clone(), rejection("TEXT"), "reason"),
        (Method::POST, reviews.clone(), evidence("counter_evidence"), "evidence.counter_evidence"),
        (Method::POST, reviews.clone(), evidence("violated_requirement"), "evidence.violated_requirement"),
        (Method::POST, reviews.clone(), evidence("affected_scope"), "evidence.affected_scope"),
        (Method::POST, reviews, evidence("approval_condition"), "evidence.approval_condition"),
        (
            Method::POST,
            format!("{T}/artifacts/auth/assignment"),
            json!({ "agent": "revision-eng", "note": "TEXT" }),
            "note",
        ),
        (
            Method::POST,
            format!("{T}/artifacts/auth/resolution"),
            json!({ "action": "abandon", "reason": "TEXT" }),
            "reason",
        ),
        (
            Method::POST,
            format!("{T}/artifacts/auth/lockouts/runtime-eng/lift"),
            json!({ "reason": "TEXT" }),
            "reason",
        ),
    ]
}

fn fill(body: &Value, text: &str) -> Value {
    serde_json::from_str(&body.to_string().replace("\"TEXT\"", &json!(text).to_string())).unwrap()
}

#[sqlx::test]
async fn control_characters_are_refused_in_every_free_text_field(pool: PgPool) {
    let api = setup(pool).await;
    let mut tried = 0;
    for (method, path, body, field) in text_fields() {
        for text in CONTROLS {
            invalid(&api, method.clone(), &path, fill(&body, text), field).await;
            tried += 1;
        }
        // Blank is not text either.
        invalid(&api, method.clone(), &path, fill(&body, " \n\t "), field).await;
    }
    assert!(tried >= 18 * CONTROLS.len());
}

#[sqlx::test]
async fn exotic_unicode_and_sql_looking_text_is_stored_verbatim(pool: PgPool) {
    let api = setup(pool).await;
    for (i, text) in LEGAL.iter().enumerate() {
        let team = api.put(T, ADMIN, json!({ "display_name": text })).await.expect(200, None).clone();
        assert_eq!(team["display_name"], *text);
        let agent = format!("{T}/agents/runtime-eng");
        let body = json!({ "display_name": text, "roles": [text], "expertise": [text] });
        let stored = api.put(&agent, ADMIN, body).await.expect(200, None).clone();
        assert_eq!(
            (&stored["display_name"], &stored["roles"][0], &stored["expertise"][0]),
            (&json!(text), &json!(text), &json!(text))
        );
        let token = api.post(&format!("{T}/tokens"), ADMIN, json!({ "name": text, "scope": "read" })).await;
        assert_eq!(token.expect(201, None)["name"], *text);
        let key = format!("legal-{i}");
        let body = json!({ "key": key, "title": text, "kind": text, "summary": text, "ref": text,
                           "author": "runtime-eng", "paths": [format!("src/{i}/**")] });
        let created = api.post(&format!("{T}/artifacts"), ADMIN, body).await.expect(201, None).clone();
        assert_eq!(created["title"], *text);
        assert_eq!(created["kind"], *text);
        assert_eq!(created["current_version"]["summary"], *text);
        assert_eq!(created["current_version"]["ref"], *text);
        let mut reject = rejection(text);
        reject["ref"] = json!(text);
        reject["evidence"] = json!({ "counter_evidence": text, "violated_requirement": text,
                                     "affected_scope": text, "approval_condition": text });
        api.post(&format!("{T}/artifacts/{key}/versions/1/reviews"), ADMIN, reject).await.expect(201, None);
        let note = json!({ "agent": "revision-eng", "note": text });
        let assigned =
            api.post(&format!("{T}/artifacts/{key}/assignment"), ADMIN, note).await.expect(201, None).clone();
        assert_eq!(assigned["assignment"]["note"], *text);
        let version =
            api.get(&format!("{T}/artifacts/{key}/versions/1"), ADMIN).await.expect(200, None).clone();
        let review = &version["reviews"][0];
        assert_eq!(review["reason"], *text);
        for field in ["counter_evidence", "violated_requirement", "affected_scope", "approval_condition"] {
            assert_eq!(review["evidence"][field], *text, "{field}");
        }
        let user = api.token("acme", "user").await;
        let lift = format!("{T}/artifacts/{key}/lockouts/runtime-eng/lift");
        api.post(&lift, &user, json!({ "reason": text })).await.expect(200, None);
    }
    // The tables are all still there, and the SQL-looking title is just a title.
    let count: i64 = sqlx::query_scalar("select count(*) from artifacts").fetch_one(&api.pool).await.unwrap();
    assert_eq!(count, 1 + LEGAL.len() as i64);
    let titles: Vec<String> = sqlx::query_scalar("select title from artifacts where title = $1")
        .bind(SQL)
        .fetch_all(&api.pool)
        .await
        .unwrap();
    assert_eq!(titles, [SQL]);
}

#[sqlx::test]
async fn hostile_path_and_query_parameters_are_refused_and_change_nothing(pool: PgPool) {
    let api = setup(pool).await;
    let enc = |s: &str| {
        s.bytes()
            .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
            .collect::<String>()
    };
    let hostile = [SQL, "a\u{0}b", "\u{202e}gnp.exe", "🚀", "e\u{301}", "..", "a/../../b", "%00"];
    for text in hostile {
        let p = enc(text);
        // A NUL cannot be stored or looked up: 400; anything else simply names nothing: 404.
        let (status, code) =
            if text.contains('\0') { (400, "malformed_request") } else { (404, "not_found") };
        problem(&api.get(&format!("/v1/teams/{p}"), ADMIN).await, status, code);
        problem(&api.get(&format!("{T}/agents/{p}"), ADMIN).await, status, code);
        problem(&api.get(&format!("{T}/artifacts/{p}"), ADMIN).await, status, code);
        problem(&api.get(&format!("{T}/artifacts/{p}/versions"), ADMIN).await, status, code);
        // Writes: an id that is no slug is refused before anything is read.
        invalid(&api, Method::PUT, &format!("/v1/teams/{p}"), json!({}), "team").await;
        invalid(&api, Method::PUT, &format!("{T}/agents/{p}"), json!({}), "agent").await;
        refused(
            &api,
            Method::POST,
            &format!("{T}/artifacts/{p}/versions"),
            Some(json!({ "author": "runtime-eng" })),
            status,
            code,
        )
        .await;
        refused(
            &api,
            Method::POST,
            &format!("{T}/artifacts/{p}/versions/1/reviews"),
            Some(rejection("no")),
            status,
            code,
        )
        .await;
        refused(&api, Method::DELETE, &format!("{T}/artifacts/{p}/assignment"), None, status, code).await;
        // An agent id that is no id names no lockout, whoever asks.
        refused(
            &api,
            Method::POST,
            &format!("{T}/artifacts/auth/lockouts/{p}/lift"),
            Some(json!({ "reason": "r" })),
            status,
            code,
        )
        .await;
        refused(&api, Method::DELETE, &format!("{T}/tokens/{p}"), None, 400, "malformed_request").await;
        // Filters: nothing matches, or the value cannot be read.
        for query in ["agent", "cursor"] {
            let reply = api.get(&format!("{T}/artifacts?{query}={p}"), ADMIN).await;
            match (text.contains('\0'), query) {
                (true, _) => problem(&reply, 400, "malformed_request"),
                (false, "agent") => assert_eq!(reply.expect(200, None)["items"], json!([])),
                (false, _) => assert_eq!(reply.status.as_u16(), 200, "{}", reply.body),
            }
        }
        // Lockout filters select: an agent or artifact that does not exist has none.
        for query in ["agent", "artifact"] {
            let reply = api.get(&format!("{T}/lockouts?{query}={p}"), ADMIN).await;
            if text.contains('\0') {
                problem(&reply, 400, "malformed_request");
            } else {
                assert_eq!(reply.expect(200, None)["items"], json!([]), "{query}={text}");
            }
        }
        problem(&api.get(&format!("{T}/artifacts?state={p}"), ADMIN).await, 422, "invalid_field");
        problem(&api.get(&format!("{T}/events?after={p}"), ADMIN).await, 422, "invalid_field");
        // In a body's ids and keys.
        let check = json!({ "agent": text, "artifact": text });
        let fields = invalid_fields(&api.post(&format!("{T}/checks"), ADMIN, check).await);
        assert_eq!(fields, ["agent", "artifact"]);
        let create = json!({ "key": text, "title": "t", "author": text });
        invalid(&api, Method::POST, &format!("{T}/artifacts"), create, "key").await;
    }
    let count: i64 = sqlx::query_scalar("select count(*) from artifacts").fetch_one(&api.pool).await.unwrap();
    assert_eq!(count, 1);
}
