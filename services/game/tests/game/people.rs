//! Accounts for people, over the network on both databases: registering a
//! name (unique whatever its case), logging in, a guest registering while
//! keeping its id and games, a device signing in as one account and being
//! linked to a registered one, and people's rated games on the
//! leaderboard.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use skit_proto::v1::{
    AccountKind, AuthenticateDeviceRequest, CreateGameRequest, GetLeaderboardRequest,
    GetRatingsRequest, LinkDeviceRequest, ListGamesRequest, LoginRequest, RegisterRequest, Rules,
    SignInResponse, UpgradeGuestRequest, WhoAmIRequest,
};
use skit_testkit::{
    Expected, GameService, OPERATOR_TOKEN, Player, TestDb, authed, on_both_databases, play_out,
    skitgubbe_for, spawn_game,
};
use tonic::Code;

on_both_databases!(
    a_person_registers_and_logs_in,
    names_are_one_whatever_their_case,
    a_guest_registers_keeping_its_id_and_games,
    a_device_signs_in_as_one_account,
    a_linked_device_signs_in_as_its_person,
    people_play_rated_games_and_lead_the_board,
);

const PASSWORD: &str = "correct horse battery";

async fn register(app: &GameService, name: &str) -> Result<SignInResponse, tonic::Status> {
    let req = RegisterRequest {
        name: name.into(),
        password: PASSWORD.into(),
    };
    app.accounts()
        .await
        .register(req)
        .await
        .map(tonic::Response::into_inner)
}

async fn login(
    app: &GameService,
    name: &str,
    password: &str,
) -> Result<SignInResponse, tonic::Status> {
    let req = LoginRequest {
        name: name.into(),
        password: password.into(),
    };
    app.accounts()
        .await
        .login(req)
        .await
        .map(tonic::Response::into_inner)
}

async fn device(app: &GameService, device_id: &str) -> SignInResponse {
    let req = AuthenticateDeviceRequest {
        device_id: device_id.into(),
    };
    app.accounts()
        .await
        .authenticate_device(req)
        .await
        .expect("device sign-in")
        .into_inner()
}

/// The account and bearer token a sign-in answered.
fn player(signed_in: &SignInResponse) -> Player {
    let session = signed_in.session.as_ref().expect("a session");
    assert_eq!(session.account_id, signed_in.account_id);
    Player {
        id: signed_in.account_id.clone(),
        token: session.access_token.clone(),
    }
}

async fn who(app: &GameService, token: &str) -> (String, String, AccountKind) {
    let me = app
        .accounts()
        .await
        .who_am_i(authed(WhoAmIRequest {}, token))
        .await
        .expect("who am i")
        .into_inner();
    let kind = me.kind();
    (me.account_id, me.name, kind)
}

async fn a_person_registers_and_logs_in(db: &TestDb) {
    let app = spawn_game(db).await;

    let ada = register(&app, " Ada Lovelace ").await.expect("register");
    let again = login(&app, "ada lovelace", PASSWORD).await.expect("login");
    let wrong = login(&app, "Ada Lovelace", "wrong horse battery").await;
    let unknown = login(&app, "Nobody Here", PASSWORD).await;

    assert_eq!(ada.kind(), AccountKind::Player);
    assert_eq!(ada.name, "Ada Lovelace", "trimmed");
    assert!(ada.created);
    assert_eq!(again.account_id, ada.account_id);
    assert!(!again.created);
    let first = ada.session.as_ref().expect("session");
    let second = again.session.as_ref().expect("session");
    assert_ne!(
        first.session_id, second.session_id,
        "each sign-in its own session"
    );
    for token in [&first.access_token, &second.access_token] {
        let me = who(&app, token).await;
        assert_eq!(
            me,
            (
                ada.account_id.clone(),
                "Ada Lovelace".into(),
                AccountKind::Player
            )
        );
    }
    // A wrong password and an unknown name are one answer.
    let refused = Expected::new(Code::Unauthenticated, "wrong_password");
    refused.grpc(&wrong.expect_err("wrong password"));
    refused.grpc(&unknown.expect_err("unknown name"));
    // The same over REST.
    let http = app.http();
    let body = json!({"name": "Bea Smith", "password": PASSWORD});
    let (status, bea) = http
        .call("POST", "/v1/accounts/register", None, Some(body))
        .await;
    assert_eq!(status, 200, "{bea}");
    assert_eq!(bea["kind"], "ACCOUNT_KIND_PLAYER");
    let body = json!({"name": "BEA SMITH", "password": PASSWORD});
    let (status, in_again) = http
        .call("POST", "/v1/accounts/login", None, Some(body))
        .await;
    assert_eq!(status, 200, "{in_again}");
    assert_eq!(in_again["accountId"], bea["accountId"]);
    let body = json!({"name": "Bea Smith", "password": "not her password"});
    refused.rest(
        &http
            .call("POST", "/v1/accounts/login", None, Some(body))
            .await,
    );
    app.stop().await;
}

async fn names_are_one_whatever_their_case(db: &TestDb) {
    let app = spawn_game(db).await;
    register(&app, "Straße").await.expect("register");

    let taken = Expected {
        field: Some("name"),
        ..Expected::new(Code::AlreadyExists, "name_taken")
    };
    for same in ["STRASSE", "strasse", "ＳＴＲＡＳＳＥ"] {
        taken.grpc(&register(&app, same).await.expect_err(same));
    }
    let bad = [("Al", "at least 3"), ("ada!", "U+0021"), ("  ", "1 to 40")];
    for (name, rule) in bad {
        let refused = register(&app, name).await.expect_err(name);
        Expected::invalid("name").grpc(&refused);
        assert!(refused.message().contains(rule), "{name}: {refused:?}");
    }
    let short = RegisterRequest {
        name: "Short Pass".into(),
        password: "1234567".into(),
    };
    let refused = app
        .accounts()
        .await
        .register(short)
        .await
        .expect_err("short");
    Expected::invalid("password").grpc(&refused);
    // Nothing refused was created: the name is still free.
    register(&app, "Short Pass")
        .await
        .expect("the name was not taken");
    app.stop().await;
}

async fn a_guest_registers_keeping_its_id_and_games(db: &TestDb) {
    let app = spawn_game(db).await;
    let (guests, game, _) = app.game_with_guests(2).await;
    let guest = &guests[0];
    register(&app, "Taken Name").await.expect("register");

    let upgrade = |name: &str| UpgradeGuestRequest {
        name: name.into(),
        password: PASSWORD.into(),
    };
    let mut accounts = app.accounts().await;
    let clash = accounts
        .upgrade_guest(authed(upgrade("taken name"), &guest.token))
        .await
        .expect_err("a taken name");
    let upgraded = accounts
        .upgrade_guest(authed(upgrade("Cid Guest"), &guest.token))
        .await
        .expect("upgrade")
        .into_inner();
    let twice = accounts
        .upgrade_guest(authed(upgrade("Cid Again"), &guest.token))
        .await
        .expect_err("a player is no guest");

    Expected {
        field: Some("name"),
        ..Expected::new(Code::AlreadyExists, "name_taken")
    }
    .grpc(&clash);
    Expected::new(Code::FailedPrecondition, "not_a_guest").grpc(&twice);
    assert_eq!(upgraded.account_id, guest.id, "the same account");
    assert_eq!(upgraded.kind(), AccountKind::Player);
    // The guest's token keeps working, for the player it now is.
    let me = who(&app, &guest.token).await;
    assert_eq!(
        me,
        (guest.id.clone(), "Cid Guest".into(), AccountKind::Player)
    );
    let listed = app
        .games()
        .await
        .list_games(authed(ListGamesRequest::default(), &guest.token))
        .await
        .expect("list")
        .into_inner();
    assert!(
        listed.games.iter().any(|g| g.game_id == game),
        "its games are its own"
    );
    let signed_in = login(&app, "CID GUEST", PASSWORD).await.expect("login");
    assert_eq!(signed_in.account_id, guest.id);
    // At once a player, with the token it had: rated games are open to it.
    let mut rated = CreateGameRequest {
        rated: true,
        ..skitgubbe_for(&guests)
    };
    rated.seats[1].account_id = None;
    app.games()
        .await
        .create_game(authed(rated, &guest.token))
        .await
        .expect("a player may create a rated game");
    app.stop().await;
}

async fn a_device_signs_in_as_one_account(db: &TestDb) {
    let app = spawn_game(db).await;
    let phone = "5c1f3a9e-2b7d-4e8a-9f01-6d2c4b8e0a17";

    let first = device(&app, phone).await;
    let second = device(&app, phone).await;
    let other = device(&app, "0d9e8f7a-6b5c-4d3e-2f1a-0b9c8d7e6f5a").await;

    assert!(first.created);
    assert!(!second.created);
    assert_eq!(first.kind(), AccountKind::Guest);
    assert_eq!(
        second.account_id, first.account_id,
        "one device, one account"
    );
    assert_ne!(other.account_id, first.account_id);
    let token = &player(&second).token;
    assert_eq!(who(&app, token).await.0, first.account_id);
    // Bad ids name the field; REST gives the same account.
    for bad in ["short", "0123456789abcdef/"] {
        let req = AuthenticateDeviceRequest {
            device_id: bad.into(),
        };
        let refused = app.accounts().await.authenticate_device(req).await;
        Expected::invalid("device_id").grpc(&refused.expect_err(bad));
    }
    let body = json!({"deviceId": phone});
    let (status, rest) = app
        .http()
        .call("POST", "/v1/accounts/device", None, Some(body))
        .await;
    assert_eq!(status, 200, "{rest}");
    assert_eq!(rest["accountId"], first.account_id.as_str());
    assert_eq!(rest["created"], false);
    app.stop().await;
}

async fn a_linked_device_signs_in_as_its_person(db: &TestDb) {
    let app = spawn_game(db).await;
    let ada = player(&register(&app, "Ada Device").await.expect("register"));
    let tablet = "tablet-2f8e6c4a0b1d3e5f";
    let elsewhere = device(&app, "phone-of-someone-else-01").await;

    let link = |device_id: &str| LinkDeviceRequest {
        device_id: device_id.into(),
    };
    let mut accounts = app.accounts().await;
    accounts
        .link_device(authed(link(tablet), &ada.token))
        .await
        .expect("link");
    accounts
        .link_device(authed(link(tablet), &ada.token))
        .await
        .expect("linking again changes nothing");
    let taken = accounts
        .link_device(authed(link("phone-of-someone-else-01"), &ada.token))
        .await
        .expect_err("linked elsewhere");
    let from_tablet = device(&app, tablet).await;

    Expected {
        field: Some("device_id"),
        ..Expected::new(Code::AlreadyExists, "device_taken")
    }
    .grpc(&taken);
    assert_eq!(from_tablet.account_id, ada.id, "the tablet signs in as Ada");
    assert_eq!(from_tablet.kind(), AccountKind::Player);
    assert!(!from_tablet.created);
    let still = device(&app, "phone-of-someone-else-01").await;
    assert_eq!(
        still.account_id, elsewhere.account_id,
        "the refused link changed nothing"
    );
    app.stop().await;
}

async fn people_play_rated_games_and_lead_the_board(db: &TestDb) {
    let app = spawn_game(db).await;
    let people = [
        player(&register(&app, "Ann Rated").await.expect("register")),
        player(&register(&app, "Bob Rated").await.expect("register")),
    ];
    let skitgubbe = Rules {
        preset: "skitgubbe".into(),
        options: None,
    };

    let mut games = app.games().await;
    let req = CreateGameRequest {
        rated: true,
        ..skitgubbe_for(&people)
    };
    let game = games
        .create_game(authed(req, OPERATOR_TOKEN))
        .await
        .expect("a rated game of people")
        .into_inner()
        .game_id;
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    play_out(&mut games, &game, &people, &mut rng, &mut |_, _| {}).await;

    let mut ratings = app.ratings().await;
    let req = GetRatingsRequest {
        account_ids: people.iter().map(|p| p.id.clone()).collect(),
        rules: Some(skitgubbe.clone()),
    };
    let rated = ratings
        .get_ratings(authed(req, &people[0].token))
        .await
        .expect("ratings")
        .into_inner()
        .ratings;
    assert!(rated.iter().all(|r| r.games == 1), "{rated:?}");
    let req = GetLeaderboardRequest {
        rules: Some(skitgubbe),
        ..Default::default()
    };
    let board = ratings
        .get_leaderboard(authed(req, &people[1].token))
        .await
        .expect("leaderboard")
        .into_inner()
        .entries;
    let mut names: Vec<&str> = board.iter().map(|e| e.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["Ann Rated", "Bob Rated"]);
    assert!(board.iter().all(|e| !e.is_bot));
    app.stop().await;
}
