//! Checking a finished game: the revealed seed against its commitment, and
//! every chance outcome in the log against the one the seed gives.

use std::fmt;

use skit_engine::{Action, Card, Game, MoveError, Phase, Ruleset, Seat, SetupError};

use crate::{Seed, deal};

/// What a verified log showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub players: u8,
    pub dealer: Seat,
    /// Whether the dealer came from the seed rather than the record.
    pub dealer_drawn: bool,
    /// Actions in the log, chance outcomes included.
    pub actions: usize,
    /// Shuffles in the log after the deal (chance events 1, 2, ...).
    pub shuffles: u64,
    /// Whether the log reaches the end of the game.
    pub over: bool,
    pub loser: Option<Seat>,
    pub drawn: bool,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dealer = if self.dealer_drawn { "drawn " } else { "" };
        write!(
            f,
            "the deal ({dealer}dealer seat {}) and {} later shuffle{} match the seed over {} actions; ",
            self.dealer,
            self.shuffles,
            if self.shuffles == 1 { "" } else { "s" },
            self.actions,
        )?;
        match (self.over, self.loser) {
            (false, _) => write!(f, "the log ends before the game is over"),
            (true, Some(loser)) => write!(f, "seat {loser} is the skitgubbe"),
            (true, None) => write!(f, "drawn by the action limit"),
        }
    }
}

fn list(cards: &[Card]) -> String {
    let names: Vec<String> = cards.iter().map(Card::to_string).collect();
    names.join(" ")
}

/// The first thing that does not match. Action indexes count from 0, as in
/// the record's `actions` list; chance event 0 is the deal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("the published commitment {published} is not sha256 of the revealed seed ({actual})")]
    Commitment { published: String, actual: String },
    #[error("the recorded dealer is seat {recorded}, but the seed draws seat {drawn}")]
    Dealer { recorded: Seat, drawn: Seat },
    #[error("the deal from the seed was refused: {0}")]
    Deal(#[from] SetupError),
    #[error(
        "actions[{index}] (chance event {event}) shuffles [{}], but the seed gives [{}]",
        list(.found),
        list(.expected)
    )]
    Shuffle {
        index: usize,
        event: u64,
        expected: Vec<Card>,
        found: Vec<Card>,
    },
    #[error("actions[{index}] {action} was refused by the rules: {error}")]
    Refused {
        index: usize,
        action: String,
        error: MoveError,
    },
}

/// Re-derives a game from its revealed seed and checks its log.
///
/// `dealer: None` means the dealer was drawn from the seed. The log is every
/// action after the deal in order, seat moves and shuffles alike; it may
/// begin with the deal itself as a shuffle of all 52 cards (the game
/// service's GetHistory does), which must then be the seed's deck. Checks, in
/// order: the commitment, the deal, then each action with the engine; each
/// shuffle must be exactly [`crate::outcome`] for its event number (the
/// first shuffle in the log is event 1).
pub fn verify(
    seed: &Seed,
    commitment: &str,
    rules: Ruleset,
    players: u8,
    dealer: Option<Seat>,
    actions: &[Action],
) -> Result<Summary, VerifyError> {
    if !seed.matches(commitment) {
        return Err(VerifyError::Commitment {
            published: commitment.to_owned(),
            actual: seed.commitment(),
        });
    }
    let (deck, drawn) = deal(seed, players);
    let dealer_seat = dealer.unwrap_or(drawn);
    let mut game = Game::deal(rules, players, dealer_seat, &deck)?;
    let mut shuffles = 0u64;
    // The service's log may begin with the deal itself: the 52 cards in order.
    let mut skip = 0;
    if let Some(Action::Shuffle(recorded)) = actions.first()
        && recorded.len() == 52
        && game.state().awaited_cards().is_empty()
    {
        if *recorded != deck {
            return Err(VerifyError::Shuffle {
                index: 0,
                event: 0,
                expected: deck,
                found: recorded.clone(),
            });
        }
        skip = 1;
    }
    for (index, action) in actions.iter().enumerate().skip(skip) {
        if let Action::Shuffle(found) = action {
            shuffles += 1;
            let awaited = game.state().awaited_cards();
            if !awaited.is_empty() {
                let expected = crate::outcome(seed, shuffles, awaited);
                if *found != expected {
                    return Err(VerifyError::Shuffle {
                        index,
                        event: shuffles,
                        expected,
                        found: found.clone(),
                    });
                }
            }
        }
        game.apply(action).map_err(|error| VerifyError::Refused {
            index,
            action: action.to_json().to_string(),
            error,
        })?;
    }
    let state = game.state();
    Ok(Summary {
        players,
        dealer: dealer_seat,
        dealer_drawn: dealer.is_none(),
        actions: actions.len(),
        shuffles,
        over: state.phase() == Phase::Over,
        loser: state.loser(),
        drawn: state.drawn(),
    })
}
