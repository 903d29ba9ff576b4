//! Between the phases (SPEC 3.2, 8.5): take-back, the trump card, piles into
//! hands, low cards, empty hands, and who leads phase two.

use crate::rules::{EmptyHand, Ruleset, UnfinishedTrick};
use crate::state::{Awaiting, NONE, Phase, State, flag};
use crate::{Card, CardSet, Rank, Seat, SeatSet};

impl State {
    /// Step 1: the unfinished trick goes back to whoever played each card, or
    /// waits to be shuffled and dealt.
    pub(crate) fn take_back_or_deal(&mut self, rules: &Ruleset) {
        if !self.table.is_empty() && rules.options.unfinished_trick == UnfinishedTrick::Deal {
            self.awaiting = Awaiting::UnfinishedDeal;
            return;
        }
        self.return_to_owners(self.table.set());
        self.table.clear();
        self.turn_trump_and_merge(rules);
    }

    /// Puts each card of `cards` (on the table or in a pile) into its owner's hand.
    pub(crate) fn return_to_owners(&mut self, cards: CardSet) {
        for seat in 0..self.n {
            self.hands[seat as usize] |= self.owners.of_seat(seat, cards);
        }
    }

    /// The awaited unfinished-trick deal: card i to seat dealer+1+i.
    pub(crate) fn deal_unfinished(&mut self, rules: &Ruleset, order: &[Card]) {
        for (i, &card) in order.iter().enumerate() {
            let seat = (self.dealer as usize + 1 + i) % self.n as usize;
            self.hands[seat].insert(card);
        }
        self.table.clear();
        self.awaiting = Awaiting::Nothing;
        self.turn_trump_and_merge(rules);
    }

    /// Steps 2 to 4: the trump card turned and added, piles into hands, low cards.
    pub(crate) fn turn_trump_and_merge(&mut self, rules: &Ruleset) {
        if self.flags & flag::TRUMP_APART != 0 {
            self.flags &= !flag::TRUMP_APART;
            if let Some(card) = self.trump_card {
                self.trump = Some(card.suit());
                self.hands[self.trump_holder as usize].insert(card);
            }
        }
        self.return_to_owners(self.aside);
        self.aside = CardSet::EMPTY;
        self.phase = Phase::Two;
        self.round = SeatSet::EMPTY;
        self.window = SeatSet::EMPTY;
        self.flags &= !flag::DECIDED;
        // Step 6: the trump holder is due to lead phase two, shown as leader
        // even while the low cards are awaited; the lead starts from them
        // once every hand is settled.
        if let Some(holder) = self.trump_holder() {
            self.leader = holder;
        }
        if !self.set_aside_low_cards(rules) {
            self.settle_empty_hands(rules, false);
            if self.phase == Phase::Two {
                self.lead_from(self.leader);
            }
        }
    }

    /// Which seats get low cards, clockwise from the dealer's left.
    fn low_card_recipients(&self, rules: &Ruleset) -> SeatSet {
        let o = &rules.options;
        let trump_rank = self.trump_rank();
        let mut seats = SeatSet::EMPTY;
        for seat in 0..self.n {
            let held = self.hands[seat as usize].len();
            let under = o
                .low_cards
                .is_some_and(|low| u64::from(held) < low.threshold_for(trump_rank));
            if under || (o.empty_hand == EmptyHand::LowCards && held == 0) {
                seats.insert(seat);
            }
        }
        seats
    }

    /// The rank of the trump card (with a turned-up trump, the card turned at the deal).
    fn trump_rank(&self) -> Rank {
        self.trump_card.map(|c| c.rank()).unwrap_or(Rank::ACE)
    }

    /// Step 4: every seat discards the low cards, to be shuffled (a chance
    /// event). Returns whether a shuffle is now awaited.
    fn set_aside_low_cards(&mut self, rules: &Ruleset) -> bool {
        let o = &rules.options;
        if o.low_cards.is_none() && o.empty_hand != EmptyHand::LowCards {
            return false;
        }
        let recipients = self.low_card_recipients(rules);
        if recipients.is_empty() {
            return false;
        }
        let Some(trump) = self.trump else {
            return false;
        };
        let discards = match o.low_cards {
            Some(low) => low.discards(trump),
            None => CardSet::FULL.with_ranks(crate::rules::LowCards::DEFAULT_RANKS),
        };
        let mut taken = CardSet::EMPTY;
        for seat in 0..self.n as usize {
            taken |= self.hands[seat] & discards;
            self.hands[seat] = self.hands[seat] - discards;
        }
        if taken.is_empty() {
            return false;
        }
        self.aside = taken;
        // While the shuffle is awaited no seat acts, so the window holds the recipients.
        self.window = recipients;
        self.awaiting = Awaiting::LowCards;
        true
    }

    /// The awaited low-card shuffle: card i to recipient i mod r.
    pub(crate) fn deal_low_cards(&mut self, rules: &Ruleset, order: &[Card]) {
        let first = (self.dealer + 1) % self.n;
        let recipients: Vec<Seat> = (0..self.n)
            .map(|i| (first + i) % self.n)
            .filter(|&s| self.window.contains(s))
            .collect();
        for (i, &card) in order.iter().enumerate() {
            self.hands[recipients[i % recipients.len()] as usize].insert(card);
        }
        self.aside = CardSet::EMPTY;
        self.window = SeatSet::EMPTY;
        self.awaiting = Awaiting::Nothing;
        self.settle_empty_hands(rules, false);
        if self.phase == Phase::Two {
            self.lead_from(self.leader);
        }
    }

    /// Steps 5 and 6: empty hands by `between.empty_hand`; one seat left loses.
    pub(crate) fn settle_empty_hands(&mut self, rules: &Ruleset, from_position: bool) {
        let empty = SeatSet::first(self.n).minus(self.seats_with_cards());
        match rules.options.empty_hand {
            EmptyHand::Loses if !empty.is_empty() => {
                let loser = empty.next_from((self.dealer + 1) % self.n, self.n);
                return self.finish(loser);
            }
            EmptyHand::Blue => {}
            EmptyHand::LowCards if !from_position => {
                for seat in empty.iter() {
                    self.push_out(seat);
                }
            }
            _ => {
                for seat in empty.iter() {
                    self.push_out(seat);
                }
            }
        }
        self.check_one_left();
    }

    /// The game is over when one seat is left in the game: it is the skitgubbe.
    pub(crate) fn check_one_left(&mut self) -> bool {
        let in_game = self.in_game();
        if in_game.len() <= 1 {
            self.finish(in_game.iter().next());
            return true;
        }
        false
    }

    /// Step 7 (and every new phase-two trick): the first seat from `seat`
    /// clockwise that is in the game and holds cards leads. If none does
    /// (only blue seats that never picked up are left, after a trick ended
    /// early), nobody can ever act: the game is over with no loser
    /// (rules.md B17).
    pub(crate) fn lead_from(&mut self, seat: Seat) {
        // Usually `seat` itself may lead: then no hand needs looking at.
        let leader = if seat < self.n
            && self.in_game().contains(seat)
            && !self.hands[seat as usize].is_empty()
        {
            seat
        } else {
            let can_lead = self
                .in_game()
                .minus(SeatSet::first(self.n).minus(self.seats_with_cards()));
            let Some(leader) = can_lead.next_from(seat, self.n) else {
                self.leader = NONE;
                self.trick_size = 0;
                return self.finish(None);
            };
            leader
        };
        self.leader = leader;
        self.turn = leader;
        self.trick_size = 0;
    }
}
