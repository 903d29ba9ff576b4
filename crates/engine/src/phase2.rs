//! Phase two, shedding (SPEC 3.3, 5.3, 8.7): beating, the pick-up rules,
//! trick completion, going out and the reserve pile.

use crate::rules::{AntiTrump, Pickup, Plays, Ruleset};
use crate::state::{State, flag};
use crate::{Card, CardSet, Seat, Suit};

/// The lays a ruleset allows in phase two, given the trumps: `None` for
/// single cards only, else whether runs must start from the two.
#[inline]
pub(crate) fn runs_allowed(rules: &Ruleset, trump: Option<Suit>) -> Option<bool> {
    match rules.options.plays {
        Plays::Singles => None,
        Plays::Sequences => Some(false),
        Plays::SequencesFromTwo => Some(true),
        Plays::ByTrumpColour => trump.filter(|t| t.is_red()).map(|_| false),
    }
}

impl State {
    /// The highest card of the top lay: the card to beat.
    #[inline]
    pub(crate) fn card_to_beat(&self) -> Option<Card> {
        // Each lay lies ascending, so its highest card is the table's last.
        self.table.last()
    }

    /// Cards of `hand` that beat `top` (SPEC 3.3, `phase2.anti_trump`).
    #[inline]
    pub(crate) fn beaters(&self, rules: &Ruleset, hand: CardSet, top: Card) -> CardSet {
        let same_suit_higher = hand.above(top);
        let Some(trump) = self.trump else {
            return same_suit_higher;
        };
        let anti_trump = rules.options.anti_trump != AntiTrump::None
            && rules.options.anti_trump.suit(trump) == Some(top.suit());
        if top.suit() == trump || anti_trump {
            return same_suit_higher;
        }
        same_suit_higher | (hand & CardSet::suit(trump))
    }

    fn reserve_protects(&self, rules: &Ruleset) -> bool {
        rules.options.reserve > 0 && self.piles.reserve_len() > 0
    }

    /// A lay by `seat` in phase two.
    ///
    /// The common path (the lay neither empties the hand nor can end the
    /// trick early) is kept short: emptying a hand and the early ends
    /// (`complete_suit`, `trump_ends_trick`) are tested once each and handled
    /// out of line, since random playouts run this for most of their actions.
    pub(crate) fn lay_phase_two(&mut self, rules: &Ruleset, seat: Seat, cards: CardSet) {
        let lead = self.table.is_empty();
        if lead {
            self.trick_size = self.in_game().len() as u8;
        }
        let below = self.card_to_beat();
        self.lay_from_hand(seat, cards, false);
        if self.hands[seat as usize].is_empty() && self.hand_emptied(rules, seat) {
            return;
        }
        let o = &rules.options;
        let ends = self.table.groups() >= u32::from(self.trick_size)
            || (o.complete_suit || o.trump_ends_trick)
                && self.ends_early(rules, lead, cards, below);
        if ends {
            self.complete_trick(rules, seat);
        } else {
            self.turn = self.next_in(self.in_game(), seat).unwrap_or(seat);
        }
    }

    /// `seat` laid its last card: out unless the reserve keeps it in. Returns
    /// whether the game is over (only going out can leave one seat in it).
    #[cold]
    #[inline(never)]
    fn hand_emptied(&mut self, rules: &Ruleset, seat: Seat) -> bool {
        if self.reserve_protects(rules) {
            return false;
        }
        self.push_out(seat);
        self.check_one_left()
    }

    /// `phase2.complete_suit` and `phase2.trump_ends_trick`: whether the lay
    /// of `cards` on `below` ends the trick before everyone has laid.
    #[inline(never)]
    fn ends_early(&self, rules: &Ruleset, lead: bool, cards: CardSet, below: Option<Card>) -> bool {
        let o = &rules.options;
        let trump = self.trump.map(CardSet::suit).unwrap_or_default();
        let suit_complete = o.complete_suit
            && crate::Suit::ALL
                .iter()
                .any(|&s| CardSet::suit(s).is_subset(self.table.set()));
        let trumped = o.trump_ends_trick
            && !lead
            && cards.is_subset(trump)
            && below.is_some_and(|b| !trump.contains(b));
        suit_complete || trumped
    }

    /// The trick is set aside; the completer leads (or the next seat holding cards).
    #[inline(never)]
    fn complete_trick(&mut self, rules: &Ruleset, seat: Seat) {
        self.gone |= self.table.set();
        self.table.clear();
        self.flags &= !flag::FORCED;
        if rules.options.reserve > 0 {
            let other = self.left(seat);
            for drawer in [seat, other] {
                if let Some(card) = self.piles.draw_reserve() {
                    self.hands[drawer as usize].insert(card);
                }
            }
            if self.piles.reserve_len() == 0 {
                for s in [seat, other] {
                    if self.hands[s as usize].is_empty() {
                        self.push_out(s);
                    }
                }
                if self.check_one_left() {
                    return;
                }
            }
        }
        self.lead_from(seat);
    }

    /// The cards a pick-up takes, by `phase2.pickup`, as a range of table positions.
    fn pickup_range(&self, rules: &Ruleset) -> std::ops::Range<usize> {
        let cards = self.table.cards();
        let mut groups = self.table.group_ranges();
        let joins = |low: Card, high: Card| {
            high.suit() == low.suit() && high.rank().value() + 1 == low.rank().value()
        };
        match rules.options.pickup {
            Pickup::Top => groups.next_back().unwrap_or(0..0),
            Pickup::Bottom => groups.next().unwrap_or(0..0),
            Pickup::BottomCard => groups.next().map_or(0..0, |g| g.start..g.start + 1),
            Pickup::TopJoined => {
                let Some(top) = groups.next_back() else {
                    return 0..0;
                };
                let mut start = top.start;
                for g in groups.rev() {
                    if !joins(cards[start], cards[g.end - 1]) {
                        break;
                    }
                    start = g.start;
                }
                start..cards.len()
            }
            Pickup::BottomJoined => {
                let Some(bottom) = groups.next() else {
                    return 0..0;
                };
                let mut end = bottom.end;
                for g in groups {
                    if !joins(cards[g.start], cards[end - 1]) {
                        break;
                    }
                    end = g.end;
                }
                0..end
            }
        }
    }

    /// Takes the cards `phase2.pickup` names off the table.
    #[inline(never)]
    fn take_by_rule(&mut self, rules: &Ruleset) -> CardSet {
        let range = self.pickup_range(rules);
        let taken = self.table.group(range.clone());
        self.table.remove(range);
        taken
    }

    /// With a reserve, a player kept in by it goes out when their lay is
    /// picked up. Returns whether the game is over.
    #[inline(never)]
    fn reserve_pickup(&mut self, seat: Seat, taken: CardSet) -> bool {
        let owners: crate::SeatSet = taken.iter().map(|c| self.owners.seat(c)).collect();
        for owner in owners.iter().filter(|&o| o != seat) {
            if self.hands[owner as usize].is_empty() {
                self.push_out(owner);
            }
        }
        self.check_one_left()
    }

    /// A pick-up by `seat` in phase two.
    pub(crate) fn pickup_phase_two(&mut self, rules: &Ruleset, seat: Seat) {
        let taken = if rules.options.pickup == Pickup::Top {
            // The default: the top lay comes off the end, nothing to move.
            self.table.pop_group()
        } else {
            self.take_by_rule(rules)
        };
        self.hands[seat as usize] |= taken;
        if rules.options.reserve > 0 && self.reserve_pickup(seat, taken) {
            return;
        }
        if rules.options.forced_pickup {
            self.flags |= flag::FORCED;
        }
        let next = self.next_in(self.in_game(), seat).unwrap_or(seat);
        if self.table.is_empty() {
            self.flags &= !flag::FORCED;
            self.lead_from(next);
        } else {
            self.turn = next;
        }
    }
}
