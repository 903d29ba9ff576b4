//! A duplicate tournament of six bots at 3-seat tables, two deals: every
//! deal is played once per rotation, each entrant sits in every seat of
//! its deal, the rotations share one commitment, the standings come from
//! complete deals only, and a deal's seed is shown to nobody until all its
//! rotations are over, then verifies against the games' commitments.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use skit_league::Points;
use skit_proto::v1::{
    CreateTournamentRequest, GetHistoryRequest, GetStandingsRequest, GetViewRequest,
    ListTablesRequest, TableState, TournamentFormat, TournamentState, TournamentTable,
};
use skit_testkit::{OPERATOR_TOKEN, TestDb, authed, spawn_game};

use crate::helpers::*;

const PLAYED: Duration = Duration::from_secs(300);

/// Each seat's placement points at a table of n, 2 (n - place) / (n - 1),
/// tied places sharing.
fn points(places: &[u32]) -> Vec<Points> {
    let n = places.len() as i64;
    places
        .iter()
        .map(|&p| {
            let tied = places.iter().filter(|&&q| q == p).count() as i64;
            let covered: i64 = (0..tied).map(|k| 2 * (n - (i64::from(p) + k))).sum();
            Points::new(covered, (n - 1) * tied)
        })
        .collect()
}

/// A deal: its first round and its table.
fn deal(t: &TournamentTable) -> (u32, u32) {
    ((t.round - 1) / 3, t.table)
}

/// Every listed table's deal seed is shown only when all three rotations
/// of its deal are over.
fn seeds_only_after_the_deal(tables: &[TournamentTable]) {
    for t in tables {
        let over = tables
            .iter()
            .filter(|x| deal(x) == deal(t) && x.state == TableState::Over as i32)
            .count();
        assert_eq!(
            t.deal_seed.is_some(),
            over == 3,
            "round {} table {}: seed {:?} with {over} rotations over",
            t.round,
            t.table,
            t.deal_seed
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_tournament_plays_every_deal_in_every_seat() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let players = bots(&game, "dup", 6).await;
    let worker = Worker::start(&game, &players);
    let t = leagues
        .create(CreateTournamentRequest {
            format: TournamentFormat::Duplicate as i32,
            ..swiss("Same cards", 3, 6)
        })
        .await;
    assert_eq!(t.format, TournamentFormat::Duplicate as i32);
    for p in &players {
        leagues.enter(p, &t).await;
    }
    leagues.start(&t.tournament_id).await;

    // While it runs, as a player sees it: no deal's seed before all its
    // rotations are over.
    let mut client = leagues.client().await;
    let deadline = Instant::now() + PLAYED;
    loop {
        let listed = client
            .list_tables(authed(
                ListTablesRequest {
                    tournament_id: t.tournament_id.clone(),
                    ..Default::default()
                },
                &players[0].token,
            ))
            .await
            .expect("tables")
            .into_inner()
            .tables;
        seeds_only_after_the_deal(&listed);
        if leagues.get(&t.tournament_id).await.state == TournamentState::Finished as i32 {
            break;
        }
        assert!(Instant::now() < deadline, "not finished in time");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let tables = leagues.tables(&t.tournament_id).await;
    assert_eq!(tables.len(), 12, "two deals, three rotations, two tables");
    seeds_only_after_the_deal(&tables);
    let mut games = BTreeSet::new();
    let mut seats_played: BTreeMap<(u32, u32, String), BTreeSet<usize>> = BTreeMap::new();
    let mut commitments: BTreeMap<(u32, u32), BTreeSet<String>> = BTreeMap::new();
    let mut seeds: BTreeMap<(u32, u32), BTreeSet<String>> = BTreeMap::new();
    let mut expected: BTreeMap<String, Points> = BTreeMap::new();
    for table in &tables {
        assert_eq!(table.state, TableState::Over as i32);
        let game_id = table.game_id.clone().expect("a played table has its game");
        assert!(games.insert(game_id.clone()), "one game per rotation");
        for (seat, account) in table.account_ids.iter().enumerate() {
            seats_played
                .entry((deal(table).0, deal(table).1, account.clone()))
                .or_default()
                .insert(seat);
        }
        // The game never reveals its seed: the league publishes it.
        let history = game
            .games()
            .await
            .get_history(authed(
                GetHistoryRequest {
                    game_id: game_id.clone(),
                    ..Default::default()
                },
                &players[0].token,
            ))
            .await
            .expect("history")
            .into_inner();
        assert_eq!(history.seed, None, "a sealed game shows no seed");
        assert!(!history.complete, "nor its full log");
        assert!(history.actions.is_empty());
        let view = game
            .games()
            .await
            .get_view(authed(
                GetViewRequest {
                    game_id,
                    spectator: true,
                    ..Default::default()
                },
                OPERATOR_TOKEN,
            ))
            .await
            .expect("view")
            .into_inner();
        let result = view.result.expect("the game is over");
        assert_eq!(result.seed, "");
        assert_eq!(table.places, result.places);
        for (account, p) in table.account_ids.iter().zip(points(&result.places)) {
            *expected.entry(account.clone()).or_default() += p;
        }
        commitments
            .entry(deal(table))
            .or_default()
            .insert(history.shuffle_commitment);
        seeds.entry(deal(table)).or_default().insert(
            table
                .deal_seed
                .clone()
                .expect("published once the deal is over"),
        );
    }
    // Every entrant of a group sat in every seat of its deal.
    assert_eq!(seats_played.len(), 12, "six entrants, two deals");
    for (key, seats) in &seats_played {
        assert_eq!(seats.len(), 3, "{key:?} sat in {seats:?}");
    }
    // Every rotation of a deal has one commitment: sha256 of the deal's
    // published seed, and the deal recomputes from it.
    assert_eq!(commitments.len(), 4, "two deals at two tables");
    let mut decks = BTreeSet::new();
    for (key, seen) in &commitments {
        assert_eq!(seen.len(), 1, "{key:?}: {seen:?}");
        let seed = &seeds[key];
        assert_eq!(seed.len(), 1, "{key:?}: {seed:?}");
        let seed = skit_fairness::Seed::from_hex(seed.iter().next().expect("a seed"))
            .expect("a 32-byte seed");
        assert_eq!(Some(&seed.commitment()), seen.iter().next());
        assert!(
            decks.insert(format!("{:?}", skit_fairness::deck(&seed))),
            "each deal its own cards"
        );
    }

    // The standings: placement points summed over every rotation of the
    // complete deals.
    let standings = client
        .get_standings(authed(
            GetStandingsRequest {
                tournament_id: t.tournament_id.clone(),
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("standings")
        .into_inner();
    assert!(standings.ended);
    assert_eq!(standings.rows.len(), 6);
    for row in &standings.rows {
        assert_eq!(row.tables, 6, "two deals in three seats: {row:?}");
        assert_eq!(row.score, expected[&row.account_id].to_string(), "{row:?}");
    }

    drop(client);
    worker.stop().await;
    leagues.stop().await;
    game.stop().await;
}

/// A duplicate event's rounds are whole deals, one round per seat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_event_needs_a_round_per_seat_of_every_deal() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let mut client = leagues.client().await;
    let refused = client
        .create_tournament(authed(
            CreateTournamentRequest {
                format: TournamentFormat::Duplicate as i32,
                ..swiss("Odd", 3, 4)
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect_err("4 rounds are not whole deals of 3");
    skit_testkit::Expected::invalid("rounds").grpc(&refused);
    assert!(
        refused.message().contains("multiple of seats (3)"),
        "{refused:?}"
    );
    drop(client);
    leagues.stop().await;
    game.stop().await;
}
