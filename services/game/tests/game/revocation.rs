//! Revocation across instances, on both databases: two instances of the
//! service share one database; a session revoked through one is refused by
//! the other within a second (counted in answers 50 ms apart, not timed),
//! though the other had cached it; and an instance started with a new
//! operator token retires the old one everywhere: after a grace in which
//! both work (instances restart one at a time), or at once with none.

#![allow(clippy::unwrap_used)]

use skit_api::Secret;
use skit_proto::v1::{ListAccountsRequest, LogoutRequest, WhoAmIRequest};
use skit_testkit::{
    Expected, OPERATOR_TOKEN, TestDb, authed, game_config, on_both_databases, spawn_game,
    spawn_game_with,
};
use tonic::Code;

use crate::sessions::{refused_soon, signed_up};

on_both_databases!(
    a_logout_reaches_the_other_instance,
    a_new_operator_token_retires_the_old_one,
    a_new_operator_token_overlaps_the_old_one_for_the_grace,
);

async fn a_logout_reaches_the_other_instance(db: &TestDb) {
    let one = spawn_game(db).await;
    let ann = signed_up(&one, "ann").await;
    // Started once the first serves, as a second instance is deployed.
    let two = spawn_game(db).await;
    let mut at_one = one.accounts().await;
    let mut at_two = two.accounts().await;
    // Two caches it.
    for _ in 0..3 {
        at_two
            .who_am_i(authed(WhoAmIRequest {}, &ann.access_token))
            .await
            .expect("a live session");
    }

    at_one
        .logout(authed(LogoutRequest {}, &ann.access_token))
        .await
        .expect("logged out");

    let refused = refused_soon(&mut at_two, &ann.access_token).await;
    Expected::new(Code::Unauthenticated, "token_revoked").grpc(&refused);
    drop((at_one, at_two));
    one.stop().await;
    two.stop().await;
}

const NEW_TOKEN: &str = "operator-secret-rotated-for-tests";

async fn a_new_operator_token_retires_the_old_one(db: &TestDb) {
    let one = spawn_game(db).await;
    let mut at_one = one.accounts().await;
    let list = || ListAccountsRequest::default();
    at_one
        .list_accounts(authed(list(), OPERATOR_TOKEN))
        .await
        .expect("the operator token works");

    let two = spawn_game_with(db, |c| {
        c.operator_token = Some(Secret::new(NEW_TOKEN));
        c.operator_token_grace_ms = 0;
    })
    .await;

    let refused = refused_soon(&mut at_one, OPERATOR_TOKEN).await;
    Expected::new(Code::Unauthenticated, "token_revoked").grpc(&refused);
    at_one
        .list_accounts(authed(list(), NEW_TOKEN))
        .await
        .expect("the new token works on the first instance too");
    let mut at_two = two.accounts().await;
    let listed = at_two
        .list_accounts(authed(list(), NEW_TOKEN))
        .await
        .unwrap()
        .into_inner();
    let operators = listed
        .accounts
        .iter()
        .filter(|a| a.name == "operator")
        .count();
    assert_eq!(operators, 1, "the same operator account: {listed:?}");
    // A stale configuration cannot take the credential back.
    let (listener, addr) = bind().await;
    let stale = skit_game::run(listener, game_config(db, addr), std::future::pending()).await;
    let error = format!(
        "{:#}",
        stale.expect_err("the replaced token is refused at start-up")
    );
    assert!(error.contains("SKIT_OPERATOR_TOKEN"), "{error}");
    drop((at_one, at_two));
    one.stop().await;
    two.stop().await;
}

/// The grace of the overlap test: long enough for the checks inside it on
/// a loaded machine, short enough to wait out.
const GRACE_MS: u64 = 3_000;

async fn a_new_operator_token_overlaps_the_old_one_for_the_grace(db: &TestDb) {
    let one = spawn_game(db).await;
    let list = || ListAccountsRequest::default();
    // The first instance serves (it has set up the operator credential)
    // before the second starts, as instances restart one at a time.
    one.accounts()
        .await
        .list_accounts(authed(list(), OPERATOR_TOKEN))
        .await
        .expect("the operator token works");

    let started = std::time::Instant::now();
    let two = spawn_game_with(db, |c| {
        c.operator_token = Some(Secret::new(NEW_TOKEN));
        c.operator_token_grace_ms = GRACE_MS;
    })
    .await;
    let mut at_one = one.accounts().await;
    let mut at_two = two.accounts().await;

    // Both tokens work on both instances during the grace (the second
    // first: its first answer comes once it has set up the new token).
    for at in [&mut at_two, &mut at_one] {
        for token in [OPERATOR_TOKEN, NEW_TOKEN] {
            at.list_accounts(authed(list(), token))
                .await
                .unwrap_or_else(|e| panic!("{token} refused during the grace: {e}"));
        }
    }
    // An instance restarted on the old token meanwhile starts, and does
    // not take the credential back.
    let stale = spawn_game(db).await;
    stale
        .accounts()
        .await
        .list_accounts(authed(list(), OPERATOR_TOKEN))
        .await
        .expect("an instance on the old token serves during the grace");
    at_two
        .list_accounts(authed(list(), NEW_TOKEN))
        .await
        .expect("the new token still works");
    stale.stop().await;
    assert!(
        started.elapsed() < std::time::Duration::from_millis(GRACE_MS),
        "the checks took longer than the grace; raise GRACE_MS"
    );

    tokio::time::sleep(std::time::Duration::from_millis(GRACE_MS)).await;
    let refused = at_two
        .list_accounts(authed(list(), OPERATOR_TOKEN))
        .await
        .expect_err("the old token is refused after the grace");
    Expected::new(Code::Unauthenticated, "token_expired").grpc(&refused);
    at_two
        .list_accounts(authed(list(), NEW_TOKEN))
        .await
        .expect("the new token works after the grace");
    // After the grace, the old token cannot start an instance.
    let (listener, addr) = bind().await;
    let late = skit_game::run(listener, game_config(db, addr), std::future::pending()).await;
    let error = format!(
        "{:#}",
        late.expect_err("the expired token is refused at start-up")
    );
    assert!(error.contains("SKIT_OPERATOR_TOKEN"), "{error}");
    drop((at_one, at_two));
    one.stop().await;
    two.stop().await;
}

async fn bind() -> (tokio::net::TcpListener, std::net::SocketAddr) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("an address");
    (listener, addr)
}
