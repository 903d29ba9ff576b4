//! Determinization by replay and repair: a full [`State`] sampled from what
//! one seat may see. A random deck is dealt and the public history replayed
//! on it; before each record the sampled state is repaired by exchanging
//! cards nobody has seen ([`pins`]), so every public record happens as it
//! did. Finally the seat's hand is made its real one. The result agrees with
//! the view on every public fact and on the seat's legal actions.

mod pins;

use rand::seq::SliceRandom;
use rand::{Rng, RngCore};
use skit_engine::rules::Phase1Mode;
use skit_engine::{
    Action, Card, CardSet, Move, MoveError, MoveKind, Phase, Rank, Record, Ruleset, Seat, State,
    View,
};

use pins::{Pin, Pinned};

/// Fresh decks tried before giving up on a view.
const ATTEMPTS: usize = 8;

/// Samples states consistent with one seat's view.
#[derive(Clone, Debug)]
pub struct Determinizer<'a> {
    view: &'a View,
    seat: Seat,
    hand: CardSet,
    rules: Ruleset,
    /// The card turned up at the deal (`mas`, `melniki`), if the view shows it.
    turned: Option<Card>,
}

impl<'a> Determinizer<'a> {
    /// `None` for a spectator's view or a game not started by a deal.
    pub fn new(view: &'a View) -> Option<Determinizer<'a>> {
        let seat = view.seat?;
        let hand = view.hand?;
        let dealt = view.phase == Phase::One
            || view
                .history
                .iter()
                .any(|r| matches!(r, Record::PhaseTwo { .. }));
        if !dealt {
            return None;
        }
        let turned = view.history.iter().find_map(|r| match r {
            Record::Deal { turned, .. } => *turned,
            Record::Rob { card, .. } => Some(*card),
            _ => None,
        });
        Some(Determinizer {
            view,
            seat,
            hand,
            rules: view.rules,
            turned: turned.or(view.turned_card),
        })
    }

    /// A consistent state, trying a few fresh decks.
    pub fn sample(&self, rng: &mut dyn RngCore) -> Option<State> {
        (0..ATTEMPTS).find_map(|_| self.attempt(rng))
    }

    fn turned_trump(&self) -> bool {
        self.rules.options.mode == Phase1Mode::TurnedTrump
    }

    fn attempt(&self, rng: &mut dyn RngCore) -> Option<State> {
        let view = self.view;
        let mut deck: Vec<Card> = Card::all().collect();
        deck.shuffle(rng);
        let mut turned = None;
        if self.turned_trump() {
            // The card at deck[3n] is turned up and sets trumps: it must be the
            // one the view shows, or at least of the trump suit.
            let card = match (self.turned, view.trump) {
                (Some(card), _) => (card, Pin::Public),
                (None, Some(suit)) => {
                    let suit = CardSet::suit(suit);
                    (suit.nth(rng.random_range(0..suit.len()))?, Pin::Trump)
                }
                (None, None) => return None,
            };
            let at = 3 * usize::from(view.players);
            let from = deck.iter().position(|&c| c == card.0)?;
            deck.swap(at, from);
            turned = Some(card);
        }
        let state = State::deal(&self.rules, view.players, view.dealer, &deck).ok()?;
        let mut p = Pinned::new(state);
        if let Some((card, pin)) = turned {
            p.pin(CardSet::single(card), pin);
        }
        let mut shuffles = 0u8;
        for record in &view.history {
            self.replay(&mut p, record, &mut shuffles, rng)?;
        }
        p.settle_hand(self.seat, self.hand, rng)?;
        self.agrees(&p.state).then_some(p.state)
    }

    /// Repairs `p` so `record` can happen as it did, then applies it.
    fn replay(
        &self,
        p: &mut Pinned,
        record: &Record,
        shuffles: &mut u8,
        rng: &mut dyn RngCore,
    ) -> Option<()> {
        let (seat, kind, shown) = match *record {
            Record::Deal { .. } | Record::PhaseTwo { .. } | Record::End { .. } => return Some(()),
            Record::Play { seat, cards } => (seat, MoveKind::Play(cards), cards),
            Record::Sluff { seat, cards } => (seat, MoveKind::Sluff(cards), cards),
            Record::Bank { seat, cards } => (seat, MoveKind::Bank, cards),
            Record::Pickup { seat, cards } => (seat, MoveKind::Pickup, cards),
            Record::Pass { seat } => (seat, MoveKind::Pass, CardSet::EMPTY),
            Record::Claim { seat } => (seat, MoveKind::Claim, CardSet::EMPTY),
            Record::Chance { seat, card } => {
                let top = p.state.stock_top()?;
                if top != card {
                    if !p.can_swap(top, card) {
                        return None;
                    }
                    p.swap(top, card);
                }
                (seat, MoveKind::Chance, CardSet::single(card))
            }
            Record::Rob { seat, card } => {
                let two = Card::new(Rank::TWO, self.view.trump?);
                p.ensure_held(seat, CardSet::single(two), rng)?;
                (
                    seat,
                    MoveKind::Rob,
                    CardSet::single(two) | CardSet::single(card),
                )
            }
            Record::Shuffle { cards } => {
                if p.state.awaited_cards() != cards {
                    return None;
                }
                let mut order: Vec<Card> = cards.iter().collect();
                order.shuffle(rng);
                self.apply(p, &Action::Shuffle(order), rng)?;
                p.pin(cards, Pin::Shuffled(*shuffles));
                *shuffles = shuffles.wrapping_add(1);
                return Some(());
            }
        };
        if matches!(
            kind,
            MoveKind::Play(_) | MoveKind::Sluff(_) | MoveKind::Bank
        ) {
            p.ensure_held(seat, shown, rng)?;
        }
        self.apply(p, &Action::Move(Move::new(seat, kind)), rng)?;
        p.pin(shown, Pin::Public);
        Some(())
    }

    /// Applies `action`, repairing what the rules refuse on hidden grounds
    /// (a seat that did not tie or follow cannot have held the rank or suit),
    /// and making the trump card turned at the end of phase one the public suit.
    fn apply(&self, p: &mut Pinned, action: &Action, rng: &mut dyn RngCore) -> Option<()> {
        let mut after = p.state;
        if let Err(error) = after.apply(&self.rules, action) {
            self.repair_refusal(p, action, &error, rng)?;
            after = p.state;
            after.apply(&self.rules, action).ok()?;
        }
        let turns_trump =
            p.state.phase() == Phase::One && after.phase() != Phase::One && !self.turned_trump();
        let wrong_trump = after
            .trump_card()
            .zip(self.view.trump)
            .filter(|(card, trump)| turns_trump && card.suit() != *trump);
        if let Some((card, trump)) = wrong_trump {
            p.retarget_trump(card, trump, rng)?;
            after = p.state;
            after.apply(&self.rules, action).ok()?;
        }
        p.state = after;
        if let Some(card) = p.state.trump_card().filter(|_| turns_trump) {
            p.pin(CardSet::single(card), Pin::Trump);
        }
        Some(())
    }

    fn repair_refusal(
        &self,
        p: &mut Pinned,
        action: &Action,
        error: &MoveError,
        rng: &mut dyn RngCore,
    ) -> Option<()> {
        let Action::Move(mv) = action else {
            return None;
        };
        let played = match mv.kind {
            MoveKind::Play(cards) => cards,
            _ => CardSet::EMPTY,
        };
        let banned = match error {
            MoveError::MustTie { card } => CardSet::rank(card.rank()),
            MoveError::MustFollow => {
                let led = p.state.table_groups().next()?.1.first()?;
                CardSet::suit(led.suit())
            }
            _ => return None,
        };
        let held = p.state.hand(mv.seat) & banned;
        p.evict(mv.seat, held - played, banned, rng)
    }

    /// Whether `state` shows the seat what its view shows.
    fn agrees(&self, state: &State) -> bool {
        let view = self.view;
        let seats_agree = view.seats.iter().enumerate().all(|(s, sv)| {
            let s = s as Seat;
            state.hand(s).len() == sv.hand_size
                && state.pile_size(s) == sv.pile_size
                && state.is_out(s) == sv.out
        });
        let legal = state.legal_moves_for(&self.rules, self.seat);
        seats_agree
            && state.phase() == view.phase
            && state.stock_size() == view.stock_size
            && state.trump() == view.trump
            && state.hand(self.seat) == self.hand
            && legal.len() == view.legal.len()
            && legal.iter().all(|m| view.legal.contains(&m.kind))
    }
}
