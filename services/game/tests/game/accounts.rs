//! AccountService beyond sign-up: operators list accounts by kind (the
//! matchmaker finds its bots this way); nobody else may.

use skit_proto::v1::{AccountKind, CreateAccountRequest, ListAccountsRequest};
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
