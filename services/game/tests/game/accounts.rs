//! AccountService beyond sign-up: operators list accounts by kind and mark
//! house bots (the matchmaker finds its bots this way); nobody else may. A
//! guest's sign-up resent with its request id returns the first account.

use serde_json::json;
use skit_proto::v1::{
    AccountKind, CreateAccountRequest, CreateGuestRequest, ListAccountsRequest, SetHouseBotRequest,
    WhoAmIRequest,
};
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
                    ..Default::default()
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
    let (refused, _) = http
        .call("POST", &path, Some(&bot.token), Some(mark.clone()))
        .await;
    // The body may repeat the path's account, not name another or a
    // malformed one.
    let same = json!({"accountId": bot.id, "houseBot": true});
    let (repeated, _) = http
        .call("POST", &path, Some(OPERATOR_TOKEN), Some(same))
        .await;
    let mut contradicted = Vec::new();
    for wrong in ["not-a-number", "12x", "0"] {
        let body = json!({"accountId": wrong, "houseBot": false});
        contradicted.push(
            http.call("POST", &path, Some(OPERATOR_TOKEN), Some(body))
                .await,
        );
    }
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
    assert_eq!(repeated, 200);
    for (status, body) in contradicted {
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["fieldViolations"][0]["field"], "account_id", "{body}");
    }
    // Still marked: the refused requests changed nothing.
    assert_eq!(listed["accounts"][0]["accountId"], bot.id.as_str());
    assert_eq!(listed["accounts"][0]["houseBot"], true);
    app.stop().await;
}

on_both_databases!(a_resent_create_guest_returns_the_first_account);

fn guest_request(name: Option<&str>, request_id: &str) -> CreateGuestRequest {
    CreateGuestRequest {
        name: name.map(Into::into),
        request_id: request_id.into(),
    }
}

/// CreateGuest with a request id: a resend after a lost answer returns the
/// first account and its token, over gRPC and REST and under a race; the
/// id with another name, a guessable id and a malformed one are refused.
async fn a_resent_create_guest_returns_the_first_account(db: &TestDb) {
    // Arrange
    let app = spawn_game(db).await;
    let mut accounts = app.accounts().await;
    let named = "6f1c2a9e-4b7d-4e0a-9a51-3c8d2f7b1e44";
    let unnamed = "0b8e5d4c-2f1a-4c3b-8d7e-9a6f5e4d3c2b";
    let raced = "c3d2e1f0-a9b8-4c7d-8e6f-5a4b3c2d1e0f";

    // Act
    let first = accounts
        .create_guest(guest_request(Some("ann"), named))
        .await
        .expect("first")
        .into_inner();
    let resent = accounts
        .create_guest(guest_request(Some("ann"), named))
        .await
        .expect("resent")
        .into_inner();
    let over_rest = app
        .http()
        .call(
            "POST",
            "/v1/accounts/guest",
            None,
            Some(json!({"name": "ann", "requestId": named})),
        )
        .await;
    let mut refusals = Vec::new();
    for (name, id) in [(Some("bo"), named), (None, named)] {
        let refused = accounts.create_guest(guest_request(name, id)).await;
        refusals.push(refused.expect_err("the id with another name"));
    }
    let unnamed_first = accounts
        .create_guest(guest_request(None, unnamed))
        .await
        .expect("unnamed")
        .into_inner();
    let unnamed_again = accounts
        .create_guest(guest_request(None, unnamed))
        .await
        .expect("unnamed resent")
        .into_inner();
    let mut malformed = Vec::new();
    for id in ["guessable", "0123456789abcdef\0", &"x".repeat(129)] {
        let refused = accounts.create_guest(guest_request(Some("cy"), id)).await;
        malformed.push(refused.expect_err(id));
    }
    let mut twins = tokio::task::JoinSet::new();
    for _ in 0..6 {
        let mut accounts = app.accounts().await;
        twins.spawn(async move {
            accounts
                .create_guest(guest_request(Some("di"), raced))
                .await
                .map(|r| r.into_inner().account_id)
        });
    }
    let twins: Vec<String> = twins
        .join_all()
        .await
        .into_iter()
        .map(|r| r.expect("every twin is answered"))
        .collect();
    let plain = [app.guest("ed").await, app.guest("ed").await];

    // Assert
    assert_eq!(
        (&resent.account_id, &resent.name, &resent.token),
        (&first.account_id, &first.name, &first.token),
        "the first account and its token again"
    );
    assert_eq!(over_rest.0, 200, "{}", over_rest.1);
    assert_eq!(over_rest.1["accountId"], json!(first.account_id));
    assert_eq!(over_rest.1["token"], json!(first.token));
    let me = accounts
        .who_am_i(authed(WhoAmIRequest {}, &resent.token))
        .await
        .expect("the token works")
        .into_inner();
    assert_eq!(me.account_id, first.account_id);
    let reused = Expected {
        field: Some("request_id"),
        ..Expected::new(Code::AlreadyExists, "request_id_reused")
    };
    for refusal in &refusals {
        reused.grpc(refusal);
    }
    assert_eq!(unnamed_again.account_id, unnamed_first.account_id);
    assert_eq!(unnamed_again.name, unnamed_first.name);
    assert_eq!(unnamed_again.token, unnamed_first.token);
    for refusal in &malformed {
        Expected::invalid("request_id").grpc(refusal);
    }
    assert!(
        twins.iter().all(|id| *id == twins[0]),
        "one account: {twins:?}"
    );
    assert_ne!(plain[0].id, plain[1].id, "no request id: two accounts");
    let guests = accounts
        .list_accounts(authed(
            ListAccountsRequest {
                kind: AccountKind::Guest.into(),
                limit: 0,
                house_bots_only: false,
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("list guests")
        .into_inner();
    assert_eq!(guests.accounts.len(), 5, "ann, the unnamed, di, two eds");
    drop(accounts);
    app.stop().await;
}
