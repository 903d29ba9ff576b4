//! Rate limits and stream caps as clients see them, over REST and gRPC
//! on one port.

use hyper::{Method, StatusCode};
use skit_gateway::LimitsConfig;
use skit_proto::v1::{
    CreateGuestRequest, WatchGameRequest, account_service_client::AccountServiceClient,
    game_service_client::GameServiceClient,
};
use tonic::Code;
use tonic_types::StatusExt;

use crate::{
    fake::TOKEN,
    helpers::{Answer, TestApp, spawn_limited},
};

async fn sign_up(app: &TestApp) -> Answer {
    app.send(Method::POST, "/v1/accounts/guest", Some("{}"), &[])
        .await
}

#[tokio::test]
async fn a_flood_of_sign_ups_is_refused_while_a_signed_in_client_is_served() {
    let app = spawn_limited(&LimitsConfig::default()).await;

    let mut created = 0;
    let mut refused = Vec::new();
    let mut served = 0;
    for _ in 0..120 {
        let answer = sign_up(&app).await;
        match answer.status {
            status if status.is_success() => created += 1,
            _ => refused.push(answer),
        }
        let me = app.call(Method::GET, "/v1/accounts/me", None).await;
        served += usize::from(me.status == StatusCode::OK);
    }

    // The default allows a burst of 30 and one more every two seconds.
    assert!((30..60).contains(&created), "{created} sign-ups accepted");
    assert_eq!(served, 120, "the signed-in client was refused");
    let first = &refused[0];
    assert_eq!(
        first.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        first.text
    );
    let retry_after: u64 = first.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=2).contains(&retry_after), "{retry_after}");
    let body = first.json();
    assert_eq!(body["code"], "RESOURCE_EXHAUSTED");
    assert_eq!(body["reason"], "rate_limited");
    assert_eq!(body["metadata"]["class"], "signup");
    let millis: u64 = body["metadata"]["retry_after_ms"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=2000).contains(&millis), "{millis}");
    assert!(body["retryDelay"].is_string(), "{body}");
}

#[tokio::test]
async fn grpc_shares_the_limit_and_is_told_when_to_retry() {
    let limits = LimitsConfig {
        limit_signup: "0.001:3".into(),
        ..LimitsConfig::default()
    };
    let app = spawn_limited(&limits).await;
    let mut accounts = AccountServiceClient::connect(app.url("")).await.unwrap();

    let mut answers = Vec::new();
    for _ in 0..2 {
        answers.push(sign_up(&app).await.status);
    }
    let third = accounts.create_guest(CreateGuestRequest::default()).await;
    let fourth = accounts
        .create_guest(CreateGuestRequest::default())
        .await
        .unwrap_err();
    let rest = sign_up(&app).await;

    assert!(answers.iter().all(StatusCode::is_success), "{answers:?}");
    assert!(third.is_ok(), "{third:?}");
    assert_eq!(fourth.code(), Code::ResourceExhausted, "{fourth:?}");
    let info = fourth.get_details_error_info().expect("an ErrorInfo");
    assert_eq!(info.reason, "rate_limited");
    assert_eq!(info.metadata["class"], "signup");
    let retry = fourth.get_details_retry_info().expect("a RetryInfo");
    assert!(retry.retry_delay.is_some_and(|d| !d.is_zero()));
    assert_eq!(rest.status, StatusCode::TOO_MANY_REQUESTS);
    let calls = app.fake.calls("CreateGuest");
    assert_eq!(calls, 3, "a refused sign-up reached the service");
}

#[tokio::test]
async fn behind_a_trusted_proxy_network_each_forwarded_client_has_its_own_limit() {
    // The test's own connections come from 127.0.0.1, inside the network.
    let limits = LimitsConfig {
        limit_signup: "0.001:1".into(),
        trusted_proxies: "127.0.0.0/8".into(),
        ..LimitsConfig::default()
    };
    let app = spawn_limited(&limits).await;
    let from = |client: &'static str| [("x-forwarded-for", client)];
    let sign_up_from = |client| {
        let app = &app;
        async move {
            app.send(
                Method::POST,
                "/v1/accounts/guest",
                Some("{}"),
                &from(client),
            )
            .await
            .status
        }
    };

    let first = sign_up_from("198.51.100.7").await;
    let again = sign_up_from("198.51.100.7").await;
    let other = sign_up_from("203.0.113.9").await;

    assert!(first.is_success(), "{first}");
    assert_eq!(again, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        other.is_success(),
        "another client behind the proxy: {other}"
    );
}

#[tokio::test]
async fn limits_turned_off_refuse_nothing() {
    let limits = LimitsConfig {
        limits: false,
        limit_signup: "0.001:1".into(),
        ..LimitsConfig::default()
    };
    let app = spawn_limited(&limits).await;

    let mut created = 0;
    for _ in 0..10 {
        created += usize::from(sign_up(&app).await.status.is_success());
    }

    assert_eq!(created, 10);
}

#[tokio::test]
async fn a_credential_holds_at_most_its_cap_of_streams() {
    let limits = LimitsConfig {
        max_streams_per_credential: 2,
        ..LimitsConfig::default()
    };
    let app = spawn_limited(&limits).await;
    let mut games = GameServiceClient::connect(app.url("")).await.unwrap();
    let watch = || {
        skit_api::authed(
            WatchGameRequest {
                game_id: "endless".into(),
                ..Default::default()
            },
            TOKEN,
        )
        .unwrap()
    };

    let first = games.watch_game(watch()).await.unwrap().into_inner();
    let _second = games.watch_game(watch()).await.unwrap().into_inner();
    let third = games.watch_game(watch()).await.unwrap_err();
    let sse = app.call(Method::GET, "/v1/games/endless/watch", None).await;
    drop(first);
    let mut reopened = None;
    for _ in 0..200 {
        match games.watch_game(watch()).await {
            Ok(stream) => {
                reopened = Some(stream);
                break;
            }
            Err(_) => tokio::time::sleep(std::time::Duration::from_millis(10)).await,
        }
    }

    assert_eq!(third.code(), Code::ResourceExhausted, "{third:?}");
    let info = third.get_details_error_info().expect("an ErrorInfo");
    assert_eq!(info.reason, "too_many_streams");
    assert_eq!(info.metadata["scope"], "credential");
    assert_eq!(info.metadata["limit"], "2");
    assert_eq!(sse.status, StatusCode::TOO_MANY_REQUESTS, "{}", sse.text);
    assert_eq!(sse.json()["reason"], "too_many_streams");
    assert!(
        reopened.is_some(),
        "a closed stream's place was not given back"
    );
}
