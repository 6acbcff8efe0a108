//! deploy/: the Grafana dashboard and the Prometheus alert rules ask only for series `/metrics`
//! serves, and every alert carries what an operator's routing and pager need.

use std::collections::BTreeSet;

use serde_json::Value;
use sqlx::PgPool;

use crate::common::Api;
use crate::metrics::{refresh, scrape};

fn read(file: &str) -> String {
    let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every PromQL expression of the dashboard's panels (rows included).
fn dashboard_exprs() -> Vec<String> {
    fn walk(panels: &[Value], exprs: &mut Vec<String>) {
        for panel in panels {
            for target in panel["targets"].as_array().into_iter().flatten() {
                exprs.push(target["expr"].as_str().expect("each target has a PromQL expr").to_owned());
            }
            walk(panel["panels"].as_array().map_or(&[], Vec::as_slice), exprs);
        }
    }
    let dashboard: Value = serde_json::from_str(&read("deploy/grafana/dashboards/reviewlock.json")).unwrap();
    let mut exprs = Vec::new();
    walk(dashboard["panels"].as_array().expect("panels"), &mut exprs);
    exprs
}

/// The rules of deploy/prometheus/alerts.yml, as YAML values.
fn alert_rules() -> Vec<serde_norway::Value> {
    let file: serde_norway::Value = serde_norway::from_str(&read("deploy/prometheus/alerts.yml")).unwrap();
    let groups = file["groups"].as_sequence().expect("groups");
    groups.iter().flat_map(|g| g["rules"].as_sequence().expect("each group has rules").clone()).collect()
}

/// The metric names an expression selects: its identifiers that are not functions, keywords,
/// label names (in `{…}`, `by (…)`, `on (…)`…), strings, ranges, numbers or Grafana variables.
fn metric_names(expr: &str) -> BTreeSet<String> {
    const KEYWORDS: [&str; 8] = ["and", "or", "unless", "bool", "offset", "inf", "nan", "atan2"];
    // Aggregations may be followed by `by (…)` rather than by their parenthesis.
    const AGGREGATIONS: [&str; 12] = [
        "sum",
        "min",
        "max",
        "avg",
        "group",
        "stddev",
        "stdvar",
        "count",
        "count_values",
        "bottomk",
        "topk",
        "quantile",
    ];
    const LABEL_LISTS: [&str; 6] = ["by", "without", "on", "ignoring", "group_left", "group_right"];
    let chars: Vec<char> = expr.chars().collect();
    let mut names = BTreeSet::new();
    let mut i = 0;
    // The index after the string literal that opens at `i`.
    let string_end = |i: usize| {
        let mut j = i + 1;
        while chars[j] != '"' {
            j += if chars[j] == '\\' { 2 } else { 1 };
        }
        j + 1
    };
    // The index after the bracket that closes the one at `i` (none of these nest in PromQL).
    let skip_to = |i: usize, close: char| {
        let mut j = i + 1;
        while chars[j] != close {
            j = if chars[j] == '"' { string_end(j) } else { j + 1 };
        }
        j + 1
    };
    while i < chars.len() {
        let c = chars[i];
        if c == '{' {
            i = skip_to(i, '}');
        } else if c == '[' {
            i = skip_to(i, ']');
        } else if c == '"' {
            i = string_end(i);
        } else if c.is_ascii_digit() || c == '.' || c == '$' {
            i += 1;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || matches!(chars[i], '.' | '_')) {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == '_' || c == ':' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || matches!(chars[i], '_' | ':')) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let mut next = i;
            while next < chars.len() && chars[next].is_whitespace() {
                next += 1;
            }
            let called = chars.get(next) == Some(&'(');
            if LABEL_LISTS.contains(&word.as_str()) {
                if called {
                    i = skip_to(next, ')');
                }
            } else if !called && !KEYWORDS.contains(&word.as_str()) && !AGGREGATIONS.contains(&word.as_str())
            {
                names.insert(word);
            }
        } else {
            i += 1;
        }
    }
    names
}

#[test]
fn metric_names_are_read_from_promql() {
    let expr = r#"histogram_quantile(0.95, sum by (le, route) (rate(a_bucket{status=~"5..", x="}\"]"}[$__rate_interval]))) / on(instance) b unless c > bool 0.5"#;
    assert_eq!(metric_names(expr), ["a_bucket", "b", "c"].map(str::to_owned).into());
}

/// Every series a panel or an alert asks for is on the page of a running service (histograms
/// by their `_bucket`, `_sum` and `_count`, as rendered), so none shows "no data" for a typo.
#[sqlx::test]
async fn dashboard_and_alerts_ask_only_for_served_series(pool: PgPool) {
    let api = Api::with_state(pool, |s| s.outbox = crate::common::outbox());
    // A webhook behind its team's log (no delivery worker runs here), and one delivery attempt
    // counted: the delivery series are on the page.
    api.team("t", Value::Null).await;
    let hook = serde_json::json!({ "url": "http://127.0.0.1:9/hook", "after": 0 });
    api.post("/v1/teams/t/webhooks", crate::common::ADMIN, hook).await.expect(201, None);
    reviewlock::metrics::record_delivery(
        reviewlock::domain::TargetKind::Webhook,
        reviewlock::metrics::Delivery::Success,
        std::time::Duration::from_millis(20),
    );
    // The database's gauges are on the page once read; the request series once a request was
    // answered (this first scrape).
    refresh(&api).await;
    scrape(&api).await;
    let (_, page) = scrape(&api).await;

    let dashboard = dashboard_exprs();
    let alerts: Vec<String> =
        alert_rules().iter().map(|r| r["expr"].as_str().expect("each rule has an expr").to_owned()).collect();
    let mut asked = BTreeSet::new();
    for (source, exprs) in [("the dashboard", &dashboard), ("alerts.yml", &alerts)] {
        assert!(!exprs.is_empty(), "{source} has expressions");
        for expr in exprs {
            let names = metric_names(expr);
            assert!(!names.is_empty(), "{source}: no series in {expr}");
            for name in names {
                // `up` is recorded by Prometheus for each scrape, not served.
                let served = page.has(&name, &[]) || (source == "alerts.yml" && name == "up");
                assert!(served, "{source} asks for {name}, which /metrics does not serve: {expr}");
                asked.insert(name);
            }
        }
    }
    // What an operator needs is on the dashboard or alerted on.
    for needed in [
        "reviewlock_http_requests_total",
        "reviewlock_http_request_duration_seconds_bucket",
        "reviewlock_refusals_total",
        "reviewlock_reviews_total",
        "reviewlock_active_lockouts",
        "reviewlock_open_escalations",
        "reviewlock_deadlocks_opened_total",
        "reviewlock_deadlocks_resolved_total",
        "reviewlock_db_pool_in_use",
        "reviewlock_db_pool_waiting",
        "reviewlock_db_pool_max",
        "reviewlock_deliveries_total",
        "reviewlock_delivery_oldest_undelivered_seconds",
        "reviewlock_delivery_duration_seconds_bucket",
    ] {
        assert!(asked.contains(needed), "nothing shows {needed}");
    }
}

/// Each rule names its alert, waits a valid `for`, and has a severity and a summary to route
/// and page on; alert names are unique.
#[test]
fn every_alert_has_what_routing_and_paging_need() {
    let rules = alert_rules();
    assert!(!rules.is_empty());
    let mut names = BTreeSet::new();
    for rule in &rules {
        let name = rule["alert"].as_str().unwrap_or_else(|| panic!("a rule without `alert`: {rule:?}"));
        assert!(names.insert(name), "{name} is defined twice");
        assert!(rule["expr"].as_str().is_some_and(|e| !e.trim().is_empty()), "{name}: expr");
        let wait = rule["for"].as_str().unwrap_or_else(|| panic!("{name}: `for`"));
        let (digits, unit) = wait.split_at(wait.find(|c: char| !c.is_ascii_digit()).unwrap_or(0));
        assert!(
            !digits.is_empty() && ["s", "m", "h", "d"].contains(&unit),
            "{name}: `for: {wait}` is a duration"
        );
        let severity = rule["labels"]["severity"].as_str();
        assert!(matches!(severity, Some("critical" | "warning")), "{name}: labels.severity {severity:?}");
        assert!(
            rule["annotations"]["summary"].as_str().is_some_and(|s| !s.is_empty()),
            "{name}: annotations.summary"
        );
    }
    // The escalation alert the protocol's operators rely on: a deadlock waits for a person.
    let escalation =
        rules.iter().find(|r| r["alert"] == "ReviewlockEscalationWaiting").expect("escalation alert");
    assert_eq!(escalation["for"].as_str(), Some("1h"));
}
