//! What browsers are told: CORS for the configured origins only, and the
//! security headers on every answer, errors included.

use http_body_util::Full;
use hyper::{Method, Request, StatusCode, body::Bytes, header::HeaderMap};
use skit_gateway::RestConfig;

use crate::helpers::{Answer, TestApp, spawn_for_browsers, spawn_with};

const ALLOWED: &str = "https://cards.example, http://localhost:5173";

async fn preflight(app: &TestApp, origin: &str) -> Answer {
    let request = Request::builder()
        .method(Method::OPTIONS)
        .uri(app.url("/v1/guests"))
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .body(Full::new(Bytes::new()))
        .unwrap();
    app.raw(request).await
}

async fn from(app: &TestApp, origin: &str) -> Answer {
    app.send(Method::GET, "/v1/accounts/me", None, &[("origin", origin)])
        .await
}

fn assert_secure(headers: &HeaderMap) {
    for (name, value) in [
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"),
        ("x-frame-options", "DENY"),
        (
            "content-security-policy",
            "default-src 'none'; frame-ancestors 'none'",
        ),
        ("cache-control", "no-store"),
    ] {
        assert_eq!(
            headers.get(name).map(|v| v.to_str().unwrap()),
            Some(value),
            "{name}: {headers:?}"
        );
    }
    assert!(
        !headers.contains_key("strict-transport-security"),
        "{headers:?}"
    );
}

#[tokio::test]
async fn an_allowed_origin_is_echoed_on_preflight_and_answer() {
    let app = spawn_for_browsers(ALLOWED).await;

    for origin in ["https://cards.example", "http://localhost:5173"] {
        let pre = preflight(&app, origin).await;
        let answer = from(&app, origin).await;

        assert!(pre.status.is_success(), "{}", pre.status);
        assert_eq!(pre.headers["access-control-allow-origin"], origin);
        assert_eq!(answer.headers["access-control-allow-origin"], origin);
        // Caches keep one answer per origin.
        let vary: Vec<&str> = answer
            .headers
            .get_all("vary")
            .iter()
            .map(|v| v.to_str().unwrap())
            .collect();
        assert!(vary.iter().any(|v| v.contains("origin")), "{vary:?}");
    }
}

#[tokio::test]
async fn another_origin_gets_no_cors_headers() {
    let app = spawn_for_browsers(ALLOWED).await;

    for origin in ["https://evil.example", "https://cards.example:8443", "null"] {
        let pre = preflight(&app, origin).await;
        let answer = from(&app, origin).await;

        assert!(
            !pre.headers.contains_key("access-control-allow-origin"),
            "{origin}: {:?}",
            pre.headers
        );
        assert!(
            !answer.headers.contains_key("access-control-allow-origin"),
            "{origin}: {:?}",
            answer.headers
        );
    }
}

#[tokio::test]
async fn unconfigured_no_other_origin_is_allowed() {
    let app = spawn_with(&RestConfig::default(), true).await;

    let pre = preflight(&app, "https://cards.example").await;
    let answer = from(&app, "https://cards.example").await;
    let plain = app.call(Method::GET, "/v1/accounts/me", None).await;

    assert!(
        !pre.headers.contains_key("access-control-allow-origin"),
        "{:?}",
        pre.headers
    );
    assert!(
        !answer.headers.contains_key("access-control-allow-origin"),
        "{:?}",
        answer.headers
    );
    // A client that sends no Origin (a server, a same-origin page's GET) is served.
    assert_eq!(plain.status, StatusCode::OK);
    assert_eq!(plain.json()["name"], "Ada");
}

#[tokio::test]
async fn answers_and_errors_carry_the_security_headers() {
    let app = spawn_with(&RestConfig::default(), true).await;

    let ok = app.call(Method::GET, "/v1/accounts/me", None).await;
    let unauthenticated = app.send(Method::GET, "/v1/accounts/me", None, &[]).await;
    let unknown = app.call(Method::GET, "/v1/nowhere", None).await;

    assert_eq!(ok.status, StatusCode::OK);
    assert_eq!(unauthenticated.status, StatusCode::UNAUTHORIZED);
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    for answer in [&ok, &unauthenticated, &unknown] {
        assert_secure(&answer.headers);
    }
}

#[tokio::test]
async fn grpc_web_answers_carry_the_security_headers() {
    let app = spawn_with(&RestConfig::default(), true).await;
    // An empty WhoAmIRequest in one uncompressed frame, with no token.
    let request = Request::builder()
        .method(Method::POST)
        .uri(app.url("/skitgubbe.v1.AccountService/WhoAmI"))
        .header("content-type", "application/grpc-web+proto")
        .header("x-grpc-web", "1")
        .body(Full::new(Bytes::from_static(&[0, 0, 0, 0, 0])))
        .unwrap();

    let answer = app.raw(request).await;

    assert_eq!(answer.status, StatusCode::OK);
    assert_secure(&answer.headers);
}
