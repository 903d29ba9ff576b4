//! A game drawn by the action limit reads as a draw on both players'
//! screens, never as a win. An action limit of one ends a game of mas
//! (whose every action counts) at its first move.

use serde_json::json;
use skit_testkit::Http;

use super::driver::Page;

/// Plays the first card offered on `page` and its first move; whether it could.
pub async fn play_one(page: &Page) -> bool {
    let card = page
        .eval("return document.querySelector('#hand button.card:not([disabled])')?.dataset.card ?? null")
        .await;
    let Some(card) = card.as_str() else {
        return false;
    };
    let css = format!("#hand button[data-card='{card}']");
    let Ok(button) = page.client.find(fantoccini::Locator::Css(&css)).await else {
        return false;
    };
    if button.click().await.is_err() {
        return false;
    }
    match page
        .client
        .find(fantoccini::Locator::Css("#choices button.move"))
        .await
    {
        Ok(move_) => move_.click().await.is_ok(),
        Err(_) => false,
    }
}

pub async fn a_draw_is_not_called_a_win(person: &Page, other: &Page, site: &str, game: &Http) {
    let token = person
        .eval("return JSON.parse(localStorage.getItem('skitgubbe.session')).token")
        .await;
    let body = json!({
        "rules": { "preset": "mas", "options": { "phase2.action_limit": 1 } },
        "players": 2,
        "requestId": format!("draw-{}", std::process::id()),
    });
    let (status, created) = game
        .call("POST", "/v1/games", token.as_str(), Some(body))
        .await;
    assert_eq!(status, 200, "{created}");
    let id = created["gameId"].as_str().expect("a game id");
    person.open(&format!("{site}#/game/{id}/0")).await;
    other.open(&format!("{site}#/join/{id}")).await;
    other
        .until("the seat taken", "location.hash.startsWith('#/game/')")
        .await;

    let over = "!document.getElementById('end')?.hidden";
    let deadline = tokio::time::Instant::now() + super::driver::PATIENCE;
    while person.eval(&format!("return {over}")).await != json!(true) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the game did not end"
        );
        if !play_one(person).await && !play_one(other).await {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
    other.until("the other's end screen", over).await;
    for page in [person, other] {
        let heading = page.text("#end-title").await;
        assert_eq!(heading, "A draw: nobody lost");
        let end = page.text("#end").await;
        assert!(end.contains("Drawn: the action limit was reached"), "{end}");
        assert!(!end.contains("well played"), "{end}");
    }
}
