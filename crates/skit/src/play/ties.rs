//! Phase one's ties, said when they happen: with two-card tricks equal
//! ranks are a bounce (the cards stay and the same two play again); with
//! every player playing, the players tied for the highest rank play again
//! (docs/how-to-play.md). Read from the table the new view shows, so a tie
//! is told once, when it appears.

use skit_engine::rules::{Phase1Mode, Ties};
use skit_proto::v1::{Phase, TableCard, View};

use super::render::who;

/// The plays on the phase-one table, in order: consecutive cards of one
/// seat are one play (several cards of one rank); sluffs are not plays.
fn plays(view: &View) -> Vec<(u32, Vec<&TableCard>)> {
    let mut plays: Vec<(u32, Vec<&TableCard>)> = Vec::new();
    for card in view.table_cards.iter().filter(|c| !c.is_sluff) {
        match plays.last_mut() {
            Some((seat, cards)) if *seat == card.seat && same_rank(cards[0], card) => {
                cards.push(card);
            }
            _ => plays.push((card.seat, vec![card])),
        }
    }
    plays
}

fn rank(card: &TableCard) -> char {
    card.card.chars().next().unwrap_or('?')
}

fn same_rank(a: &TableCard, b: &TableCard) -> bool {
    rank(a) == rank(b)
}

/// The rank's order, 2 low to A high.
fn order(rank: char) -> usize {
    "23456789TJQKA".find(rank).unwrap_or(0)
}

/// The line explaining a tie that `now` shows and `before` did not.
pub fn tie_line(before: Option<&View>, now: &View) -> Option<String> {
    if now.phase() != Phase::One {
        return None;
    }
    let played = plays(now);
    if before.is_some_and(|b| b.phase() == Phase::One && plays(b).len() == played.len()) {
        return None;
    }
    let options = skit_api::rules(now.rules.as_ref()).ok()?.options;
    match options.mode {
        Phase1Mode::Pairs => {
            // A bounce: the trick's two latest plays are equal and still
            // lie on the table.
            let [.., (a, first), (b, second)] = played.as_slice() else {
                return None;
            };
            (played.len().is_multiple_of(2) && same_rank(first[0], second[0])).then(|| {
                format!(
                    "A tie: {} and {} both played {} (a bounce). The cards stay on the table \
                     and the same two play again; whoever wins takes them all.",
                    who(now, *a),
                    who(now, *b).replace("You", "you"),
                    a_rank(rank(first[0]))
                )
            })
        }
        Phase1Mode::All if options.ties == Ties::Replay && !options.tied_beats_unique => {
            // The first round is complete when every seat still in has
            // played once; a tie for the highest rank then plays again.
            let players = now
                .seats
                .iter()
                .filter(|s| !s.out && s.hand_size > 0)
                .count();
            let round = played.get(..players.max(2))?;
            if played.len() != round.len() {
                return None;
            }
            let top = round.iter().map(|(_, c)| order(rank(c[0]))).max()?;
            let tied: Vec<u32> = round
                .iter()
                .filter(|(_, c)| order(rank(c[0])) == top)
                .map(|(seat, _)| *seat)
                .collect();
            (tied.len() >= 2).then(|| {
                let names: Vec<String> = tied
                    .iter()
                    .map(|&s| who(now, s).replace("You", "you"))
                    .collect();
                format!(
                    "A tie for the highest card: {} play again to the same trick; the cards \
                     stay on the table, and whoever wins the replay takes them all.",
                    names.join(" and ")
                )
            })
        }
        _ => None,
    }
}

/// "a seven" for '7', "an ace" for 'A'.
fn a_rank(rank: char) -> &'static str {
    match rank {
        '2' => "a two",
        '3' => "a three",
        '4' => "a four",
        '5' => "a five",
        '6' => "a six",
        '7' => "a seven",
        '8' => "an eight",
        '9' => "a nine",
        'T' => "a ten",
        'J' => "a jack",
        'Q' => "a queen",
        'K' => "a king",
        'A' => "an ace",
        _ => "the same rank",
    }
}
