//! The game service over gRPC, against a fresh SQLite file and a fresh
//! Postgres database: each test is written once and run on both.

use std::collections::HashSet;
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};
use skit_engine::{Action, Card, CardSet, Game, Preset, Record, Ruleset};
use skit_proto::v1::{
    Action as ApiAction, CreateGameRequest, GetHistoryRequest, GetViewRequest, JoinGameRequest,
    ListGamesRequest, PlayAction, View, WatchGameRequest, action::Kind,
};
use skit_testkit::TestDb;
use skit_testkit::*;
use tonic::Code;

on_both_databases!(
    full_game_to_the_loser,
    resent_move_is_idempotent,
    move_ids_belong_to_their_seat,
    joining_again_changes_nothing,
    stale_version_is_aborted,
    every_error_class,
    restart_mid_game,
    views_never_leak,
    list_games_finds_my_turn,
    finished_games_say_when_they_ended,
);

fn noop(_: u32, _: &View) {}

async fn full_game_to_the_loser(db: &TestDb) {
    // Arrange
    let app = spawn_game(db).await;
    let (guests, game, version) = app.game_with_guests(3).await;
    assert_eq!(version, 0);
    let mut client = app.games().await;
    let mut rng = ChaCha8Rng::seed_from_u64(1);

    // Act
    let moves = play_out(&mut client, &game, &guests, &mut rng, &mut noop).await;

    // Assert: a loser (or a draw by the limit), the seed revealed and
    // committed to, and the full log replays to the same end.
    let end = view(&mut client, &game, 0, &guests[0].token).await;
    let result = end.result.expect("a result once over");
    assert!(result.loser.is_some() || result.drawn_by_limit);
    let history = client
        .get_history(authed(
            GetHistoryRequest {
                game_id: game.clone(),
                after_version: None,
                min_version: None,
            },
            &guests[1].token,
        ))
        .await
        .expect("history")
        .into_inner();
    assert!(history.complete);
    let seed = history.seed.expect("seed revealed");
    assert_eq!(seed, result.seed);
    let seed_bytes = hex::decode(&seed).expect("hex seed");
    assert_eq!(
        hex::encode(Sha256::digest(seed_bytes)),
        history.shuffle_commitment
    );
    let replayed = replay(&history.actions, history.dealer as u8, 3);
    assert_eq!(replayed.state().loser().map(u32::from), result.loser);
    assert!(
        history.actions.len() > moves,
        "every move and every shuffle is in the log"
    );
}

/// A game played out and a game drawn by the action limit both carry their
/// end time, and every history event its time, in order, the last one at
/// the end.
async fn finished_games_say_when_they_ended(db: &TestDb) {
    let app = spawn_game(db).await;
    let mut client = app.games().await;
    let (guests, played, _) = app.game_with_guests(3).await;
    let mut drawn_request = skitgubbe_for(&guests);
    drawn_request.rules = Some(skit_proto::v1::Rules {
        preset: "skitgubbe".into(),
        options: Some(
            serde_json::from_value(serde_json::json!({ "phase2.action_limit": 1 }))
                .expect("struct"),
        ),
    });
    let drawn = client
        .create_game(authed(drawn_request, OPERATOR_TOKEN))
        .await
        .expect("create a game with a short action limit")
        .into_inner()
        .game_id;
    let mut rng = ChaCha8Rng::seed_from_u64(3);

    for game in [&played, &drawn] {
        play_out(&mut client, game, &guests, &mut rng, &mut noop).await;
    }

    let played = view(&mut client, &played, 0, &guests[0].token).await;
    let drawn = view(&mut client, &drawn, 0, &guests[0].token).await;
    assert!(drawn.drawn_by_limit, "an action limit of 1 draws the game");
    for end in [played, drawn] {
        let result = end.result.expect("a result once over");
        let ended = result.ended_at.expect("result.endedAt");
        let times: Vec<_> = end
            .history
            .iter()
            .map(|e| {
                let t = e
                    .time
                    .unwrap_or_else(|| panic!("event {} has no time", e.version));
                (t.seconds, t.nanos)
            })
            .collect();
        assert!(times.is_sorted(), "history times in order: {times:?}");
        assert_eq!(times.last(), Some(&(ended.seconds, ended.nanos)));
    }
}

/// Replays the revealed log with the engine.
fn replay(actions: &[String], dealer: u8, players: u8) -> Game {
    let mut actions = actions
        .iter()
        .map(|a| Action::from_json(&serde_json::from_str(a).expect("json")).expect("an action"));
    let Some(Action::Shuffle(deck)) = actions.next() else {
        panic!("the log starts with the deal")
    };
    let mut game =
        Game::deal(Ruleset::preset(Preset::Skitgubbe), players, dealer, &deck).expect("deal");
    for action in actions {
        game.apply(&action).expect("the log replays");
    }
    game
}

async fn resent_move_is_idempotent(db: &TestDb) {
    // Arrange
    let app = spawn_game(db).await;
    let (guests, game, _) = app.game_with_guests(3).await;
    let mut client = app.games().await;
    let (seat, v) = seat_to_act(&mut client, &game, &guests).await;
    let action = v.legal_actions[0].clone();
    let token = &guests[seat as usize].token;
    let req = submit(&game, seat, &v, action.clone(), "move-1");

    // Act
    let first = client
        .submit_move(authed(req.clone(), token))
        .await
        .expect("first")
        .into_inner();
    let again = client
        .submit_move(authed(req.clone(), token))
        .await
        .expect("resend")
        .into_inner();
    let other_action = v
        .legal_actions
        .iter()
        .find(|a| **a != action)
        .cloned()
        .unwrap_or(ApiAction {
            kind: Some(Kind::Pickup(true)),
        });
    let mut reused = req.clone();
    reused.action = Some(other_action);
    let reused = client
        .submit_move(authed(reused, token))
        .await
        .expect_err("reused id");

    // Assert
    assert_eq!(first.version, again.version);
    let now = view(&mut client, &game, seat, token).await;
    assert_eq!(now.version, first.version, "the resend appended nothing");
    assert_eq!(reused.code(), Code::AlreadyExists, "{reused:?}");
}

/// One player cannot take another's move id (a bot's next ids are easy to
/// guess): the same id from another seat is that seat's own.
async fn move_ids_belong_to_their_seat(db: &TestDb) {
    // Arrange: a two-player game, so the seat to act alternates at times.
    let app = spawn_game(db).await;
    let (guests, game, _) = app.game_with_guests(2).await;
    let mut client = app.games().await;
    let (first_seat, v) = seat_to_act(&mut client, &game, &guests).await;
    let token = &guests[first_seat as usize].token;
    let req = submit(&game, first_seat, &v, v.legal_actions[0].clone(), "taken");
    client
        .submit_move(authed(req, token))
        .await
        .expect("the first seat's move");
    // Moves by the first seat (each with a fresh id) until the other acts.
    let mut n = 0;
    let (seat, v) = loop {
        let (seat, v) = seat_to_act(&mut client, &game, &guests).await;
        if seat != first_seat {
            break (seat, v);
        }
        n += 1;
        let req = submit(
            &game,
            seat,
            &v,
            v.legal_actions[0].clone(),
            &format!("own-{n}"),
        );
        let token = &guests[seat as usize].token;
        client.submit_move(authed(req, token)).await.expect("move");
    };

    // Act: the other seat uses the id the first seat used.
    let req = submit(&game, seat, &v, v.legal_actions[0].clone(), "taken");
    let reply = client
        .submit_move(authed(req, &guests[seat as usize].token))
        .await;

    // Assert
    let reply = reply
        .expect("another seat's id does not block this one")
        .into_inner();
    assert_eq!(reply.version, v.version + 1, "the move was applied");
}

/// A seated player's join is answered with its seat; asking for another
/// seat is refused, and neither appends anything.
async fn joining_again_changes_nothing(db: &TestDb) {
    // Arrange: the creator at seat 0, seats 1 and 2 open.
    let app = spawn_game(db).await;
    let (creator, other) = (app.guest("ann").await, app.guest("bo").await);
    let mut client = app.games().await;
    let req = CreateGameRequest {
        players: 3,
        ..skitgubbe_for(&[])
    };
    let created = client
        .create_game(authed(req, &creator.token))
        .await
        .expect("create")
        .into_inner();
    let game = created.game_id;
    let join = |seat: Option<u32>| JoinGameRequest {
        game_id: game.clone(),
        seat,
    };

    // Act
    let again = client
        .join_game(authed(join(None), &creator.token))
        .await
        .expect("a retried join")
        .into_inner();
    let second = client
        .join_game(authed(join(Some(1)), &creator.token))
        .await
        .expect_err("a second seat by joining");
    let after = view(&mut client, &game, 0, &creator.token).await;
    let joined = client
        .join_game(authed(join(None), &other.token))
        .await
        .expect("another player joins")
        .into_inner();

    // Assert
    assert_eq!(again.seat, 0);
    assert_eq!(second.code(), Code::FailedPrecondition, "{second:?}");
    assert!(
        second.message().contains("already sit at seat 0"),
        "{second:?}"
    );
    assert_eq!(after.version, created.version, "nothing was appended");
    assert_eq!(joined.seat, 1);
}

async fn stale_version_is_aborted(db: &TestDb) {
    let app = spawn_game(db).await;
    let (guests, game, _) = app.game_with_guests(3).await;
    let mut client = app.games().await;
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let before = view(&mut client, &game, 0, &guests[0].token).await;
    random_move(&mut client, &game, &guests, &mut rng, &mut noop)
        .await
        .expect("running")
        .expect("move");
    let (seat, v) = seat_to_act(&mut client, &game, &guests).await;

    let mut req = submit(&game, seat, &v, v.legal_actions[0].clone(), "late");
    req.expected_version = before.version;
    let err = client
        .submit_move(authed(req, &guests[seat as usize].token))
        .await
        .expect_err("stale");

    assert_eq!(err.code(), Code::Aborted, "{err:?}");
    assert!(
        err.message().contains(&v.version.to_string()),
        "{}",
        err.message()
    );
    assert_eq!(
        view(&mut client, &game, seat, &guests[seat as usize].token)
            .await
            .version,
        v.version
    );
}

async fn every_error_class(db: &TestDb) {
    let app = spawn_game(db).await;
    let (guests, game, _) = app.game_with_guests(3).await;
    let mut client = app.games().await;
    let (seat, v) = seat_to_act(&mut client, &game, &guests).await;
    let token = guests[seat as usize].token.clone();
    let play = |cards: &[&str]| ApiAction {
        kind: Some(Kind::Play(PlayAction {
            cards: cards.iter().map(|c| c.to_string()).collect(),
        })),
    };

    // INVALID_ARGUMENT naming the field.
    for (action, field) in [
        (play(&["ZZ"]), "action.play"),
        (play(&[]), "action.play"),
        (ApiAction { kind: None }, "action"),
    ] {
        let err = client
            .submit_move(authed(submit(&game, seat, &v, action, "bad"), &token))
            .await
            .expect_err("malformed");
        assert_eq!(err.code(), Code::InvalidArgument, "{err:?}");
        assert!(err.message().starts_with(field), "{}", err.message());
    }
    // FAILED_PRECONDITION naming the rule: a card the seat does not hold.
    let hand: HashSet<String> = v.hand.iter().cloned().collect();
    let foreign = Card::all()
        .map(|c| c.to_string())
        .find(|c| !hand.contains(c))
        .expect("a card elsewhere");
    let err = client
        .submit_move(authed(
            submit(&game, seat, &v, play(&[&foreign]), "nope"),
            &token,
        ))
        .await
        .expect_err("illegal");
    assert_eq!(err.code(), Code::FailedPrecondition, "{err:?}");
    assert!(
        err.message().starts_with("card_not_held:"),
        "{}",
        err.message()
    );
    // UNAUTHENTICATED: no token, a wrong token.
    let req = submit(&game, seat, &v, v.legal_actions[0].clone(), "x");
    let err = client.submit_move(req.clone()).await.expect_err("no token");
    assert_eq!(err.code(), Code::Unauthenticated);
    let err = client
        .submit_move(authed(req.clone(), "wrong"))
        .await
        .expect_err("bad token");
    assert_eq!(err.code(), Code::Unauthenticated);
    // PERMISSION_DENIED: someone else's seat.
    let other = &guests[(seat as usize + 1) % 3].token;
    let err = client
        .submit_move(authed(req.clone(), other))
        .await
        .expect_err("not your seat");
    assert_eq!(err.code(), Code::PermissionDenied);
    // NOT_FOUND: an unknown game.
    let mut unknown = req.clone();
    unknown.game_id = uuid::Uuid::new_v4().to_string();
    let err = client
        .submit_move(authed(unknown, &token))
        .await
        .expect_err("no game");
    assert_eq!(err.code(), Code::NotFound);
    // Nothing was appended by any of these.
    assert_eq!(
        view(&mut client, &game, seat, &token).await.version,
        v.version
    );
}

async fn restart_mid_game(db: &TestDb) {
    let app = spawn_game(db).await;
    let (guests, game, _) = app.game_with_guests(3).await;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut client = app.games().await;
    for _ in 0..10 {
        random_move(&mut client, &game, &guests, &mut rng, &mut noop)
            .await
            .expect("running")
            .expect("move");
    }
    let before = view(&mut client, &game, 1, &guests[1].token).await;
    drop(client);
    app.stop().await;

    let app = spawn_game(db).await;
    let mut client = app.games().await;
    let after = view(&mut client, &game, 1, &guests[1].token).await;
    assert_eq!(before, after, "the replayed game shows the same view");
    play_out(&mut client, &game, &guests, &mut rng, &mut noop).await;
    drop(client);
    app.stop().await;
}

/// The cards a record shows everyone.
fn record_cards(record: &Record) -> CardSet {
    match record {
        Record::Play { cards, .. }
        | Record::Pickup { cards, .. }
        | Record::Sluff { cards, .. }
        | Record::Bank { cards, .. }
        | Record::Shuffle { cards } => *cards,
        Record::Chance { card, .. } | Record::Rob { card, .. } => CardSet::single(*card),
        _ => CardSet::EMPTY,
    }
}

/// Every string in a message that is a card.
fn cards_in(view: &View) -> Vec<Card> {
    fn walk(value: &serde_json::Value, out: &mut Vec<Card>) {
        match value {
            serde_json::Value::String(s) if s.len() == 2 => out.extend(s.parse::<Card>().ok()),
            serde_json::Value::Array(a) => a.iter().for_each(|v| walk(v, out)),
            serde_json::Value::Object(o) => o.values().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(&serde_json::to_value(view).expect("json"), &mut out);
    out
}

async fn views_never_leak(db: &TestDb) {
    let app = spawn_game(db).await;
    let mut client = app.games().await;
    let games = if db.sqlite_path().is_some() { 3 } else { 2 };
    for g in 0..games {
        let (guests, game, _) = app.game_with_guests(2 + g % 3).await;
        let players = guests.len() as u8;
        let mut rng = ChaCha8Rng::seed_from_u64(100 + g as u64);
        let mut seen: Vec<(u32, View)> = Vec::new();
        play_out(
            &mut client,
            &game,
            &guests,
            &mut rng,
            &mut |seat, v: &View| seen.push((seat, v.clone())),
        )
        .await;
        let history = client
            .get_history(authed(
                GetHistoryRequest {
                    game_id: game.clone(),
                    after_version: None,
                    min_version: None,
                },
                &guests[0].token,
            ))
            .await
            .expect("history")
            .into_inner();

        // Replay the revealed log; at each version, what may each seat know?
        let mut actions = history
            .actions
            .iter()
            .map(|a| Action::from_json(&serde_json::from_str(a).expect("json")).expect("action"));
        let Some(Action::Shuffle(deck)) = actions.next() else {
            panic!("deal first")
        };
        let mut engine = Game::deal(
            Ruleset::preset(Preset::Skitgubbe),
            players,
            history.dealer as u8,
            &deck,
        )
        .expect("deal");
        let mut hands_at = vec![
            (0..players)
                .map(|s| engine.state().hand(s))
                .collect::<Vec<_>>(),
        ];
        let mut known = vec![vec![CardSet::EMPTY; players as usize]];
        let mut public = CardSet::EMPTY;
        for action in actions {
            let before = engine.history().len();
            engine.apply(&action).expect("replays");
            public = engine.history()[before..]
                .iter()
                .fold(public, |acc, r| acc | record_cards(r));
            let prev = known.last().expect("known").clone();
            let hands: Vec<CardSet> = (0..players).map(|s| engine.state().hand(s)).collect();
            known.push(
                (0..players as usize)
                    .map(|s| {
                        prev[s]
                            | hands[s]
                            | public
                            | engine.state().table_set()
                            | engine
                                .state()
                                .turned_card()
                                .map_or(CardSet::EMPTY, CardSet::single)
                            // The trump card is turned face up between the
                            // phases, even in the action that draws it.
                            | engine
                                .state()
                                .trump_card()
                                .map_or(CardSet::EMPTY, CardSet::single)
                    })
                    .collect(),
            );
            hands_at.push(hands);
        }
        for (seat, v) in seen.iter().filter(|(_, v)| v.result.is_none()) {
            let at = v.version as usize;
            // `known` accumulates: everything the seat ever held or saw.
            let allowed = known[at.min(known.len() - 1)][*seat as usize];
            let others = (0..players)
                .filter(|&s| u32::from(s) != *seat)
                .fold(CardSet::EMPTY, |acc, s| acc | hands_at[at][s as usize]);
            for card in cards_in(v) {
                assert!(
                    !others.contains(card) || allowed.contains(card),
                    "seat {seat} saw {card} in another hand at version {at}"
                );
            }
        }
    }
    drop(client);
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_on_one_postgres() {
    // Arrange: two service instances sharing one database.
    let db = TestDb::postgres().await;
    let a = spawn_game(&db).await;
    let b = spawn_game(&db).await;
    let (guests, game, _) = a.game_with_guests(3).await;
    let mut on_a = a.games().await;
    let mut on_b = b.games().await;
    let (seat, v) = seat_to_act(&mut on_a, &game, &guests).await;
    let token = guests[seat as usize].token.clone();

    // A long poll and a watch on B.
    let poll = {
        let mut on_b = on_b.clone();
        let req = GetViewRequest {
            game_id: game.clone(),
            seat: Some(seat),
            wait_for_version_after: Some(v.version),
            timeout_ms: 10_000,
            ..Default::default()
        };
        let token = token.clone();
        tokio::spawn(async move { on_b.get_view(authed(req, &token)).await })
    };
    let mut watch = on_b
        .watch_game(authed(
            WatchGameRequest {
                game_id: game.clone(),
                seat: Some(seat),
                from_version: Some(v.version),
                ..Default::default()
            },
            &token,
        ))
        .await
        .expect("watch")
        .into_inner();
    tokio::time::sleep(Duration::from_millis(200)).await;

    // Act: a move on A.
    let moved = on_a
        .submit_move(authed(
            submit(&game, seat, &v, v.legal_actions[0].clone(), "a-1"),
            &token,
        ))
        .await
        .expect("move on A")
        .into_inner();

    // Assert: B's long poll and watch see it.
    let polled = poll.await.expect("join").expect("poll").into_inner();
    assert_eq!(polled.version, moved.version);
    let watched = tokio::time::timeout(Duration::from_secs(10), watch.message())
        .await
        .expect("in time")
        .expect("stream")
        .expect("a view");
    assert_eq!(watched.version, moved.version);

    // Two conflicting moves at once, one per instance: exactly one lands.
    let (seat, v) = seat_to_act(&mut on_a, &game, &guests).await;
    let token = guests[seat as usize].token.clone();
    let action = v.legal_actions[0].clone();
    let (ra, rb) = tokio::join!(
        on_a.submit_move(authed(
            submit(&game, seat, &v, action.clone(), "race-a"),
            &token
        )),
        on_b.submit_move(authed(
            submit(&game, seat, &v, action.clone(), "race-b"),
            &token
        )),
    );
    let landed = [ra.is_ok(), rb.is_ok()].iter().filter(|ok| **ok).count();
    assert_eq!(landed, 1, "{ra:?} {rb:?}");
    let loser = ra.err().or(rb.err()).expect("one refused");
    assert_eq!(loser.code(), Code::Aborted, "{loser:?}");
    let history = on_b
        .get_history(authed(
            GetHistoryRequest {
                game_id: game.clone(),
                after_version: Some(v.version),
                min_version: None,
            },
            &token,
        ))
        .await
        .expect("history")
        .into_inner();
    let moves = history.events.iter().filter(|e| e.seat.is_some()).count();
    assert_eq!(moves, 1, "only one of the racing moves is in the log");
    drop((on_a, on_b, watch));
    a.stop().await;
    b.stop().await;
}

async fn list_games_finds_my_turn(db: &TestDb) {
    let app = spawn_game(db).await;
    let (guests, game, _) = app.game_with_guests(3).await;
    let mut client = app.games().await;
    let (seat, _) = seat_to_act(&mut client, &game, &guests).await;
    let waiting = (0..3u32).find(|&s| s != seat).expect("another seat");
    let list = |token: &str, wait_ms| {
        authed(
            ListGamesRequest {
                my_turn_only: true,
                include_over: false,
                wait_ms,
                ..Default::default()
            },
            token,
        )
    };

    let mine = client
        .list_games(list(&guests[seat as usize].token, 5_000))
        .await
        .expect("list")
        .into_inner();
    let started = std::time::Instant::now();
    let theirs = client
        .list_games(list(&guests[waiting as usize].token, 300))
        .await
        .expect("list")
        .into_inner();

    assert_eq!(mine.games.len(), 1);
    assert_eq!(mine.games[0].game_id, game);
    assert_eq!(mine.games[0].my_seats_to_act, vec![seat]);
    let v = view(&mut client, &game, waiting, &guests[waiting as usize].token).await;
    if v.legal_actions.is_empty() {
        assert!(theirs.games.is_empty());
        assert!(
            started.elapsed() >= Duration::from_millis(250),
            "waited for the poll"
        );
    }
}
