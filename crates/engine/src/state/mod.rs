//! The game state: a plain `Copy` value under 256 bytes, so search bots can
//! clone it freely. The ruleset is kept outside and passed in; the public
//! history is kept by [`crate::Game`].

mod owners;
mod parts;
mod setup;
pub(crate) mod swap;

pub use setup::{Position, SetupError};

pub(crate) use owners::Owners;
pub(crate) use parts::{Piles, Table};

use crate::{Card, CardSet, Seat, SeatSet, Suit};

/// The part of the game being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    One,
    Two,
    Over,
}

/// The chance outcome the game is waiting for, if any (SPEC 8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Awaiting {
    Nothing,
    /// The low cards set aside between the phases.
    LowCards,
    /// The cards of an unfinished trick, to be dealt (`phase1.unfinished_trick: deal`).
    UnfinishedDeal,
    /// A tied trick's cards, to be split among the tied players (`phase1.tie_runout: split`).
    Split,
}

pub(crate) const NONE: u8 = 0xFF;

/// Flags in [`State::flags`].
pub(crate) mod flag {
    /// The game ended by the action limit.
    pub const DRAWN: u8 = 1;
    /// Phase two: every next player must pick up until the table is empty.
    pub const FORCED: u8 = 2;
    /// All mode: the trick is decided (a sluffing window or a claim is open).
    pub const DECIDED: u8 = 8;
    /// Phase one: the trump card lies face down apart from the hands.
    pub const TRUMP_APART: u8 = 16;
    /// All mode: the current round is a replay by tied players.
    pub const REPLAY: u8 = 32;
    /// `mas`: the turned-up card has been robbed.
    pub const ROBBED: u8 = 64;
}

/// Everything about a game in progress except the ruleset and the history.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) hands: [CardSet; 8],
    /// Phase-one piles (owner in `owners`), or low cards awaiting a shuffle.
    pub(crate) aside: CardSet,
    /// Cards out of play: completed phase-two tricks, banked trumps in piles are not here.
    pub(crate) gone: CardSet,
    pub(crate) owners: Owners,
    pub(crate) piles: Piles,
    pub(crate) table: Table,
    /// Finishing order, a nibble per seat, first out in the low nibble.
    pub(crate) out_order: u32,
    /// Seat actions counted toward `phase2.action_limit`.
    pub(crate) counted: u32,
    pub(crate) n: u8,
    pub(crate) dealer: Seat,
    pub(crate) phase: Phase,
    pub(crate) awaiting: Awaiting,
    /// Phase one: the trick's leader. Phase two: the trick's leader, or with
    /// an empty table the seat due to lead.
    pub(crate) leader: Seat,
    /// Pairs and turned-up trump: the trick's second.
    pub(crate) second: Seat,
    /// The seat due to act, or `NONE` when none (a window, the end).
    pub(crate) turn: Seat,
    /// Phase two: the size of the trick on the table.
    pub(crate) trick_size: u8,
    pub(crate) trump: Option<Suit>,
    /// The card that set trumps: drawn face down in phase one (apart from the
    /// hands while `flag::TRUMP_APART`), or turned up at the deal in `mas`.
    pub(crate) trump_card: Option<Card>,
    pub(crate) trump_holder: Seat,
    /// Seats still in the game (not out). Kept rather than derived from the
    /// seats out, since phase two asks for it on nearly every move.
    pub(crate) playing: SeatSet,
    pub(crate) loser: Seat,
    pub(crate) flags: u8,
    /// All mode: the seats playing in the current round, and those done.
    pub(crate) round: SeatSet,
    pub(crate) round_done: SeatSet,
    /// The winner of a decided trick, while its sluffing window or claim is open.
    pub(crate) winner: Seat,
    /// Seats that still have to act in a sluffing window.
    pub(crate) window: SeatSet,
}

impl State {
    pub fn players(&self) -> u8 {
        self.n
    }

    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn awaiting(&self) -> Awaiting {
        self.awaiting
    }

    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat as usize]
    }

    /// Cards in `seat`'s phase-one pile: 0 once the piles went into the
    /// hands, kept when the game ended in phase one (by the action limit
    /// with a turned-up trump).
    pub fn pile_size(&self, seat: Seat) -> u32 {
        if self.phase == Phase::Two {
            return 0;
        }
        self.owners.of_seat(seat, self.aside).len()
    }

    /// Cards in the stock; the drawn trump card is not counted.
    pub fn stock_size(&self) -> u32 {
        self.piles.stock_len()
    }

    pub fn reserve_size(&self) -> u32 {
        self.piles.reserve_len()
    }

    /// The card a draw or a chance takes next. Hidden from every view; a
    /// search bot reads it only on its own sampled states, to repair them so a
    /// public chance record turns up the card it showed.
    pub fn stock_top(&self) -> Option<Card> {
        self.piles.stock_top()
    }

    pub(crate) fn stock_bottom(&self) -> Option<Card> {
        self.piles.stock_bottom()
    }

    /// Trumps once known: turned at the end of phase one, or from the deal
    /// with a turned-up trump.
    pub fn trump(&self) -> Option<Suit> {
        self.trump
    }

    /// The turned-up card lying under the stock (`mas`, `melniki`), public.
    pub fn turned_card(&self) -> Option<Card> {
        if self.phase == Phase::One && self.trump.is_some() {
            self.piles.stock_bottom()
        } else {
            None
        }
    }

    /// The card that set trumps, once it is public: turned at the end of
    /// phase one, or turned up at the deal with a turned-up trump.
    pub fn trump_card(&self) -> Option<Card> {
        self.trump.and(self.trump_card)
    }

    pub fn trump_holder(&self) -> Option<Seat> {
        (self.trump_holder != NONE).then_some(self.trump_holder)
    }

    /// The phase-one table in order: (seat, card, sluffed).
    pub fn table_cards(&self) -> impl Iterator<Item = (Seat, Card, bool)> + '_ {
        self.table
            .cards()
            .iter()
            .map(|&c| (self.owners.seat(c), c, self.owners.sluffed(c)))
    }

    /// The phase-one table as plays or the phase-two table as lays, oldest first.
    pub fn table_groups(&self) -> impl Iterator<Item = (Seat, CardSet)> + '_ {
        self.table.group_ranges().map(|r| {
            let set = self.table.group(r.clone());
            (self.owners.seat(self.table.cards()[r.start]), set)
        })
    }

    pub fn table_set(&self) -> CardSet {
        self.table.set()
    }

    /// Phase two: the size of the trick on the table.
    pub fn trick_size(&self) -> Option<u8> {
        (self.phase == Phase::Two && !self.table.is_empty()).then_some(self.trick_size)
    }

    pub fn leader(&self) -> Option<Seat> {
        (self.phase != Phase::Over && self.leader != NONE).then_some(self.leader)
    }

    /// Seats in the order they went out.
    pub fn out(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..self.out_count()).map(|i| (self.out_order >> (4 * i) & 0xF) as Seat)
    }

    pub fn is_out(&self, seat: Seat) -> bool {
        seat < self.n && !self.playing.contains(seat)
    }

    /// The skitgubbe, once there is one.
    pub fn loser(&self) -> Option<Seat> {
        (self.loser != NONE).then_some(self.loser)
    }

    /// Whether the game ended drawn by the action limit.
    pub fn drawn(&self) -> bool {
        self.flags & flag::DRAWN != 0
    }

    /// Seat actions counted toward the action limit so far.
    pub fn counted_actions(&self) -> u32 {
        self.counted
    }

    /// Every card and where it is; the 52 are always all accounted for once.
    pub fn cards_everywhere(&self) -> [CardSet; 6] {
        let hands = self.hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
        let drawn = self.piles.stock_set() | self.piles.reserve_set();
        let trump = match self.trump_card {
            Some(card) if self.flags & flag::TRUMP_APART != 0 => CardSet::single(card),
            _ => CardSet::EMPTY,
        };
        [hands, self.aside, drawn, self.table.set(), trump, self.gone]
    }

    /// Seats still in the game (not out).
    #[inline]
    pub(crate) fn in_game(&self) -> SeatSet {
        self.playing
    }

    /// The seat to the left of `seat` (the next clockwise).
    #[inline]
    pub(crate) fn left(&self, seat: Seat) -> Seat {
        if seat + 1 >= self.n { 0 } else { seat + 1 }
    }

    /// The next seat after `seat` clockwise that is in `set`: the lowest
    /// seat of the set above `seat`, else the lowest of the set.
    #[inline]
    pub(crate) fn next_in(&self, set: SeatSet, seat: Seat) -> Option<Seat> {
        let bits = u32::from(set.intersect(SeatSet::first(self.n)).bits());
        let above = bits & (!1u32).wrapping_shl(u32::from(seat));
        let pick = if above != 0 { above } else { bits };
        (pick != 0).then(|| pick.trailing_zeros() as Seat)
    }

    #[inline]
    pub(crate) fn seats_with_cards(&self) -> SeatSet {
        // All eight hands, then the seats: a fixed-length loop the compiler
        // turns into a few vector compares (hands past `n` are always empty).
        let mut bits = 0;
        for (seat, hand) in self.hands.iter().enumerate() {
            bits |= u8::from(!hand.is_empty()) << seat;
        }
        SeatSet::from_bits(bits).intersect(SeatSet::first(self.n))
    }

    /// The number of seats out.
    #[inline]
    fn out_count(&self) -> u32 {
        u32::from(self.n) - self.playing.len()
    }

    #[inline]
    pub(crate) fn push_out(&mut self, seat: Seat) {
        if self.playing.contains(seat) {
            self.out_order |= u32::from(seat) << (4 * self.out_count());
            self.playing.remove(seat);
        }
    }

    pub(crate) fn add_to_pile(&mut self, seat: Seat, cards: CardSet) {
        self.owners.set_all(cards, seat, false);
        self.aside |= cards;
    }

    pub(crate) fn finish(&mut self, loser: Option<Seat>) {
        if self.awaiting == Awaiting::LowCards {
            // The action limit fell on the action that ended phase one
            // (rules.md B18): the discarded low cards are never dealt.
            self.gone |= self.aside;
            self.aside = CardSet::EMPTY;
        }
        self.awaiting = Awaiting::Nothing;
        self.phase = Phase::Over;
        self.loser = loser.unwrap_or(NONE);
        self.turn = NONE;
        self.window = SeatSet::EMPTY;
    }
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("phase", &self.phase)
            .field("hands", &&self.hands[..self.n as usize])
            .field("table", &self.table.cards())
            .field("stock", &self.piles.stock_len())
            .field("turn", &self.turn)
            .field("leader", &self.leader)
            .field("trump", &self.trump)
            .field("out", &self.out().collect::<Vec<_>>())
            .finish()
    }
}
