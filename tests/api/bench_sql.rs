//! bench/sql/<scenario>.sql are pgbench scripts that must issue exactly the SQL the service
//! issues for one operation of the scenario (bench/run, BENCHMARKS.md): the same statements, in
//! the same order, in the same transactions. This test drives each scenario's operations as
//! examples/loadgen.rs sends them, through a proxy between the service's pool and Postgres that
//! records every statement the wire carries (simple queries, so `BEGIN`/`COMMIT` too, and every
//! execution of a prepared statement), and compares them with the script's, statement by
//! statement. Values are compared as `?` only: a bind parameter (`$2`), a pgbench variable
//! (`:team`), a literal (`'st-' || :n::text`, `null::text`, `100`) are all the same value.
//!
//! A failure names the script and its line, the request the service sent the statement for, and
//! prints both statements: change the script line to match the service (or the code, if the
//! change was unintended). `-- mirrors: <file> <function>` comments must name existing functions.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use axum::http::Method;
use serde_json::{Value, json};
use sqlx::PgPool;
use sqlx::postgres::{PgPoolOptions, PgSslMode};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::common::{ADMIN, Api, Reply};

// ---------------------------------------------------------------------------------------------
// What the service sends: a proxy that reads the frontend's messages.

/// A statement as the service sent it: its text and the types (oids) it declared for its
/// parameters (none for a simple query).
#[derive(Clone, Debug)]
pub struct Sent {
    pub sql: String,
    pub types: Vec<u32>,
}

/// Every statement executed through the proxy, in order.
#[derive(Clone, Default)]
pub struct Log(Arc<Mutex<Vec<Sent>>>);

impl Log {
    fn push(&self, sql: String, types: Vec<u32>) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).push(Sent { sql, types });
    }

    fn take(&self) -> Vec<String> {
        self.take_sent().into_iter().map(|s| s.sql).collect()
    }

    /// Every statement sent since the last take, with its parameters' types.
    pub fn take_sent(&self) -> Vec<Sent> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// A pool for the service whose connections go through a recording proxy to the test database.
pub struct Wire {
    pub pool: PgPool,
    pub log: Log,
}

impl Wire {
    pub async fn start(pool: &PgPool) -> Wire {
        let direct = pool.connect_options();
        let upstream = format!("{}:{}", direct.get_host(), direct.get_port());
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let log = Log::default();
        let recording = log.clone();
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let (upstream, log) = (upstream.clone(), recording.clone());
                tokio::spawn(async move {
                    // A connection ends with an error when either side closes it: nothing to do.
                    let _ = relay(client, &upstream, log).await;
                });
            }
        });
        // Plain TCP, so the proxy can read the messages.
        let options = (*direct).clone().host("127.0.0.1").port(port).ssl_mode(PgSslMode::Disable);
        let pool = PgPoolOptions::new().max_connections(8).connect_with(options).await.unwrap();
        Wire { pool, log }
    }
}

/// Reads a NUL-terminated string at the start of `bytes`; returns it and the rest.
fn cstr(bytes: &[u8]) -> (String, &[u8]) {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    (String::from_utf8_lossy(&bytes[..end]).into_owned(), bytes.get(end + 1..).unwrap_or_default())
}

/// Forwards one connection, recording each statement the client runs: a simple query (`Q`)
/// when it is sent, a prepared statement (`P`, bound by `B`) at each execution (`E`).
async fn relay(client: TcpStream, upstream: &str, log: Log) -> std::io::Result<()> {
    let server = TcpStream::connect(upstream).await?;
    // Each message on its way at once, as without the proxy.
    client.set_nodelay(true)?;
    server.set_nodelay(true)?;
    let (mut from_client, mut to_client) = client.into_split();
    let (mut from_server, mut to_server) = server.into_split();
    tokio::spawn(async move {
        let _ = tokio::io::copy(&mut from_server, &mut to_client).await;
        let _ = to_client.shutdown().await;
    });
    let mut statements: HashMap<String, Sent> = HashMap::new();
    let mut portals: HashMap<String, String> = HashMap::new();
    // The startup packet (and an SSL or GSS request before it) has no type byte.
    let mut startup = true;
    loop {
        let mut message = Vec::new();
        let tag = if startup {
            None
        } else {
            let tag = from_client.read_u8().await?;
            message.push(tag);
            Some(tag)
        };
        let len = from_client.read_u32().await?;
        message.extend_from_slice(&len.to_be_bytes());
        let mut body = vec![0; (len as usize).saturating_sub(4)];
        from_client.read_exact(&mut body).await?;
        match tag {
            None => {
                const SSL_REQUEST: u32 = 80877103;
                const GSSENC_REQUEST: u32 = 80877104;
                let code = body.get(..4).map_or(0, |b| u32::from_be_bytes(b.try_into().unwrap()));
                startup = code == SSL_REQUEST || code == GSSENC_REQUEST;
            }
            Some(b'Q') => log.push(cstr(&body).0, Vec::new()),
            Some(b'P') => {
                let (name, rest) = cstr(&body);
                let (sql, rest) = cstr(rest);
                // An int16 count, then each parameter's type oid as an int32.
                let count = rest.get(..2).map_or(0, |b| u16::from_be_bytes([b[0], b[1]]) as usize);
                let types = (0..count)
                    .filter_map(|i| rest.get(2 + 4 * i..6 + 4 * i))
                    .map(|b| u32::from_be_bytes(b.try_into().unwrap()))
                    .collect();
                statements.insert(name, Sent { sql, types });
            }
            Some(b'B') => {
                let (portal, rest) = cstr(&body);
                portals.insert(portal, cstr(rest).0);
            }
            Some(b'E') => {
                let portal = cstr(&body).0;
                match portals.get(&portal).and_then(|s| statements.get(s)) {
                    Some(sent) => log.push(sent.sql.clone(), sent.types.clone()),
                    None => log.push(format!("<unknown portal {portal:?}>"), Vec::new()),
                }
            }
            _ => {}
        }
        message.extend_from_slice(&body);
        to_server.write_all(&message).await?;
    }
}

// ---------------------------------------------------------------------------------------------
// Statement shapes.

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// Any value: a bind parameter, a pgbench variable, a literal, with its cast.
    Value,
    Word(String),
    Punct(String),
}

fn lex(sql: &str) -> Vec<Tok> {
    let s: Vec<char> = sql.chars().collect();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let (c, next) = (s[i], s.get(i + 1).copied().unwrap_or(' '));
        if c.is_whitespace() {
            i += 1;
        } else if c == '-' && next == '-' {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '\'' {
            i += 1;
            while i < s.len() {
                if s[i] == '\'' && s.get(i + 1) == Some(&'\'') {
                    i += 2;
                } else if s[i] == '\'' {
                    i += 1;
                    break;
                } else {
                    i += 1;
                }
            }
            out.push(Tok::Value);
        } else if c == '"' {
            let start = i + 1;
            i = start;
            while i < s.len() && s[i] != '"' {
                i += 1;
            }
            out.push(Tok::Word(s[start..i.min(s.len())].iter().collect()));
            i += 1;
        } else if (c == '$' && next.is_ascii_digit()) || (c == ':' && ident(next)) {
            // `$2`, or pgbench's `:team`.
            i += 1;
            while i < s.len() && ident(s[i]) {
                i += 1;
            }
            out.push(Tok::Value);
        } else if c.is_ascii_digit() {
            while i < s.len() && (s[i].is_ascii_digit() || s[i] == '.') {
                i += 1;
            }
            out.push(Tok::Value);
        } else if ident(c) {
            let start = i;
            while i < s.len() && (ident(s[i]) || s[i] == '.') {
                i += 1;
            }
            out.push(Tok::Word(s[start..i].iter().collect::<String>().to_lowercase()));
        } else {
            let pair: String = [c, next].iter().collect();
            let len = if ["::", "||", "<>", "<=", ">=", "!="].contains(&pair.as_str()) { 2 } else { 1 };
            out.push(Tok::Punct(s[i..i + len].iter().collect()));
            i += len;
        }
    }
    out
}

/// The statement's shape: lowercase, one space between tokens, and every value (with its cast,
/// and concatenations of values and calls like `'pgb-' || gen_random_uuid()`) a `?`.
fn shape(sql: &str) -> String {
    let word = |t: Option<&Tok>, w: &str| matches!(t, Some(Tok::Word(x)) if x == w);
    let punct = |t: Option<&Tok>, p: &str| matches!(t, Some(Tok::Punct(x)) if x == p);
    // `null`, `true`, `false` are values, except in `is [not] null`.
    let mut toks = lex(sql);
    for i in 0..toks.len() {
        let literal = ["null", "true", "false"].iter().any(|w| word(toks.get(i), w));
        let after_is = i > 0 && (word(toks.get(i - 1), "is") || word(toks.get(i - 1), "not"));
        if literal && !after_is {
            toks[i] = Tok::Value;
        }
    }
    // A value's cast is part of the value.
    let mut cast = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        cast.push(toks[i].clone());
        i += 1;
        if toks[i - 1] == Tok::Value {
            while punct(toks.get(i), "::") && matches!(toks.get(i + 1), Some(Tok::Word(_))) {
                i += 2;
                if punct(toks.get(i), "[") && punct(toks.get(i + 1), "]") {
                    i += 2;
                }
            }
        }
    }
    // A concatenation of values (and argument-less calls) is one value.
    let operand = |t: &[Tok], i: usize| -> Option<(usize, bool)> {
        match t.get(i)? {
            Tok::Value => Some((1, true)),
            Tok::Word(_) if punct(t.get(i + 1), "(") && punct(t.get(i + 2), ")") => Some((3, false)),
            _ => None,
        }
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < cast.len() {
        if let Some((len, value)) = operand(&cast, i) {
            let (mut end, mut parts, mut values) = (i + len, 1, value);
            while punct(cast.get(end), "||") {
                let Some((len, value)) = operand(&cast, end + 1) else { break };
                (end, parts, values) = (end + 1 + len, parts + 1, values || value);
            }
            if parts > 1 && values {
                out.push(Tok::Value);
                i = end;
                continue;
            }
        }
        out.push(cast[i].clone());
        i += 1;
    }
    let mut text = String::new();
    for (i, t) in out.iter().enumerate() {
        let piece = match t {
            Tok::Value => "?",
            Tok::Word(w) => w,
            Tok::Punct(p) => p,
        };
        let tight = [",", ")", ";", "::", "["].contains(&piece)
            || i > 0 && (punct(out.get(i - 1), "(") || punct(out.get(i - 1), "::"));
        if i > 0 && !tight {
            text.push(' ');
        }
        text.push_str(piece);
    }
    text.trim_end_matches(';').trim_end().to_owned()
}

/// One line of SQL, for messages.
fn one_line(sql: &str) -> String {
    sql.split_whitespace().collect::<Vec<_>>().join(" ")
}

// ---------------------------------------------------------------------------------------------
// The scripts.

enum Item {
    /// A statement, with the line it starts on and its text (without `;` and `\gset`).
    Statement(usize, String),
    If,
    Else,
    Endif,
}

struct Script {
    name: String,
    items: Vec<Item>,
}

impl Script {
    fn read(scenario: &str) -> Script {
        let name = format!("bench/sql/{scenario}.sql");
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&name)).unwrap();
        let mut items = Vec::new();
        let mut pending: Option<(usize, String)> = None;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if pending.is_none() {
                if line.is_empty() || line.starts_with("--") {
                    continue;
                }
                if let Some(meta) = line.strip_prefix('\\') {
                    match meta.split_whitespace().next().unwrap_or_default() {
                        "if" => items.push(Item::If),
                        "else" => items.push(Item::Else),
                        "endif" => items.push(Item::Endif),
                        "set" | "sleep" => {}
                        other => panic!("{name}:{}: meta-command \\{other} not understood here", n + 1),
                    }
                    continue;
                }
            }
            let (start, sql) = pending.get_or_insert_with(|| (n + 1, String::new()));
            let (body, gset) = match line.find("\\gset") {
                Some(at) => (&line[..at], true),
                None => (line, false),
            };
            sql.push_str(body);
            sql.push('\n');
            if gset || line.ends_with(';') {
                let sql = sql.trim().trim_end_matches(';').trim_end().to_owned();
                items.push(Item::Statement(*start, sql));
                pending = None;
            }
        }
        assert!(pending.is_none(), "{name}: the last statement has no `;`");
        Script { name, items }
    }

    /// The statements of one path through the script: the n-th `\if` takes its first branch
    /// when `branches[n]`.
    fn path(&self, branches: &[bool]) -> Vec<(usize, String)> {
        let mut active = vec![true];
        let mut taken = Vec::new();
        let mut ifs = 0;
        let mut out = Vec::new();
        for item in &self.items {
            match item {
                Item::If => {
                    let first = *branches
                        .get(ifs)
                        .unwrap_or_else(|| panic!("{}: more \\if than branches", self.name));
                    ifs += 1;
                    taken.push(first);
                    active.push(*active.last().unwrap() && first);
                }
                Item::Else => {
                    active.pop();
                    let first = *taken.last().unwrap();
                    active.push(*active.last().unwrap() && !first);
                }
                Item::Endif => {
                    active.pop();
                    taken.pop();
                }
                Item::Statement(line, sql) if *active.last().unwrap() => out.push((*line, sql.clone())),
                Item::Statement(..) => {}
            }
        }
        assert_eq!(ifs, branches.len(), "{}: {} \\if, not {}", self.name, ifs, branches.len());
        out
    }
}

/// Fails unless the script's statements have the shapes of those the service sent, in order.
/// `sent` holds each statement with the request it was sent for.
#[track_caller]
fn compare(script: &Script, what: &str, expected: &[(usize, String)], sent: &[(String, String)]) {
    let first_difference = (0..expected.len().max(sent.len())).find(|&i| {
        let script = expected.get(i).map(|(_, sql)| shape(sql));
        script != sent.get(i).map(|(_, sql)| shape(sql))
    });
    let Some(i) = first_difference else { return };
    let mut message = format!(
        "{} ({what}) does not issue what the service sends: statement {} of {} in the script, of {} sent\n",
        script.name,
        i + 1,
        expected.len(),
        sent.len()
    );
    match expected.get(i) {
        Some((line, sql)) => {
            message += &format!("  script, {}:{line}:\n    {}\n", script.name, one_line(sql));
            message += &format!("    shape: {}\n", shape(sql));
        }
        None => message += "  script: (no more statements)\n",
    }
    match sent.get(i) {
        Some((request, sql)) => {
            message += &format!("  service, for {request}:\n    {}\n", one_line(sql));
            message += &format!("    shape: {}\n", shape(sql));
        }
        None => message += "  service: (no more statements)\n",
    }
    message += "everything the service sent:\n";
    for (n, (request, sql)) in sent.iter().enumerate() {
        message += &format!("  {:>3} [{request}] {}\n", n + 1, one_line(sql));
    }
    panic!("{message}");
}

// ---------------------------------------------------------------------------------------------
// The operations, as examples/loadgen.rs sends them.

const TEAM: &str = "/v1/teams/bench";
const ENGINEERS: usize = 8;
/// Status artifacts st-1..st-K; the `check` scenario names paths in st-1..st-16.
const STATUS_ARTIFACTS: usize = 16;

struct Bench {
    api: Api,
    log: Log,
    token: String,
}

impl Bench {
    /// What `loadgen setup` creates: the team, a coordinator token, eng-0..eng-7, rev, and the
    /// status artifacts, st-1..st-8 rejected once.
    async fn setup(pool: &PgPool) -> Bench {
        let wire = Wire::start(pool).await;
        // The database's statements: with the lockout index on, checks and unchanged polls
        // would send none (and its own reads would be captured).
        let off = reviewlock::config::IndexSettings { enabled: false, ..Default::default() };
        let api = Api::with_state(wire.pool.clone(), |s| *s = s.clone().with_index(off));
        api.put(TEAM, ADMIN, json!({ "display_name": "Bench" })).await.expect(201, None);
        let coordinator = json!({ "name": "loadgen", "scope": "coordinator" });
        let created = api.post(&format!("{TEAM}/tokens"), ADMIN, coordinator).await;
        let token = created.expect(201, None)["token"].as_str().unwrap().to_owned();
        for e in 0..ENGINEERS {
            let body = json!({ "roles": ["engineer"] });
            api.put(&format!("{TEAM}/agents/eng-{e}"), &token, body).await.ok();
        }
        let reviewer = json!({ "roles": ["tester"], "can_review": true, "can_author": false });
        api.put(&format!("{TEAM}/agents/rev"), &token, reviewer).await.ok();
        for n in 1..=STATUS_ARTIFACTS {
            let body = json!({ "key": format!("st-{n}"), "title": format!("Status artifact {n}"),
                               "paths": [format!("src/st-{n}/**")], "author": format!("eng-{}", n % ENGINEERS) });
            api.post(&format!("{TEAM}/artifacts"), &token, body).await.expect(201, None);
            if n <= ENGINEERS {
                let reject = json!({ "reviewer": "rev", "verdict": "reject", "reason": "Not yet.",
                                     "remedy": { "action": "reassign" } });
                let path = format!("{TEAM}/artifacts/st-{n}/versions/1/reviews");
                api.post(&path, &token, reject).await.expect(201, None);
            }
        }
        Bench { api, log: wire.log, token }
    }

    /// Sends one request as the load generator does, in the steady state (the token cached by a
    /// request just before), and returns the statements it sent, each with `label`.
    async fn capture(
        &self,
        label: &str,
        method: Method,
        path: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
        status: u16,
    ) -> Vec<(String, String)> {
        self.api.get(TEAM, &self.token).await.expect(200, None);
        self.log.take();
        let reply: Reply = self.api.send_with(method, path, Some(&self.token), body, headers).await;
        reply.expect(status, None);
        let sent = self.log.take();
        assert!(!sent.is_empty(), "{label}: the proxy saw no statement");
        sent.into_iter().map(|sql| (label.to_owned(), sql)).collect()
    }
}

#[sqlx::test]
async fn bench_scripts_issue_the_statements_the_service_sends(pool: PgPool) {
    let b = Bench::setup(&pool).await;

    // write_cycle: five requests, five transactions, as loadgen's `write_cycle`.
    let script = Script::read("write_cycle");
    let key = "wc-1-0-0";
    let art = format!("{TEAM}/artifacts/{key}");
    let requests = [
        (
            "1 create",
            format!("{TEAM}/artifacts"),
            json!({ "key": key, "title": "Bench cycle", "paths": [format!("src/{key}/**")],
                    "author": "eng-0", "ref": "a1" }),
        ),
        (
            "2 reject",
            format!("{art}/versions/1/reviews"),
            json!({ "reviewer": "rev", "verdict": "reject", "grounds": "quality", "reason": "Missing tests.",
                    "remedy": { "action": "reassign" } }),
        ),
        ("3 assign", format!("{art}/assignment"), json!({ "agent": "eng-1" })),
        ("4 revise", format!("{art}/versions"), json!({ "author": "eng-1", "ref": "b2" })),
        (
            "5 approve",
            format!("{art}/versions/2/reviews"),
            json!({ "reviewer": "rev", "verdict": "approve" }),
        ),
    ];
    let mut sent = Vec::new();
    for (label, path, body) in requests {
        sent.extend(b.capture(label, Method::POST, &path, Some(body), &[], 201).await);
    }
    compare(&script, "one cycle: create, reject, assign, revise, approve", &script.path(&[]), &sent);

    // status_read: `\if :full` is the GET without If-None-Match, `\else` the 304. Both for an
    // artifact rejected once (a lockout, a pending remedy) and for one in review.
    let script = Script::read("status_read");
    for key in ["st-3", "st-12"] {
        let path = format!("{TEAM}/artifacts/{key}");
        let reply = b.api.get(&path, &b.token).await;
        let etag = reply.headers["etag"].to_str().unwrap().to_owned();
        let matching = [("if-none-match", etag.as_str())];
        let sent = b.capture("GET If-None-Match", Method::GET, &path, None, &matching, 304).await;
        compare(
            &script,
            &format!("{key} with a matching If-None-Match, \\else"),
            &script.path(&[false]),
            &sent,
        );
        let sent = b.capture("GET", Method::GET, &path, None, &[], 200).await;
        compare(&script, &format!("{key} in full, \\if :full"), &script.path(&[true]), &sent);
    }

    // check: an agent and three paths, one inside a status artifact it is locked out of or not.
    let script = Script::read("check");
    for (agent, n) in [("eng-1", 1), ("eng-2", 12)] {
        let body = json!({ "agent": agent, "paths": [format!("src/st-{n}/lib.rs"), "src/other/mod.rs", "docs/readme.md"] });
        let sent =
            b.capture("POST /checks", Method::POST, &format!("{TEAM}/checks"), Some(body), &[], 200).await;
        compare(&script, &format!("{agent}, src/st-{n}/lib.rs"), &script.path(&[]), &sent);
    }

    // events_poll: a page of 100 at some `after`, wait=0.
    let script = Script::read("events_poll");
    let path = format!("{TEAM}/events?after=3&limit=100");
    let sent = b.capture("GET /events", Method::GET, &path, None, &[], 200).await;
    compare(&script, "after=3&limit=100", &script.path(&[]), &sent);

    b.api.pool.close().await;
}

/// Each statement of a script says which function it mirrors, and that function exists.
#[test]
fn every_bench_statement_names_a_function_that_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for scenario in ["write_cycle", "status_read", "check", "events_poll"] {
        let name = format!("bench/sql/{scenario}.sql");
        let text = std::fs::read_to_string(root.join(&name)).unwrap();
        let mut pending = false;
        for (n, line) in text.lines().enumerate() {
            if let Some(rest) = line.strip_prefix("-- mirrors: ") {
                let mut words = rest.split_whitespace();
                let (file, function) = (words.next().unwrap(), words.next().unwrap());
                let source = std::fs::read_to_string(root.join(file))
                    .unwrap_or_else(|e| panic!("{name}:{}: {file}: {e}", n + 1));
                assert!(
                    source.contains(&format!("fn {function}("))
                        || source.contains(&format!("fn {function}<")),
                    "{name}:{}: {file} has no function {function}",
                    n + 1
                );
                pending = true;
            } else if !line.is_empty() && !line.starts_with("--") && !line.starts_with('\\') {
                let transaction = ["begin;", "commit;"].contains(&line.trim());
                assert!(pending || transaction, "{name}:{}: a statement without a `-- mirrors:` line", n + 1);
                pending = false;
            }
        }
    }
}

#[test]
fn shapes_compare_values_as_one() {
    assert_eq!(
        shape("select id from artifacts where team_id = $1 and key = $2"),
        shape("select id from artifacts where team_id = :team and key = 'st-' || :n::text;"),
    );
    assert_eq!(
        shape("insert into t (a, b, c) values ($1, $2, $3)"),
        shape("insert into t (a, b, c) values ('pgb-' || gen_random_uuid(), null::text, '{x}'::text[])"),
    );
    assert_eq!(shape("select $1::bigint is null"), "select ? is null");
    assert_eq!(shape("SELECT  a.key,\n b FROM t  LIMIT 100;"), "select a.key, b from t limit ?");
    assert_ne!(
        shape("select id from artifacts where team_id = $1 and key = $2"),
        shape("select id from artifacts where team_id = $1"),
        "a where clause counts"
    );
    assert_ne!(shape("select a from t where x is null"), shape("select a from t where x = $1"));
}
