//! Ratings end to end: rated games played to the end over gRPC change the
//! players' ratings under the game's ruleset key, once; unrated games
//! change nothing; views, GetRatings, GetRatingHistory and GetLeaderboard
//! agree.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use skit_proto::v1::account_service_client::AccountServiceClient;
use skit_proto::v1::rating_service_client::RatingServiceClient;
use skit_proto::v1::{
    AccountKind, CreateAccountRequest, CreateGameRequest, GetLeaderboardRequest,
    GetRatingHistoryRequest, GetRatingsRequest, JoinGameRequest, ListGamesRequest, Phase, Rating,
    RatingChange, Rules, SeatSpec, View,
};
use skit_testkit::{
    Expected, GameService, OPERATOR_TOKEN, Player, TestDb, authed, on_both_databases, play_out,
    skitgubbe_for, spawn_game, spawn_game_with, view,
};
use tonic::Code;
use tonic::transport::Channel;

on_both_databases!(
    rated_game_updates_ratings_once,
    unrated_game_changes_nothing,
    overridden_options_are_rated_under_their_own_key,
    bad_requests_are_refused,
    players_seat_only_themselves_in_rated_games,
    guests_are_refused_rated_games_alike_on_create_and_join,
);

pub(crate) fn rules(options: Option<serde_json::Value>) -> Rules {
    Rules {
        preset: "skitgubbe".into(),
        options: options.map(|o| serde_json::from_value(o).expect("struct")),
    }
}

pub(crate) async fn ratings_client(app: &GameService) -> RatingServiceClient<Channel> {
    RatingServiceClient::connect(format!("http://{}", app.addr))
        .await
        .expect("connect")
}

/// Operator-created accounts: players and, for the last seat, a bot.
pub(crate) async fn accounts(app: &GameService, players: usize) -> Vec<Player> {
    let mut client: AccountServiceClient<Channel> = app.accounts().await;
    let mut out = Vec::new();
    for i in 0..players {
        let kind = if i + 1 == players {
            AccountKind::Bot
        } else {
            AccountKind::Player
        };
        let req = CreateAccountRequest {
            name: format!("a{i}"),
            kind: kind as i32,
            ..Default::default()
        };
        let reply = client
            .create_account(authed(req, OPERATOR_TOKEN))
            .await
            .expect("account")
            .into_inner();
        out.push(Player {
            id: reply.account_id,
            token: reply.token,
        });
    }
    out
}

/// Creates a game for `players` (operator) and plays it to the end;
/// returns the game id and the final view.
pub(crate) async fn played_game(
    app: &GameService,
    players: &[Player],
    rules: Rules,
    rated: bool,
    seed: u64,
) -> (String, View) {
    let mut games = app.games().await;
    let req = CreateGameRequest {
        rules: Some(rules),
        rated,
        ..skitgubbe_for(players)
    };
    let game = games
        .create_game(authed(req, OPERATOR_TOKEN))
        .await
        .expect("create")
        .into_inner()
        .game_id;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    play_out(&mut games, &game, players, &mut rng, &mut |_, _| {}).await;
    let end = view(&mut games, &game, 0, &players[0].token).await;
    assert_eq!(end.phase, Phase::Over as i32);
    (game, end)
}

async fn get_ratings(
    client: &mut RatingServiceClient<Channel>,
    players: &[Player],
    rules: Option<Rules>,
) -> Vec<Rating> {
    let req = GetRatingsRequest {
        account_ids: players.iter().map(|p| p.id.clone()).collect(),
        rules,
    };
    client
        .get_ratings(authed(req, &players[0].token))
        .await
        .expect("ratings")
        .into_inner()
        .ratings
}

/// The players' ratings once each counts `games` rated games, or as they
/// are after five seconds of asking.
async fn rated_games(
    client: &mut RatingServiceClient<Channel>,
    players: &[Player],
    games: u32,
) -> Vec<Rating> {
    let mut ratings = Vec::new();
    for _ in 0..100 {
        ratings = get_ratings(client, players, Some(rules(None))).await;
        if ratings.iter().all(|r| r.games == games) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    ratings
}

/// Makes PostgreSQL refuse every new or changed row of `table` that fails
/// `check` (a database error injected under the service), or with `None`
/// accept them again.
async fn refuse(admin: &sqlx::PgPool, table: &str, check: Option<&str>) {
    let sql = match check {
        Some(check) => {
            format!("ALTER TABLE {table} ADD CONSTRAINT refuse CHECK ({check}) NOT VALID")
        }
        None => format!("ALTER TABLE {table} DROP CONSTRAINT refuse"),
    };
    sqlx::query(sqlx::AssertSqlSafe(sql.clone()))
        .execute(admin)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

/// `player`'s rating changes, as `token` asks for them.
async fn rating_history(
    client: &mut RatingServiceClient<Channel>,
    player: &Player,
    token: &str,
) -> Vec<RatingChange> {
    let req = GetRatingHistoryRequest {
        account_id: Some(player.id.clone()),
        ..Default::default()
    };
    client
        .get_rating_history(authed(req, token))
        .await
        .expect("history")
        .into_inner()
        .changes
}

async fn rated_game_updates_ratings_once(db: &TestDb) {
    // Arrange
    let app = spawn_game(db).await;
    let players = accounts(&app, 3).await;
    let mut ratings = ratings_client(&app).await;
    let before = get_ratings(&mut ratings, &players, Some(rules(None))).await;
    assert!(before.iter().all(|r| r.games == 0 && r.mu == 25.0));

    // Act
    let (game, end) = played_game(&app, &players, rules(None), true, 7).await;

    // Assert: one game each, ordered by place (the loser lowest).
    let after = get_ratings(&mut ratings, &players, Some(rules(None))).await;
    let places = end.result.as_ref().expect("result").places.clone();
    assert!(
        after
            .iter()
            .all(|r| r.games == 1 && r.ruleset_key == "skitgubbe")
    );
    assert!(after.iter().any(|r| r.mu != 25.0), "{after:?}");
    for i in 0..3 {
        for j in 0..3 {
            if places[i] < places[j] {
                assert!(after[i].mu > after[j].mu, "{places:?} {after:?}");
            } else if places[i] == places[j] {
                assert!(
                    (after[i].mu - after[j].mu).abs() < 1e-9,
                    "{places:?} {after:?}"
                );
            }
        }
    }
    if let Some(loser) = end.loser {
        let lowest = after
            .iter()
            .map(|r| r.conservative)
            .fold(f64::MAX, f64::min);
        assert_eq!(after[loser as usize].conservative, lowest);
    }
    // Views show the ratings after the game.
    for (seat, info) in end.seats.iter().enumerate() {
        assert_eq!(info.rating.as_ref(), Some(&after[seat]), "seat {seat}");
    }
    // One change per account, its place as the view shows it.
    for (seat, player) in players.iter().enumerate() {
        let history = rating_history(&mut ratings, player, &players[0].token).await;
        assert_eq!(history.len(), 1);
        assert_eq!(history[0].game_id, game);
        assert_eq!(history[0].place, places[seat]);
        assert_eq!(history[0].before.as_ref().map(|r| r.games), Some(0));
        assert_eq!(history[0].after.as_ref(), Some(&after[seat]));
    }
    // The leaderboard: everyone, highest conservative rating first.
    let req = GetLeaderboardRequest {
        rules: Some(rules(None)),
        ..Default::default()
    };
    let board = ratings
        .get_leaderboard(authed(req, &players[0].token))
        .await
        .expect("leaderboard")
        .into_inner()
        .entries;
    assert_eq!(board.len(), 3);
    let ranks: Vec<u32> = board.iter().map(|e| e.rank).collect();
    assert_eq!(ranks, [1, 2, 3]);
    let scores: Vec<f64> = board
        .iter()
        .map(|e| e.rating.as_ref().expect("a rating").conservative)
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert_eq!(board.iter().filter(|e| e.is_bot).count(), 1);

    // A restart (which looks for unrated games) applies nothing twice.
    drop(ratings);
    app.stop().await;
    let app = spawn_game(db).await;
    let mut ratings = ratings_client(&app).await;
    assert_eq!(
        get_ratings(&mut ratings, &players, Some(rules(None))).await,
        after
    );
}

/// A rating update the database refuses as the game ends is applied once
/// the database takes it again, without a restart. (Postgres only: its
/// refusal is injected with a check constraint that no change can meet.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_rating_update_is_tried_again() {
    // Arrange: rating changes are refused.
    let db = TestDb::postgres().await;
    let app = spawn_game_with(&db, |c| c.ratings_retry_ms = 100).await;
    let players = accounts(&app, 3).await;
    let mut ratings = ratings_client(&app).await;
    let admin = sqlx::PgPool::connect(db.url()).await.expect("connect");
    refuse(&admin, "rating_changes", Some("place < 0")).await;

    // Act: the game ends while its update is refused.
    let (game, _) = played_game(&app, &players, rules(None), true, 11).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let refused = get_ratings(&mut ratings, &players, Some(rules(None))).await;
    refuse(&admin, "rating_changes", None).await;

    // Assert: nothing was rated meanwhile; then the retry rates the game,
    // once.
    assert!(refused.iter().all(|r| r.games == 0), "{refused:?}");
    let after = rated_games(&mut ratings, &players, 1).await;
    assert!(after.iter().all(|r| r.games == 1), "{after:?}");
    let history = rating_history(&mut ratings, &players[0], &players[0].token).await;
    assert_eq!(history.len(), 1, "{history:?}");
    assert_eq!(history[0].game_id, game);
    admin.close().await;
    drop(ratings);
    app.stop().await;
}

/// A game's end the database refuses to mark (the move that ended it is
/// stored and acknowledged) is marked and rated once the database takes it
/// again: by the running service's retry, or, after a stop, by the next
/// start's recovery. (Postgres only: the refusal is a check constraint.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ending_left_unmarked_is_marked_and_rated_later() {
    // Arrange: no game may be marked over.
    let db = TestDb::postgres().await;
    let app = spawn_game_with(&db, |c| c.ratings_retry_ms = 100).await;
    let players = accounts(&app, 3).await;
    let mut ratings = ratings_client(&app).await;
    let admin = sqlx::PgPool::connect(db.url()).await.expect("connect");
    let refuse_over = |on: bool| refuse(&admin, "games", on.then_some("status <> 'over'"));
    let status = |game: &str| {
        sqlx::query_scalar::<_, String>("SELECT status FROM games WHERE id = $1")
            .bind(game.to_owned())
            .fetch_one(&admin)
    };
    refuse_over(true).await;

    // Act and assert: the game plays to its end (every move acknowledged)
    // while the mark is refused; nothing is rated meanwhile.
    let (first, _) = played_game(&app, &players, rules(None), true, 21).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(status(&first).await.expect("status"), "active");
    let before = get_ratings(&mut ratings, &players, Some(rules(None))).await;
    assert!(before.iter().all(|r| r.games == 0), "{before:?}");
    // Accepted again: the retry marks and rates it.
    refuse_over(false).await;
    let after = rated_games(&mut ratings, &players, 1).await;
    assert!(after.iter().all(|r| r.games == 1), "{after:?}");
    assert_eq!(status(&first).await.expect("status"), "over");

    // A second game ends unmarked and the service stops before any retry
    // could succeed: the next start finds the ending in the log.
    refuse_over(true).await;
    let (second, _) = played_game(&app, &players, rules(None), true, 22).await;
    drop(ratings);
    app.stop().await;
    refuse_over(false).await;
    assert_eq!(status(&second).await.expect("status"), "active");
    let app = spawn_game(&db).await;
    let mut ratings = ratings_client(&app).await;
    let after = rated_games(&mut ratings, &players, 2).await;
    assert!(after.iter().all(|r| r.games == 2), "{after:?}");
    assert_eq!(status(&second).await.expect("status"), "over");
    let history = rating_history(&mut ratings, &players[0], &players[0].token).await;
    assert_eq!(history.len(), 2, "each game rated once: {history:?}");
    admin.close().await;
    drop(ratings);
    app.stop().await;
}

async fn unrated_game_changes_nothing(db: &TestDb) {
    let app = spawn_game(db).await;
    let players = accounts(&app, 2).await;
    let mut ratings = ratings_client(&app).await;

    let (_, end) = played_game(&app, &players, rules(None), false, 3).await;

    assert!(get_ratings(&mut ratings, &players, None).await.is_empty());
    let at_start = get_ratings(&mut ratings, &players, Some(rules(None))).await;
    assert!(at_start.iter().all(|r| r.games == 0 && r.mu == 25.0));
    assert_eq!(end.seats[0].rating.as_ref(), Some(&at_start[0]));
    let req = GetRatingHistoryRequest::default();
    let history = ratings
        .get_rating_history(authed(req, &players[1].token))
        .await
        .expect("history")
        .into_inner();
    assert!(history.changes.is_empty());
}

async fn overridden_options_are_rated_under_their_own_key(db: &TestDb) {
    let app = spawn_game(db).await;
    let players = accounts(&app, 2).await;
    let mut ratings = ratings_client(&app).await;
    let bottom = rules(Some(serde_json::json!({"phase2.pickup": "bottom"})));

    played_game(&app, &players, bottom.clone(), true, 5).await;

    let own = get_ratings(&mut ratings, &players, Some(bottom)).await;
    assert!(own.iter().all(|r| r.games == 1), "{own:?}");
    assert_ne!(own[0].ruleset_key, "skitgubbe");
    assert!(
        own[0].ruleset_key.contains("bottom"),
        "{}",
        own[0].ruleset_key
    );
    let plain = get_ratings(&mut ratings, &players, Some(rules(None))).await;
    assert!(plain.iter().all(|r| r.games == 0), "{plain:?}");
    // Without rules: the one key they have played.
    let all = get_ratings(&mut ratings, &players, None).await;
    assert_eq!(all, own);
}

async fn bad_requests_are_refused(db: &TestDb) {
    let app = spawn_game(db).await;
    let players = accounts(&app, 1).await;
    let mut ratings = ratings_client(&app).await;

    let unknown = GetRatingsRequest {
        account_ids: vec!["999999".into()],
        rules: None,
    };
    let err = ratings
        .get_ratings(authed(unknown, &players[0].token))
        .await
        .expect_err("an unknown account");
    assert_eq!(err.code(), Code::NotFound, "{err:?}");

    let bad = GetLeaderboardRequest {
        rules: Some(Rules {
            preset: "no-such-preset".into(),
            options: None,
        }),
        ..Default::default()
    };
    let err = ratings
        .get_leaderboard(authed(bad, &players[0].token))
        .await
        .expect_err("bad rules");
    assert_eq!(err.code(), Code::InvalidArgument, "{err:?}");
    assert!(err.message().starts_with("rules"), "{}", err.message());

    let err = ratings
        .get_rating_history(tonic::Request::new(GetRatingHistoryRequest::default()))
        .await
        .expect_err("no token");
    assert_eq!(err.code(), Code::Unauthenticated);
}

/// Seating an account is not its consent: a rated game (where a run-out
/// clock can cost rating) seats other accounts only when the operator asks.
async fn players_seat_only_themselves_in_rated_games(db: &TestDb) {
    let app = spawn_game(db).await;
    let players = accounts(&app, 3).await;
    let (creator, victim) = (&players[0], &players[1]);
    let mut games = app.games().await;
    let listed = |token: &str| authed(ListGamesRequest::default(), token);

    let forced = CreateGameRequest {
        rated: true,
        ..skitgubbe_for(&players[..2])
    };
    let err = games
        .create_game(authed(forced, &creator.token))
        .await
        .expect_err("a player seating another account in a rated game");
    assert_eq!(err.code(), Code::PermissionDenied, "{err:?}");
    assert!(
        err.message().starts_with("seats[1].account_id"),
        "{}",
        err.message()
    );
    let theirs = games.list_games(listed(&victim.token)).await.expect("list");
    assert!(theirs.into_inner().games.is_empty(), "nothing was created");

    // Seating only themselves, the others join: allowed.
    let open = CreateGameRequest {
        rated: true,
        seats: vec![
            SeatSpec {
                account_id: Some(creator.id.clone()),
            },
            SeatSpec::default(),
        ],
        ..skitgubbe_for(&players[..2])
    };
    let game = games
        .create_game(authed(open, &creator.token))
        .await
        .expect("a rated game seating only its creator")
        .into_inner()
        .game_id;
    let join = JoinGameRequest {
        game_id: game.clone(),
        seat: None,
    };
    let seat = games
        .join_game(authed(join, &victim.token))
        .await
        .expect("join")
        .into_inner()
        .seat;
    assert_eq!(seat, 1);

    // The operator (the matchmaker) still seats whom it pairs.
    let paired = CreateGameRequest {
        rated: true,
        ..skitgubbe_for(&players[..2])
    };
    games
        .create_game(authed(paired, OPERATOR_TOKEN))
        .await
        .expect("the operator seats both");
    app.stop().await;
}

/// One rule, one refusal: a guest creating a rated game and a guest joining
/// one both get PERMISSION_DENIED with reason `rated_requires_account`, and
/// neither request changes anything.
async fn guests_are_refused_rated_games_alike_on_create_and_join(db: &TestDb) {
    let app = spawn_game(db).await;
    let players = accounts(&app, 2).await;
    let guest = app.guest("visitor").await;
    let mut games = app.games().await;
    let own_seat = |id: &str| SeatSpec {
        account_id: Some(id.to_owned()),
    };
    let rated_by = |creator: &Player| CreateGameRequest {
        rated: true,
        seats: vec![own_seat(&creator.id), SeatSpec::default()],
        ..skitgubbe_for(&players)
    };
    let game = games
        .create_game(authed(rated_by(&players[0]), &players[0].token))
        .await
        .expect("a player's rated game")
        .into_inner()
        .game_id;

    let created = games
        .create_game(authed(rated_by(&guest), &guest.token))
        .await
        .expect_err("a guest creating a rated game");
    let joined = games
        .join_game(authed(
            JoinGameRequest {
                game_id: game.clone(),
                seat: None,
            },
            &guest.token,
        ))
        .await
        .expect_err("a guest joining a rated game");

    let rule = Expected::new(Code::PermissionDenied, "rated_requires_account");
    rule.grpc(&created);
    rule.grpc(&joined);
    assert_eq!(created.message(), joined.message());
    let theirs = games
        .list_games(authed(ListGamesRequest::default(), &guest.token))
        .await
        .expect("list")
        .into_inner();
    assert!(theirs.games.is_empty(), "the guest sits nowhere");
    let open = view(&mut games, &game, 0, &players[0].token).await;
    assert!(open.seats[1].account_id.is_none(), "seat 1 is still open");
    app.stop().await;
}
