//! A whole game rebuilt from one seat's view by replay and repair: a random
//! deck is dealt and the public history replayed on it; before each record
//! the state is repaired by exchanging cards nobody has seen ([`pins`]), so
//! every public record happens as it did. Finally the seat's hand is made
//! its real one, and the game is replayed once more from the repaired deck,
//! so the result is a [`Game`] with the view's history. It agrees with the
//! view on every public fact and on the seat's legal actions; it is only a
//! starting point, whose hidden cards the sampler then arranges afresh.

use rand::seq::SliceRandom;
use rand::{Rng, RngCore};

use super::pins::{Pin, Pinned};
use crate::known::revealed_void;
use crate::rules::Phase1Mode;
use crate::{
    Action, Card, CardSet, Game, Move, MoveError, MoveKind, Phase, Rank, Record, Ruleset, Seat,
    State, View,
};

/// Fresh decks tried before giving up on a view.
const ATTEMPTS: usize = 8;

/// Rebuilds games consistent with one seat's view.
#[derive(Clone, Debug)]
pub(super) struct Rebuild<'a> {
    view: &'a View,
    seat: Seat,
    hand: CardSet,
    rules: Ruleset,
    /// The card turned up at the deal (`mas`, `melniki`), if the view shows it.
    turned: Option<Card>,
    /// Where the trump card turned between the phases can be: the holder's
    /// known card that no record shows (it kept it), else a trump of the
    /// low cards shuffled after (it was discarded), else any trump.
    trump_card: CardSet,
}

impl<'a> Rebuild<'a> {
    /// `None` for a spectator's view or a game not started by a deal.
    pub fn new(view: &'a View) -> Option<Rebuild<'a>> {
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
        Some(Rebuild {
            view,
            seat,
            hand,
            rules: view.rules,
            turned: turned.or(view.turned_card),
            trump_card: trump_card_hint(view),
        })
    }

    /// A consistent game, trying a few fresh decks.
    pub fn game(&self, rng: &mut dyn RngCore) -> Option<Game> {
        (0..ATTEMPTS).find_map(|_| self.attempt(rng))
    }

    fn turned_trump(&self) -> bool {
        self.rules.options.mode == Phase1Mode::TurnedTrump
    }

    fn attempt(&self, rng: &mut dyn RngCore) -> Option<Game> {
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
        // The history shows the trump card's suit, not which card it was;
        // the known cards show it while its holder keeps it.
        for (s, sv) in view.seats.iter().enumerate() {
            if s != usize::from(self.seat) {
                p.ensure_held(s as Seat, sv.known_cards, rng)?;
            }
        }
        p.settle_hand(self.seat, self.hand, rng)?;
        if !self.agrees(&p.state) {
            return None;
        }
        let known = view.seats.iter().enumerate().all(|(s, sv)| {
            s == usize::from(self.seat) || p.known.hand(s as Seat) == sv.known_cards
        });
        known.then(|| Game::assemble(self.rules, p.state, view.history.clone(), p.known))
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
                self.apply(p, &Action::Shuffle(order), cards, rng)?;
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
        self.apply(p, &Action::Move(Move::new(seat, kind)), shown, rng)?;
        p.pin(shown, Pin::Public);
        Some(())
    }

    /// Applies `action`, repairing what the rules refuse on hidden grounds
    /// (a seat that did not tie or follow cannot have held the rank or suit),
    /// and making the trump card turned at the end of phase one the public suit.
    fn apply(
        &self,
        p: &mut Pinned,
        action: &Action,
        revealed: CardSet,
        rng: &mut dyn RngCore,
    ) -> Option<()> {
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
            .filter(|card| turns_trump && !self.trump_card.contains(*card));
        if let Some(card) = wrong_trump {
            p.retarget_trump(card, self.trump_card, rng)?;
            after = p.state;
            after.apply(&self.rules, action).ok()?;
        }
        if let Action::Move(mv) = action {
            p.known
                .reveal_void(mv.seat, revealed_void(&self.rules, &p.state, *mv));
        }
        p.known.update(&p.state, &after, action, revealed);
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
            // Under compulsory ties a seat holding a rank played in the
            // round may not take a chance: it held none of them.
            MoveError::NotNow { .. }
                if mv.kind == MoveKind::Chance && self.rules.options.compulsory_ties =>
            {
                p.state
                    .table_cards()
                    .fold(CardSet::EMPTY, |a, (_, c, _)| a | CardSet::rank(c.rank()))
            }
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

/// See [`Rebuild::trump_card`].
fn trump_card_hint(view: &View) -> CardSet {
    let Some(suit) = view.trump else {
        return CardSet::EMPTY;
    };
    let trumps = CardSet::suit(suit);
    let recorded = view
        .history
        .iter()
        .fold(CardSet::EMPTY, |a, r| a | r.cards());
    let kept = view
        .trump_holder
        .and_then(|h| view.seats.get(usize::from(h)))
        .map_or(CardSet::EMPTY, |sv| sv.known_cards & trumps)
        - recorded;
    if !kept.is_empty() {
        return kept;
    }
    let discarded = view
        .history
        .iter()
        .skip_while(|r| !matches!(r, Record::PhaseTwo { .. }))
        .find_map(|r| match r {
            Record::Shuffle { cards } => Some(*cards & trumps),
            _ => None,
        })
        .unwrap_or(CardSet::EMPTY);
    if discarded.is_empty() {
        trumps
    } else {
        discarded | (trumps - recorded)
    }
}
