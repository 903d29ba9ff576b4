//! No-shows: a player who loses tournament tables on time is named on the
//! table, and after the second is barred from registering for a while;
//! others are not.

use std::time::Duration;

use skit_proto::v1::time_control::Clock;
use skit_proto::v1::{AccountKind, OnTimeout, TimeControl, TournamentState};
use skit_testkit::{TestDb, spawn_game};
use tonic_types::StatusExt;

use crate::helpers::*;

fn quick_clock() -> TimeControl {
    TimeControl {
        clock: Some(Clock::PerMove(pbjson_types::Duration {
            seconds: 2,
            nanos: 0,
        })),
        on_timeout: OnTimeout::Lose as i32,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repeated_no_shows_are_barred_from_registering() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let sleeper = game.account("sleeper", AccountKind::Bot).await;
    let mover = game.account("mover", AccountKind::Bot).await;
    // Only the mover's turns are played.
    let worker = Worker::start(&game, std::slice::from_ref(&mover));
    let client = leagues.client().await;
    for i in 0..2 {
        let t = leagues
            .create(skit_proto::v1::CreateTournamentRequest {
                time_control: Some(quick_clock()),
                ..swiss(&format!("Clocked {i}"), 2, 1)
            })
            .await;
        leagues.enter(&sleeper, &t).await;
        leagues.enter(&mover, &t).await;
        leagues.start(&t.tournament_id).await;
        leagues
            .until(
                &t.tournament_id,
                Duration::from_secs(60),
                is(TournamentState::Finished),
            )
            .await;
        let tables = leagues.tables(&t.tournament_id).await;
        assert_eq!(
            tables[0].no_show.as_deref(),
            Some(sleeper.id.as_str()),
            "{tables:?}"
        );
    }
    let next = leagues.create(swiss("After two no-shows", 2, 1)).await;
    let refused = leagues.refused_entry(&sleeper, &next.tournament_id).await;
    assert_eq!(condition(&refused), "no_shows");
    let info = refused.get_details_error_info().expect("ErrorInfo");
    assert!(info.metadata.contains_key("barred_until"), "{info:?}");
    // The player who came is not barred.
    leagues.enter(&mover, &next).await;
    drop(client);
    worker.stop().await;
    leagues.stop().await;
    game.stop().await;
}
