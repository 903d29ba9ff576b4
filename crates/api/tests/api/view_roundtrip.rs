//! `engine_view` inverts the service's views exactly: real games of every
//! preset are played through the service with random legal moves, every
//! seat's API view is kept at every version, and once a game is over its
//! revealed log is replayed on the engine; each kept view, converted, must
//! equal the engine's own view of that seat at that version, history
//! included (the world sampler of the search bots replays it).

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skit_api::{Client, engine_view};
use skit_engine::{Action, Game, Preset, Ruleset};
use skit_proto::v1;
use skit_testkit::{TestDb, spawn_game};

/// One seat's API view at one version.
struct Seen {
    seat: u8,
    view: v1::View,
}

/// Plays `preset` at `players` to the end with random legal moves (the
/// operator may act for every seat); returns every view seen and the log.
async fn play(
    client: &mut Client,
    preset: Preset,
    players: u8,
    seed: u64,
) -> (Vec<Seen>, v1::GetHistoryResponse) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let created = client
        .games
        .create_game(v1::CreateGameRequest {
            rules: Some(v1::Rules {
                preset: preset.name().into(),
                options: None,
            }),
            players: u32::from(players),
            ..Default::default()
        })
        .await
        .expect("create")
        .into_inner();
    let game = created.game_id;
    let mut seen = Vec::new();
    for step in 0.. {
        assert!(step < 5000, "{preset:?} did not end");
        let mut choices = Vec::new();
        let mut over = false;
        for seat in 0..players {
            let view = client
                .games
                .get_view(v1::GetViewRequest {
                    game_id: game.clone(),
                    seat: Some(u32::from(seat)),
                    ..Default::default()
                })
                .await
                .expect("view")
                .into_inner();
            over = view.phase == v1::Phase::Over as i32;
            if !view.legal_actions.is_empty() {
                choices.push((seat, view.clone()));
            }
            seen.push(Seen { seat, view });
        }
        if over {
            break;
        }
        let (seat, view) = choices.choose(&mut rng).expect("someone may act");
        let action = view.legal_actions.choose(&mut rng).expect("legal").clone();
        client
            .games
            .submit_move(v1::SubmitMoveRequest {
                game_id: game.clone(),
                seat: u32::from(*seat),
                move_id: format!("m{}-{}", view.version, rng.random::<u32>()),
                expected_version: view.version,
                action: Some(action),
            })
            .await
            .expect("a listed action is accepted");
    }
    let history = client
        .games
        .get_history(v1::GetHistoryRequest {
            game_id: game,
            after_version: None,
            min_version: None,
        })
        .await
        .expect("history")
        .into_inner();
    (seen, history)
}

/// Every kept view against the replayed engine; returns how many were
/// checked.
fn check_game(preset: Preset, seen: &[Seen], history: &v1::GetHistoryResponse) -> usize {
    assert!(history.complete, "the log is revealed once over");
    let rules = skit_api::rules(history.rules.as_ref()).expect("rules");
    let actions: Vec<Action> = history
        .actions
        .iter()
        .map(|a| Action::from_json(&serde_json::from_str(a).expect("json")).expect("action"))
        .collect();
    let Some((Action::Shuffle(deck), moves)) = actions.split_first() else {
        panic!("the log starts with the deal");
    };
    let players = history.players as u8;
    let mut game = Game::deal(rules, players, history.dealer as u8, deck).expect("deal");
    let mut applied = 0u64;
    let mut by_version: Vec<&Seen> = seen.iter().collect();
    by_version.sort_by_key(|s| s.view.version);
    for s in by_version {
        // One stored event per action; the end is one more.
        let target = s.view.version.min(moves.len() as u64);
        while applied < target {
            game.apply(&moves[applied as usize])
                .expect("the log replays");
            applied += 1;
        }
        let expected = game.view(Some(s.seat));
        let converted = engine_view(&s.view).expect("the service's views convert");
        assert_eq!(
            converted, expected,
            "{preset:?}, seat {} at version {}",
            s.seat, s.view.version
        );
    }
    assert_eq!(
        applied,
        moves.len() as u64,
        "every view was checked up to the end"
    );
    seen.len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn converted_views_equal_the_engines_own_for_every_preset() {
    // Arrange: the service on a fresh database
    let db = TestDb::sqlite();
    let service = spawn_game(&db).await;
    let mut client = service.operator().await;
    let mut checked = 0;
    for (i, preset) in Preset::ALL.into_iter().enumerate() {
        let ruleset = Ruleset::preset(preset);
        let Some(players) = [3u8, 4, 2, 5]
            .into_iter()
            .cycle()
            .skip(i)
            .take(4)
            .find(|&p| ruleset.check_players(p).is_ok())
        else {
            continue;
        };

        // Act: a whole game through the service
        let (seen, history) = play(&mut client, preset, players, 100 + i as u64).await;

        // Assert: every view converts to the engine's own
        checked += check_game(preset, &seen, &history);
    }
    assert!(checked > 1000, "only {checked} views were checked");
}
