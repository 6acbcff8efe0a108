//! The load generator behind `bench/run` (see BENCHMARKS.md).
//!
//! `loadgen setup` creates the bench team over HTTP with the admin token: a coordinator token
//! (printed as `token=<secret>`), engineers `eng-0`..`eng-7`, the reviewer `rev`, and the
//! status artifacts `st-1`..`st-K` (paths `src/st-N/**`, authored by `eng-(N % 8)`; `st-1`..`st-8`
//! are rejected once, so each engineer holds one lockout). With `--status-artifacts 0` it makes
//! no artifacts: bench/run seeds its scale teams' in SQL (bench/seed/).
//!
//! `loadgen run --scenario S --concurrency C --seconds T` drives one scenario with C workers,
//! each on its own keep-alive HTTP/1.1 connection, for T seconds, and prints one line:
//! `scenario=S concurrency=C ops=N seconds=T ops_per_s=X p50_ms=P p99_ms=Q errors=E`, with
//! `p50_304_ms` and `p50_200_ms` before `errors` for `status_read`.
//!
//! Scenarios (one op each):
//! - `write_cycle`: one full protocol cycle on a fresh artifact, five requests: create (by
//!   `eng-w`), reject with a reassign remedy (by `rev`), assign `eng-w+1`, revise (version 2
//!   by `eng-w+1`), approve (by `rev`). An op is a whole cycle; its latency is the cycle's.
//! - `status_read`: `GET /artifacts/st-N`, every other request with the matching `If-None-Match`.
//!   N is drawn from a sample of at most `--status-sample` keys whose ETags are fetched before the
//!   clock starts: all of `st-1`..`st-K` when K is no larger, else as many keys spread uniformly
//!   over 1..K (one drawn at random from each equal slice), so K may be a million.
//! - `check`: `POST /checks` for `eng-N` and three paths (one inside a `st-*` artifact).
//! - `events_poll`: `GET /events?after=R&limit=100` at a random `after`.
//! - `status_304`: as `status_read`, every request with the matching `If-None-Match` (all 304s:
//!   the dashboards' polls that changed nothing, answered by the lockout index).
//! - `healthz`: `GET /healthz`, which no database answers: the HTTP stack (every middleware
//!   layer) and this load generator alone, the ceiling of any scenario on the machine.
//!
//! `loadgen notify-delay --writer-addr W --runs N` measures the notification delay between two
//! replicas (see `notify_delay`).

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use clap::{Parser, Subcommand};
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::header::{self, HeaderName};
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};

type Failure = Box<dyn std::error::Error + Send + Sync>;
type Result<T> = std::result::Result<T, Failure>;

/// Engineers in the bench team.
const ENGINEERS: usize = 8;

#[derive(Parser)]
struct Args {
    /// The service's address (host:port).
    #[arg(long, default_value = "127.0.0.1:8080", global = true)]
    addr: String,
    /// The bench team's id.
    #[arg(long, default_value = "bench", global = true)]
    team: String,
    /// How many status artifacts `st-1`..`st-K` setup creates and reads pick from.
    #[arg(long, default_value_t = 1000, global = true)]
    status_artifacts: usize,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Create the team, its agents, a coordinator token and the status artifacts.
    Setup {
        #[arg(long, env = "REVIEWLOCK_ADMIN_TOKEN")]
        admin_token: String,
    },
    /// Run one scenario and print its line.
    Run {
        #[arg(long, env = "LOADGEN_TOKEN")]
        token: String,
        #[arg(long)]
        scenario: String,
        #[arg(long, default_value_t = 1)]
        concurrency: usize,
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// At most this many status artifacts `status_read` reads (and fetches the ETag of first).
        #[arg(long, default_value_t = 2000)]
        status_sample: usize,
    },
    /// The notification delay: a write through `--writer-addr` (another replica), then a check
    /// through `--addr`; prints its p50 and p99 (see the module's doc).
    NotifyDelay {
        #[arg(long, env = "LOADGEN_TOKEN")]
        token: String,
        #[arg(long)]
        writer_addr: String,
        #[arg(long, default_value_t = 200)]
        runs: usize,
    },
}

/// One keep-alive HTTP/1.1 connection.
struct Client {
    sender: SendRequest<Full<Bytes>>,
    addr: String,
    token: String,
}

struct Answer {
    status: StatusCode,
    body: Bytes,
    etag: Option<String>,
    /// A write's `Reviewlock-Seq`.
    seq: Option<i64>,
}

impl Client {
    async fn connect(addr: &str, token: &str) -> Result<Client> {
        let stream = tokio::net::TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(connection);
        Ok(Client { sender, addr: addr.to_owned(), token: token.to_owned() })
    }

    async fn send(
        &mut self,
        method: Method,
        path: &str,
        body: Option<&Value>,
        extra: Option<(HeaderName, &str)>,
    ) -> Result<Answer> {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, &self.addr)
            .header(header::AUTHORIZATION, format!("Bearer {}", self.token));
        if let Some((name, value)) = extra {
            request = request.header(name, value);
        }
        let body = match body {
            Some(v) => {
                request = request.header(header::CONTENT_TYPE, "application/json");
                Bytes::from(v.to_string())
            }
            None => Bytes::new(),
        };
        self.sender.ready().await?;
        let response = self.sender.send_request(request.body(Full::new(body))?).await?;
        let status = response.status();
        let etag = response.headers().get(header::ETAG).and_then(|v| v.to_str().ok()).map(str::to_owned);
        let seq = response.headers().get("reviewlock-seq").and_then(|v| v.to_str().ok()?.parse().ok());
        let body = response.into_body().collect().await?.to_bytes();
        Ok(Answer { status, body, etag, seq })
    }

    /// Sends and fails unless the status is one of `expected`.
    async fn expect(
        &mut self,
        method: Method,
        path: &str,
        body: Option<&Value>,
        extra: Option<(HeaderName, &str)>,
        expected: &[StatusCode],
    ) -> Result<Answer> {
        let answer = self.send(method.clone(), path, body, extra).await?;
        if !expected.contains(&answer.status) {
            return Err(format!(
                "{method} {path}: {} {}",
                answer.status,
                String::from_utf8_lossy(&answer.body).chars().take(300).collect::<String>()
            )
            .into());
        }
        Ok(answer)
    }
}

/// A small xorshift generator: enough to spread requests, no dependency.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

fn nonce() -> u128 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0)
}

#[tokio::main]
async fn main() -> Result<()> {
    let args = Args::parse();
    match &args.command {
        Command::Setup { admin_token } => setup(&args, admin_token).await,
        Command::Run { token, scenario, concurrency, seconds, status_sample } => {
            let length = Duration::from_secs_f64(*seconds);
            run(&args, token, scenario, *concurrency, length, *status_sample).await
        }
        Command::NotifyDelay { token, writer_addr, runs } => {
            notify_delay(&args, token, writer_addr, *runs).await
        }
    }
}

async fn setup(args: &Args, admin_token: &str) -> Result<()> {
    let team = &args.team;
    let base = format!("/v1/teams/{team}");
    let mut admin = Client::connect(&args.addr, admin_token).await?;
    let ok = [StatusCode::OK, StatusCode::CREATED];
    admin.expect(Method::PUT, &base, Some(&json!({ "display_name": "Bench" })), None, &ok).await?;
    let created = admin
        .expect(
            Method::POST,
            &format!("{base}/tokens"),
            Some(&json!({ "name": "loadgen", "scope": "coordinator" })),
            None,
            &ok,
        )
        .await?;
    let token: Value = serde_json::from_slice(&created.body)?;
    let token = token["token"].as_str().ok_or("no token in the answer")?.to_owned();
    let mut c = Client::connect(&args.addr, &token).await?;
    for e in 0..ENGINEERS {
        let body = json!({ "roles": ["engineer"] });
        c.expect(Method::PUT, &format!("{base}/agents/eng-{e}"), Some(&body), None, &ok).await?;
    }
    let reviewer = json!({ "roles": ["tester"], "can_review": true, "can_author": false });
    c.expect(Method::PUT, &format!("{base}/agents/rev"), Some(&reviewer), None, &ok).await?;

    // The status artifacts, created by a few connections at once.
    let workers = 8;
    let mut handles = Vec::new();
    for w in 0..workers {
        let (addr, token, base, k) = (args.addr.clone(), token.clone(), base.clone(), args.status_artifacts);
        handles.push(tokio::spawn(async move {
            let mut c = Client::connect(&addr, &token).await?;
            for n in (1..=k).filter(|n| n % workers == w) {
                let body = json!({ "key": format!("st-{n}"), "title": format!("Status artifact {n}"),
                                   "paths": [format!("src/st-{n}/**")], "author": format!("eng-{}", n % ENGINEERS) });
                c.expect(Method::POST, &format!("{base}/artifacts"), Some(&body), None, &ok).await?;
                if n <= ENGINEERS {
                    let reject = json!({ "reviewer": "rev", "verdict": "reject", "reason": "Not yet.",
                                         "remedy": { "action": "reassign" } });
                    let path = format!("{base}/artifacts/st-{n}/versions/1/reviews");
                    c.expect(Method::POST, &path, Some(&reject), None, &ok).await?;
                }
            }
            Ok::<(), Failure>(())
        }));
    }
    for h in handles {
        h.await??;
    }
    println!("token={token}");
    Ok(())
}

/// What every worker needs to know before the clock starts.
#[derive(Clone)]
struct Shared {
    base: String,
    /// The `st-N` that `status_read` reads, with their `If-None-Match` values.
    etags: Vec<(usize, String)>,
    /// The team's last event seq, for `events_poll`.
    last_seq: u64,
    nonce: u128,
}

/// The status artifacts `status_read` reads: `1..=k` when `k <= sample`, else `sample` keys, one
/// drawn at random from each of `sample` equal slices of `1..=k`.
fn status_keys(k: usize, sample: usize, rng: &mut Rng) -> Vec<usize> {
    if k <= sample {
        return (1..=k).collect();
    }
    (0..sample)
        .map(|j| {
            let (from, to) = (j * k / sample, (j + 1) * k / sample);
            from + 1 + rng.below((to - from) as u64) as usize
        })
        .collect()
}

/// The ETags of `keys` (`st-N`), fetched over a few connections at once.
async fn fetch_etags(args: &Args, token: &str, base: &str, keys: Vec<usize>) -> Result<Vec<(usize, String)>> {
    let connections = 4;
    let mut handles = Vec::new();
    for w in 0..connections {
        let mine: Vec<usize> = keys.iter().copied().skip(w).step_by(connections).collect();
        let (addr, token, base) = (args.addr.clone(), token.to_owned(), base.to_owned());
        handles.push(tokio::spawn(async move {
            let mut c = Client::connect(&addr, &token).await?;
            let mut etags = Vec::with_capacity(mine.len());
            for n in mine {
                let path = format!("{base}/artifacts/st-{n}");
                let answer = c.expect(Method::GET, &path, None, None, &[StatusCode::OK]).await?;
                etags.push((n, answer.etag.ok_or("no ETag on an artifact")?));
            }
            Ok::<_, Failure>(etags)
        }));
    }
    let mut etags = Vec::with_capacity(keys.len());
    for h in handles {
        etags.extend(h.await??);
    }
    etags.sort_unstable_by_key(|(n, _)| *n);
    Ok(etags)
}

async fn run(
    args: &Args,
    token: &str,
    scenario: &str,
    concurrency: usize,
    length: Duration,
    status_sample: usize,
) -> Result<()> {
    let base = format!("/v1/teams/{}", args.team);
    let mut shared = Shared { base, etags: Vec::new(), last_seq: 0, nonce: nonce() };
    let mut c = Client::connect(&args.addr, token).await?;
    match scenario {
        "status_read" | "status_304" => {
            let mut rng = Rng::new(shared.nonce as u64);
            let keys = status_keys(args.status_artifacts, status_sample.max(1), &mut rng);
            if keys.is_empty() {
                return Err("status_read needs --status-artifacts of at least 1".into());
            }
            shared.etags = fetch_etags(args, token, &shared.base, keys).await?;
        }
        "events_poll" => {
            let path = format!("{}/events?after=0&limit=1", shared.base);
            let answer = c.expect(Method::GET, &path, None, None, &[StatusCode::OK]).await?;
            // The page's ETag is `"e<last seq>"`.
            let etag = answer.etag.ok_or("no ETag on the events page")?;
            shared.last_seq = etag.trim_matches(|ch| ch == '"' || ch == 'e').parse()?;
        }
        "write_cycle" | "check" | "healthz" => {}
        other => return Err(format!("unknown scenario {other}").into()),
    }
    drop(c);

    let start = Instant::now() + Duration::from_millis(50);
    let deadline = start + length;
    let mut handles = Vec::new();
    for w in 0..concurrency {
        let (addr, token, shared, scenario) =
            (args.addr.clone(), token.to_owned(), shared.clone(), scenario.to_owned());
        handles.push(tokio::spawn(async move {
            let mut c = Client::connect(&addr, &token).await?;
            let mut rng = Rng::new(shared.nonce as u64 ^ ((w as u64 + 1) << 32));
            // Latencies by kind of op: status_read's 304s (even i) and full reads (odd i) apart,
            // for its p50 of each; every other scenario has one kind.
            let mut latencies: [Vec<Duration>; 2] = Default::default();
            let mut errors = 0u64;
            let mut first_error: Option<String> = None;
            tokio::time::sleep_until(start.into()).await;
            let mut i = 0u64;
            while Instant::now() < deadline {
                let kind = if scenario == "status_read" { (i % 2) as usize } else { 0 };
                let began = Instant::now();
                let outcome = match scenario.as_str() {
                    "write_cycle" => write_cycle(&mut c, &shared, w, i).await,
                    "status_read" => status_read(&mut c, &shared, &mut rng, i).await,
                    // Every read conditional, every ETag still current: all 304s.
                    "status_304" => status_read(&mut c, &shared, &mut rng, 0).await,
                    "check" => check(&mut c, &shared, &mut rng).await,
                    "healthz" => healthz(&mut c).await,
                    _ => events_poll(&mut c, &shared, &mut rng).await,
                };
                i += 1;
                match outcome {
                    Ok(()) => latencies[kind].push(began.elapsed()),
                    Err(e) => {
                        errors += 1;
                        first_error.get_or_insert_with(|| e.to_string());
                        // A broken connection: open another.
                        if c.sender.is_closed() {
                            c = Client::connect(&addr, &token).await?;
                        }
                    }
                }
            }
            Ok::<_, Failure>((latencies, errors, first_error))
        }));
    }
    let mut kinds: [Vec<Duration>; 2] = Default::default();
    let mut errors = 0;
    for h in handles {
        let ([a, b], e, first) = h.await??;
        kinds[0].extend(a);
        kinds[1].extend(b);
        errors += e;
        if let Some(first) = first {
            eprintln!("loadgen: {scenario}: first error: {first}");
        }
    }
    let seconds = Instant::now().saturating_duration_since(start).as_secs_f64();
    let mut latencies: Vec<Duration> = kinds.concat();
    latencies.sort();
    for kind in &mut kinds {
        kind.sort();
    }
    let pct = |sorted: &[Duration], p: f64| {
        sorted
            .get(((sorted.len() as f64 * p).ceil() as usize).saturating_sub(1))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    // status_read is half 304s, half full reads: its p50 falls on the edge between the two, so
    // each has its own too.
    let by_kind = if scenario == "status_read" {
        format!(" p50_304_ms={:.2} p50_200_ms={:.2}", pct(&kinds[0], 0.50), pct(&kinds[1], 0.50))
    } else {
        String::new()
    };
    println!(
        "scenario={scenario} concurrency={concurrency} ops={} seconds={seconds:.2} ops_per_s={:.1} p50_ms={:.2} p99_ms={:.2}{by_kind} errors={errors}",
        latencies.len(),
        latencies.len() as f64 / seconds,
        pct(&latencies, 0.50),
        pct(&latencies, 0.99),
    );
    Ok(())
}

async fn write_cycle(c: &mut Client, s: &Shared, worker: usize, i: u64) -> Result<()> {
    let key = format!("wc-{}-{worker}-{i}", s.nonce);
    let (author, reviser) =
        (format!("eng-{}", worker % ENGINEERS), format!("eng-{}", (worker + 1) % ENGINEERS));
    let art = format!("{}/artifacts/{key}", s.base);
    let created = [StatusCode::CREATED];
    let body = json!({ "key": key, "title": "Bench cycle", "paths": [format!("src/{key}/**")],
                       "author": author, "ref": "a1" });
    c.expect(Method::POST, &format!("{}/artifacts", s.base), Some(&body), None, &created).await?;
    let reject = json!({ "reviewer": "rev", "verdict": "reject", "grounds": "quality", "reason": "Missing tests.",
                         "remedy": { "action": "reassign" } });
    c.expect(Method::POST, &format!("{art}/versions/1/reviews"), Some(&reject), None, &created).await?;
    let assign = json!({ "agent": reviser });
    c.expect(Method::POST, &format!("{art}/assignment"), Some(&assign), None, &created).await?;
    let revise = json!({ "author": reviser, "ref": "b2" });
    c.expect(Method::POST, &format!("{art}/versions"), Some(&revise), None, &created).await?;
    let approve = json!({ "reviewer": "rev", "verdict": "approve" });
    c.expect(Method::POST, &format!("{art}/versions/2/reviews"), Some(&approve), None, &created).await?;
    Ok(())
}

async fn status_read(c: &mut Client, s: &Shared, rng: &mut Rng, i: u64) -> Result<()> {
    let (n, etag) = &s.etags[rng.below(s.etags.len() as u64) as usize];
    let path = format!("{}/artifacts/st-{n}", s.base);
    if i.is_multiple_of(2) {
        let tag = Some((header::IF_NONE_MATCH, etag.as_str()));
        c.expect(Method::GET, &path, None, tag, &[StatusCode::NOT_MODIFIED]).await?;
    } else {
        c.expect(Method::GET, &path, None, None, &[StatusCode::OK]).await?;
    }
    Ok(())
}

async fn check(c: &mut Client, s: &Shared, rng: &mut Rng) -> Result<()> {
    let agent = format!("eng-{}", rng.below(ENGINEERS as u64));
    let n = rng.below(2 * ENGINEERS as u64) + 1;
    let body = json!({ "agent": agent, "paths": [format!("src/st-{n}/lib.rs"), "src/other/mod.rs", "docs/readme.md"] });
    c.expect(Method::POST, &format!("{}/checks", s.base), Some(&body), None, &[StatusCode::OK]).await?;
    Ok(())
}

/// For each run, a write through the writer replica (`PUT` of `eng-0`, its expertise toggled),
/// then, through the replica at `--addr`, as soon as the write answered:
/// - even runs, `visible`: checks of `eng-0` without `min_seq`, one after another, until one
///   answers at the write's seq or past it: how long a check through another replica may miss a
///   write (its index answers at its old seq until the notification arrives; then, no longer
///   current, it lets the database answer until it has applied the write);
/// - odd runs, `applied`: one check with `min_seq` at the write's seq, which the index answers
///   once it has applied it (it waits for that, up to `REVIEWLOCK_INDEX_WAIT`).
async fn notify_delay(args: &Args, token: &str, writer_addr: &str, runs: usize) -> Result<()> {
    let base = format!("/v1/teams/{}", args.team);
    let mut writer = Client::connect(writer_addr, token).await?;
    let mut reader = Client::connect(&args.addr, token).await?;
    let ok = [StatusCode::OK, StatusCode::CREATED];
    let check = format!("{base}/checks");
    let ask = json!({ "agent": "eng-0", "paths": ["src/st-1/lib.rs"] });
    // Loads the team into the reader's index.
    reader.expect(Method::POST, &check, Some(&ask), None, &ok).await?;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (mut visible, mut applied) = (Vec::new(), Vec::new());
    for run in 0..runs {
        let body = json!({ "expertise": if run % 4 < 2 { json!(["rust"]) } else { json!([]) } });
        let wrote =
            writer.expect(Method::PUT, &format!("{base}/agents/eng-0"), Some(&body), None, &ok).await?;
        let seq = wrote.seq.ok_or("a write without Reviewlock-Seq")?;
        let began = Instant::now();
        if run % 2 == 0 {
            loop {
                let answer = reader.expect(Method::POST, &check, Some(&ask), None, &ok).await?;
                let answered: Value = serde_json::from_slice(&answer.body)?;
                if answered["seq"].as_i64().unwrap_or(0) >= seq {
                    break;
                }
            }
            visible.push(began.elapsed());
        } else {
            let mut asked = ask.clone();
            asked["min_seq"] = json!(seq);
            reader.expect(Method::POST, &check, Some(&asked), None, &ok).await?;
            applied.push(began.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let pct = |v: &mut Vec<Duration>, p: f64| {
        v.sort();
        v.get(((v.len() as f64 * p).ceil() as usize).saturating_sub(1))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "notify_delay runs={runs} visible_p50_ms={:.2} visible_p99_ms={:.2} applied_p50_ms={:.2} applied_p99_ms={:.2}",
        pct(&mut visible, 0.5),
        pct(&mut visible, 0.99),
        pct(&mut applied, 0.5),
        pct(&mut applied, 0.99)
    );
    Ok(())
}

async fn healthz(c: &mut Client) -> Result<()> {
    c.expect(Method::GET, "/healthz", None, None, &[StatusCode::OK]).await?;
    Ok(())
}

async fn events_poll(c: &mut Client, s: &Shared, rng: &mut Rng) -> Result<()> {
    let after = rng.below(s.last_seq.saturating_sub(100).max(1));
    let path = format!("{}/events?after={after}&limit=100", s.base);
    c.expect(Method::GET, &path, None, None, &[StatusCode::OK]).await?;
    Ok(())
}
