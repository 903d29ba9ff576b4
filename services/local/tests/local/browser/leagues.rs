//! The league pages, as a person uses them: a season's standings on the
//! leaderboard, entering a tournament from its list, going to one's table
//! from the tournament's page, and standings that another window sees
//! change live as the table finishes.

use std::path::Path;

use serde_json::{Value, json};
use skit_testkit::Http;

use super::driver::Page;
use super::play;
use super::proxy::Proxy;

/// The operator's calls, over REST.
pub struct Operator {
    pub token: String,
    pub game: Http,
    pub leagues: Http,
}

impl Operator {
    async fn call(http: &Http, path: &str, token: &str, body: Value) -> Value {
        let (status, answer) = http.call("POST", path, Some(token), Some(body)).await;
        assert_eq!(status, 200, "POST {path}: {answer}");
        answer
    }

    /// A season for skitgubbe with three tiers that started a minute ago.
    pub async fn season(&self) {
        let start = time::OffsetDateTime::now_utc() - time::Duration::minutes(1);
        let start = start
            .format(&time::format_description::well_known::Rfc3339)
            .expect("a time");
        let body = json!({
            "name": "This month",
            "rules": { "preset": "skitgubbe" },
            "startsAt": start,
            "recurrence": "0 0 1 * *",
            "divisions": { "tiers": 3, "promotePercent": 20, "relegatePercent": 20 },
        });
        Self::call(&self.game, "/v1/seasons", &self.token, body).await;
    }

    /// A one-round tournament at tables of two that takes bots; its id.
    pub async fn tournament(&self) -> String {
        let body = json!({
            "name": "Browser cup",
            "rules": { "preset": "skitgubbe" },
            "format": "TOURNAMENT_FORMAT_SWISS",
            "seats": 2,
            "rounds": 1,
            "conditions": { "allowBots": true },
        });
        let created = Self::call(&self.leagues, "/v1/tournaments", &self.token, body).await;
        created["tournamentId"].as_str().expect("an id").to_owned()
    }

    pub async fn enter(&self, id: &str, token: &str) {
        Self::call(
            &self.leagues,
            &format!("/v1/tournaments/{id}/enter"),
            token,
            json!({}),
        )
        .await;
    }

    pub async fn start(&self, id: &str) {
        Self::call(
            &self.leagues,
            &format!("/v1/tournaments/{id}/start"),
            &self.token,
            json!({}),
        )
        .await;
    }
}

/// The person's rated game is on the season's standings, and entered them
/// in the bottom tier of its divisions.
pub async fn season_standings_show_the_person(page: &Page, site: &str, name: &str, shots: &Path) {
    page.open(&format!("{site}#/leaderboard")).await;
    page.until(
        "the season in the choice",
        "document.querySelectorAll('#board-season option').length > 1",
    )
    .await;
    page.eval(
        "const s = document.getElementById('board-season'); s.selectedIndex = 1; \
         s.dispatchEvent(new Event('change')); return true",
    )
    .await;
    page.until(
        "the season's standings",
        &format!("document.querySelector('#leaderboard table')?.textContent.includes({name:?})"),
    )
    .await;
    page.until(
        "the person's division",
        &format!(
            "(t => t && t.caption.textContent.includes('tier 3 of 3') \
             && t.textContent.includes({name:?}))(document.querySelector('#division table'))"
        ),
    )
    .await;
    page.screenshot(shots, "desktop-season").await;
    super::a11y::no_serious_violations(page, "the leaderboard").await;
}

/// The person enters from the list, goes to their table when it is seated
/// and plays it; a watcher's page shows the final standings without a
/// reload.
pub async fn a_tournament_is_entered_played_and_followed(
    person: &Page,
    watcher: &Page,
    site: &str,
    operator: &Operator,
    bot_token: &str,
    proxy: &Proxy,
    shots: &Path,
) {
    let id = operator.tournament().await;
    person.open(&format!("{site}#/tournaments")).await;
    person
        .find(&format!("li[data-id='{id}'] button.enter"))
        .await;
    person.screenshot(shots, "desktop-tournaments").await;
    person
        .click(&format!("li[data-id='{id}'] button.enter"))
        .await;
    person
        .until(
            "the entry confirmed",
            "document.getElementById('notice').textContent.includes('You are entered')",
        )
        .await;
    // Entered: the list says so and offers Leave; leaving offers Enter again.
    let entry = format!("li[data-id='{id}']");
    person.find(&format!("{entry} button.leave")).await;
    assert!(person.text(&entry).await.contains("Entered"));
    person.click(&format!("{entry} button.leave")).await;
    person
        .until(
            "the leave confirmed",
            "document.getElementById('notice').textContent.includes('You left')",
        )
        .await;
    person.click(&format!("{entry} button.enter")).await;
    person.find(&format!("{entry} button.leave")).await;
    operator.enter(&id, bot_token).await;
    watcher.open(&format!("{site}#/tournament/{id}")).await;
    watcher
        .until(
            "the watcher's live page",
            "document.getElementById('tournament-status').textContent === 'Live'",
        )
        .await;
    person.open(&format!("{site}#/tournament/{id}")).await;
    person
        .until(
            "the last screen's notice gone",
            "document.getElementById('notice').hidden",
        )
        .await;
    operator.start(&id).await;
    person
        .until("the person's table", "document.getElementById('my-game')")
        .await;
    person.screenshot(shots, "desktop-tournament").await;
    person.click("#my-game").await;
    person.find("#hand button.card").await;
    let moves = play::to_the_end(person, proxy, shots, false).await;
    assert!(moves >= 1, "the person played");
    let back = person
        .find("#back-to-tournament")
        .await
        .attr("href")
        .await
        .expect("a link");
    assert_eq!(back.as_deref(), Some(format!("#/tournament/{id}").as_str()));
    watcher
        .until(
            "the final standings, live",
            "document.querySelector('#standings-table caption')?.textContent === 'Final standings'",
        )
        .await;
    let rows = watcher
        .eval("return document.querySelectorAll('#standings-table tbody tr').length")
        .await;
    assert_eq!(rows, json!(2));
    watcher.screenshot(shots, "phone-standings").await;
}
