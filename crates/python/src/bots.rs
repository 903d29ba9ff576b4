//! The service's own bot strategies (`skit-bots`: `random`, `greedy`,
//! `search`, `ismcts`) choosing for one seat of a local game from that
//! seat's view only: opponents to train against and rollout policies for
//! a search written in Python.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use skit_engine::{Game, Seat};

/// The action number `strategy` chooses for `seat` in `game`, seeded with
/// `seed`; `None` when the seat may not act.
pub fn bot_action(
    game: &Game,
    seat: Seat,
    strategy: &str,
    seed: u64,
) -> Result<Option<u32>, String> {
    if let Some(why) = skit_bots::refused_as_player(strategy) {
        return Err(format!("strategy: {why}"));
    }
    let mut bot = skit_bots::by_name(strategy).ok_or_else(|| {
        format!(
            "strategy: {strategy:?} is none of {}",
            skit_bots::NAMES.join(", ")
        )
    })?;
    let view = game.view(Some(seat));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let Some(kind) = bot.choose(&view, &mut rng) else {
        return Ok(None);
    };
    kind.index()
        .map(Some)
        .ok_or_else(|| format!("the {strategy} bot chose an action with no number: {kind:?}"))
}
