//! A turn played with the keyboard alone: after the previous move the
//! focus is on the hand's first playable card, Enter picks it, one
//! Shift+Tab reaches a move (drawn above the hand, so it comes before it),
//! Enter plays it, and the focus is back in the hand. On a phone the hint
//! above the moves is shown whole.

use std::path::Path;

use serde_json::json;

use super::driver::Page;
use super::{DESKTOP, PHONE};

const ENTER: &str = "\u{E007}";
const SHIFT_TAB: &str = "\u{E008}\u{E004}";

async fn keys(page: &Page, keys: &str) {
    page.client
        .active_element()
        .await
        .expect("a focused element")
        .send_keys(keys)
        .await
        .expect("keys sent");
}

/// Whether the turn was played (false: the table changed meanwhile, as
/// it may while bots play; the caller tries again on a later turn).
pub async fn a_turn_by_keyboard(page: &Page, shots: &Path) -> bool {
    let focused = page
        .eval(
            "return document.activeElement?.matches('#hand button.card:not([disabled])') ?? false",
        )
        .await;
    if focused != json!(true) {
        let where_ = page
            .eval("return document.activeElement?.outerHTML.slice(0, 80) ?? 'nothing'")
            .await;
        let my_turn = page
            .eval(
                "return document.querySelectorAll('#hand button.card:not([disabled])').length > 0",
            )
            .await;
        assert_ne!(
            my_turn,
            json!(true),
            "the person's turn, but the focus is on {where_}, not on a card"
        );
        return false;
    }
    keys(page, ENTER).await;
    if page
        .eval("return document.activeElement?.getAttribute('aria-pressed') === 'true'")
        .await
        != json!(true)
    {
        return false;
    }
    page.resize(PHONE).await;
    let clipped = page
        .eval(
            "const hint = document.getElementById('hint');
             const seats = [...document.querySelectorAll('#seats .label')];
             return { hint: hint.scrollWidth > hint.clientWidth || hint.getBoundingClientRect().right > innerWidth,
                      text: hint.textContent,
                      names: seats.filter(l => l.scrollWidth > l.clientWidth).map(l => l.textContent) };",
        )
        .await;
    page.screenshot(shots, "phone-picked").await;
    page.resize(DESKTOP).await;
    assert_eq!(
        clipped["hint"],
        json!(false),
        "the hint is clipped: {clipped}"
    );
    assert_eq!(clipped["names"], json!([]), "names are cut: {clipped}");

    keys(page, SHIFT_TAB).await;
    let on_move = page
        .eval("return document.activeElement?.matches('#choices button.move') ?? false")
        .await;
    assert_eq!(
        on_move,
        json!(true),
        "Shift+Tab from the hand did not reach a move"
    );
    keys(page, ENTER).await;
    page.until(
        "the focus back in the hand after the move",
        "document.activeElement?.closest('#hand') && document.getElementById('hint').textContent !== 'Sending your move…'",
    )
    .await;
    true
}
