//! A REST refusal as a tool result the model can act on: `isError`, the problem as structured
//! content, and text that starts with the stable `code` and says what to do next, from the
//! artifact's status at hand where the next step depends on it.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

use crate::domain::Code;

/// What the refusal's text says after its code and detail. `artifact` is the artifact's status
/// (REST `GET …/artifacts/{key}`) when the call named one and it could be read.
pub fn next_step(code: Code, artifact: Option<&Value>) -> String {
    let eligible = || match artifact.map(|a| &a["eligible_agents"]) {
        Some(Value::Array(agents)) if !agents.is_empty() => {
            let names: Vec<&str> = agents.iter().filter_map(Value::as_str).collect();
            format!("eligible_agents: {names:?}")
        }
        Some(_) => "eligible_agents: [] (nobody may revise it: the user must decide)".to_owned(),
        None => "get_artifact lists eligible_agents".to_owned(),
    };
    let escalation = || artifact.and_then(|a| a["escalation"]["id"].as_i64());
    match code {
        Code::AgentLockedOut
        | Code::RejectingReviewerExcluded
        | Code::ExpertiseMismatch
        | Code::InvalidAgent
        | Code::NotAnAuthor => {
            format!("choose one of {} and call assign_reviser with it; do not spawn the refused agent", eligible())
        }
        Code::Deadlocked => match escalation() {
            Some(id) => format!(
                "the user must resolve escalation {id} (resolve_escalation with a user token: assign an agent who \
                 is not locked out, or abandon); stop assigning and tell the user"
            ),
            None => "the user must resolve the artifact's escalation (list_escalations shows it); stop assigning \
                     and tell the user"
                .to_owned(),
        },
        Code::NotAssignee => format!(
            "assign a reviser first with assign_reviser (one of {}); only the assigned reviser may submit the revision",
            eligible()
        ),
        Code::LockedOutAgentNamed => format!("name an agent who is not locked out ({})", eligible()),
        Code::InvalidState => "get_artifact shows the artifact's state; act as that state allows (a rejection is \
                               followed by assign_reviser, then submit_version by the assignee)"
            .to_owned(),
        Code::StaleVersion | Code::VersionDecided | Code::DuplicateReview | Code::StaleRef => {
            "get_artifact shows current_version: review that one, once per reviewer".to_owned()
        }
        Code::NotAReviewer | Code::SelfReview => {
            "have an active reviewer who is not credited on the version review it".to_owned()
        }
        Code::IncompleteRejection => {
            "a rejection needs `reason` and `remedy` ({\"action\": \"reassign\"} or another remedy); call again with both"
                .to_owned()
        }
        Code::InvalidField | Code::MalformedRequest | Code::UnsupportedMediaType | Code::PayloadTooLarge => {
            "correct the arguments named above and call again".to_owned()
        }
        Code::NotFound => "check the name: list_artifacts lists the team's artifacts".to_owned(),
        Code::UnknownWriter => "name the writing agent: give each subagent a roster alias (PUT …/agents/{agent} \
                                `aliases`), or set REVIEWLOCK_AGENT"
            .to_owned(),
        Code::AliasTaken => "choose a name no other agent of the team has, or take it from that agent first"
            .to_owned(),
        Code::ArtifactExists => "the key is taken: get_artifact reads it, or choose another key".to_owned(),
        Code::Forbidden => "this token's scope does not allow it: a coordinator token assigns, a user token resolves \
                            escalations and lifts lockouts, an agent token acts only as its agent; ask the user"
            .to_owned(),
        Code::Unauthenticated => "the token is unknown or revoked: ask the user for a valid one".to_owned(),
        Code::IdempotencyKeyReused => "use a new idempotency_key for a different request".to_owned(),
        Code::Conflict
        | Code::IdempotencyKeyInFlight
        | Code::RateLimited
        | Code::Unavailable
        | Code::RequestTimeout => "wait a few seconds and call again with the same idempotency_key".to_owned(),
        Code::PreconditionFailed => "read the artifact again with get_artifact, then decide again".to_owned(),
        Code::MethodNotAllowed | Code::Internal => UNKNOWN.to_owned(),
    }
}

/// The next step of a refusal nothing more is known of.
const UNKNOWN: &str = "tell the user, quoting the request_id";

/// Refusals whose next step depends on the artifact's status (its eligible agents, its escalation).
pub fn needs_status(code: Code) -> bool {
    matches!(
        code,
        Code::AgentLockedOut
            | Code::RejectingReviewerExcluded
            | Code::ExpertiseMismatch
            | Code::InvalidAgent
            | Code::NotAnAuthor
            | Code::Deadlocked
            | Code::NotAssignee
            | Code::LockedOutAgentNamed
    )
}

/// The tool result of a refusal: `problem` is the REST problem document.
pub fn result(problem: &Value, artifact: Option<&Value>) -> CallToolResult {
    let code = problem["code"].as_str().unwrap_or("internal");
    // A server of another version may answer a code this one does not know.
    let next = Code::parse(code).map_or_else(|| UNKNOWN.to_owned(), |code| next_step(code, artifact));
    let detail = problem["detail"].as_str().unwrap_or("the server gave no detail");
    let fields: String = problem["errors"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            format!(" {}: {}.", e["field"].as_str().unwrap_or("?"), e["message"].as_str().unwrap_or("?"))
        })
        .collect();
    let text = format!("{code}: {detail}.{fields} Next: {next}.");
    let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
    result.structured_content = Some(problem.clone());
    result
}

/// The tool result when no answer came (the server is down or unreachable).
pub fn unanswered(why: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!(
        "unavailable: {why}. Next: wait a few seconds and call again with the same idempotency_key; if it persists, \
         tell the user that reviewlock is unreachable, and do not act without it."
    ))])
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_refusal_starts_with_its_code_and_names_the_next_step_from_the_data() {
        let artifact = json!({"eligible_agents": ["revision-eng"], "escalation": null});
        let text = next_step(Code::AgentLockedOut, Some(&artifact));
        assert_eq!(
            text,
            "choose one of eligible_agents: [\"revision-eng\"] and call assign_reviser with it; do not spawn the refused agent"
        );
        let deadlocked = json!({"eligible_agents": [], "escalation": {"id": 7}});
        assert!(
            next_step(Code::Deadlocked, Some(&deadlocked)).starts_with("the user must resolve escalation 7")
        );
        assert!(next_step(Code::NotAssignee, None).starts_with("assign a reviser first"));
    }
}
