//! The person's moves as the terminal lists them: card moves in the order
//! of the hand (low to high, as the hand is shown), laid out in columns,
//! then the moves without cards (chance, pick up, pass, ...) one a line.
//! The number typed picks from this list, not from the service's.

use skit_proto::v1::{Action, View, action::Kind};

use super::text::wrap;

/// One action as a person reads it: "play 7C", "pick up".
pub fn action_label(action: &Action) -> String {
    match &action.kind {
        Some(Kind::Play(p)) => format!("play {}", p.cards.join(" ")),
        Some(Kind::Sluff(s)) => format!("sluff {}", s.cards.join(" ")),
        Some(Kind::Chance(_)) => "chance (play the top card of the stock)".into(),
        Some(Kind::Pickup(_)) => "pick up".into(),
        Some(Kind::Pass(_)) => "pass".into(),
        Some(Kind::Claim(_)) => "claim the trick".into(),
        Some(Kind::Rob(_)) => "rob (take the turned card for the two of trumps)".into(),
        Some(Kind::Bank(_)) => "bank three trumps".into(),
        None => "(nothing)".into(),
    }
}

fn cards(action: &Action) -> Option<&[String]> {
    match &action.kind {
        Some(Kind::Play(p)) => Some(&p.cards),
        Some(Kind::Sluff(s)) => Some(&s.cards),
        _ => None,
    }
}

/// The indexes of `view.legal_actions` in the order they are listed: card
/// moves by where their lowest card sits in the hand (plays before
/// sluffs, shorter before longer), then the rest as the service listed
/// them.
pub fn listing_order(view: &View) -> Vec<usize> {
    let place = |card: &String| {
        view.hand
            .iter()
            .position(|c| c == card)
            .unwrap_or(usize::MAX)
    };
    let mut with_cards: Vec<(usize, usize, bool, usize)> = Vec::new();
    let mut without = Vec::new();
    for (i, action) in view.legal_actions.iter().enumerate() {
        match cards(action) {
            Some(cards) => {
                let first = cards.iter().map(place).min().unwrap_or(usize::MAX);
                let sluff = matches!(action.kind, Some(Kind::Sluff(_)));
                with_cards.push((first, cards.len(), sluff, i));
            }
            None => without.push(i),
        }
    }
    with_cards.sort_by_key(|&(first, len, sluff, i)| (sluff, first, len, i));
    with_cards
        .into_iter()
        .map(|(.., i)| i)
        .chain(without)
        .collect()
}

/// "Your move:" and the numbered moves in [`listing_order`], card moves in
/// columns within `width`.
pub fn render_moves(view: &View, width: usize) -> String {
    let order = listing_order(view);
    let labels: Vec<(usize, String, bool)> = order
        .iter()
        .enumerate()
        .map(|(n, &i)| {
            let action = &view.legal_actions[i];
            let label = format!("{}) {}", n + 1, action_label(action));
            (n, label, cards(action).is_some())
        })
        .collect();
    let column = labels
        .iter()
        .filter(|(.., with_cards)| *with_cards)
        .map(|(_, label, _)| label.chars().count())
        .max()
        .unwrap_or(0);
    let padded: Vec<String> = labels
        .iter()
        .filter(|(.., with_cards)| *with_cards)
        .map(|(_, label, _)| format!("{label:<column$}"))
        .collect();
    let mut out = String::from("Your move:\n");
    if !padded.is_empty() {
        for line in wrap("  ", &padded, "   ", 2, width).lines() {
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    for (_, label, _) in labels.iter().filter(|(.., with_cards)| !*with_cards) {
        out.push_str(&format!("  {label}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use skit_proto::v1::{PlayAction, SluffAction};

    use super::*;

    fn play(cards: &[&str]) -> Action {
        Action {
            kind: Some(Kind::Play(PlayAction {
                cards: cards.iter().map(|c| c.to_string()).collect(),
            })),
        }
    }

    fn view(hand: &[&str], legal: Vec<Action>) -> View {
        View {
            hand: hand.iter().map(|c| c.to_string()).collect(),
            legal_actions: legal,
            ..View::default()
        }
    }

    #[test]
    fn moves_follow_the_hand_and_the_rest_come_last() {
        let pickup = Action {
            kind: Some(Kind::Pickup(true)),
        };
        let sluff = Action {
            kind: Some(Kind::Sluff(SluffAction {
                cards: vec!["2C".into()],
            })),
        };
        let v = view(
            &["2C", "5D", "5H", "KS"],
            vec![
                pickup,
                play(&["KS"]),
                sluff,
                play(&["5D", "5H"]),
                play(&["5H"]),
                play(&["5D"]),
            ],
        );

        let listed: Vec<String> = listing_order(&v)
            .into_iter()
            .map(|i| action_label(&v.legal_actions[i]))
            .collect();

        assert_eq!(
            listed,
            [
                "play 5D",
                "play 5D 5H",
                "play 5H",
                "play KS",
                "sluff 2C",
                "pick up"
            ]
        );
    }

    #[test]
    fn many_card_moves_share_lines_in_columns() {
        let hand = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"];
        let legal = hand.iter().map(|c| play(&[c])).collect();

        let text = render_moves(&view(&hand, legal), 40);

        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Your move:");
        assert_eq!(lines[1], "  1) play 2C   2) play 3C   3) play 4C");
        assert_eq!(lines.len(), 4, "{text}");
    }
}
