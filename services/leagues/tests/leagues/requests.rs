//! Bad requests and refused entries: each names its field or condition
//! and changes nothing; only the operator steers; a request id makes a
//! create happen once; a preview is the round that is then seated.

use std::time::Duration;

use skit_proto::v1::{
    AccountKind, Conditions, ConstrainSeatingRequest, EnterTournamentRequest, ListTablesRequest,
    PreviewRoundRequest, SeatGroup, TerminateTournamentRequest, TournamentState,
};
use skit_testkit::{Expected, OPERATOR_TOKEN, TestDb, authed, spawn_game};
use tonic::Code;

use crate::helpers::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_creates_name_their_field_and_only_the_operator_creates() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let mut client = leagues.client().await;
    let cases = [
        (swiss("", 3, 3), "name"),
        (swiss("Seven", 7, 3), "seats"),
        (swiss("No rounds", 3, 0), "rounds"),
        (
            skit_proto::v1::CreateTournamentRequest {
                format: 0,
                ..swiss("No format", 3, 3)
            },
            "format",
        ),
        (
            skit_proto::v1::CreateTournamentRequest {
                tiebreaks: vec![1, 1],
                ..swiss("Twice", 3, 3)
            },
            "tiebreaks[1]",
        ),
        (
            skit_proto::v1::CreateTournamentRequest {
                seed: Some("minus one".into()),
                ..swiss("Bad seed", 3, 3)
            },
            "seed",
        ),
    ];
    for (request, field) in cases {
        let refused = client
            .create_tournament(authed(request, OPERATOR_TOKEN))
            .await
            .expect_err(field);
        Expected::invalid(field).grpc(&refused);
    }
    let player = game.account("ann", AccountKind::Player).await;
    let refused = client
        .create_tournament(authed(swiss("Mine", 3, 3), &player.token))
        .await
        .expect_err("a player cannot create");
    assert_eq!(refused.code(), Code::PermissionDenied);
    let listed = client
        .list_tournaments(authed(Default::default(), OPERATOR_TOKEN))
        .await
        .expect("list")
        .into_inner();
    assert!(listed.tournaments.is_empty(), "nothing was created");

    // The same request id: the same tournament; other settings: refused.
    let once = skit_proto::v1::CreateTournamentRequest {
        request_id: "weekly-1".into(),
        seed: None,
        ..swiss("Weekly", 3, 3)
    };
    let first = leagues.create(once.clone()).await;
    let again = leagues.create(once.clone()).await;
    assert_eq!(first.tournament_id, again.tournament_id);
    let refused = client
        .create_tournament(authed(
            skit_proto::v1::CreateTournamentRequest { rounds: 4, ..once },
            OPERATOR_TOKEN,
        ))
        .await
        .expect_err("reused request id");
    Expected {
        field: Some("request_id"),
        ..Expected::new(Code::AlreadyExists, "request_id_reused")
    }
    .grpc(&refused);
    drop(client);
    leagues.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn entries_meet_the_conditions_and_close_at_the_start() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let mut client = leagues.client().await;
    let ann = game.account("ann", AccountKind::Player).await;
    let bot = game.account("bot", AccountKind::Bot).await;
    let closed = leagues
        .create(skit_proto::v1::CreateTournamentRequest {
            conditions: Some(Conditions::default()),
            entry_code: "sesame".into(),
            ..swiss("People only", 3, 2)
        })
        .await;
    let enter = |token: &str, code: &str| {
        authed(
            EnterTournamentRequest {
                tournament_id: closed.tournament_id.clone(),
                entry_code: code.into(),
            },
            token,
        )
    };
    let refused = client
        .enter_tournament(enter(&bot.token, "sesame"))
        .await
        .expect_err("bot");
    assert_eq!(condition(&refused), "allow_bots");
    let refused = client
        .enter_tournament(enter(&ann.token, "open"))
        .await
        .expect_err("code");
    assert_eq!(condition(&refused), "entry_code");
    let entry = client
        .enter_tournament(enter(&ann.token, "sesame"))
        .await
        .expect("ann enters")
        .into_inner();
    assert_eq!(entry.account_id, ann.id);
    assert_eq!(leagues.get(&closed.tournament_id).await.entrants, 1);
    // A player's history: the tournaments they entered, and no other.
    let other = leagues.create(swiss("Another", 3, 2)).await;
    let history = |token: String| {
        let mut client = client.clone();
        async move {
            client
                .list_tournaments(authed(
                    skit_proto::v1::ListTournamentsRequest {
                        entered: true,
                        ..Default::default()
                    },
                    &token,
                ))
                .await
                .expect("history")
                .into_inner()
                .tournaments
                .into_iter()
                .map(|t| t.tournament_id)
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        history(ann.token.clone()).await,
        std::slice::from_ref(&closed.tournament_id)
    );
    assert!(history(bot.token.clone()).await.is_empty());
    assert_ne!(other.tournament_id, closed.tournament_id);

    // One entrant cannot fill a table: the start terminates it, saying so.
    leagues.start(&closed.tournament_id).await;
    let ended = leagues.get(&closed.tournament_id).await;
    assert_eq!(ended.state, TournamentState::Terminated as i32);
    assert!(
        ended.reason.contains("too few entrants"),
        "{}",
        ended.reason
    );
    let late = game.account("late", AccountKind::Player).await;
    let refused = client
        .enter_tournament(enter(&late.token, "sesame"))
        .await
        .expect_err("closed");
    assert_eq!(condition(&refused), "registering");
    drop(client);
    leagues.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_preview_is_the_round_seated_and_terminate_voids_play() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let mut client = leagues.client().await;
    let players = bots(&game, "preview", 7).await;
    let t = leagues.create(swiss("Previewed", 3, 3)).await;
    for p in &players {
        leagues.enter(p, &t).await;
    }
    let id = t.tournament_id.clone();
    let preview = client
        .preview_round(authed(
            PreviewRoundRequest {
                tournament_id: id.clone(),
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("preview")
        .into_inner();
    assert_eq!(preview.round, 1);
    // Seven at three: tables of 3, 2 and 2? No: of k or k - 1, so 3 + 2 + 2.
    let mut sizes: Vec<usize> = preview.tables.iter().map(|t| t.account_ids.len()).collect();
    sizes.sort_unstable();
    assert_eq!(sizes, [2, 2, 3]);
    leagues.start(&id).await;
    let seated = client
        .list_tables(authed(
            ListTablesRequest {
                tournament_id: id.clone(),
                round: 1,
                mine_only: false,
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("tables")
        .into_inner()
        .tables;
    let seats = |tables: &[skit_proto::v1::TournamentTable]| -> Vec<Vec<String>> {
        tables.iter().map(|t| t.account_ids.clone()).collect()
    };
    assert_eq!(seats(&seated), seats(&preview.tables));

    let refused = client
        .terminate_tournament(authed(
            TerminateTournamentRequest {
                tournament_id: id.clone(),
                reason: " ".into(),
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect_err("no reason");
    Expected::invalid("reason").grpc(&refused);
    let ended = client
        .terminate_tournament(authed(
            TerminateTournamentRequest {
                tournament_id: id.clone(),
                reason: "the venue flooded".into(),
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("terminate")
        .into_inner();
    assert_eq!(ended.state, TournamentState::Terminated as i32);
    assert_eq!(ended.reason, "the venue flooded");
    let after = leagues
        .until(&id, Duration::from_secs(5), is(TournamentState::Terminated))
        .await;
    assert_eq!(after.round, 1, "no round is seated after the end");
    let tables = leagues.tables(&id).await;
    assert!(
        tables
            .iter()
            .all(|t| t.state == skit_proto::v1::TableState::Void as i32)
    );
    drop(client);
    leagues.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_edits_a_registering_tournament_and_it_starts_on_time() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let client = leagues.client().await;
    let ann = game.account("ann", AccountKind::Player).await;
    let t = leagues.create(swiss("Draft", 3, 2)).await;
    let id = t.tournament_id.clone();

    // Over REST: a new name and an entry code; the rest stays.
    let http = skit_testkit::Http::new(leagues.url());
    let (status, edited) = http
        .call(
            "POST",
            &format!("/v1/tournaments/{id}/edit"),
            Some(OPERATOR_TOKEN),
            Some(serde_json::json!({ "name": "Final name", "entryCode": "open-sesame" })),
        )
        .await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["name"], "Final name");
    assert_eq!(edited["entryCodeRequired"], true);
    assert_eq!(edited["seats"], 3);
    let edit = |request: skit_proto::v1::EditTournamentRequest, token: &str| {
        let mut client = client.clone();
        let request = authed(request, token);
        async move { client.edit_tournament(request).await }
    };
    let refused = edit(
        skit_proto::v1::EditTournamentRequest {
            tournament_id: id.clone(),
            name: Some("Mine".into()),
            ..Default::default()
        },
        &ann.token,
    )
    .await
    .expect_err("only the operator edits");
    assert_eq!(refused.code(), Code::PermissionDenied);
    let refused = edit(
        skit_proto::v1::EditTournamentRequest {
            tournament_id: id.clone(),
            name: Some(" ".into()),
            ..Default::default()
        },
        OPERATOR_TOKEN,
    )
    .await
    .expect_err("a blank name");
    Expected::invalid("name").grpc(&refused);
    assert_eq!(
        leagues.get(&id).await.name,
        "Final name",
        "a refused edit changes nothing"
    );

    // A start time that has come: the director starts it (one entrant is
    // too few, so it ends saying so), and a started tournament is not
    // edited any more.
    let now = skit_api::timestamp(time::OffsetDateTime::now_utc());
    edit(
        skit_proto::v1::EditTournamentRequest {
            tournament_id: id.clone(),
            starts_at: Some(now),
            ..Default::default()
        },
        OPERATOR_TOKEN,
    )
    .await
    .expect("a start time");
    let ended = leagues
        .until(
            &id,
            Duration::from_secs(10),
            is(TournamentState::Terminated),
        )
        .await;
    assert!(
        ended.reason.contains("too few entrants"),
        "{}",
        ended.reason
    );
    let refused = edit(
        skit_proto::v1::EditTournamentRequest {
            tournament_id: id,
            name: Some("Too late".into()),
            ..Default::default()
        },
        OPERATOR_TOKEN,
    )
    .await
    .expect_err("ended");
    assert_eq!(refused.code(), Code::FailedPrecondition);
    drop(client);
    leagues.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn constraints_name_unknown_accounts_and_an_unseatable_field_says_why() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let mut client = leagues.client().await;
    let players = bots(&game, "seven", 7).await;
    let sevens = leagues.create(swiss("Sevens", 5, 1)).await;
    for player in &players {
        leagues.enter(player, &sevens).await;
    }
    let group = |ids: &[&str]| SeatGroup {
        account_ids: ids.iter().map(|id| (*id).to_owned()).collect(),
    };
    let unknown = "987654321";
    let constrain = |together: Vec<SeatGroup>, apart: Vec<SeatGroup>| {
        authed(
            ConstrainSeatingRequest {
                tournament_id: sevens.tournament_id.clone(),
                together,
                apart,
            },
            OPERATOR_TOKEN,
        )
    };

    let cases = [
        (
            constrain(vec![group(&[&players[0].id, unknown])], Vec::new()),
            "together[0].account_ids[1]",
        ),
        (
            constrain(Vec::new(), vec![group(&[unknown, &players[1].id])]),
            "apart[0].account_ids[0]",
        ),
    ];
    for (request, field) in cases {
        let refused = client
            .constrain_seating(request)
            .await
            .expect_err("an unknown account");
        Expected::invalid(field).grpc(&refused);
        assert!(refused.message().contains(unknown), "{refused:?}");
    }
    client
        .constrain_seating(constrain(
            vec![group(&[&players[0].id, &players[1].id])],
            Vec::new(),
        ))
        .await
        .expect("known accounts may be pinned");

    // Seven entrants at five seats: 5 + 2 or 4 + 3 leave someone out.
    leagues.start(&sevens.tournament_id).await;
    let ended = leagues.get(&sevens.tournament_id).await;
    assert_eq!(ended.state, TournamentState::Terminated as i32);
    assert!(
        ended
            .reason
            .contains("7 players cannot be seated at tables of 5 or 4 seats"),
        "{}",
        ended.reason
    );
    assert!(!ended.reason.contains("too few"), "{}", ended.reason);
}
