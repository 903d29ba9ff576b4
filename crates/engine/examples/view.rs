//! Prints seat 1's view after a few random moves of a `skitgubbe` game: the
//! documented JSON form of views (`docs/engine.md`).

use skit_engine::{Action, Card, Game, Preset, Ruleset};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let deck: Vec<Card> = Card::all().collect();
    let mut game = Game::deal(Ruleset::preset(Preset::Skitgubbe), 3, 0, &deck)?;
    for _ in 0..5 {
        let Some(&mv) = game.legal_moves().first() else {
            break;
        };
        game.apply(&Action::Move(mv))?;
    }
    println!("{}", serde_json::to_string_pretty(&game.view(Some(1)))?);
    Ok(())
}
