//! A ladder's validation games: a new bot's first tables seat it with
//! house bots only, are marked `validation` and left out of the
//! standings; then it meets the other entrants. A bot that loses a
//! validation game on time leaves the ladder. Only a ladder takes the
//! setting.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use skit_proto::v1::time_control::Clock;
use skit_proto::v1::{
    CreateTournamentRequest, GetStandingsRequest, OnTimeout, TableState, TimeControl,
    TournamentFormat, TournamentTable,
};
use skit_testkit::{OPERATOR_TOKEN, Player, TestDb, authed, spawn_game};

use crate::helpers::*;

const PLAYED: Duration = Duration::from_secs(150);

fn ladder(seats: u32) -> CreateTournamentRequest {
    CreateTournamentRequest {
        format: TournamentFormat::Ladder as i32,
        conditions: None,
        ..swiss("Validated ladder", seats, 0)
    }
}

fn ids(players: &[Player]) -> BTreeSet<String> {
    players.iter().map(|p| p.id.clone()).collect()
}

/// Each account's tables in the order they were seated.
fn by_account(tables: &[TournamentTable]) -> BTreeMap<String, Vec<&TournamentTable>> {
    let mut ordered: Vec<&TournamentTable> = tables.iter().collect();
    ordered.sort_by_key(|t| (t.round, t.table));
    let mut out: BTreeMap<String, Vec<&TournamentTable>> = BTreeMap::new();
    for t in ordered {
        for a in &t.account_ids {
            out.entry(a.clone()).or_default().push(t);
        }
    }
    out
}

fn over(t: &TournamentTable) -> bool {
    t.state == TableState::Over as i32
}

async fn validation_games_come_first(db: TestDb) {
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let mut house = Vec::new();
    for i in 0..3 {
        house.push(game.house_bot(&format!("house{i}")).await);
    }
    let entrants = bots(&game, "entrant", 4).await;
    let everyone: Vec<Player> = house.iter().chain(&entrants).cloned().collect();
    let worker = Worker::start(&game, &everyone);
    let t = leagues.create(ladder(3)).await;
    assert_eq!(t.validation_games, 2, "the default");
    for p in &entrants {
        leagues.enter(p, &t).await;
    }
    leagues.start(&t.tournament_id).await;
    // Play until every entrant has finished a table against the field.
    let deadline = tokio::time::Instant::now() + PLAYED;
    loop {
        let now = leagues.tables(&t.tournament_id).await;
        let per = by_account(&now);
        let done = entrants.iter().all(|p| {
            per.get(&p.id)
                .is_some_and(|ts| ts.iter().any(|t| !t.validation && over(t)))
        });
        if done {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the entrants never met: {now:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    leagues.terminate(&t.tournament_id).await;
    let tables = leagues.tables(&t.tournament_id).await;
    let (entrant_ids, house_ids) = (ids(&entrants), ids(&house));
    for table in &tables {
        let seated: BTreeSet<&String> = table.account_ids.iter().collect();
        assert_eq!(seated.len(), table.account_ids.len(), "distinct: {table:?}");
        let field = table
            .account_ids
            .iter()
            .filter(|a| entrant_ids.contains(*a))
            .count();
        if table.validation {
            // One entrant; every other seat a house bot, at a full table.
            assert_eq!(field, 1, "{table:?}");
            assert_eq!(table.account_ids.len(), 3, "{table:?}");
            assert!(
                table
                    .account_ids
                    .iter()
                    .all(|a| entrant_ids.contains(a) || house_ids.contains(a)),
                "{table:?}"
            );
        } else {
            assert_eq!(field, table.account_ids.len(), "no house bot: {table:?}");
        }
    }
    // Each entrant's first two tables were its validation games, and it
    // played no others.
    let per = by_account(&tables);
    for p in &entrants {
        let mine = &per[&p.id];
        let kinds: Vec<bool> = mine.iter().map(|t| t.validation).collect();
        assert_eq!(
            kinds.iter().take_while(|&&v| v).count(),
            2,
            "{}: {mine:?}",
            p.id
        );
        assert_eq!(kinds.iter().filter(|&&v| v).count(), 2, "{}", p.id);
    }
    // The standings count the field's tables only, and name no house bot.
    let standings = leagues
        .client()
        .await
        .get_standings(authed(
            GetStandingsRequest {
                tournament_id: t.tournament_id.clone(),
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("standings")
        .into_inner();
    assert_eq!(standings.rows.len(), entrants.len(), "{standings:?}");
    for row in &standings.rows {
        let field_tables = per[&row.account_id]
            .iter()
            .filter(|t| !t.validation && over(t))
            .count();
        assert_eq!(row.tables as usize, field_tables, "{row:?}");
    }
    worker.stop().await;
    leagues.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_bot_plays_house_bots_first_sqlite() {
    validation_games_come_first(TestDb::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_bot_plays_house_bots_first_postgres() {
    validation_games_come_first(TestDb::postgres().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_times_out_in_a_validation_game_leaves_the_ladder() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let house = game.house_bot("house").await;
    let entrants = bots(&game, "entrant", 2).await;
    let (mover, sleeper) = (&entrants[0], &entrants[1]);
    // The sleeper's turns are never played.
    let worker = Worker::start(&game, &[house.clone(), mover.clone()]);
    let t = leagues
        .create(CreateTournamentRequest {
            time_control: Some(TimeControl {
                clock: Some(Clock::PerMove(pbjson_types::Duration {
                    seconds: 2,
                    nanos: 0,
                })),
                on_timeout: OnTimeout::Lose as i32,
            }),
            validation_games: Some(1),
            ..ladder(2)
        })
        .await;
    assert_eq!(t.validation_games, 1);
    leagues.enter(mover, &t).await;
    leagues.enter(sleeper, &t).await;
    leagues.start(&t.tournament_id).await;
    let left = leagues
        .until(&t.tournament_id, Duration::from_secs(60), |t| {
            t.entrants == 1
        })
        .await;
    assert_eq!(left.entrants, 1);
    let tables = leagues.tables(&t.tournament_id).await;
    let sleepers: Vec<&TournamentTable> = tables
        .iter()
        .filter(|t| t.account_ids.contains(&sleeper.id))
        .collect();
    assert_eq!(sleepers.len(), 1, "{tables:?}");
    assert!(sleepers[0].validation, "{tables:?}");
    assert_eq!(sleepers[0].no_show.as_deref(), Some(sleeper.id.as_str()));
    let seated: BTreeSet<String> = sleepers[0].account_ids.iter().cloned().collect();
    assert_eq!(seated, ids(&[sleeper.clone(), house.clone()]));
    // Gone from the ladder, it is seated no more.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let later = leagues.tables(&t.tournament_id).await;
    assert_eq!(
        later
            .iter()
            .filter(|t| t.account_ids.contains(&sleeper.id))
            .count(),
        1,
        "{later:?}"
    );
    leagues.terminate(&t.tournament_id).await;
    worker.stop().await;
    leagues.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_ladder_takes_validation_games() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let mut client = leagues.client().await;
    for (request, why) in [
        (
            CreateTournamentRequest {
                validation_games: Some(1),
                ..swiss("Swiss", 3, 2)
            },
            "only a ladder",
        ),
        (
            CreateTournamentRequest {
                validation_games: Some(11),
                ..ladder(3)
            },
            "0 to 10",
        ),
    ] {
        let refused = client
            .create_tournament(authed(request, OPERATOR_TOKEN))
            .await
            .expect_err("refused");
        assert_eq!(refused.code(), tonic::Code::InvalidArgument);
        assert!(
            refused.message().contains("validation_games") && refused.message().contains(why),
            "{refused:?}"
        );
    }
    let off = leagues
        .create(CreateTournamentRequest {
            validation_games: Some(0),
            ..ladder(3)
        })
        .await;
    assert_eq!(off.validation_games, 0);
    let swiss = leagues.create(swiss("Swiss", 3, 2)).await;
    assert_eq!(swiss.validation_games, 0);
    leagues.stop().await;
    game.stop().await;
}
