//! ExportGames through the running service: a finished game's record
//! replays to its result; each seat's views are the ones that seat was
//! shown; a game still being played is never exported; pages hold every
//! game once; and each filter, and who may use it, as docs/python.md
//! ("Records to learn from") says.

use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use skit_engine::Action;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::{
    CreateGameRequest, EndReason, EventKind, ExportGamesRequest, ExportPage, ExportRecord,
    ExportedGame, GetHistoryRequest, JoinGameRequest, ResignRequest, Rules, SeatViews, View,
    export_record::Record,
};
use skit_testkit::{
    Expected, GameService, OPERATOR_TOKEN, Player, TestDb, authed, on_both_databases, play_out,
    skitgubbe_for, spawn_game, view,
};
use time::OffsetDateTime;
use tonic::transport::Channel;
use tonic::{Code, Status};

on_both_databases!(
    a_finished_game_replays_to_its_result_and_each_seat_sees_its_own_views,
    pages_hold_every_game_once_and_filters_choose_them,
);

const TOURNAMENT: &str = "6f1d2c3b-4a59-4e8f-9b7a-0c1d2e3f4a5b";

async fn export(
    app: &GameService,
    token: &str,
    request: ExportGamesRequest,
) -> Result<Vec<ExportRecord>, Status> {
    let mut stream = app
        .games()
        .await
        .export_games(authed(request, token))
        .await?
        .into_inner();
    let mut records = Vec::new();
    while let Some(record) = stream.message().await? {
        records.push(record);
    }
    Ok(records)
}

fn games(records: &[ExportRecord]) -> Vec<&ExportedGame> {
    records
        .iter()
        .filter_map(|r| match &r.record {
            Some(Record::Game(game)) => Some(game),
            _ => None,
        })
        .collect()
}

fn seat_views(records: &[ExportRecord]) -> Vec<&SeatViews> {
    records
        .iter()
        .filter_map(|r| match &r.record {
            Some(Record::SeatViews(views)) => Some(views),
            _ => None,
        })
        .collect()
}

/// The page's end, which must be its last record.
fn page_end(records: &[ExportRecord]) -> &ExportPage {
    match records.last().and_then(|r| r.record.as_ref()) {
        Some(Record::Page(page)) => page,
        other => panic!("a page ends with its `page` record, not {other:?}"),
    }
}

/// A view as compared across GetView and the export: without its history
/// (each holds another span of it) and the seats' ratings (an export
/// leaves today's ratings out).
fn comparable(view: &View) -> View {
    let mut view = view.clone();
    view.history.clear();
    for seat in &mut view.seats {
        seat.rating = None;
    }
    view
}

async fn a_finished_game_replays_to_its_result_and_each_seat_sees_its_own_views(db: &TestDb) {
    // Arrange: a three-seat game played out, every view its seats were
    // shown kept; and a game nobody has finished.
    let app = spawn_game(db).await;
    let (players, game, _) = app.game_with_guests(3).await;
    let (_, running, _) = app.game_with_guests(2).await;
    let mut client = app.games().await;
    let mut rng = ChaCha8Rng::seed_from_u64(43);
    let mut shown: Vec<(u32, View)> = Vec::new();
    play_out(&mut client, &game, &players, &mut rng, &mut |seat, v| {
        shown.push((seat, v.clone()));
    })
    .await;

    // Act
    let request = ExportGamesRequest {
        seat_views: true,
        ..Default::default()
    };
    let records = export(&app, OPERATOR_TOKEN, request).await.expect("export");

    // Assert: one game (not the running one), its three seats' views, the end.
    let exported = games(&records);
    assert_eq!(exported.len(), 1, "{records:?}");
    let exported = exported[0];
    assert_eq!(exported.game_id, game);
    assert!(!format!("{records:?}").contains(&running));
    assert_eq!(records.len(), 5);
    let end = page_end(&records);
    assert_eq!((end.games, end.next_page_token.as_str()), (1, ""));

    // The record is the revealed log GetHistory gives, with the rules
    // version and the result the players saw.
    let history = client
        .get_history(authed(
            GetHistoryRequest {
                game_id: game.clone(),
                ..Default::default()
            },
            &players[0].token,
        ))
        .await
        .expect("history")
        .into_inner();
    assert_eq!(Some(&exported.seed), history.seed.as_ref());
    assert_eq!(exported.shuffle_commitment, history.shuffle_commitment);
    assert_eq!(exported.actions, history.actions);
    assert_eq!(exported.events, history.events);
    assert_eq!(exported.rules, history.rules);
    assert_eq!(
        (exported.players, exported.dealer),
        (history.players, history.dealer)
    );
    assert!(exported.rules_version.starts_with("skit-engine "));
    assert_eq!(exported.shuffle_algorithm, "skitgubbe-shuffle-v1");
    let last = view(&mut client, &game, 0, &players[0].token).await;
    let result = exported.result.as_ref().expect("a result");
    assert_eq!(Some(result), last.result.as_ref());
    assert_eq!(result.reason, EndReason::PlayedOut as i32);
    let seats: Vec<Option<&str>> = exported
        .seats
        .iter()
        .map(|s| s.account_id.as_deref())
        .collect();
    let ids: Vec<Option<&str>> = players.iter().map(|p| Some(p.id.as_str())).collect();
    assert_eq!(seats, ids, "the operator's export names every account");

    // Replaying the actions with the engine from the seed ends the same way.
    let rules = skit_api::rules(exported.rules.as_ref()).expect("the rules");
    let actions: Vec<Action> = exported
        .actions
        .iter()
        .map(|a| Action::from_json(&serde_json::from_str(a).expect("JSON")).expect("an action"))
        .collect();
    let seed = skit_fairness::Seed::from_hex(&exported.seed).expect("a seed");
    let players_n = u8::try_from(exported.players).expect("a few seats");
    let dealer = u8::try_from(exported.dealer).expect("a seat");
    let summary = skit_fairness::verify(
        &seed,
        &exported.shuffle_commitment,
        rules,
        players_n,
        Some(dealer),
        &actions,
    )
    .expect("the log replays from the seed");
    assert!(summary.over, "{summary}");
    assert_eq!(summary.loser.map(u32::from), result.loser);
    assert_eq!(summary.drawn, result.drawn_by_limit);

    // Each seat's views: one per version, each what GetView showed that
    // seat at that version, never another seat's hand.
    let streams = seat_views(&records);
    assert_eq!(streams.len(), 3);
    let mut hands: HashMap<u64, Vec<Vec<String>>> = HashMap::new();
    for (stream, seat) in streams.iter().zip(0u32..) {
        assert_eq!(
            (stream.game_id.as_str(), stream.seat),
            (game.as_str(), seat)
        );
        let versions: Vec<u64> = stream.views.iter().map(|v| v.version).collect();
        let expected: Vec<u64> = (0..=last.version).collect();
        assert_eq!(versions, expected, "seat {seat}");
        assert!(stream.views.iter().all(|v| v.viewer_seat == Some(seat)));
        let by_version: HashMap<u64, &View> = stream.views.iter().map(|v| (v.version, v)).collect();
        let mut compared = 0;
        for (_, seen) in shown.iter().filter(|(s, _)| *s == seat) {
            let exported = by_version[&seen.version];
            assert_eq!(comparable(exported), comparable(seen), "seat {seat}");
            compared += 1;
        }
        assert!(compared > 10, "seat {seat}: {compared} views compared");
        // Their histories, one after another, are the seat's whole history.
        let joined: Vec<_> = stream
            .views
            .iter()
            .flat_map(|v| v.history.clone())
            .collect();
        let whole = view(&mut client, &game, seat, &players[seat as usize].token).await;
        assert_eq!(joined, whole.history, "seat {seat}");
        for v in &stream.views {
            hands.entry(v.version).or_default().push(v.hand.clone());
        }
    }
    for (version, hands) in hands {
        let all: Vec<&String> = hands.iter().flatten().collect();
        let distinct: BTreeSet<&String> = all.iter().copied().collect();
        assert_eq!(all.len(), distinct.len(), "version {version}: {hands:?}");
    }
    drop(client);
    app.stop().await;
}

/// A two-seat game of `players` (the operator creates it, as the
/// matchmaker and the league service do, under `request_id`), ended by
/// seat 0 resigning.
async fn resigned(
    client: &mut GameServiceClient<Channel>,
    players: [&Player; 2],
    request_id: &str,
) -> String {
    let mut request = skitgubbe_for(&[players[0].clone(), players[1].clone()]);
    request.request_id = request_id.into();
    let created = client
        .create_game(authed(request, OPERATOR_TOKEN))
        .await
        .expect("create")
        .into_inner();
    resign(client, &created.game_id, players[0]).await;
    created.game_id
}

async fn resign(client: &mut GameServiceClient<Channel>, game: &str, player: &Player) {
    let request = ResignRequest {
        game_id: game.into(),
        seat: 0,
        move_id: "resign".into(),
    };
    client
        .resign(authed(request, &player.token))
        .await
        .expect("resign");
}

/// Every game of every page `request` starts, `page_size` at a time.
async fn all_pages(
    app: &GameService,
    token: &str,
    mut request: ExportGamesRequest,
) -> (Vec<ExportedGame>, usize) {
    let mut found = Vec::new();
    let mut pages = 0;
    loop {
        let records = export(app, token, request.clone()).await.expect("a page");
        pages += 1;
        let end = page_end(&records).clone();
        let page = games(&records);
        assert_eq!(end.games as usize, page.len());
        found.extend(page.into_iter().cloned());
        if end.next_page_token.is_empty() {
            return (found, pages);
        }
        request.page_token = end.next_page_token;
        assert!(pages < 20, "pages never end");
    }
}

fn ids(games: &[ExportedGame]) -> Vec<String> {
    games.iter().map(|g| g.game_id.clone()).collect()
}

async fn pages_hold_every_game_once_and_filters_choose_them(db: &TestDb) {
    // Arrange: five games ended by resignation (ann sits in three), a
    // tournament table's game, a player's game posing as one, and a game
    // still being played.
    let app = spawn_game(db).await;
    let (ann, bob, cat) = (
        app.guest("ann").await,
        app.guest("bob").await,
        app.guest("cat").await,
    );
    let mut client = app.games().await;
    let mut early = Vec::new();
    for pair in [
        [&ann, &bob],
        [&bob, &cat],
        [&ann, &bob],
        [&bob, &cat],
        [&cat, &ann],
    ] {
        early.push(resigned(&mut client, pair, "").await);
    }
    tokio::time::sleep(Duration::from_millis(20)).await;
    let between = OffsetDateTime::now_utc();
    tokio::time::sleep(Duration::from_millis(20)).await;
    let table = resigned(
        &mut client,
        [&cat, &ann],
        &format!("tournament/{TOURNAMENT}/1/1"),
    )
    .await;
    let posing = CreateGameRequest {
        rules: Some(Rules {
            preset: "skitgubbe".into(),
            options: None,
        }),
        players: 2,
        request_id: format!("tournament/{TOURNAMENT}/1/2"),
        ..Default::default()
    };
    let posing = client
        .create_game(authed(posing, &bob.token))
        .await
        .expect("a player's own game")
        .into_inner()
        .game_id;
    let join = JoinGameRequest {
        game_id: posing.clone(),
        seat: None,
    };
    client
        .join_game(authed(join, &cat.token))
        .await
        .expect("join");
    resign(&mut client, &posing, &bob).await;
    let (running, _) = app.game_for(&[ann.clone(), bob.clone()]).await;
    let finished: Vec<String> = early
        .iter()
        .cloned()
        .chain([table.clone(), posing.clone()])
        .collect();

    // Any signed-in account pages through every finished game, each once,
    // in the order they ended.
    let request = ExportGamesRequest {
        page_size: 2,
        ..Default::default()
    };
    let (every, pages) = all_pages(&app, &cat.token, request.clone()).await;
    assert_eq!(ids(&every), finished);
    assert_eq!(pages, 4);
    assert!(!ids(&every).contains(&running));
    let resigned_record = &every[0];
    let result = resigned_record.result.as_ref().expect("a result");
    assert_eq!(
        (result.reason, result.loser),
        (EndReason::Resigned as i32, Some(0))
    );
    let last_event = resigned_record.events.last().expect("events");
    assert_eq!(last_event.kind, EventKind::Resign as i32);
    // Accounts are named on the caller's own seats only.
    for game in &every {
        for seat in &game.seats {
            let own = seat.account_id.as_deref() == Some(cat.id.as_str());
            assert!(own || seat.account_id.is_none(), "{seat:?}");
            assert_eq!(seat.name.is_some(), own, "{seat:?}");
        }
    }
    let tables: Vec<Option<&str>> = every.iter().map(|g| g.tournament_id.as_deref()).collect();
    assert_eq!(
        tables,
        [None, None, None, None, None, Some(TOURNAMENT), None],
        "only the operator's game is a tournament table's"
    );

    // One account's games: its own, or any for the operator.
    let of_ann = ExportGamesRequest {
        account_id: ann.id.clone(),
        page_size: 1,
        ..Default::default()
    };
    let (anns, _) = all_pages(&app, &ann.token, of_ann.clone()).await;
    assert_eq!(
        ids(&anns),
        [&early[0], &early[2], &early[4], &table].map(String::clone)
    );
    for game in &anns {
        assert!(
            game.seats
                .iter()
                .any(|s| s.account_id == Some(ann.id.clone()))
        );
    }
    let refused = export(&app, &bob.token, of_ann.clone()).await;
    assert_eq!(
        refused.map_err(|s| s.code()).err(),
        Some(Code::PermissionDenied)
    );
    let (by_operator, _) = all_pages(&app, OPERATOR_TOKEN, of_ann).await;
    assert_eq!(ids(&by_operator), ids(&anns));
    assert!(by_operator.iter().all(|g| {
        g.seats
            .iter()
            .all(|s| s.account_id.is_some() && s.name.is_some())
    }));

    // A tournament's games, and a time range.
    let tournament = ExportGamesRequest {
        tournament_id: TOURNAMENT.into(),
        ..Default::default()
    };
    let (tables, _) = all_pages(&app, &bob.token, tournament).await;
    assert_eq!(ids(&tables), std::slice::from_ref(&table));
    let stamp = skit_api::timestamp(between);
    let before = ExportGamesRequest {
        finished_before: Some(stamp),
        ..Default::default()
    };
    assert_eq!(ids(&all_pages(&app, &bob.token, before).await.0), early);
    let after = ExportGamesRequest {
        finished_from: Some(stamp),
        ..Default::default()
    };
    assert_eq!(
        ids(&all_pages(&app, &bob.token, after).await.0),
        [table.clone(), posing.clone()]
    );

    // Over REST: NDJSON, one record per line, the same pages.
    let http = app.http();
    let mut rest_ids = Vec::new();
    let mut token = String::new();
    loop {
        let path = format!(
            "/v1/export/games?accountId={}&pageSize=3&pageToken={token}",
            ann.id
        );
        let (status, text) = http.text("GET", &path, Some(&ann.token), None).await;
        assert_eq!(status, 200, "{text}");
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        for game in lines.iter().filter(|l| l["game"].is_object()) {
            rest_ids.push(game["game"]["gameId"].as_str().expect("an id").to_owned());
            // A game's line is a record `skit verify` reads as it is.
            let record: skit_fairness::GameRecord =
                serde_json::from_value(game["game"].clone()).expect("a game record");
            let summary = record.verify().expect("the seed and the log agree");
            assert!(
                !summary.over,
                "ended by resignation, before the rules end it"
            );
        }
        let end = &lines.last().expect("lines")["page"];
        token = end["nextPageToken"].as_str().expect("a token").to_owned();
        if token.is_empty() {
            break;
        }
    }
    assert_eq!(rest_ids, ids(&anns));

    // Bad requests are refused naming the field.
    for (request, field) in [
        (
            ExportGamesRequest {
                page_token: "12_nonsense".into(),
                ..Default::default()
            },
            "page_token",
        ),
        (
            ExportGamesRequest {
                tournament_id: "not-a-uuid".into(),
                ..Default::default()
            },
            "tournament_id",
        ),
        (
            ExportGamesRequest {
                finished_from: Some(stamp),
                finished_before: Some(stamp),
                ..Default::default()
            },
            "finished_before",
        ),
        (
            ExportGamesRequest {
                account_id: "ann".into(),
                ..Default::default()
            },
            "account_id",
        ),
    ] {
        let refused = export(&app, &bob.token, request).await.err();
        let refused = refused.unwrap_or_else(|| panic!("{field}: accepted"));
        Expected::invalid(field).grpc(&refused);
    }
    drop(client);
    app.stop().await;
}
