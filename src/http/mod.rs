//! HTTP: the routes (registered only through utoipa-axum, so the spec cannot drift), the
//! middleware, and the OpenAPI document.

pub mod admission;
pub mod agents;
pub mod artifacts;
pub mod assignment;
pub mod board;
pub mod checks;
pub mod codes;
pub mod connections;
pub mod error;
pub mod escalations;
pub mod events;
pub mod extract;
pub mod forges;
pub mod health;
pub mod lockouts;
mod middleware;
pub mod paging;
pub mod preconditions;
pub mod ref_checks;
mod socket;
pub mod spec;
pub mod state;
pub mod teams;
pub mod tokens;
pub mod versions;
pub mod webhooks;

use axum::http::HeaderName;

use axum::response::IntoResponse;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use utoipa::openapi::OpenApi as Spec;
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;
use utoipa_swagger_ui::SwaggerUi;

use crate::domain::Code;
use crate::error::Error;
use crate::http::error::InternalCause;
use crate::http::state::AppState;

/// The routes with their spec.
fn routes() -> OpenApiRouter<AppState> {
    let mut router = OpenApiRouter::with_openapi(spec::ApiDoc::openapi())
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
        .merge(ref_checks::routes())
        .merge(events::routes())
        .merge(webhooks::routes())
        .merge(forges::routes());
    // After the merges: a modifier on `ApiDoc` would run before any path exists.
    spec::Contract.modify(router.get_openapi_mut());
    router
}

/// The OpenAPI document of every route.
pub fn openapi() -> Spec {
    routes().into_openapi()
}

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The whole service: routes, `/openapi.json`, `/docs`, the board at `/ui/`, and the middleware every request
/// passes through (request id, one log line, timeout, panics as 500, errors as problem+json);
/// a matched route's requests are then admitted (`admission`: token, then body). `beside`
/// builds routes served beside the REST API (MCP's `/mcp`, at least one route) from the REST
/// routes, which they may call in-process; they are admitted as `/v1` is, and are not in the
/// OpenAPI spec.
pub fn app(state: AppState, beside: impl FnOnce(axum::Router) -> axum::Router<AppState>) -> axum::Router {
    // The process-wide metrics recorder, installed by the first app.
    crate::metrics::handle();
    let timeout = state.request_timeout;
    let (router, spec) = routes().split_for_parts();
    let admit = axum::middleware::from_fn_with_state(state.clone(), admission::admit);
    let committed = axum::middleware::from_fn_with_state(state.index.clone(), middleware::committed);
    let rest = router.route_layer(admit.clone()).route_layer(committed);
    let beside = beside(rest.clone().with_state(state.clone())).route_layer(admit);
    rest.merge(beside)
        .merge(SwaggerUi::new("/docs").url("/openapi.json", spec))
        .merge(board::routes())
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
