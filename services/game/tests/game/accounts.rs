//! AccountService beyond sign-up: operators list accounts by kind and mark
//! house bots (the matchmaker finds its bots this way); nobody else may.

use serde_json::json;
use skit_proto::v1::{AccountKind, CreateAccountRequest, ListAccountsRequest, SetHouseBotRequest};
use skit_testkit::TestDb;
use skit_testkit::*;
use tonic::Code;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operators_list_accounts_by_kind() {
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let mut accounts = app.accounts().await;
    let mut bots = Vec::new();
    for name in ["bot-a", "bot-b"] {
        let created = accounts
            .create_account(authed(
                CreateAccountRequest {
                    name: name.into(),
                    kind: AccountKind::Bot.into(),
                },
                OPERATOR_TOKEN,
            ))
            .await
            .expect("create bot")
            .into_inner();
        bots.push(created.account_id);
    }
    let guest = app.guest("Ada").await;

    let listed = accounts
        .list_accounts(authed(
            ListAccountsRequest {
                kind: AccountKind::Bot.into(),
                limit: 0,
                house_bots_only: false,
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("list bots")
        .into_inner();
    let ids: Vec<_> = listed
        .accounts
        .iter()
        .map(|a| a.account_id.clone())
        .collect();
    assert_eq!(ids, bots, "bots only, oldest first");
    assert!(listed.accounts.iter().all(|a| a.kind() == AccountKind::Bot));

    let one = accounts
        .list_accounts(authed(
            ListAccountsRequest {
                kind: AccountKind::Unspecified.into(),
                limit: 1,
                house_bots_only: false,
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("list one")
        .into_inner();
    assert_eq!(one.accounts.len(), 1, "the limit is kept");

    let err = accounts
        .list_accounts(authed(ListAccountsRequest::default(), &guest.token))
        .await
        .expect_err("a guest may not list accounts");
    assert_eq!(err.code(), Code::PermissionDenied);
    drop(accounts);
    app.stop().await;
}

fn mark(account_id: &str, house_bot: bool) -> SetHouseBotRequest {
    SetHouseBotRequest {
        account_id: account_id.into(),
        house_bot,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_operator_marks_house_bots_and_only_bots() {
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let mut accounts = app.accounts().await;
    let house = app.account("house", AccountKind::Bot).await;
    let theirs = app.account("theirs", AccountKind::Bot).await;
    let player = app.account("player", AccountKind::Player).await;

    let marked = accounts
        .set_house_bot(authed(mark(&house.id, true), OPERATOR_TOKEN))
        .await
        .expect("the operator marks a bot")
        .into_inner();
    let by_the_bot = accounts
        .set_house_bot(authed(mark(&theirs.id, true), &theirs.token))
        .await
        .expect_err("a bot may not mark itself");
    let a_player = accounts
        .set_house_bot(authed(mark(&player.id, true), OPERATOR_TOKEN))
        .await
        .expect_err("a player account is no bot");
    let not_an_id = accounts
        .set_house_bot(authed(mark("bot-7", true), OPERATOR_TOKEN))
        .await
        .expect_err("not an account id");
    let listed = accounts
        .list_accounts(authed(
            ListAccountsRequest {
                kind: AccountKind::Bot.into(),
                limit: 0,
                house_bots_only: true,
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("list house bots")
        .into_inner();

    assert!(marked.house_bot);
    assert_eq!(marked.account_id, house.id);
    assert_eq!(marked.kind(), AccountKind::Bot);
    Expected::new(Code::PermissionDenied, "permission_denied").grpc(&by_the_bot);
    Expected::new(Code::NotFound, "not_found").grpc(&a_player);
    Expected::invalid("account_id").grpc(&not_an_id);
    let ids: Vec<_> = listed.accounts.iter().map(|a| &a.account_id).collect();
    assert_eq!(ids, [&house.id], "the marked bot only");
    assert!(listed.accounts[0].house_bot);
    drop(accounts);
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn house_bots_are_marked_over_rest_with_the_operator_token() {
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let bot = app.account("house", AccountKind::Bot).await;
    let http = app.http();
    let path = format!("/v1/accounts/{}/house-bot", bot.id);

    let mark = json!({"houseBot": true});
    let (status, body) = http
        .call("POST", &path, Some(OPERATOR_TOKEN), Some(mark.clone()))
        .await;
    let (refused, _) = http.call("POST", &path, Some(&bot.token), Some(mark)).await;
    let (_, listed) = http
        .call(
            "GET",
            "/v1/accounts?kind=ACCOUNT_KIND_BOT&houseBotsOnly=true",
            Some(OPERATOR_TOKEN),
            None,
        )
        .await;

    assert_eq!(status, 200, "{body}");
    assert_eq!(body["houseBot"], true);
    assert_eq!(refused, 403);
    assert_eq!(listed["accounts"][0]["accountId"], bot.id.as_str());
    assert_eq!(listed["accounts"][0]["houseBot"], true);
    app.stop().await;
}
