//! Signing in goes on to where the person was going: the lobby after Sign
//! out (the address is `#/` already), the leaderboard that asked for it,
//! and a shared link opened while signed out.

use std::path::Path;

use super::driver::Page;

async fn log_in(page: &Page, name: &str) {
    page.type_into("input[name=name]", name).await;
    page.type_into("input[name=password]", "a long enough password")
        .await;
    page.click("#login").await;
}

async fn sign_out(page: &Page) {
    page.click("#sign-out").await;
    page.find("#login").await;
    assert_eq!(page.text("#who").await, "", "still signed in");
}

pub async fn signing_in_goes_on_where_the_person_was_going(
    page: &Page,
    site: &str,
    name: &str,
    game: &str,
    shots: &Path,
) {
    page.open(&format!("{site}#/")).await;
    sign_out(page).await;
    log_in(page, name).await;
    page.find("#queue").await;
    assert_eq!(page.text("#who").await, name);

    // The standings need a credential: signed out, the leaderboard offers
    // the way in, and comes back once signed in.
    sign_out(page).await;
    page.open(&format!("{site}#/leaderboard")).await;
    page.find("#board-sign-in").await;
    page.screenshot(shots, "desktop-leaderboard-signed-out")
        .await;
    page.click("#board-sign-in").await;
    page.find("#after-sign-in").await;
    log_in(page, name).await;
    page.until(
        "the leaderboard with the person",
        &format!("document.querySelector('#leaderboard table')?.textContent.includes({name:?})"),
    )
    .await;

    // A shared link opened signed out: after signing in, that screen.
    sign_out(page).await;
    page.open(&format!("{site}#/replay/{game}")).await;
    page.find("#after-sign-in").await;
    log_in(page, name).await;
    page.until(
        "the shared replay",
        "document.getElementById('fairness-verdict')?.textContent.startsWith('Verified')",
    )
    .await;
}
