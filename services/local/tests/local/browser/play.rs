//! The person's and the spectator's steps, as a person takes them: find
//! what the page shows, click it, wait for what it shows next.

use std::path::Path;

use serde_json::json;

use super::a11y;
use super::driver::Page;
use super::keyboard;
use super::proxy::Proxy;
use super::{DESKTOP, PHONE};

/// Signs up, queues for a game of three with bots; the game's id. The
/// matchmaker is out of reach at first: the page says so and tries again
/// until it answers.
pub async fn sign_up_and_queue(
    page: &Page,
    site: &str,
    matchmaker: &str,
    name: &str,
    shots: &Path,
) -> String {
    page.open(site).await;
    page.find("#register").await;
    page.screenshot(shots, "desktop-sign-in").await;
    a11y::no_serious_violations(page, "the sign-in screen").await;
    page.type_into("input[name=name]", name).await;
    page.type_into("input[name=password]", "a long enough password")
        .await;
    page.click("#register").await;

    page.find("#queue").await;
    assert_eq!(page.text("#who").await, name);
    a11y::no_serious_violations(page, "the lobby").await;
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
    page.block(&[&format!("{matchmaker}/*")]).await;
    page.click("#queue").await;
    page.until(
        "the page to say it tries the matchmaker again",
        "document.getElementById('queue-retry')?.textContent.includes('Trying again in')",
    )
    .await;
    page.screenshot(shots, "desktop-queue-retry").await;
    page.block(&[]).await;

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
         const plain = [...document.querySelectorAll('#choices button.move:not(.primary)')];
         const explained = plain.every(b => { const e = document.getElementById(b.getAttribute('aria-describedby'));
             return e && e.getClientRects().length > 0 && e.textContent.length > 20; });
         const leads = document.body.textContent.includes('You leads');
         return { end, card: card?.dataset.card ?? null, move: move?.dataset.move ?? null,
                  plain: plain.length, explained, leads };",
    )
    .await
}

/// Plays by clicking until the end screen shows: a playable card, then
/// the first move offered with it; or the first move without cards. After
/// a few moves the connection is cut and a move is made while it is: the
/// page says it is reconnecting and keeps the move, and once the server is
/// reachable again the move is sent, the notice goes and the game goes on
/// without a reload. The number of moves made.
///
/// `checks`: also play a turn by keyboard, reload mid-game, and at the end
/// assert that each of these happened (a game long enough for them).
pub async fn to_the_end(page: &Page, proxy: &Proxy, shots: &Path, checks: bool) -> usize {
    let mut moves = 0;
    let mut cut_done = false;
    let mut by_keyboard = false;
    let mut reloaded = false;
    let mut plain_moves_seen = 0;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(600);
    loop {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the game did not end"
        );
        let now = offered(page).await;
        assert_eq!(now["leads"], json!(false), "the page says \"You leads\"");
        if now["plain"].as_u64().unwrap_or(0) > 0 {
            assert_eq!(
                now["explained"],
                json!(true),
                "a move is not explained in words"
            );
            plain_moves_seen += 1;
        }
        if now["end"] == json!(true) {
            if checks {
                assert!(cut_done, "the game ended before the outage");
                assert!(by_keyboard, "no turn was played by keyboard");
                assert!(reloaded, "the page was never reloaded mid-game");
                assert!(plain_moves_seen > 0, "no move without cards was offered");
            }
            drawn_only_from_the_stock(page).await;
            return moves;
        }
        if moves >= 3 && !cut_done && now["card"].is_string() {
            cut_done = true;
            a_move_survives_an_outage(page, proxy, shots).await;
            moves += 1;
            continue;
        }
        if checks && cut_done && !by_keyboard && now["card"].is_string() {
            if keyboard::a_turn_by_keyboard(page, shots).await {
                by_keyboard = true;
                moves += 1;
            }
            continue;
        }
        if checks && by_keyboard && !reloaded && trick_won_in_log(page).await {
            reloaded = true;
            the_log_survives_a_reload(page).await;
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
                        if checks {
                            a11y::no_serious_violations(page, "the table").await;
                        }
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

/// The person's moves in the log so far.
const MY_MOVES: &str = "return [...document.querySelectorAll('#log li[data-version]')]\
    .filter(li => li.dataset.kind !== 'EVENT_KIND_SHUFFLE' && li.textContent.startsWith('You ')).length";

async fn a_move_survives_an_outage(page: &Page, proxy: &Proxy, shots: &Path) {
    page.eval("window.__sameDocument = true;").await;
    page.until(
        "a live stream",
        "document.getElementById('conn').dataset.state === 'live'",
    )
    .await;
    let before = page.eval(MY_MOVES).await.as_u64().expect("a count");
    proxy.cut();
    page.until(
        "the page to notice the drop",
        "document.getElementById('conn').dataset.state === 'reconnecting'",
    )
    .await;
    page.click("#hand button.card:not([disabled])").await;
    page.click("#choices button.move").await;
    page.until(
        "the page to say it keeps the move",
        "document.getElementById('notice').textContent.includes('Your move is kept')",
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
    page.until(
        "the kept move to be played",
        &format!("(() => {{ {MY_MOVES} }})() > {before}"),
    )
    .await;
    page.until(
        "the notice to go",
        "document.getElementById('notice').hidden",
    )
    .await;
    assert_eq!(
        page.eval("return window.__sameDocument === true").await,
        json!(true),
        "the page was reloaded"
    );
}

const LOG_TEXT: &str = "return [...document.querySelectorAll('#log li')].map(li => li.textContent)";

async fn trick_won_in_log(page: &Page) -> bool {
    page.eval(LOG_TEXT)
        .await
        .to_string()
        .contains("won the trick")
}

/// A reload mid-game keeps every line of the log, those that only two
/// consecutive views could tell ("… won the trick") included.
async fn the_log_survives_a_reload(page: &Page) {
    let before = page.eval(LOG_TEXT).await;
    page.client.refresh().await.expect("the page reloads");
    page.until(
        "the stream after the reload",
        "document.getElementById('conn')?.dataset.state === 'live'",
    )
    .await;
    let after = page.eval(LOG_TEXT).await;
    let (before, after) = (
        before.as_array().expect("the lines"),
        after.as_array().expect("the lines"),
    );
    assert!(
        after.len() >= before.len() && after[..before.len()] == before[..],
        "the log changed across the reload:\n{before:?}\n{after:?}"
    );
}

/// Cards drawn from the stock come one at a time: taking one's pile into
/// the hand at the end of phase one is not told as drawing it.
async fn drawn_only_from_the_stock(page: &Page) {
    let lines = page.eval(LOG_TEXT).await;
    for line in lines
        .as_array()
        .expect("the lines")
        .iter()
        .filter_map(|l| l.as_str())
    {
        if let Some((_, drawn)) = line.split_once("drew ") {
            // What follows a ';' is another part of the sentence (the
            // pile taken up).
            let drawn = drawn.split(';').next().unwrap_or_default();
            let cards = drawn.trim_end_matches('.').split_whitespace().count();
            assert!(cards <= 3, "a pile told as drawn: {line}");
        }
    }
}

/// Opened afresh (nothing kept in the tab), a finished game's log tells
/// each event as the live page told it: the pile taken up at the end of
/// phase one too, read from the history alone, never as drawn.
pub async fn a_fresh_look_tells_what_the_live_page_told(page: &Page) {
    const EVENT_LINES: &str =
        "return [...document.querySelectorAll('#log li[data-version]')].map(li => li.textContent)";
    let live = page.eval(EVENT_LINES).await;
    page.eval("sessionStorage.clear(); return true").await;
    page.client.refresh().await.expect("the page reloads");
    page.until(
        "the end screen after the reload",
        "document.getElementById('end')?.hidden === false",
    )
    .await;
    let fresh = page.eval(EVENT_LINES).await;
    assert!(
        live.as_array().is_some_and(|lines| lines.len() > 3),
        "{live}"
    );
    assert_eq!(fresh, live, "a first look tells the game otherwise");
    drawn_only_from_the_stock(page).await;
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
    a11y::no_serious_violations(page, "the end of a game").await;
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
    // The replay's board: every seat, the one that made this step's move
    // marked; the buttons name themselves in words.
    let board = page
        .eval("return { seats: document.querySelectorAll('#replay-board li').length, \
               acting: document.querySelectorAll('#replay-board li[aria-current=step]').length, \
               buttons: [...document.querySelectorAll('#replay-first, #replay-prev, #replay-next, #replay-last')].map(b => b.textContent) }")
        .await;
    assert_eq!(board["seats"], json!(3), "{board}");
    assert_eq!(
        board["buttons"],
        json!(["« First", "‹ Previous", "Next ›", "Last »"])
    );
    page.click("#replay-last").await;
    page.click("#replay-prev").await;
    let acting = page
        .eval("return document.querySelectorAll('#replay-board li[aria-current=step]').length")
        .await;
    assert_eq!(acting, json!(1), "the last but one move was a seat's");
    a11y::no_serious_violations(page, "the replay").await;
    page.screenshot(shots, "desktop-replay").await;
}
