//! HTTP: the routes (registered only through utoipa-axum, so the spec cannot drift), the
//! middleware, and the OpenAPI document.

pub mod admission;
pub mod agents;
pub mod artifacts;
pub mod assignment;
pub mod checks;
pub mod connections;
pub mod error;
pub mod escalations;
pub mod events;
pub mod extract;
pub mod health;
pub mod lockouts;
mod middleware;
pub mod paging;
pub mod preconditions;
pub mod teams;
pub mod tokens;
pub mod versions;

use axum::http::HeaderName;

use axum::response::IntoResponse;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use utoipa::openapi::Required;
use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{Content, OpenApi as Spec, Ref, RefOr, Response as SpecResponse, ResponseBuilder};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;
use utoipa_swagger_ui::SwaggerUi;

use crate::AppState;
use crate::domain::Code;
use crate::error::Error;
use crate::http::error::{InternalCause, Problem};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "reviewlock",
        description = "The reviewer rejection lockout protocol, as a service: when a version is rejected, \
                       everyone credited on it is locked out of the next one until a revision is approved."
    ),
    components(schemas(Problem))
)]
struct ApiDoc;

/// The routes with their spec.
fn routes() -> OpenApiRouter<AppState> {
    let mut router = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(health::routes())
        .merge(teams::routes())
        .merge(agents::routes())
        .merge(tokens::routes())
        .merge(artifacts::routes())
        .merge(versions::routes())
        .merge(assignment::routes())
        .merge(lockouts::routes())
        .merge(escalations::routes())
        .merge(checks::routes())
        .merge(events::routes());
    // After the merges: a modifier on `ApiDoc` would run before any path exists.
    CommonResponses.modify(router.get_openapi_mut());
    router
}

/// The OpenAPI document of every route.
pub fn openapi() -> Spec {
    routes().into_openapi()
}

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The whole service: routes, `/openapi.json`, `/docs`, and the middleware every request
/// passes through (request id, one log line, timeout, panics as 500, errors as problem+json);
/// a matched route's requests are then admitted (`admission`: token, then body).
pub fn app(state: AppState) -> axum::Router {
    // The process-wide metrics recorder, installed by the first app.
    crate::metrics::handle();
    let timeout = state.request_timeout;
    let (router, spec) = routes().split_for_parts();
    router
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), admission::admit))
        .merge(SwaggerUi::new("/docs").url("/openapi.json", spec))
        .fallback(|| async { Error::NotFound("no such route".into()) })
        .method_not_allowed_fallback(|| async {
            Error::refused(Code::MethodNotAllowed, "this route does not take this method")
        })
        .with_state(state)
        .layer(axum::middleware::from_fn_with_state(timeout, middleware::time_limit))
        .layer(CatchPanicLayer::custom(|_| {
            let mut response = Error::Internal(String::new()).into_response();
            response.extensions_mut().insert(InternalCause("handler panicked".into()));
            response
        }))
        .layer(axum::middleware::from_fn(middleware::problems))
        .layer(axum::middleware::from_fn(middleware::log))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
}

/// Documents the bearer scheme and the errors every `/v1` route may answer, so each handler
/// lists only its own outcomes.
struct CommonResponses;

impl Modify for CommonResponses {
    fn modify(&self, spec: &mut Spec) {
        let components = spec.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("rl_…").build(),
            ),
        );
        let problem = |description: &str| -> RefOr<SpecResponse> {
            RefOr::T(
                ResponseBuilder::new()
                    .description(description)
                    .content("application/problem+json", Content::new(Some(Ref::from_schema_name("Problem"))))
                    .build(),
            )
        };
        let common = [
            ("400", "`malformed_request`: the body is not JSON, or a path or query parameter cannot be read"),
            ("401", "`unauthenticated`: no valid bearer token"),
            ("403", "`forbidden`: the token's scope does not allow this"),
            ("404", "`not_found`: no such team or resource (another team's resources look the same)"),
            ("408", "`request_timeout`: the body did not arrive within the body read timeout"),
            ("413", "`payload_too_large`: the body is over 256 KiB"),
            ("422", "`invalid_field`: a field has the wrong type, is unknown, or fails validation"),
            (
                "429",
                "`rate_limited`: over this token's rate limit, or this address sent too many unknown \
                 tokens; retry after `Retry-After` seconds",
            ),
            ("500", "`internal`: an unexpected error; the cause is logged, never returned"),
            ("503", "`unavailable`: the database is unreachable or the request timed out"),
        ];
        let header = |name: &str, description: &str| {
            RefOr::T(
                ParameterBuilder::new()
                    .name(name)
                    .parameter_in(ParameterIn::Header)
                    .required(Required::False)
                    .description(Some(description))
                    .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
                    .build(),
            )
        };
        for (path, item) in spec.paths.paths.iter_mut() {
            if !path.starts_with("/v1/") {
                continue;
            }
            // Writes to one artifact take `If-Match` with the ETag of its status.
            let artifact_write = path.starts_with("/v1/teams/{team}/artifacts/{key}/");
            let reads = item.get.iter_mut().map(|op| (op, false));
            let writes =
                [&mut item.put, &mut item.post, &mut item.delete].into_iter().flatten().map(|op| (op, true));
            for (op, write) in reads.chain(writes) {
                op.security = Some(vec![SecurityRequirement::new("bearer", Vec::<String>::new())]);
                for (status, description) in common {
                    op.responses.responses.entry(status.into()).or_insert_with(|| problem(description));
                }
                if !write {
                    continue;
                }
                let parameters = op.parameters.get_or_insert_with(Vec::new);
                parameters.push(header(
                    "Idempotency-Key",
                    "Makes a retry safe: a repeat with the same key from the same token within 24 hours \
                     answers the first response again, with `Idempotency-Replayed: true`, and changes \
                     nothing; the same key with another request is 422 `idempotency_key_reused`. While \
                     the first request with a key is still running, a repeat is 409 \
                     `idempotency_key_in_flight` with `Retry-After`: retry it then for the first response.",
                ));
                if artifact_write {
                    parameters.push(header(
                        "If-Match",
                        "The artifact's ETag as last read: a write to an artifact that changed since is \
                         412 `precondition_failed`.",
                    ));
                    op.responses.responses.entry("412".into()).or_insert_with(|| {
                        problem("`precondition_failed`: `If-Match` does not match the artifact's ETag")
                    });
                }
            }
        }
    }
}
