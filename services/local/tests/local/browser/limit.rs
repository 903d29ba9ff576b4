//! The warning near the action limit counts only what counts: a page that
//! first opens a game in phase two (a reload with nothing kept in the tab)
//! finds where phase one ended in the history and warns as a page that
//! followed the whole game does. At an action limit of 21 the warning
//! shows from the first action of phase two.

use serde_json::json;
use skit_testkit::Http;

use super::draw::play_one;
use super::driver::Page;

const WARNING: &str = "return document.getElementById('limit-warning')?.textContent ?? ''";
/// The version of the newest event the page's game log shows (-1: none).
const LAST_VERSION_EXPR: &str = "[...document.querySelectorAll('[data-version]')]\
    .reduce((last, e) => Math.max(last, Number(e.dataset.version)), -1)";

pub async fn a_first_look_in_phase_two_warns_as_the_live_page(
    person: &Page,
    other: &Page,
    site: &str,
    game: &Http,
) {
    let token = person
        .eval("return JSON.parse(localStorage.getItem('skitgubbe.session')).token")
        .await;
    let token = token.as_str().expect("a token");
    let body = json!({
        "rules": { "preset": "skitgubbe", "options": { "phase2.action_limit": 21 } },
        "players": 2,
        "requestId": format!("limit-{}", std::process::id()),
    });
    let (status, created) = game
        .call("POST", "/v1/games", Some(token), Some(body))
        .await;
    assert_eq!(status, 200, "{created}");
    let id = created["gameId"].as_str().expect("a game id");
    person.open(&format!("{site}#/game/{id}/0")).await;
    other.open(&format!("{site}#/join/{id}")).await;
    other
        .until("the seat taken", "location.hash.startsWith('#/game/')")
        .await;

    // Both play until phase two has begun and the other's page warns.
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(300);
    loop {
        assert!(
            tokio::time::Instant::now() < deadline,
            "phase two did not come"
        );
        let (_, view) = game
            .call(
                "GET",
                &format!("/v1/games/{id}/view?seat=0"),
                Some(token),
                None,
            )
            .await;
        assert_ne!(view["phase"], json!("PHASE_OVER"), "the game ended first");
        if view["phase"] == json!("PHASE_TWO")
            && other
                .eval(WARNING)
                .await
                .as_str()
                .is_some_and(|w| !w.is_empty())
        {
            break;
        }
        if !play_one(person).await && !play_one(other).await {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
    // Nobody moves now: both pages show the same game.
    let live = other.eval(WARNING).await;
    let version = other.eval(&format!("return {LAST_VERSION_EXPR}")).await;
    person.eval("sessionStorage.clear(); return true").await;
    person.client.refresh().await.expect("the page reloads");
    person
        .until(
            "the stream after the reload",
            "document.getElementById('conn')?.dataset.state === 'live'",
        )
        .await;
    // The stream is live once its headers arrive; the view comes after.
    person
        .until(
            "the reloaded page's view of the same version",
            &format!("({LAST_VERSION_EXPR}) === {version}"),
        )
        .await;
    let fresh = person.eval(WARNING).await;
    assert!(
        live.as_str()
            .is_some_and(|w| w.starts_with("Nearing the action limit")),
        "{live}"
    );
    assert_eq!(fresh, live, "a first look counts otherwise");
}
