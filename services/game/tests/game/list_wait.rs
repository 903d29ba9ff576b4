//! A ListGames long poll (`wait_ms`) answers as soon as it is the caller's
//! turn: after a move in one of the caller's games, when a new game seats
//! the caller, and when the caller (on another connection) or another
//! player takes the last open seat of a game. (It sleeps through other
//! games' moves; that it answers these before its deadline is what is
//! checked here.)

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use skit_proto::v1::{
    CreateGameRequest, JoinGameRequest, ListGamesRequest, ListGamesResponse, Rules, SeatSpec,
};
use skit_testkit::TestDb;
use skit_testkit::*;

on_both_databases!(long_poll_wakes_for_my_turn);

/// The poll's deadline; every answer below must come well before it.
const WAIT: Duration = Duration::from_secs(30);

/// Starts a long poll for the caller's turn; answers with its reply and
/// how long it took.
fn poll(app: &GameService, token: &str) -> tokio::task::JoinHandle<(ListGamesResponse, Duration)> {
    let addr = app.addr;
    let token = token.to_owned();
    tokio::spawn(async move {
        let mut client = skit_proto::v1::game_service_client::GameServiceClient::connect(format!(
            "http://{addr}"
        ))
        .await
        .expect("connect");
        let request = ListGamesRequest {
            my_turn_only: true,
            include_over: false,
            wait_ms: u32::try_from(WAIT.as_millis()).expect("fits"),
            ..Default::default()
        };
        let started = Instant::now();
        let reply = client
            .list_games(authed(request, &token))
            .await
            .expect("list")
            .into_inner();
        (reply, started.elapsed())
    })
}

fn answered_early(took: Duration) -> bool {
    took < WAIT - Duration::from_secs(10)
}

async fn long_poll_wakes_for_my_turn(db: &TestDb) {
    let app = spawn_game_with(db, |c| c.long_poll_cap_ms = 60_000).await;
    let mut client = app.games().await;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    // Moves in an unrelated game keep coming while the polls wait.
    let (strangers, noise, _) = app.game_with_guests(3).await;

    // A new game: whoever it gives the first turn hears of it at once.
    let guests: Vec<Player> = {
        let mut guests = Vec::new();
        for i in 0..3 {
            guests.push(app.guest(&format!("new{i}")).await);
        }
        guests
    };
    let mut polls: Vec<_> = guests.iter().map(|g| poll(&app, &g.token)).collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    random_move(&mut client, &noise, &strangers, &mut rng, &mut |_, _| {})
        .await
        .expect("running")
        .expect("legal");
    let (game, _) = app.game_for(&guests).await;
    let (first, _) = seat_to_act(&mut client, &game, &guests).await;
    let (reply, took) = polls.remove(first as usize).await.expect("poll");
    for other in polls {
        other.abort();
    }
    assert_eq!(reply.games.len(), 1, "{reply:?}");
    assert_eq!(reply.games[0].game_id, game);
    assert!(answered_early(took), "the new game did not wake the poll");

    // Moves in the caller's game until one gives the caller the turn.
    let waiting = (0..3u32).find(|&s| s != first).expect("another seat");
    let waiter = poll(&app, &guests[waiting as usize].token);
    tokio::time::sleep(Duration::from_millis(300)).await;
    for _ in 0..500 {
        let w = view(&mut client, &game, waiting, &guests[waiting as usize].token).await;
        if !w.legal_actions.is_empty() {
            break;
        }
        random_move(&mut client, &noise, &strangers, &mut rng, &mut |_, _| {})
            .await
            .expect("running")
            .expect("legal");
        let mut moved = false;
        for seat in (0..3u32).filter(|&s| s != waiting) {
            let token = &guests[seat as usize].token;
            let v = view(&mut client, &game, seat, token).await;
            if let Some(action) = v.legal_actions.first() {
                let req = submit(&game, seat, &v, action.clone(), &format!("w{}", v.version));
                client.submit_move(authed(req, token)).await.expect("legal");
                moved = true;
                break;
            }
        }
        assert!(moved, "somebody may act while the game runs");
    }
    let (reply, took) = waiter.await.expect("poll");
    assert_eq!(reply.games.len(), 1, "{reply:?}");
    assert_eq!(reply.games[0].my_seats_to_act, vec![waiting]);
    assert!(answered_early(took), "the move did not wake the poll");

    // A game with open seats: its creator and two players who join it,
    // each polling before the game fills. The dealer's left, the first
    // joiner, has the first turn and hears of it at once, though the game
    // was not among those its poll had listed.
    let mut joiners = Vec::new();
    for i in 0..3 {
        joiners.push(app.guest(&format!("join{i}")).await);
    }
    let open = CreateGameRequest {
        rules: Some(Rules {
            preset: "skitgubbe".into(),
            options: None,
        }),
        players: 3,
        seats: vec![
            SeatSpec {
                account_id: Some(joiners[0].id.clone()),
            },
            SeatSpec { account_id: None },
            SeatSpec { account_id: None },
        ],
        dealer: Some(0),
        ..Default::default()
    };
    let open = client
        .create_game(authed(open, &joiners[0].token))
        .await
        .expect("create")
        .into_inner()
        .game_id;
    let mut polls: Vec<_> = joiners.iter().map(|g| poll(&app, &g.token)).collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    for joiner in &joiners[1..] {
        let join = JoinGameRequest {
            game_id: open.clone(),
            seat: None,
        };
        client
            .join_game(authed(join, &joiner.token))
            .await
            .expect("join");
    }
    let (first, _) = seat_to_act(&mut client, &open, &joiners).await;
    assert_eq!(first, 1, "the dealer's left acts first");
    let (reply, took) = polls.remove(first as usize).await.expect("poll");
    for other in polls {
        other.abort();
    }
    assert_eq!(reply.games.len(), 1, "{reply:?}");
    assert_eq!(reply.games[0].game_id, open);
    assert!(
        answered_early(took),
        "taking the last seat did not wake the poll"
    );

    drop(client);
    app.stop().await;
}
