//! When a failed delivery is tried again, and when a target gives up.

use std::time::Duration;

/// The wait before each retry: the first attempt is immediate, then after 5 s, 5 min, 30 min,
/// 2 h, 5 h, 10 h, 10 h, and every 10 h after that, until the target has failed for
/// [`GIVE_UP`]. Each wait gets up to 20 % more, at random, so that receivers that were down
/// together are not hit together when they come back.
pub const SCHEDULE: [Duration; 7] = [
    Duration::from_secs(5),
    Duration::from_secs(5 * 60),
    Duration::from_secs(30 * 60),
    Duration::from_secs(2 * 3600),
    Duration::from_secs(5 * 3600),
    Duration::from_secs(10 * 3600),
    Duration::from_secs(10 * 3600),
];

/// A target whose deliveries have failed this long is disabled.
pub const GIVE_UP: Duration = Duration::from_secs(5 * 24 * 3600);

/// The wait after the `failures`th failure in a row (1 after the first), at least as long as
/// the target asked (`Retry-After`, or a rate limit's reset), with `jitter` in 0..1.
pub fn wait(failures: u32, asked: Option<Duration>, jitter: f64) -> Duration {
    let index = (failures.max(1) as usize - 1).min(SCHEDULE.len() - 1);
    let base = SCHEDULE[index].mul_f64(1.0 + 0.2 * jitter.clamp(0.0, 1.0));
    asked.map_or(base, |asked| asked.max(base))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_the_published_schedule() {
        let minutes = |d: Duration| d.as_secs() / 60;
        let waits: Vec<u64> = (1..=9).map(|n| wait(n, None, 0.0).as_secs()).collect();
        assert_eq!(waits, [5, 300, 1800, 7200, 18000, 36000, 36000, 36000, 36000]);
        assert_eq!(minutes(wait(2, None, 1.0)), 6, "20 % jitter at most");
        assert_eq!(
            wait(1, Some(Duration::from_secs(60)), 0.0),
            Duration::from_secs(60),
            "Retry-After honoured"
        );
        assert_eq!(
            wait(3, Some(Duration::from_secs(60)), 0.0),
            Duration::from_secs(1800),
            "never sooner than the schedule"
        );
    }
}
