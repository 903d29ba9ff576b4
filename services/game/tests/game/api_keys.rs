//! API keys against the real service on both databases: an operator-made
//! bot's key plays and reads; a key made with `read` alone is refused
//! every play call (PERMISSION_DENIED `missing_scope`, naming the scope);
//! a rotated key's old secret works for its grace period, then not; a
//! revoked key is refused at once.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use serde_json::json;
use skit_proto::v1::account_service_client::AccountServiceClient;
use skit_proto::v1::{
    AccountKind, CreateApiKeyRequest, CreateApiKeyResponse, JoinGameRequest, ListApiKeysRequest,
    ListGamesRequest, RevokeApiKeyRequest, RotateApiKeyRequest, WhoAmIRequest,
};
use skit_testkit::{Expected, TestDb, authed, on_both_databases, skitgubbe_for, spawn_game};
use tonic::Code;
use tonic::transport::Channel;
use tonic_types::StatusExt;

use crate::sessions::{refused_soon, signed_up};

on_both_databases!(
    scopes_limit_what_a_key_does,
    a_rotated_key_works_through_its_grace,
    a_revoked_key_is_refused,
);

async fn create_key(
    accounts: &mut AccountServiceClient<Channel>,
    token: &str,
    label: &str,
    scopes: &[&str],
) -> Result<CreateApiKeyResponse, tonic::Status> {
    let request = CreateApiKeyRequest {
        label: label.into(),
        scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
    };
    Ok(accounts
        .create_api_key(authed(request, token))
        .await?
        .into_inner())
}

fn assert_missing(status: &tonic::Status, scope: &str) {
    Expected::new(Code::PermissionDenied, "missing_scope").grpc(status);
    let info = status.get_details_error_info().expect("ErrorInfo");
    assert_eq!(
        info.metadata.get("scope").map(String::as_str),
        Some(scope),
        "{status:?}"
    );
}

async fn scopes_limit_what_a_key_does(db: &TestDb) {
    let app = spawn_game(db).await;
    let mut accounts = app.accounts().await;
    let bot = app.account("robot", AccountKind::Bot).await;
    let me = accounts
        .who_am_i(authed(WhoAmIRequest {}, &bot.token))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        me.scopes,
        vec!["play", "read"],
        "an operator-made bot's key"
    );

    let reader = create_key(&mut accounts, &bot.token, "dashboard", &["read"])
        .await
        .unwrap();

    assert_eq!(reader.api_key.as_ref().unwrap().scopes, vec!["read"]);
    let mut games = app.games().await;
    games
        .list_games(authed(ListGamesRequest::default(), &reader.token))
        .await
        .expect("read is allowed");
    // The scope is checked before anything else, whatever the request.
    let refused = games
        .join_game(authed(
            JoinGameRequest {
                game_id: uuid::Uuid::new_v4().to_string(),
                ..Default::default()
            },
            &reader.token,
        ))
        .await
        .unwrap_err();
    assert_missing(&refused, "play");
    let create = games
        .create_game(authed(skitgubbe_for(&[]), &reader.token))
        .await
        .unwrap_err();
    assert_missing(&create, "play");
    let (status, body) = app
        .http()
        .call(
            "POST",
            "/v1/games",
            Some(&reader.token),
            Some(json!({"rules": {"preset": "skitgubbe"}, "players": 2})),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["reason"], "missing_scope");
    // A key cannot give more than its maker has.
    let wider = create_key(&mut accounts, &reader.token, "more", &["play"])
        .await
        .unwrap_err();
    assert_missing(&wider, "play");
    let bad = create_key(&mut accounts, &bot.token, "odd", &["admin"])
        .await
        .unwrap_err();
    Expected::invalid("scopes").grpc(&bad);
    let none = create_key(&mut accounts, &bot.token, "none", &[])
        .await
        .unwrap_err();
    Expected::invalid("scopes").grpc(&none);
    let guest = signed_up(&app, "ann").await;
    let guest_key = create_key(&mut accounts, &guest.access_token, "k", &["read"])
        .await
        .unwrap_err();
    Expected::new(Code::PermissionDenied, "permission_denied").grpc(&guest_key);
    drop((accounts, games));
    app.stop().await;
}

async fn a_rotated_key_works_through_its_grace(db: &TestDb) {
    let app = spawn_game(db).await;
    let mut accounts = app.accounts().await;
    let bot = app.account("robot", AccountKind::Bot).await;
    let old = create_key(&mut accounts, &bot.token, "fleet", &["play", "read"])
        .await
        .unwrap();
    let id = old.api_key.unwrap().api_key_id;

    let rotated = accounts
        .rotate_api_key(authed(
            RotateApiKeyRequest {
                api_key_id: id.clone(),
                grace_ms: 1000,
            },
            &bot.token,
        ))
        .await
        .unwrap()
        .into_inner();

    let new = rotated.api_key.unwrap();
    assert_eq!((new.label.as_str(), new.scopes.len()), ("fleet", 2));
    assert_ne!(rotated.token, old.token);
    let keys = accounts
        .list_api_keys(authed(ListApiKeysRequest {}, &rotated.token))
        .await
        .unwrap()
        .into_inner()
        .api_keys;
    let graced = keys
        .iter()
        .find(|k| k.api_key_id == id)
        .expect("the old key, in its grace");
    assert!(graced.expires_at.is_some());
    assert!(
        accounts
            .who_am_i(authed(WhoAmIRequest {}, &rotated.token))
            .await
            .is_ok()
    );
    // The grace is a second: the old secret works now, and is refused
    // (expired) within the next 40 answers, 50 ms apart.
    let mut answers = 0;
    let refused = loop {
        match accounts
            .who_am_i(authed(WhoAmIRequest {}, &old.token))
            .await
        {
            Ok(_) if answers < 40 => answers += 1,
            Ok(_) => panic!("the rotated key still works after its grace"),
            Err(refused) => break refused,
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(answers >= 1, "the old key worked in its grace");
    Expected::new(Code::Unauthenticated, "token_expired").grpc(&refused);
    assert!(
        accounts
            .who_am_i(authed(WhoAmIRequest {}, &rotated.token))
            .await
            .is_ok()
    );
    drop(accounts);
    app.stop().await;
}

async fn a_revoked_key_is_refused(db: &TestDb) {
    let app = spawn_game(db).await;
    let mut accounts = app.accounts().await;
    let bot = app.account("robot", AccountKind::Bot).await;
    let key = create_key(&mut accounts, &bot.token, "spare", &["read"])
        .await
        .unwrap();
    let id = key.api_key.unwrap().api_key_id;
    let other = app.account("other", AccountKind::Bot).await;
    let revoke = |id: &str| RevokeApiKeyRequest {
        api_key_id: id.into(),
    };
    let theirs = accounts
        .revoke_api_key(authed(revoke(&id), &other.token))
        .await
        .unwrap_err();
    Expected::new(Code::NotFound, "not_found").grpc(&theirs);

    let (status, body) = app
        .http()
        .call(
            "POST",
            &format!("/v1/accounts/me/api-keys/{id}/revoke"),
            Some(&bot.token),
            Some(json!({})),
        )
        .await;

    assert_eq!(status, 200, "{body}");
    let refused = refused_soon(&mut accounts, &key.token).await;
    Expected::new(Code::Unauthenticated, "token_revoked").grpc(&refused);
    let listed = accounts
        .list_api_keys(authed(ListApiKeysRequest {}, &bot.token))
        .await
        .unwrap()
        .into_inner()
        .api_keys;
    assert!(listed.iter().all(|k| k.api_key_id != id), "{listed:?}");
    drop(accounts);
    app.stop().await;
}
