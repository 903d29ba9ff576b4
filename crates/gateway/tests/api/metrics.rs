//! `/metrics` in the Prometheus text format.

use hyper::{Method, StatusCode};

use crate::helpers::spawn_app;

#[tokio::test]
async fn requests_are_counted_by_route_and_status() {
    let app = spawn_app().await;
    app.call(Method::GET, "/v1/accounts/me", None).await;
    app.call(Method::GET, "/v1/games/err-5/history", None).await;

    let answer = app.send(Method::GET, "/metrics", None, &[]).await;

    assert_eq!(answer.status, StatusCode::OK);
    let text = answer.text;
    let counted = |route: &str, status: &str| {
        text.lines().any(|l| {
            l.starts_with("http_requests_total{")
                && l.contains(&format!("route=\"{route}\""))
                && l.contains(&format!("status=\"{status}\""))
        })
    };
    assert!(counted("/v1/accounts/me", "200"), "{text}");
    assert!(counted("/v1/games/{game_id}/history", "404"), "{text}");
    assert!(
        text.contains("http_request_duration_seconds_bucket{"),
        "{text}"
    );
}
