//! Two instances of the game service on one database: an account disabled
//! through one is refused by the other within a second (counted in answers
//! 50 ms apart, not timed), though the other had cached it; on SQLite and
//! Postgres.

use skit_proto::v1::{AccountKind, AccountStatus, WhoAmIRequest};
use skit_testkit::TestDb;
use skit_testkit::*;
use tonic::Code;

use crate::admin::set_status;
use crate::sessions::refused_soon;

on_both_databases!(a_disabled_account_is_refused_by_every_instance);

async fn a_disabled_account_is_refused_by_every_instance(db: &TestDb) {
    // Arrange: the player is known (cached) on the second instance,
    // started once the first serves, as a second instance is deployed.
    let first = spawn_game(db).await;
    let player = first.account("Oscar", AccountKind::Player).await;
    let second = spawn_game(db).await;
    let mut at_second = second.accounts().await;
    for _ in 0..3 {
        at_second
            .who_am_i(authed(WhoAmIRequest {}, &player.token))
            .await
            .expect("known on the second instance");
    }

    // Act: disabled through the first.
    let mut admin = first.admin().await;
    set_status(&mut admin, &player.id, AccountStatus::Disabled, "fraud")
        .await
        .expect("disable");

    // Assert
    let refused = refused_soon(&mut at_second, &player.token).await;
    Expected::new(Code::Unauthenticated, "account_disabled").grpc(&refused);
    drop((at_second, admin));
    second.stop().await;
    first.stop().await;
}
