//! The web client in a real browser (headless Chromium under
//! chromedriver) against a local Skitgubbe: a person signs up, queues,
//! plays a whole game against house bots by clicking cards, loses the
//! connection mid-game and goes on without a reload, and sees the end
//! with places and rating change; a spectator on a phone-sized screen sees
//! the same moves; the replay verifies the shuffles; the season's standings
//! show the person, who then enters a tournament, plays its table, and a
//! second window sees the final standings arrive live. Signing in goes on
//! to where the person was going; a draw reads as a draw. Screenshots of the
//! main screens at phone and desktop sizes are saved under
//! `target/tmp/web-screenshots/` (`CARGO_TARGET_TMPDIR`).

mod a11y;
mod draw;
mod driver;
mod keyboard;
mod languages;
mod leagues;
mod limit;
mod play;
mod proxy;
mod pwa;
mod signin;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use driver::Driver;
use proxy::Proxy;

pub const PHONE: (u32, u32) = (390, 844);
pub const DESKTOP: (u32, u32) = (1280, 900);

fn screenshots() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots");
    std::fs::create_dir_all(&dir).expect("the screenshot folder");
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_a_whole_game_in_the_browser_and_a_spectator_sees_it() {
    // Arrange: a local Skitgubbe (two greedy bots fill tables at once),
    // its page reached through a proxy the test can cut, and a browser
    let dir = tempfile::tempdir().expect("temp dir");
    let any: SocketAddr = "127.0.0.1:0".parse().expect("addr");
    let listener = std::net::TcpListener::bind(any).expect("a port for the proxy");
    let proxy_addr = listener.local_addr().expect("addr");
    drop(listener);
    let running = skitgubbe::start(skitgubbe::Settings {
        data_dir: dir.path().to_owned(),
        game_addr: any,
        matchmaker_addr: any,
        leagues_addr: any,
        bots: vec![("greedy".into(), 2)],
        bot_fill_wait: Duration::from_millis(200),
        database_url: None,
        page_origins: vec![format!("http://{proxy_addr}")],
    })
    .await
    .expect("the services start");
    let game_addr: SocketAddr = running
        .game_url
        .trim_start_matches("http://")
        .parse()
        .expect("addr");
    let proxy = Proxy::start_on(proxy_addr, game_addr).await;
    let site = format!("http://{}/", proxy.addr);
    let shots = screenshots();
    let driver = Driver::start().await;
    let person = driver.window(DESKTOP).await;
    let name = format!("Tester{}", std::process::id() % 10_000);

    let operator = leagues::Operator {
        token: std::fs::read_to_string(dir.path().join(skitgubbe::TOKEN_FILE))
            .expect("the operator token")
            .trim()
            .to_owned(),
        game: skit_testkit::Http::new(running.game_url.clone()),
        leagues: skit_testkit::Http::new(running.leagues_url.clone()),
    };
    operator.season().await;

    // Act and assert: sign up, queue, play to the end
    let game =
        play::sign_up_and_queue(&person, &site, &running.matchmaker_url, &name, &shots).await;
    let watcher = driver.window(PHONE).await;
    play::a_taken_name_is_refused_in_words(&watcher, &site, &name, &shots).await;
    play::watch(&watcher, &site, &game, &shots).await;
    let moves = play::to_the_end(&person, &proxy, &shots, true).await;
    assert!(moves >= 3, "the person made {moves} moves");
    play::the_end_shows_places_and_the_rating_change(&person, &shots).await;

    // The spectator saw the same moves, in the same order
    watcher
        .until(
            "the spectator's end screen",
            "!document.getElementById('end').hidden",
        )
        .await;
    watcher.screenshot(&shots, "phone-watch-end").await;
    let moves_seen = "return [...document.querySelectorAll('#log li[data-version]')]\
        .filter(li => li.dataset.kind !== 'EVENT_KIND_SHUFFLE')\
        .map(li => [li.dataset.version, li.dataset.kind, li.dataset.seat, li.dataset.cards].join(' '))";
    let played = person.eval(moves_seen).await;
    let watched = watcher.eval(moves_seen).await;
    assert!(
        played.as_array().is_some_and(|m| m.len() >= moves),
        "{played}"
    );
    assert_eq!(played, watched, "the spectator saw other moves");
    play::a_fresh_look_tells_what_the_live_page_told(&person).await;

    play::replay_verifies_the_shuffles(&person, &shots).await;
    person.resize(PHONE).await;
    person.screenshot(&shots, "phone-replay").await;
    person.resize(DESKTOP).await;
    signin::signing_in_goes_on_where_the_person_was_going(&person, &site, &name, &game, &shots)
        .await;
    let swede = driver.window_in(DESKTOP, "sv-SE").await;
    languages::a_swedish_browser_sees_swedish_until_another_is_chosen(&swede, &site).await;

    // Leagues: the season's standings, then a tournament entered, played
    // and followed live from another window.
    leagues::season_standings_show_the_person(&person, &site, &name, &shots).await;
    let bots: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("skitgubbe-bots.json")).expect("the bots file"),
    )
    .expect("the bots file is JSON");
    let bot_token = bots["accounts"][0]["token"].as_str().expect("a bot token");
    leagues::a_tournament_is_entered_played_and_followed(
        &person, &watcher, &site, &operator, bot_token, &proxy, &shots,
    )
    .await;
    draw::a_draw_is_not_called_a_win(&person, &watcher, &site, &operator.game).await;
    limit::a_first_look_in_phase_two_warns_as_the_live_page(
        &person,
        &watcher,
        &site,
        &operator.game,
    )
    .await;

    // The person's three games tell themselves apart in the lobby.
    person.open(&site).await;
    person
        .until(
            "the person's games",
            "document.querySelectorAll('#my-games li a').length >= 3",
        )
        .await;
    let games = person
        .eval("return [...document.querySelectorAll('#my-games li')].map(li => li.textContent)")
        .await;
    let games = games.as_array().expect("a list");
    let distinct: std::collections::BTreeSet<String> =
        games.iter().map(|g| g.to_string()).collect();
    assert_eq!(distinct.len(), games.len(), "entries look alike: {games:?}");

    // How to play, from the page's navigation, for each preset.
    person.click("nav a[href='#/help']").await;
    person
        .until(
            "the help screen",
            "document.querySelector('#main h1')?.textContent === 'How to play Skitgubbe'",
        )
        .await;
    person
        .find("#help-preset")
        .await
        .select_by_value("mas")
        .await
        .expect("a preset");
    person
        .until(
            "the help for mas",
            "document.getElementById('help-preset-rules')?.textContent.includes('turned up at the deal')",
        )
        .await;
    a11y::no_serious_violations(&person, "how to play").await;

    // Installable, and offline it says so.
    pwa::lighthouse_finds_it_installable(&site, &driver.chrome).await;
    pwa::offline_the_app_says_so(&person, &site, &proxy).await;

    person.close().await;
    watcher.close().await;
    running.stop().await.expect("the services stop");
    eprintln!("screenshots: {}", shots.display());
}
