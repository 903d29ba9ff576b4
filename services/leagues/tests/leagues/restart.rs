//! A league service stopped mid-round and started again loses nothing:
//! the tables in play are finished and counted, the next round is seated
//! once, and no table gets a second game.

use std::collections::BTreeSet;
use std::time::Duration;

use skit_proto::v1::{ListGamesRequest, TournamentState};
use skit_testkit::{TestDb, authed, spawn_game};

use crate::helpers::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_mid_round_loses_nothing() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let players = bots(&game, "restart", 6).await;
    let t = leagues.create(swiss("Restarted", 3, 2)).await;
    for p in &players {
        leagues.enter(p, &t).await;
    }
    leagues.start(&t.tournament_id).await;
    // Round 1's games exist before anyone plays: stop the service then.
    leagues
        .until(&t.tournament_id, Duration::from_secs(10), |t| {
            t.sequence >= 4
        })
        .await;
    leagues.stop().await;

    // The games are played while the league service is down.
    let worker = Worker::start(&game, &players);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let leagues = spawn_leagues(&db, &game).await;
    let done = leagues
        .until(
            &t.tournament_id,
            Duration::from_secs(180),
            is(TournamentState::Finished),
        )
        .await;
    assert_eq!(done.round, 2);
    let tables = leagues.tables(&t.tournament_id).await;
    assert_eq!(tables.len(), 4, "two rounds of two tables, seated once");
    let games: BTreeSet<_> = tables.iter().filter_map(|t| t.game_id.clone()).collect();
    assert_eq!(games.len(), 4, "one game per table");
    // Each player sat in exactly one game per round.
    for p in &players {
        let listed = game
            .games()
            .await
            .list_games(authed(
                ListGamesRequest {
                    include_over: true,
                    ..Default::default()
                },
                &p.token,
            ))
            .await
            .expect("list")
            .into_inner()
            .games;
        assert_eq!(
            listed.len(),
            2,
            "player {} played {} games",
            p.id,
            listed.len()
        );
    }
    worker.stop().await;
    leagues.stop().await;
    game.stop().await;
}
