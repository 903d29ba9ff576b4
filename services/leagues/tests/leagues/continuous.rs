//! Continuous events: an arena re-seats players as they finish, and a bot
//! ladder takes bots while it runs, seats the newest (fewest tables)
//! first, and refuses people.

use std::collections::BTreeMap;
use std::time::Duration;

use skit_proto::v1::{
    AccountKind, CreateTournamentRequest, TableState, TournamentFormat, TournamentState,
    TournamentTable,
};
use skit_testkit::{TestDb, spawn_game};

use crate::helpers::*;

const PLAYED: Duration = Duration::from_secs(120);

/// Tables finished per account.
fn finished(tables: &[TournamentTable]) -> BTreeMap<String, usize> {
    let mut count = BTreeMap::new();
    for t in tables.iter().filter(|t| t.state == TableState::Over as i32) {
        for a in &t.account_ids {
            *count.entry(a.clone()).or_default() += 1;
        }
    }
    count
}

/// Nobody sits at two unfinished tables at once.
fn nobody_twice(tables: &[TournamentTable]) {
    let mut seated = BTreeMap::new();
    for t in tables
        .iter()
        .filter(|t| t.state == TableState::Seated as i32 || t.state == TableState::Playing as i32)
    {
        for a in &t.account_ids {
            *seated.entry(a.clone()).or_insert(0) += 1;
        }
    }
    assert!(seated.values().all(|&n| n == 1), "{seated:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_seats_players_again_as_they_finish() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let players = bots(&game, "arena", 7).await;
    let worker = Worker::start(&game, &players);
    let t = leagues
        .create(CreateTournamentRequest {
            format: TournamentFormat::Arena as i32,
            rounds: 0,
            duration_minutes: 30,
            ..swiss("Arena", 3, 0)
        })
        .await;
    for p in &players {
        leagues.enter(p, &t).await;
    }
    leagues.start(&t.tournament_id).await;
    let started = leagues.get(&t.tournament_id).await;
    assert!(
        started.ends_at.is_some(),
        "an arena shows its end: {started:?}"
    );
    // Seven at tables of three: three tables (3 + 2 + 2) at once, and
    // players seated again as their tables finish.
    let deadline = tokio::time::Instant::now() + PLAYED;
    loop {
        let now = leagues.tables(&t.tournament_id).await;
        nobody_twice(&now);
        assert!(now.iter().all(|t| (2..=3).contains(&t.account_ids.len())));
        if finished(&now).values().filter(|&&n| n >= 3).count() >= 3 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "players not re-seated: {now:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    leagues.terminate(&t.tournament_id).await;
    let ended = leagues.get(&t.tournament_id).await;
    assert_eq!(ended.state, TournamentState::Terminated as i32);
    worker.stop().await;
    leagues.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_ladder_takes_bots_while_it_runs() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let mut players = bots(&game, "ladder", 5).await;
    let late = game.account("late", AccountKind::Bot).await;
    players.push(late.clone());
    let worker = Worker::start(&game, &players);
    let t = leagues
        .create(CreateTournamentRequest {
            format: TournamentFormat::Ladder as i32,
            rounds: 0,
            conditions: None,
            ..swiss("Ladder", 3, 0)
        })
        .await;
    for p in &players[..5] {
        leagues.enter(p, &t).await;
    }
    leagues.start(&t.tournament_id).await;
    // People may not enter a ladder.
    let person = game.account("person", AccountKind::Player).await;
    let refused = leagues.refused_entry(&person, &t.tournament_id).await;
    assert_eq!(condition(&refused), "account_kind");
    // The first five play a while; then a bot joins the running ladder
    // and is seated and plays too.
    let deadline = tokio::time::Instant::now() + PLAYED;
    loop {
        let now = leagues.tables(&t.tournament_id).await;
        nobody_twice(&now);
        if finished(&now).values().filter(|&&n| n >= 2).count() >= 3 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the ladder is not playing: {now:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    leagues.enter(&late, &t).await;
    loop {
        let now = leagues.tables(&t.tournament_id).await;
        nobody_twice(&now);
        if finished(&now).get(&late.id).is_some_and(|&n| n >= 1) {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the late bot never played: {now:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    leagues.terminate(&t.tournament_id).await;
    worker.stop().await;
    leagues.stop().await;
    game.stop().await;
}
