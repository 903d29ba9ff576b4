//! What the protos promise about versions and views, checked over the API:
//! every version is an event the history shows, the move that ends the
//! game included (one event, nothing invisible after it), and
//! `View.trump_card` is the face-up card under the stock and nothing else.

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use skit_proto::v1::{
    CreateGameRequest, EventKind, GetHistoryRequest, Phase, Rules, SubmitMoveResponse, View,
};
use skit_testkit::TestDb;
use skit_testkit::*;

on_both_databases!(every_version_is_an_event_the_history_shows);

/// The distinct versions of `events`, in order.
fn versions(events: &[skit_proto::v1::HistoryEvent]) -> Vec<u64> {
    let mut versions: Vec<u64> = events.iter().map(|e| e.version).collect();
    versions.dedup();
    versions
}

async fn every_version_is_an_event_the_history_shows(db: &TestDb) {
    // Arrange: the operator seats three guests (no joins: every version
    // after the deal is a move or a chance outcome)
    let app = spawn_game(db).await;
    let (guests, game, _) = app.game_with_guests(3).await;
    let mut client = app.games().await;
    let mut rng = ChaCha8Rng::seed_from_u64(23);

    // Act: random legal moves to the end, each answer checked
    let mut last: Option<(u64, SubmitMoveResponse)> = None;
    for moves in 0.. {
        assert!(moves < 5000, "the game did not end");
        let mut choices = Vec::new();
        for (seat, guest) in (0u32..).zip(&guests) {
            let v = view(&mut client, &game, seat, &guest.token).await;
            if !v.legal_actions.is_empty() {
                choices.push((seat, v));
            }
        }
        let Some((seat, before)) = choices.choose(&mut rng) else {
            break;
        };
        let action = before
            .legal_actions
            .choose(&mut rng)
            .expect("legal")
            .clone();
        let request = submit(&game, *seat, before, action, &format!("m{moves}"));
        let reply = client
            .submit_move(authed(request, &guests[*seat as usize].token))
            .await
            .unwrap_or_else(|e| panic!("a legal move refused: {e}"))
            .into_inner();
        // The answer's history is what the move did: every version from
        // the move's own on, and nothing else.
        let shown = versions(&reply.view.as_ref().expect("a view").history);
        let expected: Vec<u64> = (before.version + 1..=reply.version).collect();
        assert_eq!(shown, expected, "move {moves}");
        last = Some((before.version, reply));
    }

    // Assert: the ending move is one event (plus one per chance outcome it
    // led to, each shown), and the game stays at its version
    let (before, ending) = last.expect("moves were made");
    let ending_view = ending.view.as_ref().expect("a view");
    assert_eq!(ending_view.phase, Phase::Over as i32);
    assert!(ending_view.result.is_some(), "the answer shows the result");
    let mut chance: Vec<u64> = ending_view
        .history
        .iter()
        .filter(|e| e.kind == EventKind::Shuffle as i32)
        .map(|e| e.version)
        .collect();
    chance.dedup();
    assert_eq!(ending.version, before + 1 + chance.len() as u64);
    let now = view(&mut client, &game, 0, &guests[0].token).await;
    assert_eq!(now.version, ending.version, "nothing after the ending move");
    assert_eq!(now.history.last().map(|e| e.version), Some(now.version));
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
    let all: Vec<u64> = (0..=ending.version).collect();
    assert_eq!(versions(&history.events), all, "every version is shown");
    drop(client);
    app.stop().await;
}

/// `trump_card` as view.proto says: in a game with a trump turned up at
/// the deal (`mas`), the face-up card at the bottom of the stock, while
/// phase one has a stock; otherwise, and in every phase of a game whose
/// trumps are set between the phases (`skitgubbe`), absent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trump_card_is_the_face_up_card_under_the_stock() {
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    for (preset, seed) in [("mas", 5), ("skitgubbe", 6)] {
        // Arrange
        let players = [app.guest("ann").await, app.guest("bo").await];
        let request = CreateGameRequest {
            rules: Some(Rules {
                preset: preset.into(),
                options: None,
            }),
            ..skitgubbe_for(&players)
        };
        let game = app
            .games()
            .await
            .create_game(authed(request, OPERATOR_TOKEN))
            .await
            .expect("create")
            .into_inner()
            .game_id;
        let mut client = app.games().await;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut shown = Vec::new();

        // Act
        let mut check = |_: u32, v: &View| shown.push(v.clone());
        play_out(&mut client, &game, &players, &mut rng, &mut check).await;

        // Assert
        let turned_up = preset == "mas";
        for v in &shown {
            let under_stock = turned_up && v.phase == Phase::One as i32 && v.stock_size > 0;
            let suit = v.trump_card.as_deref().and_then(|c| c.get(c.len() - 1..));
            match (&v.trump_card, under_stock) {
                (Some(_), true) => assert_eq!(suit, v.trump.as_deref(), "{preset} {v:?}"),
                (None, false) => {}
                _ => panic!(
                    "{preset} at version {}: trump_card {:?}",
                    v.version, v.trump_card
                ),
            }
        }
        assert_eq!(
            shown.iter().any(|v| v.trump_card.is_some()),
            turned_up,
            "{preset}: a turned-up card is shown, and only then"
        );
    }
    app.stop().await;
}
