//! Outbound HTTP: the one client every delivery (webhooks, commit statuses) is sent with, and
//! what it refuses. A URL must be `https` (unless HTTP is allowed), and must not reach the
//! service's own network: its host is resolved by the client's own resolver, which drops
//! loopback, private, link-local and other non-public addresses (unless private targets are
//! allowed), and the connection goes to an address that resolver returned, so a name cannot
//! pass the check and then resolve elsewhere. Redirects are not followed, proxies are not used,
//! every request has a time limit, and no more of a response is read than the delivery log keeps.

pub mod signature;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

/// How long one delivery may take, connection and response included.
pub const TIMEOUT: Duration = Duration::from_secs(15);

/// The most of a response's body read; the delivery log keeps [`KEPT`] of it.
const READ: usize = 16 * 1024;

/// The most of a response's body the delivery log keeps, in bytes.
pub const KEPT: usize = 1024;

/// Which targets may be reached.
#[derive(Debug, Clone, Copy, Default)]
pub struct Policy {
    /// `http` URLs too (`REVIEWLOCK_WEBHOOK_ALLOW_HTTP`).
    pub allow_http: bool,
    /// Hosts that resolve to loopback, private or link-local addresses too
    /// (`REVIEWLOCK_WEBHOOK_ALLOW_PRIVATE`).
    pub allow_private: bool,
}

/// The client deliveries are sent with. Cloning shares it.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    policy: Policy,
}

/// A request to send.
pub struct Request {
    pub url: String,
    pub headers: Vec<(HeaderName, String)>,
    pub body: Vec<u8>,
    /// A 400 whose body contains this text is delivered too: the target says it already holds
    /// what was sent (GitLab refuses to set a commit status to the state it is in).
    pub already_held: Option<&'static str>,
}

/// What became of one attempt.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The response's status; none when no response came (refused, timed out, unreachable).
    pub status: Option<u16>,
    /// The start of the response's body (lossy UTF-8, at most [`KEPT`] bytes).
    pub body: Option<String>,
    /// Why no response came, or why it was not read.
    pub error: Option<String>,
    pub latency: Duration,
    /// How long the target asked us to wait (`Retry-After`, or GitHub's rate-limit headers).
    pub retry_after: Option<Duration>,
    /// Not a 2xx, but the target already held what was sent ([`Request::already_held`]).
    pub already_held: bool,
}

impl Reply {
    pub fn succeeded(&self) -> bool {
        self.status.is_some_and(|s| (200..300).contains(&s)) || self.already_held
    }

    fn failed(error: String, started: Instant) -> Reply {
        Reply {
            status: None,
            body: None,
            error: Some(error),
            latency: started.elapsed(),
            retry_after: None,
            already_held: false,
        }
    }
}

/// Makes `ring` the process's TLS provider, which reqwest's rustls needs before a client is
/// built (another one already installed is kept).
pub fn install_tls_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

impl Client {
    pub fn new(policy: Policy) -> Client {
        install_tls_provider();
        let http = reqwest::Client::builder()
            .dns_resolver(Arc::new(Guarded { allow_private: policy.allow_private }))
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .timeout(TIMEOUT)
            .connect_timeout(Duration::from_secs(10))
            .user_agent(concat!("reviewlock/", env!("CARGO_PKG_VERSION")))
            .build()
            .expect("the outbound client builds: rustls with its provider installed");
        Client { http, policy }
    }

    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// Whether deliveries may go to `url`: a well-formed `https` URL (or `http` when allowed)
    /// whose host resolves, and only to addresses the policy allows. Checked when a target is
    /// created or changed; every delivery is checked again as it connects.
    pub async fn check_url(&self, url: &str) -> Result<(), String> {
        let parsed = self.parse(url)?;
        let host = parsed.host_str().unwrap_or_default().trim_start_matches('[').trim_end_matches(']');
        let port = parsed.port_or_known_default().unwrap_or(443);
        if let Ok(ip) = host.parse::<IpAddr>() {
            return self.check_ip(ip);
        }
        let found: Vec<SocketAddr> = tokio::net::lookup_host((host, port))
            .await
            .map_err(|e| format!("the host '{host}' does not resolve: {e}"))?
            .collect();
        match found.iter().find(|a| !self.policy.allow_private && !is_public(a.ip())) {
            Some(a) => Err(refused_address(host, a.ip())),
            None if found.is_empty() => Err(format!("the host '{host}' resolves to no address")),
            None => Ok(()),
        }
    }

    fn parse(&self, url: &str) -> Result<reqwest::Url, String> {
        let parsed = reqwest::Url::parse(url).map_err(|e| format!("not a URL: {e}"))?;
        match parsed.scheme() {
            "https" => {}
            "http" if self.policy.allow_http => {}
            "http" => {
                return Err(
                    "must be an https URL (http is allowed with REVIEWLOCK_WEBHOOK_ALLOW_HTTP)".into()
                );
            }
            other => return Err(format!("must be an https URL, not {other}")),
        }
        if parsed.host_str().is_none_or(str::is_empty) {
            return Err("names no host".into());
        }
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err("must not hold credentials".into());
        }
        Ok(parsed)
    }

    fn check_ip(&self, ip: IpAddr) -> Result<(), String> {
        if self.policy.allow_private || is_public(ip) {
            Ok(())
        } else {
            Err(refused_address(&ip.to_string(), ip))
        }
    }

    /// Sends a POST and reads at most [`READ`] bytes of its response. Never fails: what went
    /// wrong is in the reply.
    pub async fn post(&self, request: Request) -> Reply {
        let started = Instant::now();
        let url = match self.parse(&request.url) {
            Ok(url) => url,
            Err(e) => return Reply::failed(format!("the URL {e}"), started),
        };
        // An IP address in the URL is not resolved, so it is checked here.
        if let Some(Ok(ip)) =
            url.host_str().map(|h| h.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>())
            && let Err(e) = self.check_ip(ip)
        {
            return Reply::failed(e, started);
        }
        let mut headers = HeaderMap::new();
        for (name, value) in request.headers {
            match HeaderValue::from_str(&value) {
                Ok(value) => headers.insert(name, value),
                Err(_) => return Reply::failed(format!("the header {name} cannot be sent"), started),
            };
        }
        let already_held = request.already_held;
        let response = match self.http.post(url).headers(headers).body(request.body).send().await {
            Ok(response) => response,
            Err(e) => return Reply::failed(describe(&e), started),
        };
        let status = response.status().as_u16();
        let retry_after = retry_after(response.headers(), Utc::now());
        let mut response = response;
        let mut body = Vec::new();
        let mut error = None;
        while body.len() < READ {
            match response.chunk().await {
                Ok(Some(chunk)) => body.extend_from_slice(&chunk[..chunk.len().min(READ - body.len())]),
                Ok(None) => break,
                Err(e) => {
                    error = Some(describe(&e));
                    break;
                }
            }
        }
        // Looked for in what was read, before it is cut to what the delivery log keeps.
        let already_held = status == 400 && already_held.is_some_and(|text| contains(&body, text.as_bytes()));
        body.truncate(KEPT);
        let body = String::from_utf8_lossy(&body).into_owned();
        Reply {
            status: Some(status),
            body: Some(body),
            error,
            latency: started.elapsed(),
            retry_after,
            already_held,
        }
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || haystack.windows(needle.len()).any(|w| w == needle)
}

fn refused_address(host: &str, ip: IpAddr) -> String {
    format!(
        "'{host}' resolves to {ip}, a loopback, private, link-local or otherwise non-public address \
         (allowed with REVIEWLOCK_WEBHOOK_ALLOW_PRIVATE)"
    )
}

/// An error of reqwest's in words, with its causes (a timeout, a refused connection, a
/// certificate), and never the URL's query.
fn describe(e: &reqwest::Error) -> String {
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "could not connect"
    } else {
        "failed"
    };
    let mut causes = Vec::new();
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        causes.push(cause.to_string());
        source = cause.source();
    }
    if causes.is_empty() { kind.to_owned() } else { format!("{kind}: {}", causes.join(": ")) }
}

/// How long the target asks us to wait: `Retry-After` in seconds or as a date, or GitHub's
/// `x-ratelimit-reset` when `x-ratelimit-remaining` is 0. At most a day.
fn retry_after(headers: &HeaderMap, now: DateTime<Utc>) -> Option<Duration> {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
    let wait = if let Some(value) = text("retry-after") {
        match value.parse::<u64>() {
            Ok(seconds) => Some(Duration::from_secs(seconds)),
            Err(_) => DateTime::parse_from_rfc2822(value).ok().map(|at| until(now, at.with_timezone(&Utc))),
        }
    } else if text("x-ratelimit-remaining") == Some("0") {
        let reset = text("x-ratelimit-reset")?.parse::<i64>().ok()?;
        DateTime::from_timestamp(reset, 0).map(|at| until(now, at))
    } else {
        None
    };
    wait.map(|w| w.min(Duration::from_secs(86_400)))
}

fn until(now: DateTime<Utc>, at: DateTime<Utc>) -> Duration {
    (at - now).to_std().unwrap_or_default()
}

/// A resolver that answers only public addresses (unless private ones are allowed): the
/// client connects to what it answers.
struct Guarded {
    allow_private: bool,
}

impl Resolve for Guarded {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let found: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            if let Some(refused) = found.iter().find(|a| !allow_private && !is_public(a.ip())) {
                return Err(refused_address(&host, refused.ip()).into());
            }
            let addrs: Addrs = Box::new(found.into_iter());
            Ok(addrs)
        })
    }
}

/// Whether an address is on the public internet: not loopback, private, link-local, shared
/// (CGNAT), unspecified, multicast, broadcast, documentation or reserved; an IPv6 address
/// that embeds an IPv4 one is judged by it.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public_v4(v4);
            }
            let s = v6.segments();
            // NAT64 (64:ff9b::/96) embeds an IPv4 address in its last 32 bits.
            if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
                return is_public_v4(Ipv4Addr::new(
                    (s[6] >> 8) as u8,
                    s[6] as u8,
                    (s[7] >> 8) as u8,
                    s[7] as u8,
                ));
            }
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00 // unique local
                || (s[0] & 0xffc0) == 0xfe80 // link-local
                || (s[0] & 0xffc0) == 0xfec0 // site-local (deprecated)
                || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
                || v6 == Ipv6Addr::new(0, 0, 0, 0, 0, 0, 0, 1))
        }
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b)) // shared address space (CGNAT)
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments
        || (a == 198 && (b & 0xfe) == 18) // benchmarking
        || a >= 240) // reserved
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_public_addresses_are_public() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "255.255.255.255",
            "224.0.0.1",
            "240.0.0.1",
            "::1",
            "::",
            "fc00::1",
            "fd12::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
            "2001:db8::1",
        ] {
            assert!(!is_public(private.parse().unwrap()), "{private} counted as public");
        }
        for public in
            ["1.1.1.1", "140.82.112.3", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:8.8.8.8"]
        {
            assert!(is_public(public.parse().unwrap()), "{public} counted as private");
        }
    }

    #[test]
    fn waits_as_long_as_the_target_asks() {
        let now = DateTime::parse_from_rfc3339("2026-01-01T00:00:00Z").unwrap().with_timezone(&Utc);
        let headers = |pairs: &[(&'static str, &str)]| {
            let mut map = HeaderMap::new();
            for (k, v) in pairs {
                map.insert(*k, v.parse().unwrap());
            }
            map
        };
        assert_eq!(retry_after(&headers(&[("retry-after", "120")]), now), Some(Duration::from_secs(120)));
        let date = headers(&[("retry-after", "Thu, 01 Jan 2026 00:01:00 GMT")]);
        assert_eq!(retry_after(&date, now), Some(Duration::from_secs(60)));
        let limited = headers(&[
            ("x-ratelimit-remaining", "0"),
            ("x-ratelimit-reset", &(now.timestamp() + 30).to_string()),
        ]);
        assert_eq!(retry_after(&limited, now), Some(Duration::from_secs(30)));
        let left = headers(&[("x-ratelimit-remaining", "12"), ("x-ratelimit-reset", "1")]);
        assert_eq!(retry_after(&left, now), None);
        assert_eq!(
            retry_after(&headers(&[("retry-after", "9999999")]), now),
            Some(Duration::from_secs(86_400))
        );
    }

    #[tokio::test]
    async fn urls_are_https_and_public_unless_allowed() {
        let strict = Client::new(Policy::default());
        assert!(strict.check_url("http://example.com/hook").await.unwrap_err().contains("https"));
        assert!(strict.check_url("ftp://example.com/").await.unwrap_err().contains("https"));
        assert!(strict.check_url("https://user:pw@example.com/").await.unwrap_err().contains("credentials"));
        assert!(strict.check_url("https://127.0.0.1:9/").await.unwrap_err().contains("non-public"));
        assert!(strict.check_url("https://[::1]:9/").await.unwrap_err().contains("non-public"));
        assert!(strict.check_url("https://localhost:9/").await.unwrap_err().contains("non-public"));
        let reply = strict
            .post(Request {
                url: "https://127.0.0.1:9/".into(),
                headers: vec![],
                body: vec![],
                already_held: None,
            })
            .await;
        assert!(reply.error.unwrap().contains("non-public"));
        let open = Client::new(Policy { allow_http: true, allow_private: true });
        assert_eq!(open.check_url("http://127.0.0.1:9/hook").await, Ok(()));
    }
}
