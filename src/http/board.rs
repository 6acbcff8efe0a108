//! The board: a page for people at `/ui/` (see docs/board.md). Its HTML, style and script
//! modules (`src/ui/`) are compiled into the binary, so it works offline and loads nothing
//! from another host; the page calls the `/v1` API with the bearer token the person typed in.
//!
//! The routes are open, as `/docs` is: the page holds no data, and every call it makes is
//! authenticated by the API. They are not in the OpenAPI spec: they are not part of the API.

use std::sync::LazyLock;

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use sha2::{Digest, Sha256};

use crate::error::Error;

/// Scripts, styles and connections from this origin only; no inline script or style, no
/// plugin, no frame around the page, no `<base>`, no form posted anywhere.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     connect-src 'self'; img-src 'self' data:; font-src 'self'; manifest-src 'self'; frame-ancestors 'none'; \
     base-uri 'none'; form-action 'none'";

/// A file of the page: its name under `/ui/`, its media type and its bytes.
struct Asset {
    name: &'static str,
    media_type: &'static str,
    body: &'static str,
}

const JS: &str = "text/javascript; charset=utf-8";

/// Every file the page is made of, compiled in.
const ASSETS: &[Asset] = &[
    Asset {
        name: "index.html",
        media_type: "text/html; charset=utf-8",
        body: include_str!("../ui/index.html"),
    },
    Asset { name: "board.css", media_type: "text/css; charset=utf-8", body: include_str!("../ui/board.css") },
    Asset { name: "app.js", media_type: JS, body: include_str!("../ui/app.js") },
    Asset { name: "api.js", media_type: JS, body: include_str!("../ui/api.js") },
    Asset { name: "live.js", media_type: JS, body: include_str!("../ui/live.js") },
    Asset { name: "dom.js", media_type: JS, body: include_str!("../ui/dom.js") },
    Asset { name: "views.js", media_type: JS, body: include_str!("../ui/views.js") },
    Asset { name: "timeline.js", media_type: JS, body: include_str!("../ui/timeline.js") },
];

/// Each asset's strong ETag: a hash of its bytes, so a new build is fetched at once.
static ETAGS: LazyLock<Vec<HeaderValue>> = LazyLock::new(|| {
    ASSETS
        .iter()
        .map(|a| {
            let digest = Sha256::digest(a.body.as_bytes());
            HeaderValue::from_str(&format!("\"{}\"", hex::encode(&digest[..12])))
                .expect("hex is a header value")
        })
        .collect()
});

/// `/ui` (to `/ui/`, so the page's relative URLs resolve under it), `/ui/` and its files.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        // Relative, so a proxy serving the service under a path prefix keeps it.
        .route("/ui", get(|| async { Redirect::permanent("ui/") }))
        .route("/ui/", get(|headers: HeaderMap| async move { serve("index.html", &headers) }))
        .route(
            "/ui/{file}",
            get(|Path(file): Path<String>, headers: HeaderMap| async move { serve(&file, &headers) }),
        )
}

fn serve(name: &str, headers: &HeaderMap) -> Response {
    let Some(index) = ASSETS.iter().position(|a| a.name == name) else {
        return Error::NotFound(format!("the board has no file '{name}'")).into_response();
    };
    let (asset, etag) = (&ASSETS[index], &ETAGS[index]);
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|tag| tag.trim() == etag.to_str().unwrap_or_default()));
    let common = [
        (header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY)),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        // The token travels in the fragment, never sent; still, no page URL leaves for another site.
        (header::REFERRER_POLICY, HeaderValue::from_static("no-referrer")),
        (HeaderName::from_static("cross-origin-opener-policy"), HeaderValue::from_static("same-origin")),
        // Revalidated on every load: cheap (304), and a new build shows at once.
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::ETAG, etag.clone()),
    ];
    if fresh {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    (common, [(header::CONTENT_TYPE, HeaderValue::from_static(asset.media_type))], asset.body).into_response()
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;

    use super::*;

    async fn get(path: &str, if_none_match: Option<&str>) -> Response {
        let mut request = Request::get(path);
        if let Some(tag) = if_none_match {
            request = request.header(header::IF_NONE_MATCH, tag);
        }
        routes::<()>().oneshot(request.body(Body::empty()).unwrap()).await.unwrap()
    }

    /// The page and each module, with its media type and the policy; `/ui` to `/ui/`; an
    /// unknown file 404; a known ETag 304.
    #[tokio::test]
    async fn the_page_is_served_with_its_policy() {
        let page = get("/ui/", None).await;
        assert_eq!(page.status(), StatusCode::OK);
        assert_eq!(page.headers()[header::CONTENT_TYPE], "text/html; charset=utf-8");
        assert_eq!(page.headers()[header::CONTENT_SECURITY_POLICY], CONTENT_SECURITY_POLICY);
        assert_eq!(page.headers()[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        let module = get("/ui/app.js", None).await;
        assert_eq!(module.status(), StatusCode::OK);
        assert_eq!(module.headers()[header::CONTENT_TYPE], JS);
        assert_eq!(
            get("/ui/board.css", None).await.headers()[header::CONTENT_TYPE],
            "text/css; charset=utf-8"
        );

        let redirect = get("/ui", None).await;
        assert_eq!(redirect.status(), StatusCode::PERMANENT_REDIRECT);
        assert_eq!(redirect.headers()[header::LOCATION], "ui/");

        let missing = get("/ui/secrets.js", None).await;
        assert_eq!(missing.status(), StatusCode::NOT_FOUND);
        assert_eq!(missing.headers()[header::CONTENT_TYPE], "application/problem+json");

        let etag = module.headers()[header::ETAG].to_str().unwrap().to_owned();
        let again = get("/ui/app.js", Some(&etag)).await;
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(again.headers()[header::CONTENT_SECURITY_POLICY], CONTENT_SECURITY_POLICY);
        assert_eq!(get("/ui/app.js", Some("\"other\"")).await.status(), StatusCode::OK);
    }

    /// Every module the page imports, and every file the HTML names, is served: a file added
    /// to `src/ui/` and not listed here would be a 404 in the browser.
    #[test]
    fn every_file_the_page_names_is_served() {
        let served: Vec<&str> = ASSETS.iter().map(|a| a.name).collect();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let mut listed: Vec<String> = served.iter().map(|s| s.to_string()).collect();
        listed.sort();
        assert_eq!(listed, on_disk, "src/ui/ and ASSETS list the same files");
        for asset in ASSETS {
            for quoted in asset.body.split(['"', '\'']).filter(|s| s.starts_with("./") || s.ends_with(".css"))
            {
                let name = quoted.trim_start_matches("./");
                assert!(served.contains(&name), "{} names {quoted}, which is not served", asset.name);
            }
        }
    }

    /// No script or style inline, and nothing from another host: the policy would block it.
    #[test]
    fn the_page_holds_nothing_the_policy_refuses() {
        for asset in ASSETS {
            assert!(
                !asset.body.contains("http://") && !asset.body.contains("https://"),
                "{} names a host",
                asset.name
            );
        }
        let html = ASSETS[0].body;
        assert!(!html.contains("<style") && !html.contains(" style="), "inline style");
        for script in html.split("<script").skip(1) {
            assert!(script.split('>').next().unwrap().contains("src="), "inline script");
        }
        let handler = html.split(" on").skip(1).any(|rest| {
            let name: String = rest.chars().take_while(char::is_ascii_lowercase).collect();
            !name.is_empty() && rest[name.len()..].starts_with('=')
        });
        assert!(!handler, "no inline event handler attribute");
    }
}
