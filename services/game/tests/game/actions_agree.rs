//! A client reads an action exactly as the service does. Each action of a
//! table is submitted to the service and read by a client the way the bot
//! worker reads the legal actions of a view (`skit_api::engine_view`):
//! both accept it or both refuse it, naming the same part of the action
//! for the same reason.

use skit_proto::v1::{Action, PlayAction, SluffAction, action::Kind};
use skit_testkit::{TestDb, authed, seat_to_act, spawn_game, submit};
use tonic::{Code, Status};
use tonic_types::StatusExt;

fn texts(cards: &[&str]) -> Vec<String> {
    cards.iter().map(|c| (*c).to_owned()).collect()
}

fn play(cards: &[&str]) -> Action {
    Action {
        kind: Some(Kind::Play(PlayAction {
            cards: texts(cards),
        })),
    }
}

fn sluff(cards: &[&str]) -> Action {
    Action {
        kind: Some(Kind::Sluff(SluffAction {
            cards: texts(cards),
        })),
    }
}

fn kind(kind: Kind) -> Action {
    Action { kind: Some(kind) }
}

/// What a reader made of an action: well formed, or refused naming the
/// part of the action at fault (`.play`, or `` for the action itself) and
/// why.
#[derive(Debug, PartialEq, Eq)]
enum Reading {
    WellFormed,
    Refused { part: String, why: String },
}

/// The service's reading. A well-formed action is sent against a version
/// the game is not at, so it is refused as stale and nothing is played.
fn served(answer: &Status) -> Reading {
    match answer.code() {
        Code::Aborted => Reading::WellFormed,
        Code::InvalidArgument => {
            let bad = answer.get_details_bad_request().expect("a BadRequest");
            let [violation] = bad.field_violations.as_slice() else {
                panic!("one field at fault: {answer:?}");
            };
            let part = violation.field.strip_prefix("action").expect("action.*");
            Reading::Refused {
                part: part.to_owned(),
                why: violation.description.clone(),
            }
        }
        _ => panic!("neither stale nor malformed: {answer:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_refuses_what_the_service_refuses() {
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let (guests, game, _) = app.game_with_guests(3).await;
    let mut games = app.games().await;
    let (seat, before) = seat_to_act(&mut games, &game, &guests).await;
    let token = &guests[seat as usize].token;
    let table = [
        play(&["7S"]),
        play(&["7s"]),
        play(&["7S", "7H"]),
        play(&["7S", "7S"]),
        play(&["7s", "7S"]),
        play(&["7S", "8S", "7S"]),
        play(&[]),
        play(&["1X"]),
        play(&[""]),
        play(&["7S", "TS "]),
        sluff(&["2C"]),
        sluff(&["2C", "3C", "2C"]),
        sluff(&[]),
        kind(Kind::Pass(true)),
        kind(Kind::Pass(false)),
        kind(Kind::Chance(false)),
        kind(Kind::Pickup(false)),
        kind(Kind::Claim(false)),
        kind(Kind::Rob(false)),
        kind(Kind::Bank(false)),
        Action { kind: None },
    ];

    let mut readings = Vec::new();
    for (i, action) in table.into_iter().enumerate() {
        let mut request = submit(&game, seat, &before, action.clone(), &format!("m{i}"));
        request.expected_version = before.version + 1000;
        let answer = games
            .submit_move(authed(request, token))
            .await
            .expect_err("stale or malformed");
        let service = served(&answer);
        let mut listed = before.clone();
        listed.legal_actions = vec![action.clone()];
        let client = match skit_api::engine_view(&listed) {
            Ok(_) => Reading::WellFormed,
            Err(refused) => Reading::Refused {
                part: refused
                    .field
                    .strip_prefix("legal_actions[0]")
                    .unwrap_or_else(|| panic!("names the action: {refused}"))
                    .to_owned(),
                why: refused.message,
            },
        };

        assert_eq!(client, service, "{action:?}");
        readings.push(service);
    }

    assert_eq!(
        readings[3],
        Reading::Refused {
            part: ".play".into(),
            why: "play lists 7S twice".into()
        }
    );
    assert_eq!(readings[0], Reading::WellFormed);
    assert!(readings[6..10].iter().all(|r| *r != Reading::WellFormed));
}
