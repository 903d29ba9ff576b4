//! Who may act: now, for a listing, and once events about to be appended
//! are applied, for the turn index the store keeps with them
//! ([`skit_store::ToAct`]). A seat may act when it has a legal move,
//! including a sluff, rob or bank only it can see.

use std::sync::Arc;

use skit_engine::{Action, Game, Phase, Ruleset, Seat, SeatSet, State};
use skit_store::{AccountId, NewEvent, ToAct};

use super::{Created, Holder, Joined, Live, kind};
use crate::shuffle::{Seed, Shuffles};

impl Live {
    /// The seats that may act now, less those the clock plays for good
    /// (forfeited); none once the game is over.
    pub fn seats_to_act(&self) -> SeatSet {
        if self.is_over() {
            return SeatSet::EMPTY;
        }
        may_act(self.game.rules(), self.game.state()).minus(self.forfeited_seats())
    }

    /// Who may act once `events` are applied after the current version;
    /// `None` if they cannot be read, which leaves the store's index
    /// asking the service to look.
    pub fn to_act_after(&self, events: &[NewEvent]) -> Option<ToAct> {
        let rules = self.game.rules();
        let mut state = *self.game.state();
        let mut holders = self.seats.clone();
        let mut over = self.ending.is_some() || self.void.is_some();
        let mut forfeited = self.forfeited_seats();
        for event in events {
            match event.kind.as_str() {
                kind::MOVE | kind::SHUFFLE => {
                    let action = Action::from_json(&event.payload["action"]).ok()?;
                    state.apply(rules, &action).ok()?;
                }
                kind::JOINED => {
                    let joined: Joined = serde_json::from_value(event.payload.clone()).ok()?;
                    *holders.get_mut(joined.seat)? = Some(joined.holder);
                }
                kind::RESIGN | kind::TIMEOUT | kind::VOID => over = true,
                kind::FORFEIT => {
                    let seat = event.payload["seat"].as_u64()?;
                    forfeited.insert(Seat::try_from(seat).ok()?);
                }
                _ => {}
            }
        }
        if over || state.phase() == Phase::Over {
            // Nobody may act; but the end concerns everyone seated: the
            // notice names them all, so a long poll for a turn
            // (ListGames my_turn_only) wakes when a game it sits in ends.
            let mut ended = to_act(SeatSet::EMPTY, &holders);
            if !self.is_over() {
                let everyone = SeatSet::first(self.game.state().players());
                ended.accounts = to_act(everyone, &holders).accounts;
            }
            return Some(ended);
        }
        Some(to_act(may_act(rules, &state).minus(forfeited), &holders))
    }
}

/// Who may act in a game `created` describes, dealt from `seed`: event
/// 0's entry in the turn index. `None` if it does not deal.
pub fn to_act_at_start(created: &Created, seed: &Seed) -> Option<ToAct> {
    let rules = Ruleset::from_json(&created.rules).ok()?;
    let (dealer, deck) = seed.deal(created.players, Some(created.dealer));
    let game = Game::deal(rules, created.players, dealer, &deck).ok()?;
    let seats = match game.state().phase() {
        Phase::Over => SeatSet::EMPTY,
        _ => may_act(&rules, game.state()),
    };
    Some(to_act(seats, &created.seats))
}

fn may_act(rules: &Ruleset, state: &State) -> SeatSet {
    let mut seats = SeatSet::EMPTY;
    for seat in 0..state.players() {
        if state.legal_moves_for(rules, seat).iter().next().is_some() {
            seats.insert(seat);
        }
    }
    seats
}

/// `seats` with the accounts holding them, each once.
fn to_act(seats: SeatSet, holders: &[Option<Holder>]) -> ToAct {
    let mut accounts: Vec<AccountId> = Vec::new();
    for (seat, holder) in holders.iter().enumerate() {
        let held = Seat::try_from(seat).is_ok_and(|s| seats.contains(s));
        if let Some(holder) = holder.as_ref().filter(|_| held) {
            let account = AccountId(holder.account_id);
            if !accounts.contains(&account) {
                accounts.push(account);
            }
        }
    }
    ToAct {
        seats: u64::from(seats.bits()),
        accounts: Arc::from(accounts),
    }
}
