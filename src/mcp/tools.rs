//! The tool set: each tool is one REST operation, its input schema built from that operation's
//! parameters and request body in the OpenAPI spec (so it cannot drift from the API), and its
//! annotations saying what it changes.

use std::sync::{Arc, LazyLock};

use axum::http::Method;
use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Map, Value, json};

use crate::domain::Scope;

/// One tool: the REST operation it calls and what that operation does to the team's state.
pub struct ToolSpec {
    pub name: &'static str,
    pub method: Method,
    /// The operation's path in the spec; `{team}` is the session's team, the others arguments.
    pub path: &'static str,
    /// Only reads (the hints below then say nothing more).
    pub read_only: bool,
    /// May undo or end something: release an assignment, lift a lockout, abandon an artifact.
    pub destructive: bool,
    /// Calling it twice with the same arguments does no more than once.
    pub idempotent: bool,
    /// The scopes that may call it (any of them); a token of another scope is not shown it.
    pub scopes: &'static [Scope],
    /// What a coordinator should know beyond the operation's own description.
    pub advice: &'static str,
}

const READ: &[Scope] = &[Scope::Read];
const COORDINATOR: &[Scope] = &[Scope::Coordinator];
const COORDINATOR_OR_AGENT: &[Scope] = &[Scope::Coordinator, Scope::Agent];
const USER: &[Scope] = &[Scope::User];

const fn read(name: &'static str, method: Method, path: &'static str, advice: &'static str) -> ToolSpec {
    ToolSpec {
        name,
        method,
        path,
        read_only: true,
        destructive: false,
        idempotent: true,
        scopes: READ,
        advice,
    }
}

const fn write(
    name: &'static str,
    method: Method,
    path: &'static str,
    destructive: bool,
    scopes: &'static [Scope],
    advice: &'static str,
) -> ToolSpec {
    ToolSpec { name, method, path, read_only: false, destructive, idempotent: false, scopes, advice }
}

const ARTIFACT: &str = "/v1/teams/{team}/artifacts/{key}";

/// The tools, in the order a coordinator meets them. Their names are fixed: prompts and docs
/// rely on them.
pub static TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(|| {
    vec![
        read(
            "get_artifact",
            Method::GET,
            ARTIFACT,
            "Read this before acting: `state`, `lockouts`, `eligible_agents` (who may be assigned now) and `escalation`.",
        ),
        read(
            "list_artifacts",
            Method::GET,
            "/v1/teams/{team}/artifacts",
            "Pass `cursor` = the last page's `next_cursor` for the next page.",
        ),
        write(
            "create_artifact",
            Method::POST,
            "/v1/teams/{team}/artifacts",
            false,
            COORDINATOR,
            "Records version 1, in review, by `author`.",
        ),
        write(
            "submit_version",
            Method::POST,
            "/v1/teams/{team}/artifacts/{key}/versions",
            false,
            COORDINATOR_OR_AGENT,
            "After a rejection only the assigned reviser may submit (call assign_reviser first).",
        ),
        write(
            "review_version",
            Method::POST,
            "/v1/teams/{team}/artifacts/{key}/versions/{n}/reviews",
            false,
            COORDINATOR_OR_AGENT,
            "`n` is the version number (get_artifact: `current_version.number`). A rejection needs `reason` and `remedy`.",
        ),
        write(
            "assign_reviser",
            Method::POST,
            "/v1/teams/{team}/artifacts/{key}/assignment",
            false,
            COORDINATOR,
            "Call before spawning a reviser; pick `agent` from get_artifact's `eligible_agents`. Never spawn an agent this refuses.",
        ),
        write(
            "release_assignment",
            Method::DELETE,
            "/v1/teams/{team}/artifacts/{key}/assignment",
            true,
            COORDINATOR,
            "Ends the current assignment so another agent can be assigned.",
        ),
        read(
            "check_write",
            Method::POST,
            "/v1/teams/{team}/checks",
            "Ask before an agent writes files: `allowed` false with `denials` when an artifact covering them locks the agent out.",
        ),
        read("list_lockouts", Method::GET, "/v1/teams/{team}/lockouts", ""),
        read(
            "list_escalations",
            Method::GET,
            "/v1/teams/{team}/escalations",
            "Deadlocked artifacts waiting for the user, with each one's history.",
        ),
        write(
            "resolve_escalation",
            Method::POST,
            "/v1/teams/{team}/artifacts/{key}/resolution",
            true,
            USER,
            "A user token only: a coordinator must hand a deadlock to the user, not resolve it.",
        ),
        write(
            "lift_lockout",
            Method::POST,
            "/v1/teams/{team}/artifacts/{key}/lockouts/{agent}/lift",
            true,
            USER,
            "A user token only.",
        ),
        read(
            "list_events",
            Method::GET,
            "/v1/teams/{team}/events",
            "Pass `after` = the last page's `next_after`; `wait` (seconds, up to 60) long-polls until an event arrives.",
        ),
    ]
});

/// The tool names, fixed.
pub const TOOL_NAMES: [&str; 13] = [
    "get_artifact",
    "list_artifacts",
    "create_artifact",
    "submit_version",
    "review_version",
    "assign_reviser",
    "release_assignment",
    "check_write",
    "list_lockouts",
    "list_escalations",
    "resolve_escalation",
    "lift_lockout",
    "list_events",
];

pub fn find(name: &str) -> Option<&'static ToolSpec> {
    TOOLS.iter().find(|t| t.name == name)
}

/// The MCP tools, each with its input schema from the spec.
pub static LISTED: LazyLock<Vec<(&'static ToolSpec, Tool)>> = LazyLock::new(|| {
    let spec = serde_json::to_value(crate::http::openapi()).expect("the spec serializes");
    TOOLS.iter().map(|t| (t, tool(&spec, t))).collect()
});

/// Whether a token of `scope` may call `tool`.
pub fn allowed(tool: &ToolSpec, scope: Scope) -> bool {
    tool.scopes.iter().any(|needed| scope.allows(*needed))
}

/// The operation of `tool` in the spec.
pub fn operation<'a>(spec: &'a Value, tool: &ToolSpec) -> &'a Value {
    &spec["paths"][tool.path][tool.method.as_str().to_ascii_lowercase()]
}

fn tool(spec: &Value, t: &ToolSpec) -> Tool {
    let op = operation(spec, t);
    assert!(op.is_object(), "the tool {} names no operation of the spec", t.name);
    let said = |key: &str| op[key].as_str().unwrap_or_default().trim().to_owned();
    let description = [said("summary"), said("description"), t.advice.to_owned()]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n");
    let annotations = ToolAnnotations::new()
        .read_only(t.read_only)
        .destructive(t.destructive)
        .idempotent(t.idempotent)
        .open_world(false);
    Tool::new(t.name, description, Arc::new(input_schema(spec, t))).with_annotations(annotations)
}

/// The operation's path parameters (but `team`, the session's) and query parameters, the
/// properties of its JSON body, and for a write an optional `idempotency_key`.
fn input_schema(spec: &Value, t: &ToolSpec) -> JsonObject {
    let op = operation(spec, t);
    let mut properties = Map::new();
    let mut required = Vec::new();
    for p in op["parameters"].as_array().into_iter().flatten() {
        let (name, place) = (p["name"].as_str().unwrap_or_default(), p["in"].as_str().unwrap_or_default());
        if !matches!(place, "path" | "query") || (place == "path" && name == "team") {
            continue;
        }
        let mut schema = p["schema"].clone();
        if let (Some(d), Some(s)) = (p["description"].as_str(), schema.as_object_mut()) {
            s.insert("description".into(), d.into());
        }
        properties.insert(name.to_owned(), schema);
        if p["required"] == true {
            required.push(Value::from(name));
        }
    }
    if let Some(body) = op["requestBody"]["content"]["application/json"]["schema"].as_object() {
        let body = resolve(spec, &Value::Object(body.clone()));
        properties.extend(body["properties"].as_object().cloned().unwrap_or_default());
        required.extend(body["required"].as_array().cloned().unwrap_or_default());
    }
    if !t.read_only {
        properties.insert(
            "idempotency_key".into(),
            json!({"type": "string", "maxLength": 255, "description":
                "Optional: the same key with the same arguments within 24 hours replays the first answer \
                 instead of acting twice (use it when retrying after a timeout)."}),
        );
    }
    let mut schema = json!({"type": "object", "properties": properties, "required": required,
        "additionalProperties": false});
    let mut defs = Map::new();
    collect_defs(spec, &schema.clone(), &mut defs);
    if !defs.is_empty() {
        schema["$defs"] = Value::Object(defs);
    }
    rewrite_refs(&mut schema);
    match schema {
        Value::Object(o) => o,
        _ => unreachable!("built as an object"),
    }
}

const COMPONENTS: &str = "#/components/schemas/";

/// A `$ref` to a component, replaced by the component.
fn resolve(spec: &Value, schema: &Value) -> Value {
    match schema["$ref"].as_str().and_then(|r| r.strip_prefix(COMPONENTS)) {
        Some(name) => spec["components"]["schemas"][name].clone(),
        None => schema.clone(),
    }
}

/// Every component `schema` refers to, directly or not.
fn collect_defs(spec: &Value, schema: &Value, defs: &mut Map<String, Value>) {
    match schema {
        Value::Object(o) => {
            if let Some(name) = o.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(COMPONENTS))
                && !defs.contains_key(name)
            {
                let component = spec["components"]["schemas"][name].clone();
                defs.insert(name.to_owned(), component.clone());
                collect_defs(spec, &component, defs);
            }
            o.values().for_each(|v| collect_defs(spec, v, defs));
        }
        Value::Array(a) => a.iter().for_each(|v| collect_defs(spec, v, defs)),
        _ => {}
    }
}

fn rewrite_refs(schema: &mut Value) {
    match schema {
        Value::Object(o) => {
            if let Some(Value::String(r)) = o.get_mut("$ref")
                && let Some(name) = r.strip_prefix(COMPONENTS)
            {
                *r = format!("#/$defs/{name}");
            }
            o.values_mut().for_each(rewrite_refs);
        }
        Value::Array(a) => a.iter_mut().for_each(rewrite_refs),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_is_an_operation_of_the_spec_and_names_are_the_fixed_ones() {
        let names: Vec<&str> = LISTED.iter().map(|(t, _)| t.name).collect();
        assert_eq!(names, TOOL_NAMES);
    }

    #[test]
    fn a_tool_takes_the_rest_body_and_its_path_parameters() {
        let (_, review) = LISTED.iter().find(|(t, _)| t.name == "review_version").unwrap();
        let properties = review.input_schema["properties"].as_object().unwrap();
        for p in ["key", "n", "reviewer", "verdict", "reason", "remedy", "idempotency_key"] {
            assert!(properties.contains_key(p), "review_version takes {p}");
        }
        assert!(!properties.contains_key("team"), "the team is the session's");
        let required = &review.input_schema["required"];
        assert!(required.as_array().unwrap().contains(&json!("reviewer")));
        assert!(!serde_json::to_string(&review.input_schema).unwrap().contains("#/components/"));
    }
}
