//! Rate limiting: in-process token buckets, one per authenticated token (its requests), and one
//! per client address (its requests with unknown tokens).
//!
//! A bucket holds up to `burst` requests and refills at `per_second`; a request finding it
//! empty is 429 `rate_limited` with `Retry-After`. Per-token buckets are keyed by the token's
//! hash and made only after the token authenticated, so a client sending made-up tokens creates
//! none; those are counted by address instead (`http::admission`). A bucket that has refilled is
//! the same as no bucket, so idle buckets are dropped, which keeps memory bounded by the keys
//! active in the last few seconds. Each replica counts on its own.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Requests per second per token, with a burst. `0` disables the limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateLimit {
    pub per_second: f64,
    pub burst: u32,
}

impl RateLimit {
    pub const DISABLED: RateLimit = RateLimit { per_second: 0.0, burst: 0 };

    pub fn new(per_second: f64, burst: u32) -> Self {
        RateLimit { per_second, burst }
    }

    pub fn is_disabled(&self) -> bool {
        self.per_second <= 0.0 || self.burst == 0
    }
}

impl fmt::Display for RateLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_disabled() { write!(f, "0") } else { write!(f, "{}/{}", self.per_second, self.burst) }
    }
}

/// `RATE` (a burst of twice the rate) or `RATE/BURST`, e.g. `50/100`; `0` disables.
impl FromStr for RateLimit {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("'{s}' is not a rate limit like 50/100 (requests per second/burst) or 0");
        let (rate, burst) = match s.trim().split_once('/') {
            Some((rate, burst)) => (rate.trim(), Some(burst.trim())),
            None => (s.trim(), None),
        };
        let rate: f64 = rate.parse().map_err(|_| bad())?;
        if !rate.is_finite() || rate < 0.0 {
            return Err(bad());
        }
        if rate == 0.0 {
            return Ok(RateLimit::DISABLED);
        }
        let burst = match burst {
            Some(b) => b.parse::<u32>().map_err(|_| bad())?,
            None => (rate * 2.0).ceil().min(u32::MAX as f64) as u32,
        };
        if burst == 0 {
            return Err(bad());
        }
        Ok(RateLimit { per_second: rate, burst: burst.max(1) })
    }
}

/// How often idle buckets are swept out.
const SWEEP_EVERY: Duration = Duration::from_secs(30);

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

struct Buckets {
    by_key: HashMap<Vec<u8>, Bucket>,
    swept: Instant,
}

/// The buckets of one process; cloning shares them.
#[derive(Clone)]
pub struct RateLimiter {
    limit: RateLimit,
    buckets: Arc<Mutex<Buckets>>,
}

impl fmt::Debug for RateLimiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RateLimiter").field("limit", &self.limit).finish_non_exhaustive()
    }
}

impl RateLimiter {
    pub fn new(limit: RateLimit) -> Self {
        let buckets = Buckets { by_key: HashMap::new(), swept: Instant::now() };
        RateLimiter { limit, buckets: Arc::new(Mutex::new(buckets)) }
    }

    pub fn disabled() -> Self {
        Self::new(RateLimit::DISABLED)
    }

    pub fn limit(&self) -> RateLimit {
        self.limit
    }

    /// Takes one request from `key`'s bucket; when it is empty, the whole seconds until one
    /// is available again (at least 1).
    pub fn check(&self, key: &[u8]) -> Result<(), u64> {
        self.check_at(key, Instant::now())
    }

    /// As [`RateLimiter::check`], without taking the request: whether `key`'s bucket is empty.
    /// For a limit on failures, which are counted only once they happened.
    pub fn exhausted(&self, key: &[u8]) -> Result<(), u64> {
        self.bucket_at(key, Instant::now(), false)
    }

    fn check_at(&self, key: &[u8], now: Instant) -> Result<(), u64> {
        self.bucket_at(key, now, true)
    }

    fn bucket_at(&self, key: &[u8], now: Instant, take: bool) -> Result<(), u64> {
        if self.limit.is_disabled() {
            return Ok(());
        }
        let RateLimit { per_second, burst } = self.limit;
        let burst = f64::from(burst);
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if now.saturating_duration_since(buckets.swept) >= SWEEP_EVERY {
            // A bucket that has refilled since its last request says nothing a new one would not.
            buckets.by_key.retain(|_, b| {
                b.tokens + now.saturating_duration_since(b.at).as_secs_f64() * per_second < burst
            });
            buckets.swept = now;
        }
        let bucket = buckets.by_key.entry(key.to_vec()).or_insert(Bucket { tokens: burst, at: now });
        let refilled = bucket.tokens + now.saturating_duration_since(bucket.at).as_secs_f64() * per_second;
        bucket.tokens = refilled.min(burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            if take {
                bucket.tokens -= 1.0;
            }
            Ok(())
        } else {
            let wait = (1.0 - bucket.tokens) / per_second;
            Err((wait.ceil() as u64).max(1))
        }
    }

    /// How many buckets are held (for tests of eviction).
    pub fn buckets(&self) -> usize {
        self.buckets.lock().unwrap_or_else(|e| e.into_inner()).by_key.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rate_and_burst() {
        assert_eq!("50/100".parse(), Ok(RateLimit::new(50.0, 100)));
        assert_eq!("10".parse(), Ok(RateLimit::new(10.0, 20)));
        assert_eq!("0.5/3".parse(), Ok(RateLimit::new(0.5, 3)));
        assert!("0".parse::<RateLimit>().unwrap().is_disabled());
        assert!("0/10".parse::<RateLimit>().unwrap().is_disabled());
        for bad in ["", "x", "-1", "5/0", "5/x", "inf", "NaN"] {
            assert!(bad.parse::<RateLimit>().is_err(), "{bad}");
        }
        assert_eq!(RateLimit::new(50.0, 100).to_string(), "50/100");
    }

    #[test]
    fn a_bucket_allows_its_burst_then_refills() {
        let limiter = RateLimiter::new(RateLimit::new(1.0, 2));
        let t0 = Instant::now();
        assert_eq!(limiter.check_at(b"a", t0), Ok(()));
        assert_eq!(limiter.check_at(b"a", t0), Ok(()));
        assert_eq!(limiter.check_at(b"a", t0), Err(1));
        // Another key has its own bucket.
        assert_eq!(limiter.check_at(b"b", t0), Ok(()));
        // One request per second comes back.
        assert_eq!(limiter.check_at(b"a", t0 + Duration::from_millis(1000)), Ok(()));
        assert_eq!(limiter.check_at(b"a", t0 + Duration::from_millis(1000)), Err(1));
    }

    #[test]
    fn an_exhausted_bucket_is_seen_without_taking_from_it() {
        let limiter = RateLimiter::new(RateLimit::new(1.0, 1));
        let t0 = Instant::now();
        assert_eq!(limiter.bucket_at(b"a", t0, false), Ok(()));
        assert_eq!(limiter.bucket_at(b"a", t0, false), Ok(()), "looking takes nothing");
        assert_eq!(limiter.check_at(b"a", t0), Ok(()));
        assert_eq!(limiter.bucket_at(b"a", t0, false), Err(1));
    }

    #[test]
    fn retry_after_counts_whole_seconds() {
        let limiter = RateLimiter::new(RateLimit::new(0.25, 1));
        let t0 = Instant::now();
        assert_eq!(limiter.check_at(b"a", t0), Ok(()));
        assert_eq!(limiter.check_at(b"a", t0), Err(4));
        assert_eq!(limiter.check_at(b"a", t0 + Duration::from_millis(2500)), Err(2));
    }

    #[test]
    fn disabled_never_refuses_and_keeps_nothing() {
        let limiter = RateLimiter::disabled();
        for _ in 0..1000 {
            assert_eq!(limiter.check(b"a"), Ok(()));
        }
        assert_eq!(limiter.buckets(), 0);
    }

    #[test]
    fn idle_buckets_are_evicted() {
        let limiter = RateLimiter::new(RateLimit::new(10.0, 10));
        let t0 = Instant::now();
        for i in 0..100u32 {
            limiter.check_at(&i.to_be_bytes(), t0).unwrap();
        }
        assert_eq!(limiter.buckets(), 100);
        // A sweep after they refilled keeps only the bucket in use.
        limiter.check_at(b"busy", t0 + SWEEP_EVERY).unwrap();
        assert_eq!(limiter.buckets(), 1);
    }
}
