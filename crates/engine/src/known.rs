//! Known cards: the cards every seat has seen enter another player's hand
//! (or a phase-one pile) and not yet seen leave it, such as cards picked up
//! face up from the table, a pile of tricks won in sight of all, or the
//! trump card turned face up into its holder's hand.
//!
//! Under every rule of the family a card enters a hand or a pile either in
//! everyone's sight (from the table, a pile whose content was seen, the
//! face-up card under the stock, the trump card turned) or in nobody's but
//! the receiver's (a draw from the stock or the reserve, a dealt chance
//! outcome). So what a seat has seen enter another seat's hand is what every
//! seat, and a spectator, has seen: one public record serves every viewer.

use crate::state::swap::swap_bits;
use crate::state::{Awaiting, Phase, State, flag};
use crate::{Action, Card, CardSet, Move, Ruleset, Seat};

/// No public shuffle yet.
const NO_SHUFFLE: u8 = u8::MAX;

/// The public record of where cards were seen going, kept by [`crate::Game`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Known {
    /// Cards seen entering each seat's hand and still there.
    hands: [CardSet; 8],
    /// Cards seen entering each seat's phase-one pile and still there.
    piles: [CardSet; 8],
    /// Cards everyone has seen face up at some point.
    ever: CardSet,
    /// For each card, the latest public shuffle (chance outcome) it was in.
    shuffle: [u8; 64],
    /// Public shuffles so far.
    shuffles: u8,
    /// Cards each seat has taken into its hand unseen (drawn, dealt), so far.
    unseen_entries: [u32; 8],
    /// What refusals the rules would have made reveal about hands.
    voids: Vec<Void>,
}

/// A revealed void: when `seat` acted, it held no card of `cards` (it did not
/// follow suit, did not tie, did not beat), and it had then taken
/// `unseen_entries` cards into its hand unseen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Void {
    pub seat: Seat,
    pub cards: CardSet,
    pub unseen_entries: u32,
}

impl Known {
    pub fn new(state: &State) -> Known {
        let mut known = Known {
            hands: [CardSet::EMPTY; 8],
            piles: [CardSet::EMPTY; 8],
            ever: CardSet::EMPTY,
            shuffle: [NO_SHUFFLE; 64],
            shuffles: 0,
            unseen_entries: [0; 8],
            voids: Vec::new(),
        };
        known.ever = public_places(state);
        known
    }

    /// Cards seen entering `seat`'s hand and not seen leaving it.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat as usize]
    }

    /// Cards seen entering `seat`'s phase-one pile and still in it.
    pub fn pile(&self, seat: Seat) -> CardSet {
        self.piles[seat as usize]
    }

    /// Cards everyone has seen face up at some time.
    pub fn ever_shown(&self) -> CardSet {
        self.ever
    }

    /// The latest public shuffle `card` was dealt by, if any.
    pub fn shuffle_of(&self, card: Card) -> Option<u8> {
        let i = self.shuffle[card.index() as usize];
        (i != NO_SHUFFLE).then_some(i)
    }

    /// Follows one applied action: `revealed` are the cards its public
    /// record shows (played, sluffed, banked, turned, robbed).
    pub fn update(&mut self, before: &State, after: &State, action: &Action, revealed: CardSet) {
        // A chance outcome deals its cards unseen; anything else that moves
        // with it (piles joining hands after an unfinished trick's deal) is
        // moved in sight as usual.
        let mut dealt = CardSet::EMPTY;
        if let Action::Shuffle(order) = action {
            for &card in order {
                self.shuffle[card.index() as usize] = self.shuffles;
                dealt.insert(card);
            }
            self.shuffles = self.shuffles.saturating_add(1);
        }
        let seen = (public_places(before) | revealed | self.all_known()) - dealt;
        for seat in 0..after.players() {
            let s = seat as usize;
            let (hand_before, hand_after) = (before.hand(seat), after.hand(seat));
            let (pile_before, pile_after) = (pile(before, seat), pile(after, seat));
            self.hands[s] &= hand_after;
            self.piles[s] &= pile_after;
            // A card shown by this action that is in the hand afterwards
            // entered it in sight, even the hand it was played from (a
            // trick taken back at the end of phase one).
            let entered = (hand_after - hand_before) | (hand_after & revealed);
            self.hands[s] |= entered & seen;
            self.unseen_entries[s] += (entered - seen).len();
            self.piles[s] |= ((pile_after - pile_before) | (pile_after & revealed)) & seen;
        }
        // The trump card is turned face up into its holder's hand (drawn
        // face down earlier, or in this very action).
        let mut turned = CardSet::EMPTY;
        if before.trump().is_none()
            && let (Some(card), Some(holder)) = (after.trump_card(), after.trump_holder())
        {
            turned.insert(card);
            self.hands[holder as usize] |= turned & after.hand(holder);
        }
        self.ever |= seen | dealt | turned | public_places(after);
    }

    /// Records that `seat` held none of `cards` just now (see [`Void`]).
    pub fn reveal_void(&mut self, seat: Seat, cards: CardSet) {
        if !cards.is_empty() {
            self.voids.push(Void {
                seat,
                cards,
                unseen_entries: self.unseen_entries[seat as usize],
            });
        }
    }

    pub fn voids(&self) -> &[Void] {
        &self.voids
    }

    /// Cards `seat` has taken into its hand unseen so far.
    pub fn unseen_entries(&self, seat: Seat) -> u32 {
        self.unseen_entries[seat as usize]
    }

    /// Exchanges cards `a` and `b` everywhere in the record, as
    /// [`State::swap_cards`] does in a state (rebuilding a game from a view).
    pub fn swap_cards(&mut self, a: Card, b: Card) {
        for set in self.hands.iter_mut().chain(self.piles.iter_mut()) {
            *set = swap_bits(*set, a, b);
        }
        self.ever = swap_bits(self.ever, a, b);
        self.shuffle.swap(a.index() as usize, b.index() as usize);
    }

    fn all_known(&self) -> CardSet {
        self.hands
            .iter()
            .chain(&self.piles)
            .fold(CardSet::EMPTY, |a, &b| a | b)
    }
}

/// Cards lying face up or out of play, where everyone can see them.
fn public_places(state: &State) -> CardSet {
    let mut cards = state.table_set() | state.gone | state.awaited_cards();
    if let Some(card) = state.turned_card() {
        cards.insert(card);
    }
    cards
}

/// `seat`'s phase-one pile.
pub(crate) fn pile(state: &State, seat: Seat) -> CardSet {
    if state.phase() == Phase::Two || state.awaiting() == Awaiting::LowCards {
        return CardSet::EMPTY;
    }
    state.owners.of_seat(seat, state.aside)
}

/// The trump card while it lies face down apart from the hands.
pub(crate) fn face_down_trump(state: &State) -> CardSet {
    match state.trump_card {
        Some(card) if state.flags & flag::TRUMP_APART != 0 => CardSet::single(card),
        _ => CardSet::EMPTY,
    }
}

/// The cards whose holding would have made `mv` illegal for its seat: what
/// the move reveals the seat did not hold (a suit not followed in `melniki`,
/// a rank not tied under compulsory ties, a card that would beat under
/// `phase2.must_beat`). Empty under rules where no hand forbids a move.
pub(crate) fn revealed_void(rules: &Ruleset, before: &State, mv: Move) -> CardSet {
    let o = &rules.options;
    if !(o.must_follow || o.compulsory_ties || o.must_beat) {
        return CardSet::EMPTY;
    }
    let hand = before.hand(mv.seat);
    let mut void = CardSet::EMPTY;
    for card in CardSet::FULL - hand - public_places(before) {
        let mut with = *before;
        with.hands[mv.seat as usize].insert(card);
        if with.check(rules, mv).is_err() {
            void.insert(card);
        }
    }
    void
}
