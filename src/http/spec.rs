//! The OpenAPI document beyond what each route's `#[utoipa::path]` says: the document's header
//! (servers, license, tags), the bearer scheme, and for every operation the refusals it may
//! answer, each with its stable `code`, a realistic example and the headers that come with it.
//! What each operation may be refused with is listed here, in one table ([`REFUSALS`]); the
//! status, meaning and example of each code are `http::codes`.

use std::collections::BTreeMap;

use serde_json::json;
use utoipa::openapi::example::ExampleBuilder;
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::path::{Operation, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{Content, OpenApi as Spec, Ref, RefOr, Required, ResponseBuilder};
use utoipa::{Modify, OpenApi};

use crate::domain::Code;
use crate::http::codes::{example_detail, meaning, status};
use crate::http::error::Problem;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "reviewlock",
        description = "The reviewer rejection lockout protocol, as a service: when a version is rejected, \
                       everyone credited on it is locked out of the next one until a revision is approved.\n\n\
                       Every path under `/v1` takes `Authorization: Bearer <token>`. A refusal is an RFC 9457 \
                       `application/problem+json` document whose `code` is stable: branch on it, not on the \
                       status or the text. Writes take `Idempotency-Key` (a retry is answered the first \
                       response again), writes to an artifact take `If-Match`, and reads that carry an `ETag` \
                       answer `If-None-Match` with 304. A write to a team answers the seq of the event it \
                       committed in `Reviewlock-Seq` (R18).",
        license(name = "MIT OR Apache-2.0", identifier = "MIT OR Apache-2.0"),
        contact(name = "The reviewlock maintainers: issues on the repository this spec is committed in")
    ),
    servers((url = "http://127.0.0.1:8080", description = "a local `reviewlock serve` on its default address")),
    tags(
        (name = "teams", description = "Tenants: a team owns its agents, artifacts, tokens and policy (R11)."),
        (name = "agents", description = "The team's members: who may author, who may review, their expertise."),
        (name = "tokens", description = "Bearer tokens, team-wide or server-wide, with their scopes. A secret is shown once."),
        (name = "artifacts", description = "The unit of work and of lockout scope: create one, list them, read one's status."),
        (name = "versions", description = "An artifact's versions: who may write the next one is decided here (R5, R6)."),
        (name = "reviews", description = "Verdicts on a version; a rejection locks out everyone credited on it (R1–R4, R9)."),
        (name = "assignment", description = "After a rejection, the one agent allowed to write the revision, verified before it is spawned (R5)."),
        (name = "escalations", description = "Deadlocked artifacts waiting for the user, and the user's resolution (R9)."),
        (name = "lockouts", description = "Who may not write what until a revision is approved, and the user's early lift (R3, R8, R10)."),
        (name = "checks", description = "May this agent write this artifact or these files? For hooks before an agent is spawned or a file is written. May this commit land? For CI before a merge (R17)."),
        (name = "events", description = "Every change as an event (R12): pages, long polls and Server-Sent Events."),
        (name = "webhooks", description = "Events POSTed to your URL as signed Standard Webhooks, in order, at least once, retried (docs/webhooks.md)."),
        (name = "forges", description = "Each version's state as a commit status on its `ref` in GitHub or GitLab: a required check makes merging an unapproved commit impossible (docs/integrations.md)."),
        (name = "operations", description = "Liveness, readiness and metrics, without authentication."),
    ),
    components(schemas(Problem))
)]
pub struct ApiDoc;

/// What each operation (by `operationId`) may be refused with, beyond what every operation of
/// its kind may answer (see [`Contract`]).
const REFUSALS: &[(&str, &[Code])] = &[
    ("put_team", &[]),
    ("ref_check", &[]),
    ("put_agent", &[Code::AliasTaken]),
    ("create_artifact", &[Code::ArtifactExists, Code::InvalidAgent]),
    (
        "submit_version",
        &[
            Code::AgentLockedOut,
            Code::NotAssignee,
            Code::RejectingReviewerExcluded,
            Code::InvalidAgent,
            Code::Deadlocked,
            Code::InvalidState,
        ],
    ),
    (
        "review",
        &[
            Code::NotAReviewer,
            Code::SelfReview,
            Code::StaleVersion,
            Code::StaleRef,
            Code::VersionDecided,
            Code::DuplicateReview,
            Code::LockedOutAgentNamed,
            Code::InvalidAgent,
            Code::RejectingReviewerExcluded,
            Code::ExpertiseMismatch,
            Code::InvalidState,
            Code::IncompleteRejection,
        ],
    ),
    (
        "assign",
        &[
            Code::AgentLockedOut,
            Code::InvalidAgent,
            Code::ExpertiseMismatch,
            Code::RejectingReviewerExcluded,
            Code::Deadlocked,
            Code::InvalidState,
        ],
    ),
    ("release", &[Code::InvalidState]),
    ("test_webhook", &[Code::InvalidState]),
    ("retry_webhook_delivery", &[Code::InvalidState]),
    ("retry_forge_delivery", &[Code::InvalidState]),
    (
        "resolve",
        &[
            Code::InvalidState,
            Code::AgentLockedOut,
            Code::InvalidAgent,
            Code::ExpertiseMismatch,
            Code::RejectingReviewerExcluded,
        ],
    ),
];

/// What every operation may answer, `/v1` or not: each request's body is read whole, within
/// the body read timeout and the size limit, before its handler runs (`http::admission`).
const ANY: &[Code] = &[Code::RequestTimeout, Code::PayloadTooLarge];

/// What every `/v1` operation may answer besides.
const EVERY: &[Code] = &[
    Code::MalformedRequest,
    Code::Unauthenticated,
    Code::Forbidden,
    Code::NotFound,
    Code::InvalidField,
    Code::RateLimited,
    Code::Internal,
    Code::Unavailable,
];

/// Writes (by `operationId`) that append no event to a team's log, so answer no
/// `Reviewlock-Seq`: queries sent as POST, and server-wide token writes, which have no team.
const UNLOGGED: &[&str] = &[
    "check",
    "ref_check",
    "create_server_token",
    "revoke_server_token",
    "test_webhook",
    "retry_webhook_delivery",
    "retry_forge_delivery",
];

/// What every write may answer besides.
const WRITES: &[Code] = &[Code::Conflict, Code::IdempotencyKeyInFlight, Code::IdempotencyKeyReused];

/// A problem document as the service sends it for `code`.
fn example_problem(code: Code) -> serde_json::Value {
    let status = status(code);
    let mut problem = json!({
        "type": format!("urn:reviewlock:problem:{code}"),
        "title": status.canonical_reason().unwrap_or("Error"),
        "status": status.as_u16(),
        "detail": example_detail(code),
        "code": code,
        "request_id": "0b6c4e2a-8f1d-4c3b-9a7e-5d2f1e0c9b8a",
    });
    if code == Code::InvalidField {
        problem["errors"] =
            json!([{ "field": "remedy.agent", "message": "must match [a-z0-9][a-z0-9-]{0,62}" }]);
    }
    problem
}

/// Adds to the merged routes' document what [`ApiDoc`] and the routes' attributes do not say.
pub struct Contract;

impl Modify for Contract {
    fn modify(&self, spec: &mut Spec) {
        let components = spec.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("rl_…")
                    .description(Some("A token from `POST /v1/teams/{team}/tokens` (or a server-wide one)"))
                    .build(),
            ),
        );
        spec.security = Some(vec![SecurityRequirement::new("bearer", Vec::<String>::new())]);
        let refusals: BTreeMap<&str, &[Code]> = REFUSALS.iter().copied().collect();
        for (path, item) in spec.paths.paths.iter_mut() {
            let open = !path.starts_with("/v1/");
            // Writes to one artifact take `If-Match` with the ETag of its status.
            let artifact_write = path.starts_with("/v1/teams/{team}/artifacts/{key}/");
            let reads = [&mut item.get].into_iter().flatten().map(|op| (op, false));
            let writes = [&mut item.put, &mut item.post, &mut item.patch, &mut item.delete]
                .into_iter()
                .flatten()
                .map(|op| (op, true));
            for (op, write) in reads.chain(writes) {
                if open {
                    // Health checks and metrics answer without a token.
                    op.security = Some(Vec::new());
                    document_refusals(op, ANY);
                    continue;
                }
                op.security = Some(vec![SecurityRequirement::new("bearer", Vec::<String>::new())]);
                let own =
                    op.operation_id.as_deref().and_then(|id| refusals.get(id)).copied().unwrap_or_default();
                let mut codes: Vec<Code> = [ANY, EVERY].concat();
                if write {
                    codes.extend(WRITES);
                    if op.request_body.is_some() {
                        codes.push(Code::UnsupportedMediaType);
                    }
                    if artifact_write {
                        codes.push(Code::PreconditionFailed);
                    }
                }
                codes.extend(own);
                document_refusals(op, &codes);
                conditional_read(op);
                if write {
                    let logged = !op.operation_id.as_deref().is_some_and(|id| UNLOGGED.contains(&id));
                    write_headers(op, artifact_write, logged);
                }
            }
        }
    }
}

/// One problem response per status the codes answer with, listing the codes with an example
/// of each (the routes' attributes document their successes only).
fn document_refusals(op: &mut Operation, codes: &[Code]) {
    let mut by_status: BTreeMap<u16, Vec<Code>> = BTreeMap::new();
    for &code in codes {
        let list = by_status.entry(status(code).as_u16()).or_default();
        if !list.contains(&code) {
            list.push(code);
        }
    }
    for (status, codes) in by_status {
        let lines: Vec<String> = codes.iter().map(|c| format!("- `{c}`: {}", meaning(*c))).collect();
        let description =
            format!("A refusal, as `application/problem+json`; `code` is one of:\n\n{}", lines.join("\n"));
        let mut content = Content::new(Some(Ref::from_schema_name("Problem")));
        for &code in &codes {
            let example =
                ExampleBuilder::new().summary(meaning(code)).value(Some(example_problem(code))).build();
            content.examples.insert(code.to_string(), RefOr::T(example));
        }
        let mut response =
            ResponseBuilder::new().description(description).content("application/problem+json", content);
        if codes
            .iter()
            .any(|c| matches!(c, Code::RateLimited | Code::Unavailable | Code::IdempotencyKeyInFlight))
        {
            let which = match status {
                409 => "With `idempotency_key_in_flight`: seconds to wait before retrying.",
                _ => "Seconds to wait before retrying.",
            };
            response = response.header("Retry-After", integer_header(which));
        }
        if status == 401 {
            response = response.header("WWW-Authenticate", string_header("`Bearer`"));
        }
        op.responses.responses.insert(status.to_string(), RefOr::T(response.build()));
    }
}

/// A read that answers 304 takes `If-None-Match`, and its 304 carries the ETag.
fn conditional_read(op: &mut Operation) {
    let Some(RefOr::T(not_modified)) = op.responses.responses.get_mut("304") else {
        return;
    };
    not_modified
        .headers
        .insert("ETag".into(), RefOr::T(string_header("The ETag the client holds, still current.")));
    op.parameters.get_or_insert_with(Vec::new).push(header_parameter(
        "If-None-Match",
        "The `ETag` of the last answer: 304 Not Modified, with no body, while it is still current.",
        "\"3.7\"",
    ));
}

/// `Idempotency-Key` and, for writes to an artifact, `If-Match`; `Idempotency-Replayed` on
/// every success, and `Reviewlock-Seq` on the successes of a write that logs an event.
fn write_headers(op: &mut Operation, artifact_write: bool, logged: bool) {
    let parameters = op.parameters.get_or_insert_with(Vec::new);
    parameters.push(header_parameter(
        "Idempotency-Key",
        "Makes a retry safe: a repeat with the same key from the same token within 24 hours \
         answers the first response again, with `Idempotency-Replayed: true`, and changes \
         nothing; the same key with another request is 422 `idempotency_key_reused`. While \
         the first request with a key is still running, a repeat is 409 \
         `idempotency_key_in_flight` with `Retry-After`: retry it then for the first response.",
        "5f7d0c1e-review-auth-v1",
    ));
    if artifact_write {
        parameters.push(header_parameter(
            "If-Match",
            "The artifact's ETag as last read: a write to an artifact that changed since is \
             412 `precondition_failed`.",
            "\"3.7\"",
        ));
    }
    for (status, response) in op.responses.responses.iter_mut() {
        if let (true, RefOr::T(response)) = (status.starts_with('2'), response) {
            response.headers.insert(
                "Idempotency-Replayed".into(),
                RefOr::T(
                    HeaderBuilder::new()
                        .schema(Some(
                            ObjectBuilder::new().schema_type(Type::String).enum_values(Some(["true"])),
                        ))
                        .description(Some(
                            "`true` when this is the stored answer to an earlier request with the same \
                         `Idempotency-Key` (nothing was changed now); absent otherwise.",
                        ))
                        .build(),
                ),
            );
            if logged {
                response.headers.insert(
                    "Reviewlock-Seq".into(),
                    RefOr::T(integer_header(
                        "The team's event seq this write committed (R18): a later read or event poll at \
                         or past it sees the write. A replay answers the first response's seq. \
                         Server-wide token writes (`/v1/tokens`) log no team event and answer none.",
                    )),
                );
            }
        }
    }
}

fn header_parameter(name: &str, description: &str, example: &str) -> RefOr<utoipa::openapi::path::Parameter> {
    RefOr::T(
        ParameterBuilder::new()
            .name(name)
            .parameter_in(ParameterIn::Header)
            .required(Required::False)
            .description(Some(description))
            .schema(Some(ObjectBuilder::new().schema_type(Type::String).min_length(Some(1))))
            .example(Some(json!(example)))
            .build(),
    )
}

fn string_header(description: &str) -> utoipa::openapi::header::Header {
    HeaderBuilder::new()
        .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
        .description(Some(description))
        .build()
}

fn integer_header(description: &str) -> utoipa::openapi::header::Header {
    HeaderBuilder::new()
        .schema(Some(ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0))))
        .description(Some(description))
        .build()
}
