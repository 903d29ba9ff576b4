//! The per-owner daily cap on games between bots: a game whose seats are
//! all bots counts for each owner of a bot at the table (house bots count
//! for nobody) once its last seat is filled, by CreateGame or JoinGame,
//! whoever fills it. Past the cap the call is refused with when to retry,
//! and creates or seats nothing; games with a person seated, and other
//! owners, are unaffected; the cap holds under concurrent calls to two
//! instances, on both databases.

use serde_json::json;
use skit_proto::v1::{AccountKind, CreateGameRequest, JoinGameRequest};
use skit_testkit::*;
use tonic::Code;
use tonic_types::StatusExt;

use crate::limits::{Call, at_once, two_instances};

on_both_databases!(
    bot_games_past_the_cap_are_refused_and_nothing_is_created,
    bot_games_hold_under_concurrent_creates_and_joins_on_two_instances,
);

const DAY_MS: u64 = 24 * 60 * 60 * 1000;

/// A two-player game `bot` creates with itself at seat 0, seat 1 open.
fn own_table() -> CreateGameRequest {
    CreateGameRequest {
        players: 2,
        ..skitgubbe_for(&[])
    }
}

/// An open table of the house bot `house`; its id.
async fn house_table(app: &GameService, house: &Player) -> String {
    app.games()
        .await
        .create_game(authed(own_table(), &house.token))
        .await
        .expect("a house bot's table")
        .into_inner()
        .game_id
}

fn join(game_id: &str, who: &Player) -> tonic::Request<JoinGameRequest> {
    let request = JoinGameRequest {
        game_id: game_id.to_owned(),
        ..Default::default()
    };
    authed(request, &who.token)
}

/// `status` is the cap's refusal for `owner` at `limit`, with a wait of
/// more than nothing and at most a day, in the metadata, the retry hint
/// and the message.
fn capped(status: &tonic::Status, owner: &str, limit: &str) {
    Expected::new(Code::ResourceExhausted, "bot_games_exceeded").grpc(status);
    let info = status.get_details_error_info().expect("ErrorInfo");
    assert_eq!(info.metadata["quota"], "bot_games_per_day", "{status:?}");
    assert_eq!(info.metadata["limit"], limit, "{status:?}");
    assert_eq!(info.metadata["owner"], owner, "{status:?}");
    let wait: u64 = info.metadata["retry_after_ms"].parse().expect("ms");
    assert!(wait > 0 && wait <= DAY_MS, "{status:?}");
    let retry = status.get_details_retry_info().expect("RetryInfo");
    assert!(retry.retry_delay.is_some_and(|d| !d.is_zero()), "{retry:?}");
    let message = status.message();
    assert!(message.contains(&format!("{limit} games")), "{message}");
    assert!(message.contains("retry after"), "{message}");
}

async fn bot_games_past_the_cap_are_refused_and_nothing_is_created(db: &TestDb) {
    // Arrange: Ada's bots start two games against the house bot, one the
    // operator creates full and one a bot fills by joining; games with a
    // person seated do not count.
    let app = spawn_game_with(db, |c| c.quota_bot_games_per_day = 2).await;
    let ada = app.account("Ada", AccountKind::Player).await;
    let bob = app.account("Bob", AccountKind::Player).await;
    let pat = app.account("Pat", AccountKind::Player).await;
    let (a1, a2) = (app.bot_of("a1", &ada).await, app.bot_of("a2", &ada).await);
    let bobs = app.bot_of("b1", &bob).await;
    let house = app.house_bot("house").await;
    let mut games = app.games().await;
    app.game_for(&[a1.clone(), house.clone()]).await;
    let table = house_table(&app, &house).await;
    games
        .join_game(join(&table, &a2))
        .await
        .expect("the second");
    app.game_for(&[a1.clone(), pat.clone()]).await;
    app.game_for(&[pat.clone(), a2.clone()]).await;
    let open = house_table(&app, &house).await;

    // Act: a third, created, joined and over REST; then Bob's bot.
    let created = games
        .create_game(authed(
            skitgubbe_for(&[a1.clone(), house.clone()]),
            OPERATOR_TOKEN,
        ))
        .await
        .expect_err("a third game between bots");
    let joined = games
        .join_game(join(&open, &a1))
        .await
        .expect_err("a third by joining");
    let (status, headers, body) = app
        .http()
        .call_with_headers(
            "POST",
            "/v1/games",
            Some(OPERATOR_TOKEN),
            Some(json!({
                "players": 2,
                "rules": {"preset": "skitgubbe"},
                "seats": [{"accountId": a2.id}, {"accountId": house.id}],
            })),
        )
        .await;
    let bobs_game = games
        .create_game(authed(
            skitgubbe_for(&[bobs.clone(), house.clone()]),
            OPERATOR_TOKEN,
        ))
        .await;
    let persons_join = games.join_game(join(&open, &pat)).await;

    // Assert
    capped(&created, &ada.id, "2");
    capped(&joined, &ada.id, "2");
    Expected::new(Code::ResourceExhausted, "bot_games_exceeded").rest(&(status, body.clone()));
    assert_eq!(body["metadata"]["owner"], ada.id.as_str(), "{body}");
    assert_eq!(body["metadata"]["limit"], "2", "{body}");
    let retry_after: u64 = headers["retry-after"]
        .to_str()
        .ok()
        .and_then(|s| s.parse().ok())
        .expect("Retry-After in whole seconds");
    assert!((1..=DAY_MS / 1000).contains(&retry_after), "{retry_after}");
    assert!(bobs_game.is_ok(), "another owner's bot: {bobs_game:?}");
    assert!(
        persons_join.is_ok(),
        "the refused join left its seat open: {persons_join:?}"
    );
    assert_eq!(app.games_of(&a1).await, 2, "a1 was seated nowhere new");
    assert_eq!(app.games_of(&a2).await, 2, "a2 was seated nowhere new");
    app.stop().await;
}

async fn bot_games_hold_under_concurrent_creates_and_joins_on_two_instances(db: &TestDb) {
    // Arrange: 12 open house tables for Ada's bot to join, and 12 full
    // tables for the operator to create, half through each instance.
    let apps = two_instances(db, |c| {
        c.quota_bot_games_per_day = 3;
        c.quota_open_games = 0;
    })
    .await;
    let ada = apps[0].account("Ada", AccountKind::Player).await;
    let bot = apps[0].bot_of("a1", &ada).await;
    let house = apps[0].house_bot("house").await;
    let mut calls = Vec::new();
    for i in 0..12 {
        let table = house_table(&apps[0], &house).await;
        let mut client = apps[i % 2].games().await;
        let request = join(&table, &bot);
        calls.push(Box::pin(async move { client.join_game(request).await.map(|_| ()) }) as Call);
        let mut client = apps[(i + 1) % 2].games().await;
        let request = authed(skitgubbe_for(&[bot.clone(), house.clone()]), OPERATOR_TOKEN);
        calls.push(Box::pin(async move { client.create_game(request).await.map(|_| ()) }) as Call);
    }

    // Act
    let answers = at_once(calls).await;

    // Assert
    for refused in answers.iter().filter_map(|a| a.as_ref().err()) {
        capped(refused, &ada.id, "3");
    }
    assert_eq!(answers.iter().filter(|a| a.is_ok()).count(), 3);
    assert_eq!(apps[1].games_of(&bot).await, 3);
    for app in apps {
        app.stop().await;
    }
}
