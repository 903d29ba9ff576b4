//! SampleWorlds as a bot meets it: worlds that agree with its seat's view
//! (its own hand, the others' hand and pile sizes and known cards, every
//! card once), the same worlds for the same seed, over gRPC and REST alike;
//! refused for a seat the caller does not hold, for a spectator, and for an
//! `n` of 0 or over the cap.

use std::collections::BTreeSet;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use skit_proto::v1::{Phase, SampleWorldsRequest, SampleWorldsResponse, View, World};
use skit_testkit::TestDb;
use skit_testkit::*;
use tonic::{Code, Status};

on_both_databases!(
    a_seat_gets_worlds_that_agree_with_its_view,
    the_same_seed_gives_the_same_worlds,
);

/// Moves played before sampling: some tricks taken, still in phase one.
const MOVES: usize = 9;

/// A three-seat skitgubbe game a few random moves in.
async fn game_under_way(app: &GameService) -> (Vec<Player>, String) {
    let (players, game, _) = app.game_with_guests(3).await;
    let mut client = app.games().await;
    let mut rng = ChaCha8Rng::seed_from_u64(43);
    for _ in 0..MOVES {
        let reply = random_move(&mut client, &game, &players, &mut rng, &mut |_, _| {}).await;
        reply.expect("not over").expect("a legal move");
    }
    (players, game)
}

fn request(game: &str, seat: u32, n: u32, seed: u64) -> SampleWorldsRequest {
    SampleWorldsRequest {
        game_id: game.into(),
        seat,
        n,
        seed,
        min_version: None,
    }
}

async fn sample(
    app: &GameService,
    token: &str,
    request: SampleWorldsRequest,
) -> Result<SampleWorldsResponse, Status> {
    let mut client = app.games().await;
    client
        .sample_worlds(authed(request, token))
        .await
        .map(tonic::Response::into_inner)
}

fn set(cards: &[String]) -> BTreeSet<String> {
    cards.iter().cloned().collect()
}

/// Panics unless `world` agrees with `view` (its seat's) and places each
/// card of the deck in play once.
fn assert_agrees(world: &World, view: &View) {
    let seat = view.viewer_seat.expect("a seat's view") as usize;
    assert_eq!(world.hands.len(), view.players as usize, "{world:?}");
    assert_eq!(world.piles.len(), view.players as usize, "{world:?}");
    assert_eq!(set(&world.hands[seat].cards), set(&view.hand), "own hand");
    for (info, (hand, pile)) in view.seats.iter().zip(world.hands.iter().zip(&world.piles)) {
        assert_eq!(
            hand.cards.len(),
            info.hand_size as usize,
            "seat {}",
            info.seat
        );
        assert_eq!(
            pile.cards.len(),
            info.pile_size as usize,
            "seat {}",
            info.seat
        );
        assert!(
            set(&info.known_cards).is_subset(&set(&hand.cards)),
            "seat {}'s known cards {:?} not in {:?}",
            info.seat,
            info.known_cards,
            hand.cards
        );
    }
    assert_eq!(world.stock.len(), view.stock_size as usize);
    assert_eq!(world.reserve.len(), view.reserve_size as usize);
    let mut placed: Vec<&String> = world
        .hands
        .iter()
        .chain(&world.piles)
        .flat_map(|c| &c.cards)
        .chain(&world.stock)
        .chain(&world.reserve)
        .chain(&world.face_down_trump)
        .chain(view.table_cards.iter().map(|t| &t.card))
        .collect();
    let all = placed.len();
    placed.sort();
    placed.dedup();
    assert_eq!(placed.len(), all, "a card placed twice: {world:?}");
    // Phase one of skitgubbe: every card of its one 52-card deck is in a
    // hand, a pile, the stock or on the table.
    assert_eq!(all, 52, "{world:?}");
}

async fn a_seat_gets_worlds_that_agree_with_its_view(db: &TestDb) {
    // Arrange
    let app = spawn_game(db).await;
    let (players, game) = game_under_way(&app).await;
    let mut client = app.games().await;
    let views = [
        view(&mut client, &game, 0, &players[0].token).await,
        view(&mut client, &game, 1, &players[1].token).await,
    ];
    assert_eq!(views[0].phase, Phase::One as i32, "still in phase one");

    // Act
    let mut answers = Vec::new();
    for (seat, player) in [0u32, 1].into_iter().zip(&players) {
        let answer = sample(&app, &player.token, request(&game, seat, 16, 7))
            .await
            .expect("worlds for a held seat");
        answers.push(answer);
    }

    // Assert
    for (answer, view) in answers.iter().zip(&views) {
        assert_eq!(answer.version, view.version);
        assert_eq!(Some(answer.seat), view.viewer_seat);
        assert_eq!(answer.worlds.len(), 16);
        for world in &answer.worlds {
            assert_agrees(world, view);
        }
        // Hidden cards are placed anew: the worlds are not all one.
        let distinct: BTreeSet<String> = answer
            .worlds
            .iter()
            .map(|w| format!("{:?}", w.hands))
            .collect();
        assert!(distinct.len() > 1, "{distinct:?}");
    }
    drop(client);
    app.stop().await;
}

async fn the_same_seed_gives_the_same_worlds(db: &TestDb) {
    // Arrange
    let app = spawn_game(db).await;
    let (players, game) = game_under_way(&app).await;
    let token = &players[2].token;

    // Act
    let first = sample(&app, token, request(&game, 2, 12, 99)).await;
    let again = sample(&app, token, request(&game, 2, 12, 99)).await;
    let fewer = sample(&app, token, request(&game, 2, 5, 99)).await;
    let other_seed = sample(&app, token, request(&game, 2, 12, 100)).await;

    // Assert
    let first = first.expect("worlds");
    assert_eq!(again.expect("worlds"), first);
    assert_eq!(fewer.expect("worlds").worlds[..], first.worlds[..5]);
    assert_ne!(other_seed.expect("worlds").worlds, first.worlds);
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_not_held_and_a_spectator_are_refused() {
    // Arrange
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let (players, game) = game_under_way(&app).await;
    let onlooker = app.guest("onlooker").await;

    // Act
    let other_seat = sample(&app, &players[0].token, request(&game, 1, 4, 1)).await;
    let spectator = sample(&app, &onlooker.token, request(&game, 0, 4, 1)).await;

    // Assert
    let other_seat = other_seat.expect_err("seat 1 is not player 0's");
    Expected::new(Code::PermissionDenied, "permission_denied").grpc(&other_seat);
    assert!(other_seat.message().contains("seat 1"), "{other_seat:?}");
    let spectator = spectator.expect_err("a spectator sees no hand");
    Expected::new(Code::PermissionDenied, "spectator_sees_no_hand").grpc(&spectator);
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn n_must_be_one_to_the_cap() {
    // Arrange
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let (players, game) = game_under_way(&app).await;
    let token = &players[0].token;

    // Act
    let over = sample(&app, token, request(&game, 0, 65, 1)).await;
    let none = sample(&app, token, request(&game, 0, 0, 1)).await;
    let cap = sample(&app, token, request(&game, 0, 64, 1)).await;

    // Assert
    let over = over.expect_err("65 worlds");
    Expected::invalid("n").grpc(&over);
    assert!(over.message().contains("64"), "{over:?}");
    Expected::invalid("n").grpc(&none.expect_err("no worlds"));
    assert_eq!(cap.expect("the cap").worlds.len(), 64);
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rest_answers_as_grpc_does() {
    // Arrange
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let (players, game) = game_under_way(&app).await;
    let http = app.http();
    let token = Some(players[1].token.as_str());
    let grpc = sample(&app, &players[1].token, request(&game, 1, 3, 5))
        .await
        .expect("worlds over gRPC");

    // Act
    let path = format!("/v1/games/{game}/worlds?seat=1&n=3&seed=5");
    let (status, answer) = http.call("GET", &path, token, None).await;
    let over = format!("/v1/games/{game}/worlds?seat=1&n=65&seed=5");
    let refused = http.call("GET", &over, token, None).await;
    let theirs = format!("/v1/games/{game}/worlds?seat=0&n=3");
    let not_held = http.call("GET", &theirs, token, None).await;

    // Assert
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["version"], Value::from(grpc.version.to_string()));
    let worlds = answer["worlds"].as_array().expect("worlds");
    assert_eq!(worlds.len(), 3);
    for (json, world) in worlds.iter().zip(&grpc.worlds) {
        let hands: Vec<Vec<String>> = json["hands"]
            .as_array()
            .expect("hands")
            .iter()
            .map(|h| serde_json::from_value(h["cards"].clone()).expect("cards"))
            .collect();
        let expected: Vec<Vec<String>> = world.hands.iter().map(|h| h.cards.clone()).collect();
        assert_eq!(hands, expected);
        assert_eq!(json["stock"], serde_json::json!(world.stock));
    }
    Expected::invalid("n").rest(&refused);
    Expected::new(Code::PermissionDenied, "permission_denied").rest(&not_held);
    drop(http);
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sampling_counts_as_many_reads() {
    // Arrange: 100 reads at once, barely refilled; the random moves read
    // a view of each seat per move, MOVES of seat 0's.
    let db = TestDb::sqlite();
    let app = spawn_game_with(&db, |c| {
        c.limits.limit_reads = "0.01:100".into();
    })
    .await;
    let (players, game) = game_under_way(&app).await;
    let token = &players[0].token;

    // Act: 100 - MOVES left, room for two calls of 32 and not a third
    let mut answers = Vec::new();
    for _ in 0..3 {
        answers.push(sample(&app, token, request(&game, 0, 1, 1)).await);
    }
    let mut client = app.games().await;
    let plain_read = client
        .get_view(authed(
            skit_proto::v1::GetViewRequest {
                game_id: game.clone(),
                seat: Some(0),
                ..Default::default()
            },
            token,
        ))
        .await;

    // Assert
    assert!(answers[0].is_ok() && answers[1].is_ok(), "{answers:?}");
    let refused = answers[2].as_ref().expect_err("a third, 32 reads more");
    Expected::new(Code::ResourceExhausted, "rate_limited").grpc(refused);
    let info = tonic_types::StatusExt::get_details_error_info(refused).expect("ErrorInfo");
    assert_eq!(info.metadata["class"], "reads");
    assert!(plain_read.is_ok(), "a read costs one: {plain_read:?}");
    drop(client);
    app.stop().await;
}
