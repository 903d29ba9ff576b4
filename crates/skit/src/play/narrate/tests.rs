//! Narration from made-up pairs of views: the view shown before and the
//! new one.

use skit_proto::v1::{EventKind, HistoryEvent, Lay, Phase, Rules, SeatInfo, TableCard, View};

use super::narrate;

fn event(version: u64, kind: EventKind, seat: Option<u32>, cards: &[&str]) -> HistoryEvent {
    HistoryEvent {
        version,
        kind: kind.into(),
        seat,
        cards: cards.iter().map(|c| c.to_string()).collect(),
        ..HistoryEvent::default()
    }
}

fn drawing(mut event: HistoryEvent, drew: &[&str]) -> HistoryEvent {
    event.private_cards = drew.iter().map(|c| c.to_string()).collect();
    event
}

fn seat(seat: u32, name: &str, pile: u32) -> SeatInfo {
    SeatInfo {
        seat,
        name: Some(name.into()),
        is_bot: seat != 0,
        hand_size: 3,
        pile_size: pile,
        ..SeatInfo::default()
    }
}

/// Seat 0 (the viewer, Ada) and seat 1 (greedy-1, a bot), at `version`.
fn view(preset: &str, version: u64, phase: Phase, piles: [u32; 2]) -> View {
    View {
        version,
        phase: phase.into(),
        rules: Some(Rules {
            preset: preset.into(),
            options: None,
        }),
        players: 2,
        viewer_seat: Some(0),
        seats: vec![seat(0, "Ada", piles[0]), seat(1, "greedy-1", piles[1])],
        ..View::default()
    }
}

#[test]
fn moves_say_who_did_what_and_what_you_drew() {
    let before = view("skitgubbe", 4, Phase::One, [0, 0]);
    let mut now = view("skitgubbe", 7, Phase::One, [0, 0]);
    now.history = vec![
        event(4, EventKind::Play, Some(1), &["5C"]),
        drawing(event(5, EventKind::Play, Some(0), &["9H"]), &["4C"]),
        event(6, EventKind::Play, Some(1), &["8H"]),
        drawing(event(7, EventKind::Shuffle, None, &[]), &["2C", "2D"]),
    ];

    let lines = narrate(Some(&before), &now);

    assert_eq!(
        lines,
        [
            "You played 9H and drew 4C.",
            "greedy-1 [bot] played 8H.",
            "You were dealt 2C 2D.",
        ]
    );
}

#[test]
fn phase_one_tricks_are_won_by_whoever_piled_the_cards() {
    let before = view("skitgubbe", 4, Phase::One, [2, 0]);
    let now = view("skitgubbe", 6, Phase::One, [2, 2]);
    let mine = view("skitgubbe", 8, Phase::One, [4, 2]);

    assert_eq!(
        narrate(Some(&before), &now),
        ["greedy-1 [bot] won the trick: 2 cards to their pile."]
    );
    assert_eq!(
        narrate(Some(&now), &mine),
        ["You won the trick: 2 cards to your pile."]
    );
}

#[test]
fn banked_trumps_are_not_a_won_trick() {
    let before = view("mas", 4, Phase::One, [0, 0]);
    let mut now = view("mas", 5, Phase::One, [0, 3]);
    now.history = vec![event(5, EventKind::Bank, Some(1), &["2S", "5S", "9S"])];

    assert_eq!(
        narrate(Some(&before), &now),
        ["greedy-1 [bot] banked 2S 5S 9S."]
    );
}

#[test]
fn a_phase_two_trick_is_won_right_after_the_lay_that_completed_it() {
    let mut before = view("skitgubbe", 20, Phase::Two, [0, 0]);
    before.trump = Some("S".into());
    before.table_lays = vec![Lay {
        seat: 0,
        cards: vec!["6D".into()],
    }];
    before.trick_size = Some(2);
    let mut now = view("skitgubbe", 22, Phase::Two, [0, 0]);
    now.trump = Some("S".into());
    now.history = vec![
        event(21, EventKind::Play, Some(1), &["9D"]),
        event(22, EventKind::Play, Some(1), &["3C"]),
    ];
    now.table_lays = vec![Lay {
        seat: 1,
        cards: vec!["3C".into()],
    }];

    assert_eq!(
        narrate(Some(&before), &now),
        [
            "greedy-1 [bot] played 9D.",
            "greedy-1 [bot] won the trick; its cards are out of play.",
            "greedy-1 [bot] played 3C.",
        ]
    );
}

#[test]
fn trumps_are_explained_when_phase_two_sets_them() {
    let before = view("skitgubbe", 30, Phase::One, [10, 12]);
    let mut now = view("skitgubbe", 31, Phase::Two, [0, 0]);
    now.trump = Some("H".into());
    now.trump_card = Some("7H".into());
    now.trump_holder = Some(1);

    let lines = narrate(Some(&before), &now);

    assert_eq!(
        lines[0],
        "Phase one is over: everyone takes their pile into their hand."
    );
    assert_eq!(
        lines[1],
        "Trumps are hearts for phase two: the trump card 7H went to greedy-1 [bot], who leads."
    );
    assert!(lines[2].starts_with("Beat the top card"), "{lines:?}");
    assert_eq!(lines.len(), 3, "{lines:?}");
}

#[test]
fn a_turned_up_trump_is_explained_at_once_and_only_once() {
    let mut first = view("mas", 1, Phase::One, [0, 0]);
    first.trump = Some("S".into());
    first.trump_card = Some("QS".into());
    let mut next = first.clone();
    next.version = 2;

    let lines = narrate(None, &first);

    assert_eq!(
        lines[0],
        "Trumps are spades for the whole game (the card turned at the deal, QS)."
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("the two of spades may rob")),
        "{lines:?}"
    );
    assert!(narrate(Some(&first), &next).is_empty());
}

#[test]
fn the_first_look_at_a_game_under_way_shows_only_the_latest_moves() {
    let mut now = view("skitgubbe", 20, Phase::One, [0, 0]);
    now.history = (1..=20)
        .map(|v| event(v, EventKind::Play, Some(1), &["5C"]))
        .collect();

    assert_eq!(narrate(None, &now).len(), 6);
}

#[test]
fn taking_the_pile_is_told_as_taking_it_not_as_drawing() {
    let before = view("skitgubbe", 30, Phase::One, [4, 12]);
    let mut now = view("skitgubbe", 31, Phase::Two, [0, 0]);
    now.trump = Some("H".into());
    now.trump_card = Some("7H".into());
    now.trump_holder = Some(1);
    now.history = vec![drawing(
        event(31, EventKind::Play, Some(1), &["QD"]),
        &["2C", "5S", "9H", "KD"],
    )];

    let lines = narrate(Some(&before), &now);

    assert_eq!(
        lines[0],
        "greedy-1 [bot] played QD. Phase one is over: everyone takes their pile into their \
         hand; you took 2C 5S 9H KD."
    );
    assert!(lines.iter().all(|l| !l.contains("drew")), "{lines:?}");
    assert!(lines[1].starts_with("Trumps are hearts"), "{lines:?}");
}

#[test]
fn your_own_last_play_of_phase_one_takes_your_pile_too() {
    let before = view("skitgubbe", 30, Phase::One, [2, 12]);
    let mut now = view("skitgubbe", 31, Phase::Two, [0, 0]);
    now.history = vec![drawing(
        event(31, EventKind::Play, Some(0), &["4C"]),
        &["8S", "AS"],
    )];

    let lines = narrate(Some(&before), &now);

    assert_eq!(
        lines[0],
        "You played 4C. Phase one is over: everyone takes their pile into their hand; \
         you took 8S AS."
    );
}

fn table(cards: &[(u32, &str)]) -> Vec<TableCard> {
    cards
        .iter()
        .map(|&(seat, card)| TableCard {
            seat,
            card: card.into(),
            is_sluff: false,
        })
        .collect()
}

#[test]
fn a_bounce_says_why_the_same_two_play_again() {
    let mut before = view("skitgubbe", 4, Phase::One, [0, 0]);
    before.table_cards = table(&[(1, "7C")]);
    let mut now = view("skitgubbe", 5, Phase::One, [0, 0]);
    now.history = vec![drawing(
        event(5, EventKind::Play, Some(0), &["7H"]),
        &["3D"],
    )];
    now.table_cards = table(&[(1, "7C"), (0, "7H")]);
    let mut replayed = view("skitgubbe", 6, Phase::One, [0, 0]);
    replayed.history = vec![event(6, EventKind::Play, Some(1), &["KC"])];
    replayed.table_cards = table(&[(1, "7C"), (0, "7H"), (1, "KC")]);

    let lines = narrate(Some(&before), &now);

    assert_eq!(
        lines,
        [
            "You played 7H and drew 3D.",
            "A tie: greedy-1 [bot] and you both played a seven (a bounce). The cards stay \
             on the table and the same two play again; whoever wins takes them all.",
        ]
    );
    assert_eq!(
        narrate(Some(&now), &replayed),
        ["greedy-1 [bot] played KC."],
        "told once"
    );
}

#[test]
fn an_all_play_tie_says_who_plays_again() {
    let mut three = view("allplay", 6, Phase::One, [0, 0]);
    three.players = 3;
    three.seats.push(seat(2, "greedy-2", 0));
    let before = View {
        table_cards: table(&[(1, "9C"), (2, "JD")]),
        ..three.clone()
    };
    let now = View {
        version: 7,
        history: vec![event(7, EventKind::Play, Some(0), &["JS"])],
        table_cards: table(&[(1, "9C"), (2, "JD"), (0, "JS")]),
        ..three
    };

    let lines = narrate(Some(&before), &now);

    assert_eq!(
        lines[1],
        "A tie for the highest card: greedy-2 [bot] and you play again to the same trick; \
         the cards stay on the table, and whoever wins the replay takes them all."
    );
}
