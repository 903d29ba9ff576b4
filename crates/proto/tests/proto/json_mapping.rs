//! The REST face depends on the protobuf JSON mapping: lowerCamelCase names
//! on output, original names accepted on input, enums as strings, 64-bit
//! integers as strings, well-known types in their special forms, every field
//! without presence written even at its default. These tests pin the shapes
//! clients and the engine's serialized forms (docs/engine.md) rely on.

use pbjson_types::{Duration, Struct, Value, value::Kind as ValueKind};
use serde_json::{Value as Json, json};
use skit_proto::Timestamp;
use skit_proto::v1::{
    Action, CreateGameRequest, EventKind, GameSummary, HistoryEvent, JoinGameRequest, Lay,
    ListGamesResponse, OnTimeout, Phase, PlayAction, Rules, SeatAssignment, SeatInfo, SeatSpec,
    SluffAction, SubmitMoveRequest, SubmitMoveResponse, TimeControl, View, action::Kind,
    time_control::Clock,
};

fn to_json<T: serde::Serialize>(message: &T) -> Json {
    serde_json::to_value(message).expect("serializable")
}

fn from_json<T: serde::de::DeserializeOwned>(json: Json) -> T {
    serde_json::from_value(json).expect("deserializable")
}

fn string_value(s: &str) -> Value {
    Value {
        kind: Some(ValueKind::StringValue(s.to_owned())),
    }
}

#[test]
fn actions_have_the_documented_json_forms() {
    let cases = [
        (
            Kind::Play(PlayAction {
                cards: vec!["7C".into()],
            }),
            json!({"play": {"cards": ["7C"]}}),
        ),
        (Kind::Chance(true), json!({"chance": true})),
        (Kind::Pickup(true), json!({"pickup": true})),
        (
            Kind::Sluff(SluffAction {
                cards: vec!["7D".into(), "7H".into()],
            }),
            json!({"sluff": {"cards": ["7D", "7H"]}}),
        ),
        (Kind::Pass(true), json!({"pass": true})),
        (Kind::Claim(true), json!({"claim": true})),
        (Kind::Rob(true), json!({"rob": true})),
        (Kind::Bank(true), json!({"bank": true})),
    ];
    for (kind, expected) in cases {
        let action = Action { kind: Some(kind) };
        assert_eq!(to_json(&action), expected);
        assert_eq!(from_json::<Action>(expected), action);
    }
}

#[test]
fn action_with_false_flag_still_names_its_kind() {
    // A oneof member has presence, so `false` survives and the service can
    // refuse it as malformed, as the engine does for `"chance": false`
    // (docs/engine.md, "Serialized forms").
    let action: Action = from_json(json!({"chance": false}));
    assert_eq!(action.kind, Some(Kind::Chance(false)));
}

#[test]
fn action_with_two_kinds_or_unknown_key_is_refused() {
    assert!(serde_json::from_value::<Action>(json!({"pickup": true, "pass": true})).is_err());
    assert!(serde_json::from_value::<Action>(json!({"shuffle": ["2C"]})).is_err());
}

fn create_game_request() -> CreateGameRequest {
    CreateGameRequest {
        rules: Some(Rules {
            preset: "skitgubbe".into(),
            options: Some(Struct::from_iter([(
                "phase2.pickup".to_owned(),
                string_value("bottom"),
            )])),
        }),
        players: 3,
        seats: vec![
            SeatSpec {
                account_id: Some("acct-1".into()),
            },
            SeatSpec { account_id: None },
            SeatSpec {
                account_id: Some("bot-7".into()),
            },
        ],
        dealer: Some(0),
        rated: true,
        time_control: Some(TimeControl {
            clock: Some(Clock::PerMove(Duration {
                seconds: 30,
                nanos: 0,
            })),
            on_timeout: OnTimeout::BotMove.into(),
        }),
        request_id: String::new(),
        shuffle_seed: None,
        seal_seed: false,
    }
}

#[test]
fn create_game_request_round_trips_in_camel_case() {
    let request = create_game_request();
    let json = to_json(&request);
    assert_eq!(
        json,
        json!({
            "rules": {"preset": "skitgubbe", "options": {"phase2.pickup": "bottom"}},
            "players": 3,
            "seats": [{"accountId": "acct-1"}, {}, {"accountId": "bot-7"}],
            "dealer": 0,
            "rated": true,
            "timeControl": {"perMove": "30s", "onTimeout": "ON_TIMEOUT_BOT_MOVE"},
            "requestId": "",
            "sealSeed": false
        })
    );
    assert_eq!(from_json::<CreateGameRequest>(json), request);
}

#[test]
fn rules_json_is_the_conformance_format_shape() {
    let rules = create_game_request().rules.expect("set");
    let text = serde_json::to_string(&rules).expect("serializable");
    assert_eq!(
        text,
        r#"{"preset":"skitgubbe","options":{"phase2.pickup":"bottom"}}"#
    );

    // Nested option values (between.low_cards) and booleans come through too.
    let scenario_rules = json!({
        "preset": "atlanta",
        "options": {
            "phase2.must_beat": true,
            "between.low_cards": {"threshold": "trump_rank", "ranks": ["2", "3"], "extra": ["6"]}
        }
    });
    let parsed: Rules = from_json(scenario_rules.clone());
    assert_eq!(to_json(&parsed), scenario_rules);
}

#[test]
fn struct_numbers_come_back_as_json_numbers() {
    // Struct numbers are doubles: 2000 is written 2000.0, the same JSON number.
    let rules: Rules =
        from_json(json!({"preset": "skitgubbe", "options": {"phase2.action_limit": 2000}}));
    let limit = &to_json(&rules)["options"]["phase2.action_limit"];
    assert_eq!(limit.as_f64(), Some(2000.0));
}

#[test]
fn create_game_request_accepts_original_field_names() {
    let json = json!({
        "rules": {"preset": "skitgubbe", "options": {"phase2.pickup": "bottom"}},
        "players": 3,
        "seats": [{"account_id": "acct-1"}, {}, {"account_id": "bot-7"}],
        "dealer": 0,
        "rated": true,
        "time_control": {"per_move": "30s", "on_timeout": "ON_TIMEOUT_BOT_MOVE"}
    });
    assert_eq!(from_json::<CreateGameRequest>(json), create_game_request());
}

fn phase_two_view() -> View {
    View {
        game_id: "g-1".into(),
        version: 42,
        phase: Phase::Two.into(),
        rules: Some(Rules {
            preset: "skitgubbe".into(),
            options: Some(Struct::default()),
        }),
        players: 3,
        dealer: 2,
        seats: vec![SeatInfo {
            seat: 0,
            account_id: Some("acct-1".into()),
            name: Some("Ada".into()),
            hand_size: 4,
            finishing_position: None,
            deadline: Some(Timestamp {
                seconds: 1_700_000_000,
                nanos: 0,
            }),
            ..SeatInfo::default()
        }],
        to_act: vec![0],
        viewer_seat: Some(0),
        hand: vec!["2C".into(), "9H".into(), "TS".into(), "AS".into()],
        legal_actions: vec![
            Action {
                kind: Some(Kind::Play(PlayAction {
                    cards: vec!["TS".into()],
                })),
            },
            Action {
                kind: Some(Kind::Pickup(true)),
            },
        ],
        trump: Some("H".into()),
        trump_card: Some("7H".into()),
        trump_holder: Some(1),
        table_lays: vec![Lay {
            seat: 2,
            cards: vec!["8S".into()],
        }],
        trick_size: Some(3),
        leader: Some(2),
        history: vec![HistoryEvent {
            version: 42,
            kind: EventKind::Play.into(),
            seat: Some(2),
            cards: vec!["8S".into()],
            ..HistoryEvent::default()
        }],
        ..View::default()
    }
}

#[test]
fn view_round_trips_with_protobuf_json_conventions() {
    let view = phase_two_view();
    let json = to_json(&view);
    assert_eq!(
        json,
        json!({
            "gameId": "g-1",
            "version": "42",
            "phase": "PHASE_TWO",
            "awaitsShuffle": false,
            "rules": {"preset": "skitgubbe", "options": {}},
            "players": 3,
            "dealer": 2,
            "rated": false,
            "seats": [{
                "seat": 0,
                "accountId": "acct-1",
                "name": "Ada",
                "isBot": false,
                "handSize": 4,
                "pileSize": 0,
                "out": false,
                "deadline": "2023-11-14T22:13:20Z",
                "knownCards": [],
                "forfeited": false
            }],
            "toAct": [0],
            "viewerSeat": 0,
            "hand": ["2C", "9H", "TS", "AS"],
            "legalActions": [{"play": {"cards": ["TS"]}}, {"pickup": true}],
            "stockSize": 0,
            "reserveSize": 0,
            "trump": "H",
            "trumpCard": "7H",
            "trumpHolder": 1,
            "tableCards": [],
            "tableLays": [{"seat": 2, "cards": ["8S"]}],
            "trickSize": 3,
            "leader": 2,
            "out": [],
            "drawnByLimit": false,
            "history": [{
                "version": "42",
                "kind": "EVENT_KIND_PLAY",
                "seat": 2,
                "cards": ["8S"],
                "privateCards": [],
                "byClock": false
            }]
        })
    );
    assert_eq!(from_json::<View>(json), view);
}

#[test]
fn view_accepts_original_names_and_numeric_enums() {
    let json = json!({
        "game_id": "g-1",
        "version": 42,
        "phase": 2,
        "viewer_seat": 0,
        "table_lays": [{"seat": 2, "cards": ["8S"]}],
        "history": [{"version": "42", "kind": "EVENT_KIND_PLAY", "seat": 2, "cards": ["8S"]}]
    });
    let view: View = from_json(json);
    assert_eq!(view.version, 42);
    assert_eq!(view.phase(), Phase::Two);
    assert_eq!(view.viewer_seat, Some(0));
    assert_eq!(view.table_lays, phase_two_view().table_lays);
    assert_eq!(view.history, phase_two_view().history);
}

#[test]
fn fields_at_their_default_are_written() {
    // An empty long poll, seat 0 and version 0 are visible as such.
    assert_eq!(
        to_json(&ListGamesResponse::default()),
        json!({"games": [], "nextPageToken": ""})
    );
    let assignment = SeatAssignment {
        seat: 0,
        account_id: None,
    };
    assert_eq!(to_json(&assignment), json!({"seat": 0}));
    let answer = to_json(&SubmitMoveResponse::default());
    assert_eq!(answer, json!({"version": "0"}));
    let summary = to_json(&GameSummary::default());
    assert_eq!(summary["phase"], "PHASE_UNSPECIFIED");
    assert_eq!(summary["myTurn"], false);
    assert_eq!(summary["mySeatsToAct"], json!([]));
}

#[test]
fn requests_may_still_leave_fields_out() {
    assert_eq!(
        from_json::<SubmitMoveRequest>(json!({})),
        SubmitMoveRequest::default()
    );
    let join: JoinGameRequest = from_json(json!({"gameId": "g-1"}));
    assert_eq!(join.seat, None);
}
