//! The person's and the spectator's steps, as a person takes them: find
//! what the page shows, click it, wait for what it shows next.

use std::path::Path;

use serde_json::json;

use super::driver::Page;
use super::proxy::Proxy;
use super::{DESKTOP, PHONE};

/// Signs up, queues for a game of three with bots; the game's id.
pub async fn sign_up_and_queue(page: &Page, site: &str, name: &str, shots: &Path) -> String {
    page.open(site).await;
    page.find("#register").await;
    page.screenshot(shots, "desktop-sign-in").await;
    page.type_into("input[name=name]", name).await;
    page.type_into("input[name=password]", "a long enough password")
        .await;
    page.click("#register").await;

    page.find("#queue").await;
    assert_eq!(page.text("#who").await, name);
    page.find("#play-preset")
        .await
        .select_by_value("skitgubbe")
        .await
        .expect("a preset");
    page.find("#play-players")
        .await
        .select_by_value("3")
        .await
        .expect("three players");
    page.screenshot(shots, "desktop-lobby").await;
    page.click("#queue").await;

    page.until("a table", "location.hash.startsWith('#/game/')")
        .await;
    page.find("#hand button.card").await;
    let hash = page.eval("return location.hash").await;
    let game = hash
        .as_str()
        .and_then(|h| h.split('/').nth(2))
        .expect("a game id in the address");
    game.to_owned()
}

/// A second person takes the same name: the page says so in words.
pub async fn a_taken_name_is_refused_in_words(page: &Page, site: &str, name: &str, shots: &Path) {
    page.open(site).await;
    page.screenshot(shots, "phone-sign-in").await;
    page.type_into("input[name=name]", name).await;
    page.type_into("input[name=password]", "another long password")
        .await;
    page.click("#register").await;
    page.until("the refusal", "!document.getElementById('notice').hidden")
        .await;
    assert!(
        page.text("#notice").await.contains("That name is taken."),
        "{}",
        page.text("#notice").await
    );
}

/// Signs in as a guest and opens the game as a spectator.
pub async fn watch(page: &Page, site: &str, game: &str, shots: &Path) {
    page.click("#guest").await;
    page.find("#watch-id").await;
    page.screenshot(shots, "phone-lobby").await;
    page.type_into("#watch-id", &format!("{site}#/watch/{game}"))
        .await;
    page.click("form[aria-labelledby=watch-title] button").await;
    page.until(
        "the spectator's live view",
        "document.getElementById('conn')?.dataset.state === 'live'",
    )
    .await;
    assert!(
        page.eval("return document.querySelector('#hand')")
            .await
            .is_null(),
        "a spectator has no hand"
    );
    page.find("#seats li").await;
    page.screenshot(shots, "phone-watch").await;
}

/// What the person's page offers now.
async fn offered(page: &Page) -> serde_json::Value {
    page.eval(
        "const end = !document.getElementById('end').hidden;
         const card = document.querySelector('#hand button.card:not([disabled])');
         const move = document.querySelector('#choices button.move');
         return { end, card: card?.dataset.card ?? null, move: move?.dataset.move ?? null };",
    )
    .await
}

/// Plays by clicking until the end screen shows: a playable card, then
/// the first move offered with it; or the first move without cards. After
/// a few moves the connection is cut: the page says it is reconnecting,
/// and once the server is reachable again the game goes on without a
/// reload. The number of moves made.
pub async fn to_the_end(page: &Page, proxy: &Proxy, shots: &Path) -> usize {
    let mut moves = 0;
    let mut cut_done = false;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(600);
    loop {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the game did not end"
        );
        let now = offered(page).await;
        if now["end"] == json!(true) {
            return moves;
        }
        if moves == 3 && !cut_done {
            cut_done = true;
            reconnects(page, proxy, shots).await;
            continue;
        }
        if let Some(card) = now["card"].as_str() {
            let css = format!("#hand button[data-card='{card}']");
            if let Ok(button) = page.client.find(fantoccini::Locator::Css(&css)).await {
                // The table may change between finding and clicking.
                if button.click().await.is_ok() && click_first_move(page).await {
                    moves += 1;
                    if moves == 1 {
                        page.screenshot(shots, "desktop-table").await;
                    }
                }
            }
        } else if now["move"].is_string() && click_first_move(page).await {
            moves += 1;
        } else {
            tokio::time::sleep(std::time::Duration::from_millis(30)).await;
        }
    }
}

async fn click_first_move(page: &Page) -> bool {
    match page
        .client
        .find(fantoccini::Locator::Css("#choices button.move"))
        .await
    {
        Ok(button) => button.click().await.is_ok(),
        Err(_) => false,
    }
}

async fn reconnects(page: &Page, proxy: &Proxy, shots: &Path) {
    page.eval("window.__sameDocument = true;").await;
    page.until(
        "a live stream",
        "document.getElementById('conn').dataset.state === 'live'",
    )
    .await;
    proxy.cut();
    page.until(
        "the page to notice the drop",
        "document.getElementById('conn').dataset.state === 'reconnecting'",
    )
    .await;
    page.screenshot(shots, "desktop-reconnecting").await;
    page.resize(PHONE).await;
    page.screenshot(shots, "phone-table").await;
    page.resize(DESKTOP).await;
    proxy.reopen();
    page.until(
        "the stream to resume",
        "document.getElementById('conn').dataset.state === 'live'",
    )
    .await;
    assert_eq!(
        page.eval("return window.__sameDocument === true").await,
        json!(true),
        "the page was reloaded"
    );
}

pub async fn the_end_shows_places_and_the_rating_change(page: &Page, shots: &Path) {
    let places = page
        .eval("return [...document.querySelectorAll('#end .places li')].map(li => li.textContent)")
        .await;
    assert_eq!(places.as_array().map(Vec::len), Some(3), "{places}");
    assert!(places.to_string().contains("You"), "{places}");
    page.until(
        "the rating change",
        "document.getElementById('rating-change').textContent.startsWith('Your rating:')",
    )
    .await;
    page.screenshot(shots, "desktop-end").await;
    page.resize(PHONE).await;
    page.screenshot(shots, "phone-end").await;
    page.resize(DESKTOP).await;
}

pub async fn replay_verifies_the_shuffles(page: &Page, shots: &Path) {
    page.click("#end .links a").await;
    page.until(
        "the fairness verdict",
        "document.getElementById('fairness-verdict')",
    )
    .await;
    let verdict = page.text("#fairness-verdict").await;
    assert!(verdict.starts_with("Verified"), "{verdict}");
    page.click("#replay-next").await;
    page.click("#replay-next").await;
    let now = page.text("#replay-now").await;
    assert!(now.starts_with("Move 2 of "), "{now}");
    page.screenshot(shots, "desktop-replay").await;
}
