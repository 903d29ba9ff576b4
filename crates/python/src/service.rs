//! A game of the service as the local engine plays it on: a seat's view
//! (GetView's JSON, with the whole history) and one world of SampleWorlds
//! (its JSON) made into a whole game the seat cannot tell from the real one.
//! Read with the service's own conversions (`skit-api`), so nothing of the
//! API's JSON is re-read here.

use skit_engine::{Game, Seat};
use skit_proto::v1;

/// The game `view` describes with its hidden cards placed as `world`
/// places them; `seed` draws the stand-in game the world is put on (it
/// decides nothing the seat could tell). Returns the game and the seat.
pub fn world_game(view: &str, world: &str, seed: u64) -> Result<(Game, Seat), String> {
    let view: v1::View = serde_json::from_str(view).map_err(|e| format!("view: {e}"))?;
    let view = skit_api::engine_view(&view).map_err(|e| format!("view: {e}"))?;
    let seat = view
        .seat
        .ok_or("view: a spectator's view; a seat's is needed")?;
    let world: v1::World = serde_json::from_str(world).map_err(|e| format!("world: {e}"))?;
    let world = skit_api::engine_world(&world).map_err(|e| format!("world: {e}"))?;
    let stand_in = view
        .sample_worlds(1, seed)
        .map_err(|e| format!("view: {e}"))?
        .pop()
        .ok_or("view: no game rebuilt")?;
    let game = stand_in
        .with_world(seat, &world)
        .map_err(|e| format!("world: {e}"))?;
    Ok((game, seat))
}
