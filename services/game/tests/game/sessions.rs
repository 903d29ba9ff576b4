//! Sessions against the real service on both databases: sign-up answers a
//! session, Refresh rotates its tokens, a reused refresh token revokes the
//! whole session, access and refresh tokens expire, a person lists and
//! revokes their sessions and logs out, over gRPC and REST.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use serde_json::json;
use skit_proto::v1::account_service_client::AccountServiceClient;
use skit_proto::v1::{
    CreateGuestRequest, ListSessionsRequest, LogoutRequest, RefreshRequest, RevokeSessionRequest,
    Session, WhoAmIRequest,
};
use skit_testkit::{
    Expected, GameService, TestDb, authed, on_both_databases, spawn_game, spawn_game_with,
};
use tonic::Code;
use tonic::transport::Channel;

on_both_databases!(
    sign_up_answers_a_session_that_refreshes,
    a_reused_refresh_token_revokes_the_session,
    tokens_expire,
    sessions_are_listed_and_revoked,
    logout_ends_the_session,
);

/// A new guest's session, checked against the answer's `token`.
pub async fn signed_up(app: &GameService, name: &str) -> Session {
    let reply = app
        .accounts()
        .await
        .create_guest(CreateGuestRequest {
            name: Some(name.into()),
            request_id: String::new(),
        })
        .await
        .expect("sign up")
        .into_inner();
    let session = reply.session.expect("a session");
    assert_eq!(
        reply.token, session.access_token,
        "token is the access token"
    );
    assert_eq!(session.account_id, reply.account_id);
    session
}

async fn who_am_i(
    accounts: &mut AccountServiceClient<Channel>,
    token: &str,
) -> Result<String, tonic::Status> {
    Ok(accounts
        .who_am_i(authed(WhoAmIRequest {}, token))
        .await?
        .into_inner()
        .account_id)
}

async fn refresh(
    accounts: &mut AccountServiceClient<Channel>,
    refresh_token: &str,
) -> Result<Session, tonic::Status> {
    let request = RefreshRequest {
        refresh_token: refresh_token.into(),
    };
    Ok(accounts.refresh(request).await?.into_inner())
}

async fn sign_up_answers_a_session_that_refreshes(db: &TestDb) {
    let app = spawn_game(db).await;
    let mut accounts = app.accounts().await;
    let first = signed_up(&app, "ann").await;

    let second = refresh(&mut accounts, &first.refresh_token)
        .await
        .expect("refreshed");

    assert_eq!(second.session_id, first.session_id);
    assert_eq!(second.account_id, first.account_id);
    assert_ne!(second.access_token, first.access_token);
    assert_ne!(second.refresh_token, first.refresh_token);
    assert!(second.access_expires_at.unwrap().seconds >= first.access_expires_at.unwrap().seconds);
    assert_eq!(
        who_am_i(&mut accounts, &second.access_token).await.unwrap(),
        first.account_id
    );
    // The first access token lives out its time.
    assert_eq!(
        who_am_i(&mut accounts, &first.access_token).await.unwrap(),
        first.account_id
    );
    let (status, body) = app
        .http()
        .call(
            "POST",
            "/v1/accounts/refresh",
            None,
            Some(json!({"refreshToken": second.refresh_token})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["sessionId"], json!(first.session_id));
    assert!(body["accessToken"].as_str().is_some_and(|t| !t.is_empty()));
    drop(accounts);
    app.stop().await;
}

async fn a_reused_refresh_token_revokes_the_session(db: &TestDb) {
    let app = spawn_game(db).await;
    let mut accounts = app.accounts().await;
    let first = signed_up(&app, "ann").await;
    let second = refresh(&mut accounts, &first.refresh_token).await.unwrap();

    let reused = refresh(&mut accounts, &first.refresh_token)
        .await
        .unwrap_err();

    Expected::new(Code::Unauthenticated, "refresh_token_reused").grpc(&reused);
    let next = refresh(&mut accounts, &second.refresh_token)
        .await
        .unwrap_err();
    Expected::new(Code::Unauthenticated, "token_revoked").grpc(&next);
    for token in [&first.access_token, &second.access_token] {
        let refused = refused_soon(&mut accounts, token).await;
        Expected::new(Code::Unauthenticated, "token_revoked").grpc(&refused);
    }
    let unknown = refresh(&mut accounts, "skt_nothing").await.unwrap_err();
    Expected::new(Code::Unauthenticated, "unauthenticated").grpc(&unknown);
    drop(accounts);
    app.stop().await;
}

/// The refusal of `token`'s calls, asked every 50 ms: panics if more than
/// 20 answers (a second's worth) still accept it.
pub async fn refused_soon(
    accounts: &mut AccountServiceClient<Channel>,
    token: &str,
) -> tonic::Status {
    for _ in 0..20 {
        match who_am_i(accounts, token).await {
            Ok(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            Err(refused) => return refused,
        }
    }
    panic!("the token still works after 20 answers");
}

async fn tokens_expire(db: &TestDb) {
    let app = spawn_game_with(db, |c| {
        c.access_token_ttl_ms = 1;
        c.refresh_token_ttl_ms = 60_000;
    })
    .await;
    let mut accounts = app.accounts().await;
    let session = signed_up(&app, "ann").await;
    tokio::time::sleep(Duration::from_millis(10)).await;

    let expired = who_am_i(&mut accounts, &session.access_token)
        .await
        .unwrap_err();

    Expected::new(Code::Unauthenticated, "token_expired").grpc(&expired);
    let next = refresh(&mut accounts, &session.refresh_token)
        .await
        .expect("refresh still works");
    assert_eq!(next.session_id, session.session_id);
    drop(accounts);
    app.stop().await;

    let app = spawn_game_with(db, |c| c.refresh_token_ttl_ms = 1).await;
    let mut accounts = app.accounts().await;
    let session = signed_up(&app, "bo").await;
    tokio::time::sleep(Duration::from_millis(10)).await;

    let expired = refresh(&mut accounts, &session.refresh_token)
        .await
        .unwrap_err();

    Expected::new(Code::Unauthenticated, "token_expired").grpc(&expired);
    drop(accounts);
    app.stop().await;
}

async fn sessions_are_listed_and_revoked(db: &TestDb) {
    let app = spawn_game(db).await;
    let mut accounts = app.accounts().await;
    let ann = signed_up(&app, "ann").await;
    let bo = signed_up(&app, "bo").await;
    let ann = refresh(&mut accounts, &ann.refresh_token).await.unwrap();

    let listed = accounts
        .list_sessions(authed(ListSessionsRequest {}, &ann.access_token))
        .await
        .unwrap()
        .into_inner()
        .sessions;

    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0].session_id, ann.session_id);
    assert!(listed[0].current);
    let at = |t: Option<skit_proto::Timestamp>| t.map(|t| (t.seconds, t.nanos));
    assert!(
        at(listed[0].refreshed_at) > at(listed[0].created_at),
        "refreshed once"
    );
    assert_eq!(listed[0].expires_at, ann.refresh_expires_at);
    let (status, body) = app
        .http()
        .call(
            "GET",
            "/v1/accounts/me/sessions",
            Some(&ann.access_token),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let text = body.to_string();
    assert!(!text.contains(&ann.access_token) && !text.contains(&ann.refresh_token));
    let revoke = |session: &str| RevokeSessionRequest {
        session_id: session.into(),
    };
    let theirs = accounts
        .revoke_session(authed(revoke(&ann.session_id), &bo.access_token))
        .await
        .unwrap_err();
    Expected::new(Code::NotFound, "not_found").grpc(&theirs);
    accounts
        .revoke_session(authed(revoke(&ann.session_id), &ann.access_token))
        .await
        .expect("revoked");
    let refused = refused_soon(&mut accounts, &ann.access_token).await;
    Expected::new(Code::Unauthenticated, "token_revoked").grpc(&refused);
    let refresh_refused = refresh(&mut accounts, &ann.refresh_token)
        .await
        .unwrap_err();
    Expected::new(Code::Unauthenticated, "token_revoked").grpc(&refresh_refused);
    assert!(
        who_am_i(&mut accounts, &bo.access_token).await.is_ok(),
        "bo's session stays"
    );
    drop(accounts);
    app.stop().await;
}

async fn logout_ends_the_session(db: &TestDb) {
    let app = spawn_game(db).await;
    let mut accounts = app.accounts().await;
    let ann = signed_up(&app, "ann").await;

    let (status, body) = app
        .http()
        .call(
            "POST",
            "/v1/accounts/logout",
            Some(&ann.access_token),
            Some(json!({})),
        )
        .await;

    assert_eq!(status, 200, "{body}");
    let refused = refused_soon(&mut accounts, &ann.access_token).await;
    Expected::new(Code::Unauthenticated, "token_revoked").grpc(&refused);
    let refresh_refused = refresh(&mut accounts, &ann.refresh_token)
        .await
        .unwrap_err();
    Expected::new(Code::Unauthenticated, "token_revoked").grpc(&refresh_refused);
    let operator = accounts
        .logout(authed(LogoutRequest {}, skit_testkit::OPERATOR_TOKEN))
        .await
        .unwrap_err();
    Expected::new(Code::FailedPrecondition, "failed_precondition").grpc(&operator);
    drop(accounts);
    app.stop().await;
}
