//! The operator deals a game from a chosen seed (`shuffle_seed`), and may
//! seal it (`seal_seed`): the seed and full log are then never revealed.
//! Both are the operator's alone.

use serde_json::json;
use skit_proto::v1::{CreateGameRequest, GetHistoryRequest, ResignRequest};
use skit_testkit::TestDb;
use skit_testkit::*;
use tonic::Code;

const SEED: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

on_both_databases!(only_the_operator_chooses_or_seals_a_seed);

async fn only_the_operator_chooses_or_seals_a_seed(db: &TestDb) {
    let app = spawn_game(db).await;
    let (ann, bo) = (app.guest("ann").await, app.guest("bo").await);
    let mut games = app.games().await;
    let own = || CreateGameRequest {
        seats: Vec::new(),
        ..skitgubbe_for(&[ann.clone(), bo.clone()])
    };

    let chosen = games
        .create_game(authed(
            CreateGameRequest {
                shuffle_seed: Some(SEED.into()),
                ..own()
            },
            &ann.token,
        ))
        .await
        .expect_err("a player choosing the seed");
    let sealed = games
        .create_game(authed(
            CreateGameRequest {
                seal_seed: true,
                ..own()
            },
            &ann.token,
        ))
        .await
        .expect_err("a player sealing the seed");
    let over_rest = app
        .http()
        .call(
            "POST",
            "/v1/games",
            Some(&ann.token),
            Some(json!({
                "rules": {"preset": "skitgubbe"}, "players": 2, "shuffleSeed": SEED,
            })),
        )
        .await;
    let operator_only = |field: &'static str| Expected {
        field: Some(field),
        ..Expected::new(Code::PermissionDenied, "operator_only_field")
    };
    operator_only("shuffle_seed").grpc(&chosen);
    operator_only("seal_seed").grpc(&sealed);
    operator_only("shuffle_seed").rest(&over_rest);
    assert_eq!(app.games_of(&ann).await, 0, "nothing was created");

    for bad in [
        "00",
        &SEED.to_uppercase(),
        &format!("{}zz", &SEED[..62]),
        &format!("{SEED}00"),
    ] {
        let refused = games
            .create_game(authed(
                CreateGameRequest {
                    shuffle_seed: Some(bad.to_owned()),
                    ..skitgubbe_for(&[ann.clone(), bo.clone()])
                },
                OPERATOR_TOKEN,
            ))
            .await
            .expect_err("a malformed seed");
        Expected::invalid("shuffle_seed").grpc(&refused);
    }
    assert_eq!(app.games_of(&ann).await, 0, "nothing was created");
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_from_one_seed_get_the_same_cards() {
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let (ann, bo) = (app.guest("ann").await, app.guest("bo").await);
    let mut games = app.games().await;
    let create = |seal: bool| {
        let request = CreateGameRequest {
            shuffle_seed: Some(SEED.into()),
            seal_seed: seal,
            dealer: Some(0),
            ..skitgubbe_for(&[ann.clone(), bo.clone()])
        };
        let mut games = games.clone();
        async move {
            games
                .create_game(authed(request, OPERATOR_TOKEN))
                .await
                .expect("the operator chooses the seed")
                .into_inner()
        }
    };
    let open = create(false).await;
    let sealed = create(true).await;
    let seed = skit_fairness::Seed::from_hex(SEED).expect("a seed");

    // One seed, one commitment, the same hands.
    assert_eq!(open.shuffle_commitment, seed.commitment());
    assert_eq!(sealed.shuffle_commitment, seed.commitment());
    for (seat, player) in [(0, &ann), (1, &bo)] {
        let a = view(&mut games, &open.game_id, seat, &player.token).await;
        let b = view(&mut games, &sealed.game_id, seat, &player.token).await;
        assert_eq!(a.hand, b.hand, "seat {seat}");
        assert!(!a.hand.is_empty());
    }

    // Both end; only the open one reveals its seed and full log, which
    // starts with the deck the seed deals.
    for game in [&open.game_id, &sealed.game_id] {
        games
            .resign(authed(
                ResignRequest {
                    game_id: game.clone(),
                    seat: 0,
                    move_id: "resign".into(),
                },
                &ann.token,
            ))
            .await
            .expect("resign");
    }
    let history = |game: &str| {
        let mut games = games.clone();
        let request = GetHistoryRequest {
            game_id: game.to_owned(),
            ..Default::default()
        };
        let token = bo.token.clone();
        async move {
            games
                .get_history(authed(request, &token))
                .await
                .expect("history")
                .into_inner()
        }
    };
    let revealed = history(&open.game_id).await;
    assert_eq!(revealed.seed.as_deref(), Some(SEED));
    let deck: Vec<String> = skit_fairness::deck(&seed)
        .iter()
        .map(ToString::to_string)
        .collect();
    let dealt: serde_json::Value =
        serde_json::from_str(&revealed.actions[0]).expect("the deal as JSON");
    assert_eq!(dealt, json!({ "shuffle": deck }));
    let kept = history(&sealed.game_id).await;
    assert_eq!(kept.seed, None, "a sealed game never shows its seed");
    assert!(
        !kept.complete && kept.actions.is_empty(),
        "nor its full log"
    );
    assert_eq!(kept.shuffle_commitment, seed.commitment());
    let result = view(&mut games, &sealed.game_id, 1, &bo.token)
        .await
        .result
        .expect("over");
    assert_eq!(result.seed, "");
    app.stop().await;
}
