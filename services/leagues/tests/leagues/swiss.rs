//! A whole Swiss tournament of nine bot accounts at 3-seat tables, played
//! to the end by a bot worker, with its tables, standings and events
//! checked against the games' own results; and a round robin of nine in
//! which every pair meets exactly once.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use skit_league::Points;
use skit_proto::v1::{
    GetStandingsRequest, TableState, TournamentEventKind, TournamentState, WatchTournamentRequest,
};
use skit_testkit::{OPERATOR_TOKEN, TestDb, authed, on_both_databases, spawn_game};
use tokio_stream::StreamExt;

use crate::helpers::*;

const PLAYED: Duration = Duration::from_secs(240);

/// Each seat's placement points, 2 (n - place) / (n - 1), tied places
/// sharing the points of the places they cover.
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

async fn a_swiss_tournament_is_played_to_the_end(db: &TestDb) {
    let game_db = game_db(db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(db, &game).await;
    let players = bots(&game, "swiss", 9).await;
    let worker = Worker::start(&game, &players);
    let t = leagues.create(swiss("Nine at three", 3, 3)).await;
    for p in &players {
        leagues.enter(p, &t).await;
    }
    let mut client = leagues.client().await;
    client
        .start_tournament(authed(
            skit_proto::v1::StartTournamentRequest {
                tournament_id: t.tournament_id.clone(),
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("start");
    let done = leagues
        .until(&t.tournament_id, PLAYED, is(TournamentState::Finished))
        .await;
    assert_eq!(done.round, 3);

    let tables = leagues.tables(&t.tournament_id).await;
    assert_eq!(tables.len(), 9, "three rounds of three tables");
    let mut met = BTreeSet::new();
    let mut expected: BTreeMap<String, Points> = BTreeMap::new();
    let mut games = BTreeSet::new();
    for table in &tables {
        assert_eq!(table.account_ids.len(), 3);
        assert_eq!(table.state, TableState::Over as i32);
        // Nine players, three rounds: nobody needs to meet anyone twice.
        for a in &table.account_ids {
            for b in &table.account_ids {
                if a < b {
                    assert!(met.insert((a.clone(), b.clone())), "{a} and {b} met twice");
                }
            }
        }
        // The table's result is its game's.
        let game_id = table.game_id.clone().expect("a played table has its game");
        assert!(games.insert(game_id.clone()), "one game per table");
        let view = game
            .games()
            .await
            .get_view(authed(
                skit_proto::v1::GetViewRequest {
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
        assert_eq!(table.places, result.places);
        for (account, p) in table.account_ids.iter().zip(points(&result.places)) {
            *expected.entry(account.clone()).or_default() += p;
        }
    }

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
    assert_eq!(standings.sequence, done.sequence);
    assert_eq!(standings.rows.len(), 9);
    for row in &standings.rows {
        assert_eq!(row.tables, 3);
        assert!(row.name.starts_with("swiss"), "the entrant's name: {row:?}");
        assert_eq!(row.score, expected[&row.account_id].to_string(), "{row:?}");
    }
    let scores: Vec<f64> = standings.rows.iter().map(|r| r.score_value).collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "ranked by score: {scores:?}"
    );

    // Every round recomputes, from what was stored before it, to the
    // tables it got.
    for round in 1..=3 {
        let audit = client
            .audit_round(authed(
                skit_proto::v1::AuditRoundRequest {
                    tournament_id: t.tournament_id.clone(),
                    round,
                },
                OPERATOR_TOKEN,
            ))
            .await
            .expect("audit")
            .into_inner();
        assert!(audit.matches, "round {round}: {audit:?}");
        assert_eq!(audit.stored.len(), 3);
    }
    let refused = client
        .audit_round(authed(
            skit_proto::v1::AuditRoundRequest {
                tournament_id: t.tournament_id.clone(),
                round: 4,
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect_err("no round 4");
    skit_testkit::Expected::invalid("round").grpc(&refused);

    // The event stream from the start: numbered without gaps, and ending
    // with the final standings.
    let mut events = client
        .watch_tournament(authed(
            WatchTournamentRequest {
                tournament_id: t.tournament_id.clone(),
                after_sequence: 0,
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("watch")
        .into_inner();
    let mut all = Vec::new();
    while let Some(event) = events.next().await {
        all.push(event.expect("event"));
    }
    let numbers: Vec<u64> = all.iter().map(|e| e.sequence).collect();
    assert_eq!(numbers, (1..=done.sequence).collect::<Vec<_>>());
    let seated = all
        .iter()
        .filter(|e| e.kind == TournamentEventKind::RoundSeated as i32)
        .count();
    assert_eq!(seated, 3);
    let last = all.last().expect("events");
    assert_eq!(last.kind, TournamentEventKind::StandingsChanged as i32);
    assert_eq!(
        last.standings.as_ref().map(|s| &s.rows),
        Some(&standings.rows)
    );

    // The same over REST: the standings, the event stream as SSE, and the
    // exports.
    let http = skit_testkit::Http::new(leagues.url());
    let base = format!("/v1/tournaments/{}", t.tournament_id);
    let (status, json) = http
        .call(
            "GET",
            &format!("{base}/standings"),
            Some(OPERATOR_TOKEN),
            None,
        )
        .await;
    assert_eq!(status, 200, "{json}");
    assert_eq!(
        json["rows"][0]["accountId"],
        standings.rows[0].account_id.as_str()
    );
    let (status, sse) = http
        .text("GET", &format!("{base}/watch"), Some(OPERATOR_TOKEN), None)
        .await;
    assert_eq!(status, 200);
    let messages = skit_testkit::sse_messages(&sse);
    assert_eq!(messages.len() as u64, done.sequence);
    let (status, csv) = http
        .text(
            "GET",
            &format!("{base}/standings.csv"),
            Some(OPERATOR_TOKEN),
            None,
        )
        .await;
    assert_eq!(status, 200, "{csv}");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 10, "a header and nine players: {csv}");
    assert!(
        lines[1].starts_with(&format!(
            "1,{},{},{},",
            standings.rows[0].account_id, standings.rows[0].name, standings.rows[0].score
        )),
        "{csv}"
    );
    let (status, ndjson) = http
        .text(
            "GET",
            &format!("{base}/standings.ndjson"),
            Some(OPERATOR_TOKEN),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(ndjson.lines().count(), 9);
    let (status, _) = http
        .text("GET", &format!("{base}/standings.csv"), None, None)
        .await;
    assert_eq!(status, 401, "the export needs a token");

    drop(client);
    worker.stop().await;
    leagues.stop().await;
    game.stop().await;
}

on_both_databases!(a_swiss_tournament_is_played_to_the_end);

/// A round robin of nine at tables of three: in four rounds every pair of
/// players meets exactly once, from the fixed schedule.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_seats_every_pair_exactly_once() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let players = bots(&game, "robin", 9).await;
    let worker = Worker::start(&game, &players);
    let t = leagues
        .create(skit_proto::v1::CreateTournamentRequest {
            format: skit_proto::v1::TournamentFormat::RoundRobin as i32,
            ..swiss("Everyone once", 3, 4)
        })
        .await;
    for p in &players {
        leagues.enter(p, &t).await;
    }
    leagues.start(&t.tournament_id).await;
    leagues
        .until(&t.tournament_id, PLAYED, is(TournamentState::Finished))
        .await;
    let tables = leagues.tables(&t.tournament_id).await;
    assert_eq!(tables.len(), 12, "four rounds of three tables");
    let mut met = BTreeMap::new();
    for table in &tables {
        for a in &table.account_ids {
            for b in &table.account_ids {
                if a < b {
                    *met.entry((a.clone(), b.clone())).or_insert(0) += 1;
                }
            }
        }
    }
    assert_eq!(met.len(), 36, "all 36 pairs of nine met");
    assert!(met.values().all(|&n| n == 1), "{met:?}");
    worker.stop().await;
    leagues.stop().await;
    game.stop().await;
}
