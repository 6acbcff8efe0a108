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
