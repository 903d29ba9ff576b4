//! Places from a game: the one reading of the finishing order that views
//! (`finishing_position`, `result.places`) and ratings share.
//!
//! - Seats safe at the end of phase one (out before phase two's first
//!   action) share first place.
//! - The other seats that went out follow in the order they went out; a
//!   place counts the seats ahead, so after two safe seats comes place 3.
//! - Seats that forfeited on time and played on by the clock
//!   (`ON_TIMEOUT_FORFEIT`) take the last places, the first to forfeit
//!   last; the others are placed among themselves as if those seats were
//!   not there.
//! - The loser (played out, resigned, timed out) is last of the others.
//! - Seats still in at the end (a draw by the action limit, everyone but
//!   a resigner or a `between.empty_hand: loses` loser, or blue seats left
//!   without cards that nobody can lead, rules.md B17) share the place
//!   after the last seat out.

use skit_engine::{Game, Record, Seat};

use crate::live::Live;

/// What places are read from: the order seats went out, how many of the
/// first of them were safe when phase one ended, and the loser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finish {
    pub players: u8,
    /// Seats in the order they went out.
    pub out: Vec<Seat>,
    /// How many of `out`'s first seats went out when phase one ended.
    pub safe: usize,
    pub loser: Option<Seat>,
    /// Seats that forfeited and played on, in the order they forfeited.
    pub forfeited: Vec<Seat>,
}

impl Finish {
    /// The standing of an engine game, over or not.
    pub fn of(game: &Game) -> Self {
        let state = game.state();
        let out: Vec<Seat> = state.out().collect();
        Self {
            players: state.players(),
            safe: safe_at_phase_two(game.history(), &out),
            out,
            loser: state.loser(),
            forfeited: Vec::new(),
        }
    }

    /// The same standing with `seats` forfeited, in that order.
    pub fn with_forfeited(mut self, seats: Vec<Seat>) -> Self {
        self.forfeited = seats;
        self
    }

    /// The seat with the last place: the first that forfeited, else the
    /// loser.
    pub fn skitgubbe(&self) -> Option<Seat> {
        self.forfeited.first().copied().or(self.loser)
    }

    /// The same standing with `seat` as the loser (a resignation or a
    /// timeout ends the game outside the rules).
    pub fn with_loser(mut self, seat: Seat) -> Self {
        self.loser = Some(seat);
        self
    }

    /// Every seat's place once the game is over (1-based, shared places
    /// repeat).
    pub fn places(&self) -> Vec<u32> {
        let forfeited = |seat: &Seat| self.forfeited.contains(seat);
        let safe = self.out[..self.safe]
            .iter()
            .filter(|s| !forfeited(s))
            .count();
        let out: Vec<Seat> = self.out.iter().copied().filter(|s| !forfeited(s)).collect();
        let after_out = out.len() as u32 + 1;
        let last = u32::from(self.players);
        (0..self.players)
            .map(|seat| {
                if let Some(i) = self.forfeited.iter().position(|&f| f == seat) {
                    return last - i as u32;
                }
                if self.loser == Some(seat) {
                    return last - self.forfeited.len() as u32;
                }
                match out.iter().position(|&o| o == seat) {
                    Some(i) if i < safe => 1,
                    Some(i) => i as u32 + 1,
                    None => after_out,
                }
            })
            .collect()
    }

    /// Places known while the game runs: seats out and the loser;
    /// `None` for seats still in.
    pub fn known_places(&self) -> Vec<Option<u32>> {
        self.places()
            .into_iter()
            .enumerate()
            .map(|(seat, place)| {
                let seat = seat as Seat;
                let known = self.loser == Some(seat)
                    || self.out.contains(&seat)
                    || self.forfeited.contains(&seat);
                known.then_some(place)
            })
            .collect()
    }
}

/// The standing of a live game: the one place views and ratings read it.
pub fn of_live(live: &Live) -> Finish {
    let finish = Finish::of(&live.game);
    let finish = match &live.ending {
        Some(ending) => finish.with_loser(ending.seat),
        None => finish,
    };
    finish.with_forfeited(live.forfeits.iter().map(|f| f.seat).collect())
}

/// How many of `out`'s first seats were safe when phase one ended: seats
/// out with no action of theirs after the start of phase two. A seat goes
/// out in phase two only by playing there, so it always has one.
fn safe_at_phase_two(history: &[Record], out: &[Seat]) -> usize {
    let start = history
        .iter()
        .position(|r| matches!(r, Record::PhaseTwo { .. }))
        .map_or(0, |i| i + 1);
    let acted = |seat: Seat| history[start..].iter().any(|r| actor(r) == Some(seat));
    out.iter().take_while(|&&seat| !acted(seat)).count()
}

/// The seat whose action a record shows, if any.
fn actor(record: &Record) -> Option<Seat> {
    match record {
        Record::Play { seat, .. }
        | Record::Chance { seat, .. }
        | Record::Pickup { seat, .. }
        | Record::Sluff { seat, .. }
        | Record::Pass { seat }
        | Record::Claim { seat }
        | Record::Rob { seat, .. }
        | Record::Bank { seat, .. } => Some(*seat),
        Record::Deal { .. }
        | Record::Shuffle { .. }
        | Record::PhaseTwo { .. }
        | Record::End { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use skit_engine::{Action, CardSet, Position, Ruleset, Suit};

    fn finish(players: u8, out: &[Seat], safe: usize, loser: Option<Seat>) -> Finish {
        Finish {
            players,
            out: out.to_vec(),
            safe,
            loser,
            forfeited: Vec::new(),
        }
    }

    #[test]
    fn played_out_order_then_the_loser_last() {
        assert_eq!(finish(4, &[2, 0, 3], 0, Some(1)).places(), [2, 4, 1, 3]);
    }

    #[test]
    fn safe_seats_share_first_place() {
        // Seats 1 and 3 were safe; seat 0 went out in phase two; 2 lost.
        assert_eq!(finish(4, &[3, 1, 0], 2, Some(2)).places(), [3, 1, 4, 1]);
    }

    #[test]
    fn a_draw_by_the_limit_ties_those_still_in() {
        assert_eq!(finish(4, &[1], 0, None).places(), [2, 1, 2, 2]);
        assert_eq!(finish(3, &[], 0, None).places(), [1, 1, 1]);
    }

    #[test]
    fn a_resignation_ties_the_others_still_in() {
        let f = finish(4, &[2], 0, None).with_loser(0);
        assert_eq!(f.places(), [4, 2, 1, 2]);
    }

    #[test]
    fn forfeited_seats_take_the_last_places_and_the_others_keep_their_order() {
        // Seat 1 forfeited first and seat 3 second; the clock played them
        // out early (out order 1, 2, 3), and seat 0 was left holding cards.
        let f = finish(4, &[1, 2, 3], 0, Some(0)).with_forfeited(vec![1, 3]);
        assert_eq!(f.places(), [2, 4, 1, 3]);
        assert_eq!(f.skitgubbe(), Some(1));
        // A forfeited seat that was left holding cards: the others go by
        // their order out.
        let f = finish(3, &[0, 2], 0, Some(1)).with_forfeited(vec![1]);
        assert_eq!(f.places(), [1, 3, 2]);
        // Known while the game runs: the forfeited seat's place.
        let f = finish(3, &[], 0, None).with_forfeited(vec![2]);
        assert_eq!(f.known_places(), [None, None, Some(3)]);
    }

    #[test]
    fn a_loser_between_the_phases_leaves_everyone_else_first() {
        // `between.empty_hand: loses`: nobody went out.
        assert_eq!(finish(3, &[], 0, Some(1)).places(), [1, 3, 1]);
    }

    #[test]
    fn blue_seats_nobody_can_lead_share_the_last_place() {
        // rules.md B17: seats 0 and 1 go out, the trump ends the trick, and
        // only blue seats 2 and 3, without cards, are left.
        let rules = Ruleset::from_json(&json!({
            "preset": "mattis-norsk",
            "options": {"phase2.trump_ends_trick": true}
        }))
        .expect("a valid ruleset");
        let hand = |cards: &[&str]| cards.iter().map(|c| c.parse().expect("a card")).collect();
        let position = Position {
            trump: Suit::Hearts,
            hands: vec![hand(&["5C"]), hand(&["2H"]), hand(&[]), hand(&[])],
            leader: 0,
        };
        let mut game = Game::from_position(rules, 4, 0, &position).expect("a valid position");
        for action in [
            json!({"seat": 0, "play": ["5C"]}),
            json!({"seat": 1, "play": ["2H"]}),
        ] {
            let action = Action::from_json(&action).expect("an action");
            game.apply(&action).expect("a legal action");
        }
        assert!(game.state().loser().is_none() && !game.state().drawn());
        assert_eq!(Finish::of(&game).places(), [1, 2, 3, 3]);
    }

    #[test]
    fn known_places_leave_seats_still_in_open() {
        assert_eq!(
            finish(3, &[2], 1, None).known_places(),
            [None, None, Some(1)]
        );
    }

    #[test]
    fn safe_seats_are_those_that_never_act_in_phase_two() {
        let play = |seat| Record::Play {
            seat,
            cards: CardSet::EMPTY,
        };
        let history = [
            play(0),
            play(1),
            play(2),
            Record::PhaseTwo {
                trump: None,
                trump_holder: Some(0),
            },
            play(0),
            play(2),
            play(0),
        ];
        // Seat 1 was out at once; seat 2 went out by playing.
        assert_eq!(safe_at_phase_two(&history, &[1, 2]), 1);
        assert_eq!(safe_at_phase_two(&history, &[2, 1]), 0);
        // Still in phase one (a resignation): nobody is out, nobody safe.
        assert_eq!(safe_at_phase_two(&history[..3], &[]), 0);
    }
}
