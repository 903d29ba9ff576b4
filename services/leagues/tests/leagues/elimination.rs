//! A staged elimination event of nine bots at 3-seat tables: two Swiss
//! rounds, a cut to six, a knockout round whose table winners go on, and
//! a final table of two; the final standings rank by how far each got.
//! Stages that do not fit the field end the event at the start, saying so.

use std::collections::BTreeSet;
use std::time::Duration;

use skit_proto::v1::stage::Kind;
use skit_proto::v1::{
    CreateTournamentRequest, GetStandingsRequest, Stage, TournamentFormat, TournamentState,
};
use skit_testkit::{Expected, OPERATOR_TOKEN, TestDb, authed, spawn_game};

use crate::helpers::*;

fn staged(name: &str, stages: Vec<Kind>) -> CreateTournamentRequest {
    CreateTournamentRequest {
        format: TournamentFormat::Elimination as i32,
        stages: stages
            .into_iter()
            .map(|k| Stage { kind: Some(k) })
            .collect(),
        ..swiss(name, 3, 0)
    }
}

fn winner(places: &[u32], seats: &[String]) -> String {
    let seat = places.iter().position(|&p| p == 1).expect("a winner");
    seats[seat].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_staged_elimination_event_is_played_to_its_final_table() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let mut client = leagues.client().await;
    let players = bots(&game, "staged", 9).await;
    let worker = Worker::start(&game, &players);

    // Refused shapes name their field.
    for (request, field) in [
        (staged("No final", vec![Kind::SwissRounds(2)]), "stages"),
        (
            staged(
                "Final first",
                vec![Kind::FinalTable(true), Kind::SwissRounds(1)],
            ),
            "stages[0]",
        ),
        (
            staged(
                "Advance all",
                vec![Kind::KnockoutAdvance(3), Kind::FinalTable(true)],
            ),
            "stages[0]",
        ),
    ] {
        let refused = client
            .create_tournament(authed(request, OPERATOR_TOKEN))
            .await
            .expect_err(field);
        Expected::invalid(field).grpc(&refused);
    }

    let stages = vec![
        Kind::SwissRounds(2),
        Kind::CutTo(6),
        Kind::KnockoutAdvance(1),
        Kind::FinalTable(true),
    ];
    let t = leagues.create(staged("Staged", stages)).await;
    assert_eq!(t.rounds, 4, "two Swiss rounds, a knockout round, the final");
    for p in &players {
        leagues.enter(p, &t).await;
    }
    let id = t.tournament_id.clone();
    leagues.start(&id).await;
    leagues
        .until(&id, Duration::from_secs(300), is(TournamentState::Finished))
        .await;
    let tables = leagues.tables(&id).await;
    let round = |r: u32| {
        tables
            .iter()
            .filter(move |t| t.round == r)
            .collect::<Vec<_>>()
    };
    assert_eq!(round(1).len(), 3);
    assert_eq!(round(2).len(), 3);
    let knockout = round(3);
    assert_eq!(
        knockout.len(),
        2,
        "six after the cut, at two tables of three"
    );
    let winners: BTreeSet<String> = knockout
        .iter()
        .map(|t| winner(&t.places, &t.account_ids))
        .collect();
    let last = round(4);
    assert_eq!(last.len(), 1, "one final table");
    let finalists: BTreeSet<String> = last[0].account_ids.iter().cloned().collect();
    assert_eq!(finalists, winners, "each knockout table's winner goes on");

    let standings = client
        .get_standings(authed(
            GetStandingsRequest { tournament_id: id },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("standings")
        .into_inner();
    let order: Vec<&str> = standings
        .rows
        .iter()
        .map(|r| r.account_id.as_str())
        .collect();
    assert_eq!(order.len(), 9);
    assert_eq!(
        order[0],
        winner(&last[0].places, &last[0].account_ids),
        "the final's winner first"
    );
    assert!(
        finalists.contains(order[1]),
        "the other finalist second: {order:?}"
    );
    let knocked_out: BTreeSet<&str> = knockout
        .iter()
        .flat_map(|t| t.account_ids.iter().map(String::as_str))
        .collect();
    assert!(
        order[2..6].iter().all(|a| knocked_out.contains(a)),
        "then the knockout's players: {order:?}"
    );
    assert!(
        order[6..].iter().all(|a| !knocked_out.contains(a)),
        "then those cut: {order:?}"
    );

    // Each stage's rounds recompute from what was stored before them.
    for round in 1..=4 {
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
    }

    // Stages that do not fit the field end the event at the start.
    let misfit = leagues
        .create(staged(
            "Too big a cut",
            vec![Kind::CutTo(20), Kind::FinalTable(true)],
        ))
        .await;
    for p in &players[..3] {
        leagues.enter(p, &misfit).await;
    }
    leagues.start(&misfit.tournament_id).await;
    let ended = leagues.get(&misfit.tournament_id).await;
    assert_eq!(ended.state, TournamentState::Terminated as i32);
    assert!(
        ended.reason.contains("the stages do not fit 3 entrants"),
        "{}",
        ended.reason
    );

    drop(client);
    worker.stop().await;
    leagues.stop().await;
    game.stop().await;
}
