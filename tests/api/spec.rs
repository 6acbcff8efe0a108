//! The committed spec is the one the code generates.

use serde_json::Value;

#[test]
fn the_committed_spec_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    let committed: Value = serde_json::from_str(&committed).unwrap_or(Value::Null);
    let generated: Value =
        serde_json::from_str(&reviewlock::openapi_json()).expect("the generated spec is JSON");
    assert!(
        committed == generated,
        "openapi/openapi.json is stale: regenerate it with `cargo run -q -- openapi > openapi/openapi.json`"
    );
}

/// The spec spells the protocol's words as the API sends them.
#[test]
fn the_spec_lists_words_as_the_api_spells_them() {
    let spec: Value = serde_json::from_str(&reviewlock::openapi_json()).unwrap();
    let listed = |schema: &str| -> Vec<String> {
        let values = spec["components"]["schemas"][schema]["enum"].as_array().cloned().unwrap_or_default();
        values.into_iter().map(|v| v.as_str().unwrap_or_default().to_owned()).collect()
    };
    let codes: Vec<&str> = reviewlock::domain::Code::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(listed("Code"), codes);
    let states: Vec<&str> = reviewlock::domain::State::ALL.iter().map(|s| s.as_str()).collect();
    assert_eq!(listed("State"), states);
}
