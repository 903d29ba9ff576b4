//! Two instances of the game service on one database: an account disabled
//! through one is refused by the other within a second (the revocation
//! feed), on SQLite and Postgres.

use std::time::Duration;

use skit_proto::v1::{AccountKind, AccountStatus, WhoAmIRequest};
use skit_testkit::TestDb;
use skit_testkit::*;
use tonic::Code;

use crate::admin::set_status;

on_both_databases!(a_disabled_account_is_refused_by_every_instance);

async fn a_disabled_account_is_refused_by_every_instance(db: &TestDb) {
    // Arrange: the player is known (cached) on the second instance.
    let first = spawn_game(db).await;
    let second = spawn_game(db).await;
    let player = first.account("Oscar", AccountKind::Player).await;
    let mut accounts = second.accounts().await;
    accounts
        .who_am_i(authed(WhoAmIRequest {}, &player.token))
        .await
        .expect("known on the second instance");

    // Act: disabled through the first.
    set_status(
        &mut first.admin().await,
        &player.id,
        AccountStatus::Disabled,
        "fraud",
    )
    .await
    .expect("disable");

    // Assert: the second refuses the token within a second.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(1);
    let refused = loop {
        match accounts
            .who_am_i(authed(WhoAmIRequest {}, &player.token))
            .await
        {
            Err(status) => break status,
            Ok(_) if tokio::time::Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Ok(_) => panic!("the second instance still accepts the token after 1 s"),
        }
    };
    assert_eq!(refused.code(), Code::Unauthenticated);
    drop(accounts);
    second.stop().await;
    first.stop().await;
}
