//! Provisioning makes house bots: the accounts the worker creates, and the
//! file's accounts on every later run, are marked so the matchmaker may
//! seat them; a bot account the worker does not play is left alone.

use skit_proto::v1::{AccountKind, CreateAccountRequest, ListAccountsRequest, SetHouseBotRequest};
use tempfile::TempDir;

use crate::helpers::*;

/// The ids of the house bots, oldest first.
async fn house_bots(service: &Service) -> Vec<String> {
    service
        .operator()
        .await
        .accounts
        .list_accounts(ListAccountsRequest {
            kind: AccountKind::Bot.into(),
            house_bots_only: true,
            ..Default::default()
        })
        .await
        .expect("list house bots")
        .into_inner()
        .accounts
        .into_iter()
        .map(|a| a.account_id)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn provisioned_bots_are_house_bots_and_no_others() {
    let service = spawn_service().await;
    let dir = TempDir::new().expect("temp dir");
    let path = dir.path().join("bots.json");
    let theirs = service
        .operator()
        .await
        .accounts
        .create_account(CreateAccountRequest {
            name: "their-bot".into(),
            kind: AccountKind::Bot.into(),
            ..Default::default()
        })
        .await
        .expect("a third party's bot")
        .into_inner();

    let ours = ids(&service.provision(&path, 2, "greedy").await);

    assert_eq!(house_bots(&service).await, ours);
    assert!(!house_bots(&service).await.contains(&theirs.account_id));

    // Unmarked by hand, a file's bot is marked again by the next run.
    service
        .operator()
        .await
        .accounts
        .set_house_bot(SetHouseBotRequest {
            account_id: ours[0].clone(),
            house_bot: false,
        })
        .await
        .expect("unmark");
    assert_eq!(house_bots(&service).await, ours[1..]);
    let again = ids(&service.provision(&path, 2, "greedy").await);
    assert_eq!(again, ours, "no new accounts");
    assert_eq!(house_bots(&service).await, ours);
}
