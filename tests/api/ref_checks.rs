//! The merge obeys the verdict (R17): a commit may land when every artifact covering a file it
//! changes has an approved version with the commit's SHA as `ref`.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::Reply;
use crate::errors::{invalid_fields, problem};
use crate::examples::Team;

const WEB: &str = "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567";
const API: &str = "1111111aaaaaaabbbbbbbcccccccddddddd00000";
const DOCS: &str = "2222222aaaaaaabbbbbbbcccccccddddddd00000";
const CLI_1: &str = "3333333aaaaaaabbbbbbbcccccccddddddd00000";
const CLI_2: &str = "4444444aaaaaaabbbbbbbcccccccddddddd00000";

async fn ask(t: &Team, token: &str, git_ref: &str, paths: &[&str]) -> Reply {
    t.api.post(&t.url("/ref-checks"), token, json!({ "ref": git_ref, "paths": paths })).await
}

async fn create(t: &Team, key: &str, git_ref: &str) {
    let body = json!({ "key": key, "title": key, "author": "a", "paths": [format!("src/{key}/**")], "ref": git_ref });
    t.api.post(&t.url("/artifacts"), &t.coord, body).await.expect(201, None);
}

/// `web` v1 approved; `api` v1 rejected; `docs` v1 unreviewed; `cli` v1 superseded by v2
/// (recorded by a short SHA), approved.
async fn team(pool: PgPool) -> Team {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    for (key, git_ref) in [("web", WEB), ("api", API), ("docs", DOCS), ("cli", CLI_1)] {
        create(&t, key, git_ref).await;
    }
    t.approve("web", 1).await.expect(201, None);
    t.reject("api", 1, json!({ "action": "reassign" })).await.expect(201, None);
    t.version("cli", json!({ "author": "a", "ref": &CLI_2[..8] })).await.expect(201, None);
    t.approve("cli", 2).await.expect(201, None);
    t
}

#[sqlx::test]
async fn a_commit_lands_only_on_an_approved_version_with_its_sha(pool: PgPool) {
    let t = team(pool).await;
    let read = t.api.token("t", "read").await;

    // Approved, asked by the full SHA the version records, or a prefix of it in any case.
    let before = t.api.footprint().await;
    for asked in [WEB.to_owned(), WEB[..7].to_uppercase()] {
        let reply = ask(&t, &read, &asked, &["./src//web/a.rs", "README.md"]).await;
        let expected = json!({ "allowed": true, "artifacts": [{
            "artifact": "web", "paths": ["src/web/a.rs"], "version": 1, "approved": true,
            "detail": "version 1 of 'web' was approved (1 of 1 approvals)" }] });
        assert_eq!(reply.expect(200, None), &expected, "{asked}");
    }
    assert_eq!(t.api.footprint().await, before, "a ref check changes nothing");
    // A version that recorded a short SHA, asked by the full one; the superseded v1 is not it.
    let cli = ask(&t, &read, CLI_2, &["src/cli/main.rs"]).await;
    let cli = cli.expect(200, None);
    assert_eq!((&cli["allowed"], &cli["artifacts"][0]["version"]), (&json!(true), &json!(2)));

    // Rejected, unreviewed, superseded: refused, saying which and why.
    for (sha, file, version, why) in [
        (API, "src/api/x.rs", 1, "version 1 of 'api' was rejected"),
        (DOCS, "src/docs/x.md", 1, "version 1 of 'docs' awaits review (0 of 1 approvals)"),
        (
            CLI_1,
            "src/cli/main.rs",
            1,
            "version 1 of 'cli' was superseded by version 2 before it was approved (0 of 1 approvals)",
        ),
    ] {
        let reply = ask(&t, &read, sha, &[file]).await;
        let expected = json!({ "allowed": false, "artifacts": [{
            "artifact": file.split('/').nth(1).unwrap(), "paths": [file], "version": version,
            "approved": false, "detail": why }] });
        assert_eq!(reply.expect(200, None), &expected, "{sha}");
    }

    // Files no artifact covers: allowed, whatever the SHA.
    let free = ask(&t, &read, "abcdef0", &["README.md", "src/other/x.rs"]).await;
    assert_eq!(free.expect(200, None), &json!({ "allowed": true, "artifacts": [] }));
    let none = ask(&t, &read, "abcdef0", &[]).await;
    assert_eq!(none.expect(200, None), &json!({ "allowed": true, "artifacts": [] }));

    // Two artifacts: the commit approved on one and never submitted on the other is refused.
    let both = ask(&t, &read, WEB, &["src/web/a.rs", "src/api/x.rs", "src/web/b.rs"]).await;
    let both = both.expect(200, None);
    assert_eq!(both["allowed"], false);
    assert_eq!(
        both["artifacts"],
        json!([
            { "artifact": "api", "paths": ["src/api/x.rs"], "version": null, "approved": false,
              "detail": format!("no version of 'api' has {WEB} as its ref: it was never submitted for review") },
            { "artifact": "web", "paths": ["src/web/a.rs", "src/web/b.rs"], "version": 1, "approved": true,
              "detail": "version 1 of 'web' was approved (1 of 1 approvals)" },
        ])
    );
}

#[sqlx::test]
async fn a_version_needs_the_team_s_required_approvals(pool: PgPool) {
    let t = Team::new(pool, json!({ "required_approvals": 2 }), &["a"]).await;
    t.api.agent("t", "q2", json!({ "can_review": true, "can_author": false })).await;
    create(&t, "web", WEB).await;
    t.approve("web", 1).await.expect(201, None);
    let one = ask(&t, &t.coord, WEB, &["src/web/a.rs"]).await;
    assert_eq!(
        one.expect(200, None)["artifacts"][0]["detail"],
        "version 1 of 'web' awaits review (1 of 2 approvals)"
    );
    t.review("web", 1, json!({ "reviewer": "q2", "verdict": "approve" })).await.expect(201, None);
    let two = ask(&t, &t.coord, WEB, &["src/web/a.rs"]).await;
    assert_eq!(two.expect(200, None)["allowed"], true);
}

#[sqlx::test]
async fn a_question_that_is_not_one_is_refused_by_field(pool: PgPool) {
    let t = team(pool).await;
    for (git_ref, paths, fields) in [
        (json!("main"), json!(["a"]), vec!["ref"]),
        (json!("abcdef"), json!(["/abs", "ok"]), vec!["ref", "paths[0]"]),
        (json!("a".repeat(41)), json!(["a"]), vec!["ref"]),
        (json!(WEB), json!(vec!["a"; 1001]), vec!["paths"]),
        (json!(WEB), json!(["../x"]), vec!["paths[0]"]),
        (json!(null), json!(["a"]), vec!["ref"]),
    ] {
        let reply =
            t.api.post(&t.url("/ref-checks"), &t.coord, json!({ "ref": git_ref, "paths": paths })).await;
        assert_eq!(invalid_fields(&reply), fields, "{git_ref}");
    }
    // 1000 paths are one question.
    let many: Vec<String> = (0..1000).map(|i| format!("src/web/{i}.rs")).collect();
    let reply = t.api.post(&t.url("/ref-checks"), &t.coord, json!({ "ref": WEB, "paths": many })).await;
    assert_eq!(reply.expect(200, None)["artifacts"][0]["paths"].as_array().unwrap().len(), 1000);
    let missing = t
        .api
        .post("/v1/teams/nope/ref-checks", crate::common::ADMIN, json!({ "ref": WEB, "paths": [] }))
        .await;
    problem(&missing, 404, "not_found");
}
