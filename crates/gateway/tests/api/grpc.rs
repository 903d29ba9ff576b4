//! gRPC, gRPC-Web and REST on one port.

use http_body_util::Full;
use hyper::{Method, Request, StatusCode, body::Bytes};
use skit_gateway::RestConfig;
use skit_proto::v1::{
    GetViewRequest, WhoAmIRequest, account_service_client::AccountServiceClient,
    game_service_client::GameServiceClient,
};
use tonic::Code;

use crate::{
    fake::TOKEN,
    helpers::{spawn_for_browsers, spawn_with},
};

fn authorized<T>(message: T) -> tonic::Request<T> {
    skit_api::authed(message, TOKEN).unwrap()
}

#[tokio::test]
async fn grpc_and_rest_share_the_port() {
    let app = spawn_with(&RestConfig::default(), true).await;
    let mut accounts = AccountServiceClient::connect(app.url("")).await.unwrap();
    let mut games = GameServiceClient::connect(app.url("")).await.unwrap();

    let me = accounts
        .who_am_i(authorized(WhoAmIRequest {}))
        .await
        .unwrap();
    let refused = games
        .get_view(authorized(GetViewRequest {
            game_id: "err-9".into(),
            ..Default::default()
        }))
        .await
        .unwrap_err();
    let rest = app.call(Method::GET, "/v1/accounts/me", None).await;

    assert_eq!(me.into_inner().name, "Ada");
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(rest.status, StatusCode::OK);
    assert_eq!(rest.json()["name"], "Ada");
}

#[tokio::test]
async fn grpc_web_answers_over_http1_with_cors() {
    let app = spawn_for_browsers("https://cards.example").await;
    // An empty WhoAmIRequest in one uncompressed frame.
    let frame = Bytes::from_static(&[0, 0, 0, 0, 0]);
    let request = Request::builder()
        .method(Method::POST)
        .uri(app.url("/skitgubbe.v1.AccountService/WhoAmI"))
        .header("content-type", "application/grpc-web+proto")
        .header("x-grpc-web", "1")
        .header("origin", "https://cards.example")
        .header("authorization", skit_api::bearer_header(TOKEN).unwrap())
        .body(Full::new(frame))
        .unwrap();

    let answer = app.raw(request).await;

    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.headers["content-type"], "application/grpc-web+proto");
    assert_eq!(
        answer.headers["access-control-allow-origin"],
        "https://cards.example"
    );
    assert!(answer.text.contains("Ada"), "{:?}", answer.text);
    assert!(answer.text.contains("grpc-status:0"), "{:?}", answer.text);
}

#[tokio::test]
async fn cors_preflight_is_answered() {
    let app = spawn_for_browsers("https://cards.example").await;
    let request = Request::builder()
        .method(Method::OPTIONS)
        .uri(app.url("/skitgubbe.v1.GameService/SubmitMove"))
        .header("origin", "https://cards.example")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "content-type,x-grpc-web,authorization",
        )
        .body(Full::new(Bytes::new()))
        .unwrap();

    let answer = app.raw(request).await;

    assert!(answer.status.is_success(), "{}", answer.status);
    assert_eq!(
        answer.headers["access-control-allow-origin"],
        "https://cards.example"
    );
    let allowed = answer.headers["access-control-allow-headers"]
        .to_str()
        .unwrap();
    assert!(allowed.contains("x-grpc-web"), "{allowed}");
}

#[tokio::test]
async fn a_grpc_error_follows_the_accept_language_metadata() {
    let app = spawn_with(&RestConfig::default(), true).await;
    let mut games = GameServiceClient::connect(app.url("")).await.unwrap();
    let request = |language: Option<&str>| {
        let mut request = authorized(GetViewRequest {
            game_id: "err-stale".into(),
            ..Default::default()
        });
        if let Some(language) = language {
            request
                .metadata_mut()
                .insert("accept-language", language.parse().unwrap());
        }
        request
    };

    let english = games.get_view(request(None)).await.unwrap_err();
    let swedish = games.get_view(request(Some("sv-SE"))).await.unwrap_err();

    assert_eq!(swedish.code(), english.code());
    assert!(
        swedish.message().starts_with("Spelet har gått vidare"),
        "{}",
        swedish.message()
    );
    assert_ne!(english.message(), swedish.message());
    // The details carry the same ErrorInfo (its metadata is a map: the
    // encoded bytes may list the entries in another order).
    let info = |status: &tonic::Status| {
        let info = tonic_types::StatusExt::get_details_error_info(status).expect("an ErrorInfo");
        (info.reason, info.domain, info.metadata)
    };
    assert_eq!(info(&swedish), info(&english));
    assert_eq!(
        swedish.metadata().get("skit-error-code"),
        english.metadata().get("skit-error-code")
    );
}
