//! ListGames over many games: with my_turn_only it lists every game where
//! the caller may act, a page at a time (the turn index), and its long
//! poll wakes for a turn in any of the caller's games, not only the newest.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use skit_proto::v1::{ListGamesRequest, ListGamesResponse, ResignRequest};
use skit_testkit::TestDb;
use skit_testkit::*;

on_both_databases!(
    every_turn_listed_page_by_page,
    a_turn_in_an_old_game_wakes_the_poll,
    the_end_of_a_game_wakes_the_poll,
);

const GAMES: usize = 7;

async fn list(app: &GameService, token: &str, request: ListGamesRequest) -> ListGamesResponse {
    app.games()
        .await
        .list_games(authed(request, token))
        .await
        .expect("list")
        .into_inner()
}

/// Every page of a listing, walked with page_size 2; the game ids listed.
async fn all_pages(app: &GameService, token: &str, my_turn_only: bool) -> Vec<String> {
    let mut seen = Vec::new();
    let mut page_token = String::new();
    for _ in 0..GAMES + 2 {
        let request = ListGamesRequest {
            my_turn_only,
            page_size: 2,
            page_token,
            ..Default::default()
        };
        let page = list(app, token, request).await;
        assert!(page.games.len() <= 2, "{page:?}");
        if my_turn_only {
            assert!(
                page.games
                    .iter()
                    .all(|g| g.my_turn && !g.my_seats_to_act.is_empty())
            );
        }
        seen.extend(page.games.into_iter().map(|g| g.game_id));
        if page.next_page_token.is_empty() {
            return seen;
        }
        page_token = page.next_page_token;
    }
    panic!("the pages did not end");
}

/// Moves by the other seats until `seat` may act.
async fn until_turn_of(app: &GameService, game: &str, players: &[Player], seat: u32) {
    let mut client = app.games().await;
    for round in 0..500 {
        let mut someone_moved = false;
        for other in (0..players.len() as u32).filter(|&s| s != seat) {
            let mine = view(&mut client, game, seat, &players[seat as usize].token).await;
            if !mine.legal_actions.is_empty() {
                return;
            }
            let token = &players[other as usize].token;
            let v = view(&mut client, game, other, token).await;
            if let Some(action) = v.legal_actions.first() {
                let req = submit(
                    game,
                    other,
                    &v,
                    action.clone(),
                    &format!("t{round}-{other}"),
                );
                client.submit_move(authed(req, token)).await.expect("legal");
                someone_moved = true;
            }
        }
        assert!(someone_moved, "nobody may act in {game}");
    }
    panic!("seat {seat} never got the turn in {game}");
}

/// Moves by `seat` until it may not act.
async fn until_not_turn_of(app: &GameService, game: &str, players: &[Player], seat: u32) {
    let mut client = app.games().await;
    let token = &players[seat as usize].token;
    for i in 0..50 {
        let v = view(&mut client, game, seat, token).await;
        let Some(action) = v.legal_actions.first() else {
            return;
        };
        let req = submit(game, seat, &v, action.clone(), &format!("n{i}"));
        client.submit_move(authed(req, token)).await.expect("legal");
    }
    panic!("seat {seat} kept the turn in {game}");
}

async fn every_turn_listed_page_by_page(db: &TestDb) {
    let app = spawn_game(db).await;
    let mut players = Vec::new();
    for name in ["me", "a", "b"] {
        players.push(app.guest(name).await);
    }
    let mut games = BTreeSet::new();
    for _ in 0..GAMES {
        let (game, _) = app.game_for(&players).await;
        until_turn_of(&app, &game, &players, 0).await;
        games.insert(game);
    }

    let turns = all_pages(&app, &players[0].token, true).await;
    assert_eq!(turns.len(), GAMES, "each turn once: {turns:?}");
    assert_eq!(turns.into_iter().collect::<BTreeSet<_>>(), games);
    let running = all_pages(&app, &players[0].token, false).await;
    assert_eq!(running.into_iter().collect::<BTreeSet<_>>(), games);

    // The same pages over REST.
    let http = app.http();
    let mut over_rest = BTreeSet::new();
    let mut path = "/v1/games?myTurnOnly=true&pageSize=3".to_owned();
    loop {
        let (status, page) = http.call("GET", &path, Some(&players[0].token), None).await;
        assert_eq!(status, 200, "{page}");
        for game in page["games"].as_array().expect("games") {
            over_rest.insert(game["gameId"].as_str().expect("an id").to_owned());
        }
        match page["nextPageToken"].as_str() {
            Some(token) if !token.is_empty() => {
                path = format!("/v1/games?myTurnOnly=true&pageSize=3&pageToken={token}");
            }
            _ => break,
        }
    }
    assert_eq!(over_rest, games);

    // Played, a turn leaves the list; the rest stay.
    let first = games.iter().next().expect("a game").clone();
    until_not_turn_of(&app, &first, &players, 0).await;
    let turns = all_pages(&app, &players[0].token, true).await;
    assert!(!turns.contains(&first), "{turns:?}");
    assert_eq!(turns.len(), GAMES - 1);

    // A page token that is not one is refused, naming the field.
    let bad = app
        .games()
        .await
        .list_games(authed(
            ListGamesRequest {
                page_token: "page two".into(),
                ..Default::default()
            },
            &players[0].token,
        ))
        .await
        .expect_err("a made-up token");
    Expected::invalid("page_token").grpc(&bad);
    let refused = http
        .call(
            "GET",
            "/v1/games?pageToken=nope",
            Some(&players[0].token),
            None,
        )
        .await;
    Expected::invalid("page_token").rest(&refused);
}

async fn a_turn_in_an_old_game_wakes_the_poll(db: &TestDb) {
    let app = spawn_game_with(db, |c| c.long_poll_cap_ms = 60_000).await;
    let mut players = Vec::new();
    for name in ["me", "a", "b"] {
        players.push(app.guest(name).await);
    }
    let mut games = Vec::new();
    for _ in 0..4 {
        let (game, _) = app.game_for(&players).await;
        until_not_turn_of(&app, &game, &players, 0).await;
        games.push(game);
    }
    let oldest = games[0].clone();

    // A poll for one turn a page: the oldest game is on no first page.
    let token = players[0].token.clone();
    let mut client = app.games().await;
    let poll = tokio::spawn(async move {
        let request = ListGamesRequest {
            my_turn_only: true,
            wait_ms: 30_000,
            page_size: 1,
            ..Default::default()
        };
        let started = Instant::now();
        let reply = client.list_games(authed(request, &token)).await;
        (reply.expect("list").into_inner(), started.elapsed())
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    until_turn_of(&app, &oldest, &players, 0).await;
    let (reply, took) = poll.await.expect("poll");
    assert!(
        took < Duration::from_secs(20),
        "the turn did not wake the poll"
    );
    assert_eq!(reply.games.len(), 1, "{reply:?}");
    assert_eq!(reply.games[0].game_id, oldest);
}

/// A bot waiting for its next turn learns at once that a game it sits in
/// ended (here the other seat resigned), not when its wait runs out.
async fn the_end_of_a_game_wakes_the_poll(db: &TestDb) {
    let app = spawn_game_with(db, |c| c.long_poll_cap_ms = 60_000).await;
    let players = vec![app.guest("me").await, app.guest("them").await];
    let (game, _) = app.game_for(&players).await;
    until_not_turn_of(&app, &game, &players, 0).await;
    let token = players[0].token.clone();
    let mut client = app.games().await;
    let poll = tokio::spawn(async move {
        let request = ListGamesRequest {
            my_turn_only: true,
            wait_ms: 30_000,
            ..Default::default()
        };
        let started = Instant::now();
        let reply = client.list_games(authed(request, &token)).await;
        (reply.expect("list").into_inner(), started.elapsed())
    });
    tokio::time::sleep(Duration::from_millis(300)).await;

    app.games()
        .await
        .resign(authed(
            ResignRequest {
                game_id: game.clone(),
                seat: 1,
                move_id: "give-up".into(),
            },
            &players[1].token,
        ))
        .await
        .expect("resign");

    let (reply, took) = poll.await.expect("poll");
    assert!(
        took < Duration::from_secs(20),
        "the end did not wake the poll ({took:?})"
    );
    assert!(
        reply.games.is_empty(),
        "no turn in an ended game: {reply:?}"
    );
}
