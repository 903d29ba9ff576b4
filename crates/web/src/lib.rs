//! The web client: plain HTML, CSS and JavaScript modules (no build step)
//! in `app/`, built into the binary that serves them. It uses only the
//! public REST/JSON and SSE API, as any other app would, so app
//! developers can read it as the reference (docs/web.md).
//!
//! [`router`] serves the page at `/`, its files, and `/config.json`, what
//! the page cannot learn from the API itself: where the matchmaker and the
//! league service are.
//! Every file carries a strong `ETag` and `Cache-Control: no-cache`, so a
//! browser revalidates (a `304` without a body) and never runs a stale
//! script after an upgrade; the page's own Content-Security-Policy allows
//! its scripts and styles from its origin and calls to the API, the
//! matchmaker and the league service only.
//!
//! ```
//! let page = skit_web::router(&skit_web::WebConfig::default());
//! # let _: axum::Router = page;
//! ```

mod assets;

use axum::{
    Router,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
    routing::get,
};
use sha2::{Digest, Sha256};

pub use assets::{ASSETS, Asset, INDEX};

/// What the page is told about its surroundings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WebConfig {
    /// The matchmaker's base URL as a browser reaches it, e.g.
    /// `http://127.0.0.1:50052`; its `SKIT_CORS_ORIGINS` must list the
    /// page's origin. `None`: the page offers tables and invitations only.
    pub matchmaker_url: Option<String>,
    /// The league service's base URL as a browser reaches it; its
    /// `SKIT_CORS_ORIGINS` must list the page's origin. `None`: no
    /// tournament pages.
    pub leagues_url: Option<String>,
}

/// A service URL that a page could not call; names the variable.
#[derive(Debug)]
pub struct BadMatchmakerUrl {
    pub variable: String,
    pub url: String,
}

impl std::fmt::Display for BadMatchmakerUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {:?} is not a URL a browser can call (expected http(s)://host[:port])",
            self.variable, self.url
        )
    }
}

impl std::error::Error for BadMatchmakerUrl {}

impl WebConfig {
    /// The configuration `variable` set: blank or unset is no matchmaker;
    /// anything but `http(s)://host[:port]` is refused at start-up.
    pub fn parse(variable: &str, matchmaker_url: Option<&str>) -> Result<Self, BadMatchmakerUrl> {
        Ok(Self {
            matchmaker_url: origin(variable, matchmaker_url)?,
            leagues_url: None,
        })
    }

    /// With the league service at `leagues_url` (as `variable` set it),
    /// checked as the matchmaker's is.
    pub fn with_leagues(
        self,
        variable: &str,
        leagues_url: Option<&str>,
    ) -> Result<Self, BadMatchmakerUrl> {
        Ok(Self {
            leagues_url: origin(variable, leagues_url)?,
            ..self
        })
    }
}

/// `url` if it is `http(s)://host[:port]` (a trailing `/` dropped); `None`
/// if blank or unset.
fn origin(variable: &str, url: Option<&str>) -> Result<Option<String>, BadMatchmakerUrl> {
    {
        let Some(url) = url.map(str::trim).filter(|u| !u.is_empty()) else {
            return Ok(None);
        };
        let bad = || BadMatchmakerUrl {
            variable: variable.to_owned(),
            url: url.to_owned(),
        };
        let uri: axum::http::Uri = url.parse().map_err(|_| bad())?;
        let fits = matches!(uri.scheme_str(), Some("http" | "https"))
            && uri.authority().is_some_and(|a| !a.as_str().contains('@'))
            && matches!(uri.path(), "" | "/")
            && uri.query().is_none()
            && HeaderValue::from_str(url).is_ok();
        if !fits {
            return Err(bad());
        }
        Ok(Some(url.trim_end_matches('/').to_owned()))
    }
}

/// One answer, prepared once: the bytes, their type and their tag.
#[derive(Debug, Clone)]
struct Prepared {
    body: &'static [u8],
    content_type: &'static str,
    etag: HeaderValue,
    policy: Option<HeaderValue>,
}

/// The page, its files and `/config.json`.
pub fn router(config: &WebConfig) -> Router {
    let policy = content_security_policy(config);
    let index = prepare(&INDEX, Some(policy));
    let mut router = Router::new().route("/", get(move |h: HeaderMap| answer(index.clone(), h)));
    for asset in ASSETS {
        let own = (asset.path == "/sw.js").then(|| HeaderValue::from_static(WORKER_POLICY));
        let prepared = prepare(asset, own);
        router = router.route(
            asset.path,
            get(move |h: HeaderMap| answer(prepared.clone(), h)),
        );
    }
    let body = serde_json::json!({
        "matchmakerUrl": config.matchmaker_url,
        "leaguesUrl": config.leagues_url,
    })
    .to_string();
    router.route(
        "/config.json",
        get(move || async move {
            (
                [
                    (header::CONTENT_TYPE, "application/json"),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                body,
            )
        }),
    )
}

/// The service worker's own policy (a worker obeys the one its script
/// came with, not the page's): it fetches the app shell from its origin
/// and nothing else.
const WORKER_POLICY: &str = "default-src 'none'; connect-src 'self'; frame-ancestors 'none'";

/// Scripts, styles, images, the manifest and the service worker from the
/// page's origin only; calls to the API (the same origin), the matchmaker
/// and the league service; no framing, no plugins.
fn content_security_policy(config: &WebConfig) -> HeaderValue {
    let matchmaker: String = [&config.matchmaker_url, &config.leagues_url]
        .into_iter()
        .flatten()
        .map(|url| format!(" {}", url.trim_end_matches('/')))
        .collect();
    let policy = format!(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
         manifest-src 'self'; worker-src 'self'; \
         connect-src 'self'{matchmaker}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    );
    HeaderValue::from_str(&policy).unwrap_or_else(|_| {
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
             manifest-src 'self'; worker-src 'self'; \
             connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        )
    })
}

fn prepare(asset: &Asset, policy: Option<HeaderValue>) -> Prepared {
    let digest = Sha256::digest(asset.body);
    let tag = format!("\"{}\"", hex::encode(&digest[..12]));
    Prepared {
        body: asset.body,
        content_type: asset.content_type(),
        etag: HeaderValue::from_str(&tag).unwrap_or(HeaderValue::from_static("\"\"")),
        policy,
    }
}

async fn answer(file: Prepared, request: HeaderMap) -> Response {
    let fresh = request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|tag| tag.trim() == file.etag || tag.trim() == "*");
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static(file.content_type),
            )],
            file.body,
        )
            .into_response()
    };
    let headers = response.headers_mut();
    headers.insert(header::ETAG, file.etag);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Some(policy) = file.policy {
        headers.insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    response
}

#[cfg(test)]
mod tests;
