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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_with_nothing_to_change_writes_nothing_to_the_audit_log() {
    let service = spawn_service().await;
    let dir = TempDir::new().expect("temp dir");
    let path = dir.path().join("bots.json");
    service.provision(&path, 3, "greedy").await;
    let marked = service.audited("set_house_bot").await;
    assert_eq!(marked, 3, "each new bot marked once");

    let again = service.provision(&path, 3, "greedy").await;

    assert_eq!(again.accounts.len(), 3);
    assert_eq!(service.audited("set_house_bot").await, marked);
    assert_eq!(service.audited("create_account").await, 3);
}

/// A worker started before the service (a container stack starting at
/// once): provisioning waits for it instead of failing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn provisioning_waits_for_a_service_that_is_not_up_yet() {
    let service = spawn_service().await;
    let upstream = service.url.trim_start_matches("http://").to_owned();
    let reserved = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let port = reserved.local_addr().expect("its address").port();
    drop(reserved);
    let dir = TempDir::new().expect("temp dir");
    let path = dir.path().join("bots.json");
    let want = skit_botworker::Provision {
        count: 2,
        strategy: "greedy".into(),
        prefix: "late".into(),
    };
    let url = format!("http://127.0.0.1:{port}");
    let operator = skit_api::Secret::new(skit_testkit::OPERATOR_TOKEN);
    let provisioning =
        tokio::spawn(async move { skit_botworker::provision(&url, &operator, &path, &want).await });
    // Nothing listens for a second; then the service, through a relay.
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    assert!(!provisioning.is_finished(), "provisioning gave up");
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .expect("the port again");
    let relay = tokio::spawn(async move {
        loop {
            let (mut client, _) = listener.accept().await.expect("accept");
            let upstream = upstream.clone();
            tokio::spawn(async move {
                let mut server = tokio::net::TcpStream::connect(upstream)
                    .await
                    .expect("upstream");
                let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
            });
        }
    });

    let file = tokio::time::timeout(std::time::Duration::from_secs(20), provisioning)
        .await
        .expect("provisioned once the service answered")
        .expect("the task")
        .expect("provision");

    assert_eq!(file.accounts.len(), 2);
    assert_eq!(house_bots(&service).await, ids(&file));
    relay.abort();
}
