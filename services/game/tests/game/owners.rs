//! Who runs a bot: the operator names a bot's owner (a player), the
//! account says so, and a rated game between an owner and its own bot
//! changes no rating, while the same game with a stranger's bot does.

use skit_proto::v1::{
    AccountKind, CreateAccountRequest, GetRatingsRequest, ListAccountsRequest, WhoAmIRequest,
};
use skit_testkit::{Expected, OPERATOR_TOKEN, TestDb, authed, on_both_databases, spawn_game};

use crate::ratings::{played_game, ratings_client, rules};

on_both_databases!(a_bot_names_its_owner, no_rating_is_gained_from_ones_own_bot);

async fn a_bot_names_its_owner(db: &TestDb) {
    let app = spawn_game(db).await;
    let ada = app.account("Ada", AccountKind::Player).await;
    let bot = app.bot_of("Ada's bot", &ada).await;

    let mut accounts = app.accounts().await;
    let me = accounts
        .who_am_i(authed(WhoAmIRequest {}, &bot.token))
        .await
        .expect("whoami")
        .into_inner();
    assert_eq!(me.owner_account_id, ada.id);
    let ada_herself = accounts
        .who_am_i(authed(WhoAmIRequest {}, &ada.token))
        .await
        .expect("whoami")
        .into_inner();
    assert_eq!(
        ada_herself.owner_account_id, "",
        "a person is her own owner"
    );
    let listed = accounts
        .list_accounts(authed(
            ListAccountsRequest {
                kind: AccountKind::Bot.into(),
                ..Default::default()
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("list")
        .into_inner();
    let shown = listed.accounts.iter().find(|a| a.account_id == bot.id);
    assert_eq!(
        shown.map(|a| a.owner_account_id.as_str()),
        Some(ada.id.as_str())
    );

    // Only a bot has an owner, and the owner is an existing player.
    let other_bot = app.account("other", AccountKind::Bot).await;
    for (kind, owner, says) in [
        (AccountKind::Player, ada.id.clone(), "only a bot"),
        (AccountKind::Bot, "999999".to_owned(), "no account"),
        (AccountKind::Bot, other_bot.id.clone(), "a person"),
        (AccountKind::Bot, "x".to_owned(), "not an id"),
    ] {
        let request = CreateAccountRequest {
            name: "refused".into(),
            kind: kind.into(),
            owner_account_id: owner,
        };
        let refused = accounts
            .create_account(authed(request, OPERATOR_TOKEN))
            .await
            .expect_err("refused");
        Expected::invalid("owner_account_id").grpc(&refused);
        assert!(refused.message().contains(says), "{refused:?}");
    }
}

async fn no_rating_is_gained_from_ones_own_bot(db: &TestDb) {
    let app = spawn_game(db).await;
    let ada = app.account("Ada", AccountKind::Player).await;
    let own = app.bot_of("Ada's bot", &ada).await;
    let bob = app.account("Bob", AccountKind::Player).await;
    let strangers = app.bot_of("Bob's bot", &bob).await;
    let mut ratings = ratings_client(&app).await;
    let games_of = |ratings: Vec<skit_proto::v1::Rating>| -> Vec<u32> {
        ratings.iter().map(|r| r.games).collect()
    };
    let ask = |players: &[&skit_testkit::Player]| GetRatingsRequest {
        account_ids: players.iter().map(|p| p.id.clone()).collect(),
        rules: Some(rules(None)),
    };

    // Ada with her own bot: a rated game that rates nobody.
    played_game(&app, &[ada.clone(), own.clone()], rules(None), true, 5).await;
    let after = ratings
        .get_ratings(authed(ask(&[&ada, &own]), &ada.token))
        .await
        .expect("ratings")
        .into_inner()
        .ratings;
    assert_eq!(games_of(after), [0, 0], "no rating from one's own bot");

    // Ada with Bob's bot: rated as usual.
    played_game(
        &app,
        &[ada.clone(), strangers.clone()],
        rules(None),
        true,
        6,
    )
    .await;
    let after = ratings
        .get_ratings(authed(ask(&[&ada, &strangers]), &ada.token))
        .await
        .expect("ratings")
        .into_inner()
        .ratings;
    assert_eq!(games_of(after), [1, 1]);
}
