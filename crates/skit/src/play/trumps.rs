//! What trumps mean, told when they are set: in `mas` and `melniki` a card
//! turned at the deal makes trumps for the whole game and they matter in
//! phase one already; otherwise the trump card turned between the phases
//! makes trumps for phase two only (docs/rules.md 2.3, 2.4, 3.4, 3.5 and
//! the phase-two options).

use skit_engine::rules::Phase1Mode;
use skit_engine::{Ruleset, Suit};
use skit_proto::v1::{Phase, View};

use super::render::who;
use super::text::suit_name;

/// The lines explaining the trumps `view` shows, for its phase; none if
/// trumps are not set.
pub fn trump_lines(view: &View) -> Vec<String> {
    let Some(trump) = view.trump.as_deref() else {
        return Vec::new();
    };
    let suit = suit_name(trump);
    // A view's ruleset is the service's own resolved one; an unreadable
    // one still gets the base game's explanation.
    let rules = skit_api::rules(view.rules.as_ref()).ok();
    let options = rules.map(|r: Ruleset| r.options);
    let turned = options.is_some_and(|o| o.mode == Phase1Mode::TurnedTrump);
    let card = view.trump_card.as_deref();
    let mut lines = Vec::new();
    match view.phase() {
        Phase::One => {
            let turned = card
                .map(|c| format!(" (the card turned at the deal, {c})"))
                .unwrap_or_default();
            lines.push(format!("Trumps are {suit} for the whole game{turned}."));
            lines.push(
                "In this phase the second beats the led card with a higher card of its suit, \
                 or with a trump if it is not a trump; otherwise they pick it up."
                    .into(),
            );
            if options.is_some_and(|o| o.must_follow) {
                lines.push(
                    "Holding a card of the led suit, you must play one; only without one \
                     may you trump or pick up."
                        .into(),
                );
            }
            if options.is_some_and(|o| o.rob) {
                lines.push(format!(
                    "Whoever holds the two of {suit} may rob: swap it for the turned card."
                ));
            }
        }
        Phase::Two => {
            if turned {
                lines.push(format!("Trumps are still {suit}."));
            } else {
                let card = card.map(|c| format!(" {c}")).unwrap_or_default();
                lines.push(match view.trump_holder {
                    Some(holder) => format!(
                        "Trumps are {suit} for phase two: the trump card{card} went to {}, who leads.",
                        who(view, holder).replace("You", "you")
                    ),
                    None => format!("Trumps are {suit} for phase two (the trump card{card})."),
                });
            }
            lines.push(
                "Beat the top card with a higher card of its suit, or with any trump if it \
                 is not a trump; or pick up."
                    .into(),
            );
            let anti = options.and_then(|o| {
                let trump = trump.chars().next().and_then(Suit::from_letter)?;
                o.anti_trump.suit(trump)
            });
            if let Some(anti) = anti {
                let anti = suit_name(&anti.to_string()).to_owned();
                let anti = capitalized(&anti);
                lines.push(format!(
                    "{anti} are anti-trumps: no trump beats them, only a higher {}.",
                    anti.to_lowercase().trim_end_matches('s')
                ));
            }
            if options.is_some_and(|o| o.trump_ends_trick) {
                lines.push("A trump played on a non-trump ends the trick at once.".into());
            }
        }
        Phase::Over | Phase::Unspecified => {}
    }
    lines
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
