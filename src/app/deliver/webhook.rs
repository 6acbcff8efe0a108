//! A webhook delivery: which events a subscription wants, and the signed request of Standard
//! Webhooks (docs/webhooks.md).

use chrono::{DateTime, Utc};
use reqwest::header::{CONTENT_TYPE, HeaderName};
use serde::Serialize;
use uuid::Uuid;

use crate::outbound::{Request, signature};
use crate::resources::events::EVENT_TYPES;

/// The `type` of a test delivery, which no event of the log has.
pub const TEST_TYPE: &str = "webhook.test";

/// Whether a filter names event types: `*`, a type, or a prefix such as `review.*` that some
/// type has. The error says what would.
pub fn check_filter(filter: &str) -> Result<(), String> {
    let known = match filter.strip_suffix(".*") {
        _ if filter == "*" => true,
        Some(prefix) => EVENT_TYPES.iter().any(|t| t.split('.').next() == Some(prefix)),
        None => EVENT_TYPES.contains(&filter),
    };
    if known {
        Ok(())
    } else {
        Err(format!(
            "'{filter}' names no event type: use a type ({}), a prefix such as 'review.*', or '*'",
            EVENT_TYPES.join(", ")
        ))
    }
}

/// Whether a subscription with these filters (none: every event) wants an event of `kind`.
pub fn wants(filters: &[String], kind: &str) -> bool {
    filters.is_empty()
        || filters.iter().any(|f| {
            f == "*" || f == kind || f.strip_suffix(".*").is_some_and(|p| kind.split('.').next() == Some(p))
        })
}

/// The `webhook-id` of an event for a subscription: the same on every attempt, so a receiver
/// can tell a retry from a new event.
pub fn message_id(subscription: Uuid, seq: i64) -> String {
    format!("msg_{}_{seq}", subscription.simple())
}

/// The body Standard Webhooks sends: the event's `type`, when it happened, and the event itself
/// as `GET …/events` shows it.
#[derive(Serialize)]
pub struct Payload<'a, T: Serialize> {
    #[serde(rename = "type")]
    pub kind: &'a str,
    pub timestamp: DateTime<Utc>,
    pub data: T,
}

/// The signed POST of `body` to the subscription's URL, signed with each of `secrets` (the
/// current secret first, then one still valid during a rotation), at `now`.
pub fn request(url: &str, secrets: &[&str], id: &str, now: DateTime<Utc>, body: Vec<u8>) -> Request {
    let timestamp = now.timestamp();
    let signature = signature::sign(secrets, id, timestamp, &body);
    let header = |name: &'static str| HeaderName::from_static(name);
    Request {
        url: url.to_owned(),
        headers: vec![
            (CONTENT_TYPE, "application/json".into()),
            (header("webhook-id"), id.to_owned()),
            (header("webhook-timestamp"), timestamp.to_string()),
            (header("webhook-signature"), signature),
        ],
        body,
        already_held: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Filters against made-up types (the real ones are spelled only in `resources::events`;
    /// the API's tests check those).
    #[test]
    fn filters_match_types_and_their_prefixes() {
        let filters = vec!["alpha.*".to_owned(), "beta.one".to_owned()];
        assert!(wants(&filters, "alpha.one"));
        assert!(wants(&filters, "alpha.two"));
        assert!(wants(&filters, "beta.one"));
        assert!(!wants(&filters, "beta.two"));
        assert!(!wants(&filters, "alphabet.one"));
        assert!(wants(&[], "gamma.one"), "no filter: every event");
        assert!(wants(&["*".to_owned()], "gamma.one"));
        assert!(check_filter("*").is_ok());
        assert!(check_filter("nothing.*").unwrap_err().contains("names no event type"));
    }

    #[test]
    fn an_event_keeps_its_id_for_a_subscription() {
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        assert_eq!(message_id(a, 7), message_id(a, 7));
        assert_ne!(message_id(a, 7), message_id(a, 8));
        assert_ne!(message_id(a, 7), message_id(b, 7));
    }
}
