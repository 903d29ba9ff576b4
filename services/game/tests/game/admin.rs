//! AdminService against the real service, on SQLite and Postgres:
//! operators find accounts, disable (revoking every credential), ban and
//! enable them, mark house bots,
//! and every such action (AccountService's operator calls included) is in
//! the audit log, newest first; nobody else may call it, and nothing in
//! the API changes the log.

use serde_json::json;
use skit_gateway::routes::ROUTES;
use skit_proto::v1::admin_service_client::AdminServiceClient;
use skit_proto::v1::{
    AccountKind, AccountStatus, AdminSetHouseBotRequest, AuditEntry, FindAccountsRequest,
    GetAccountRequest, ListAuditLogRequest, SetAccountStatusRequest, SetHouseBotRequest,
    WhoAmIRequest,
};
use skit_testkit::TestDb;
use skit_testkit::*;
use tonic::Code;
use tonic::transport::Channel;

on_both_databases!(
    operators_find_accounts_by_name_kind_and_status,
    a_disabled_account_is_refused_until_enabled,
    a_refused_status_change_changes_nothing,
    house_bot_marks_and_created_accounts_are_audited,
    only_operators_administer,
    the_audit_log_filters_and_pages_newest_first,
);

pub async fn set_status(
    admin: &mut AdminServiceClient<Channel>,
    account: &str,
    status: AccountStatus,
    reason: &str,
) -> Result<skit_proto::v1::AdminAccount, tonic::Status> {
    let request = SetAccountStatusRequest {
        account_id: account.into(),
        status: status.into(),
        reason: reason.into(),
    };
    admin
        .set_account_status(authed(request, OPERATOR_TOKEN))
        .await
        .map(tonic::Response::into_inner)
}

pub async fn audit_log(
    admin: &mut AdminServiceClient<Channel>,
    request: ListAuditLogRequest,
) -> Vec<AuditEntry> {
    admin
        .list_audit_log(authed(request, OPERATOR_TOKEN))
        .await
        .expect("audit log")
        .into_inner()
        .entries
}

async fn find(
    admin: &mut AdminServiceClient<Channel>,
    request: FindAccountsRequest,
) -> Vec<String> {
    admin
        .find_accounts(authed(request, OPERATOR_TOKEN))
        .await
        .expect("find accounts")
        .into_inner()
        .accounts
        .into_iter()
        .map(|a| a.name)
        .collect()
}

async fn operators_find_accounts_by_name_kind_and_status(db: &TestDb) {
    // Arrange
    let app = spawn_game(db).await;
    let alice = app.account("Alice", AccountKind::Player).await;
    app.account("alfred", AccountKind::Bot).await;
    app.account("Bob", AccountKind::Player).await;
    let mut admin = app.admin().await;
    set_status(&mut admin, &alice.id, AccountStatus::Banned, "spam")
        .await
        .expect("ban");
    let by = |name: &str, prefix: bool| FindAccountsRequest {
        name: name.into(),
        name_prefix: prefix,
        ..Default::default()
    };

    // Act and Assert
    assert_eq!(find(&mut admin, by("ALICE", false)).await, ["Alice"]);
    assert_eq!(find(&mut admin, by("al", true)).await, ["Alice", "alfred"]);
    assert!(find(&mut admin, by("al", false)).await.is_empty());
    assert!(
        find(&mut admin, by("a%", true)).await.is_empty(),
        "% is literal"
    );
    let players = FindAccountsRequest {
        kind: AccountKind::Player.into(),
        ..Default::default()
    };
    assert_eq!(find(&mut admin, players).await, ["Alice", "Bob"]);
    let banned = FindAccountsRequest {
        status: AccountStatus::Banned.into(),
        ..Default::default()
    };
    assert_eq!(find(&mut admin, banned).await, ["Alice"]);
    let first = admin
        .find_accounts(authed(
            FindAccountsRequest {
                kind: AccountKind::Player.into(),
                page_size: 1,
                ..Default::default()
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("a page")
        .into_inner();
    assert_eq!(first.accounts.len(), 1);
    let rest = FindAccountsRequest {
        kind: AccountKind::Player.into(),
        page_token: first.next_page_token,
        ..Default::default()
    };
    assert_eq!(find(&mut admin, rest).await, ["Bob"]);
    let shown = admin
        .get_account(authed(
            GetAccountRequest {
                account_id: alice.id.clone(),
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("get")
        .into_inner();
    assert_eq!(shown.status(), AccountStatus::Banned);
    assert_eq!(shown.status_reason, "spam");
    assert_eq!(shown.kind(), AccountKind::Player);
    app.stop().await;
}

async fn a_disabled_account_is_refused_until_enabled(db: &TestDb) {
    // Arrange
    let app = spawn_game(db).await;
    let player = app.account("Mallory", AccountKind::Player).await;
    let mut accounts = app.accounts().await;
    accounts
        .who_am_i(authed(WhoAmIRequest {}, &player.token))
        .await
        .expect("active: known, and now cached");
    let mut admin = app.admin().await;

    // Act
    let disabled = set_status(
        &mut admin,
        &player.id,
        AccountStatus::Disabled,
        "chargeback",
    )
    .await
    .expect("disable");
    let refused = accounts
        .who_am_i(authed(WhoAmIRequest {}, &player.token))
        .await
        .expect_err("a disabled account's token");
    let rest = app
        .http()
        .call("GET", "/v1/accounts/me", Some(&player.token), None)
        .await;
    set_status(&mut admin, &player.id, AccountStatus::Active, "")
        .await
        .expect("enable");

    // Assert
    assert_eq!(disabled.status(), AccountStatus::Disabled);
    Expected::new(Code::Unauthenticated, "account_disabled").grpc(&refused);
    Expected::new(Code::Unauthenticated, "account_disabled").rest(&rest);
    // Disabling revoked the token: enabled again, the account signs in
    // anew, and the old token stays refused.
    let revoked = accounts
        .who_am_i(authed(WhoAmIRequest {}, &player.token))
        .await
        .expect_err("a revoked token");
    Expected::new(Code::Unauthenticated, "token_revoked").grpc(&revoked);
    let shown = admin
        .get_account(authed(
            GetAccountRequest {
                account_id: player.id.clone(),
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("get")
        .into_inner();
    assert_eq!(shown.status(), AccountStatus::Active);
    let log = audit_log(
        &mut admin,
        ListAuditLogRequest {
            target_account_id: player.id.clone(),
            action: "set_account_status".into(),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(log.len(), 2, "{log:?}");
    let details = serde_json::to_value(&log[1].details).expect("json");
    assert_eq!(details["status"], "disabled");
    assert_eq!(details["previous"], "active");
    assert_eq!(log[1].reason, "chargeback");
    assert_eq!(log[0].reason, "", "enabling needs no reason");
    app.stop().await;
}

async fn a_refused_status_change_changes_nothing(db: &TestDb) {
    // Arrange
    let app = spawn_game(db).await;
    let player = app.account("Eve", AccountKind::Player).await;
    let mut admin = app.admin().await;

    // Act
    let no_reason = set_status(&mut admin, &player.id, AccountStatus::Banned, "  ")
        .await
        .expect_err("a ban needs a reason");
    let operator = app.operator().await;
    let me = operator.accounts.clone().who_am_i(WhoAmIRequest {}).await;
    let operator_id = me.expect("operator").into_inner().account_id;
    let not_an_operator = set_status(&mut admin, &operator_id, AccountStatus::Disabled, "x")
        .await
        .expect_err("operators stay");
    let missing = set_status(&mut admin, "987654", AccountStatus::Disabled, "x")
        .await
        .expect_err("no such account");

    // Assert
    Expected::invalid("reason").grpc(&no_reason);
    assert_eq!(not_an_operator.code(), Code::FailedPrecondition);
    assert_eq!(missing.code(), Code::NotFound);
    let mut accounts = app.accounts().await;
    accounts
        .who_am_i(authed(WhoAmIRequest {}, &player.token))
        .await
        .expect("still active");
    let log = audit_log(&mut admin, ListAuditLogRequest::default()).await;
    assert!(
        log.iter().all(|e| e.action != "set_account_status"),
        "{log:?}"
    );
    app.stop().await;
}

async fn house_bot_marks_and_created_accounts_are_audited(db: &TestDb) {
    // Arrange
    let app = spawn_game(db).await;
    let bot = app.house_bot("house-1").await;
    let mut admin = app.admin().await;

    // Act
    let unmarked = admin
        .set_house_bot(authed(
            AdminSetHouseBotRequest {
                account_id: bot.id.clone(),
                house_bot: false,
                reason: "retired".into(),
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("unmark")
        .into_inner();

    // Assert
    assert!(!unmarked.house_bot);
    let log = audit_log(
        &mut admin,
        ListAuditLogRequest {
            target_account_id: bot.id.clone(),
            ..Default::default()
        },
    )
    .await;
    let actions: Vec<&str> = log.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(
        actions,
        ["set_house_bot", "set_house_bot", "create_account"]
    );
    assert_eq!(log[0].reason, "retired");
    let details = serde_json::to_value(&log[1].details).expect("json");
    assert_eq!(details, json!({"house_bot": true}));
    let created = serde_json::to_value(&log[2].details).expect("json");
    assert_eq!(created, json!({"kind": "bot", "name": "house-1"}));
    assert!(log.iter().all(|e| e.operator_id == log[0].operator_id));
    app.stop().await;
}

async fn only_operators_administer(db: &TestDb) {
    // Arrange
    let app = spawn_game(db).await;
    let guest = app.guest("curious").await;
    let player = app.account("Trudy", AccountKind::Player).await;
    let mut admin = app.admin().await;
    let denied = Expected::new(Code::PermissionDenied, "permission_denied");

    // Act and Assert: each RPC, as a guest and as a player.
    for token in [&guest.token, &player.token] {
        let find = admin
            .find_accounts(authed(FindAccountsRequest::default(), token))
            .await;
        denied.grpc(&find.expect_err("find"));
        let status = SetAccountStatusRequest {
            account_id: guest.id.clone(),
            status: AccountStatus::Disabled.into(),
            reason: "x".into(),
        };
        let set = admin.set_account_status(authed(status, token)).await;
        denied.grpc(&set.expect_err("set status"));
        let log = admin
            .list_audit_log(authed(ListAuditLogRequest::default(), token))
            .await;
        denied.grpc(&log.expect_err("audit log"));
        let rest = app
            .http()
            .call("GET", "/v1/admin/audit-log", Some(token), None)
            .await;
        denied.rest(&rest);
    }
    let anonymous = admin.find_accounts(FindAccountsRequest::default()).await;
    assert_eq!(
        anonymous.expect_err("no token").code(),
        Code::Unauthenticated
    );
    let mut accounts = app.accounts().await;
    let mark = SetHouseBotRequest {
        account_id: player.id.clone(),
        house_bot: true,
    };
    let marked = accounts.set_house_bot(authed(mark, &player.token)).await;
    denied.grpc(&marked.expect_err("house bot"));
    app.stop().await;
}

async fn the_audit_log_filters_and_pages_newest_first(db: &TestDb) {
    // Arrange: three actions on two accounts.
    let app = spawn_game(db).await;
    let a = app.account("a", AccountKind::Player).await;
    let b = app.account("b", AccountKind::Player).await;
    let mut admin = app.admin().await;
    set_status(&mut admin, &a.id, AccountStatus::Disabled, "one")
        .await
        .expect("disable");

    // Act
    let all = audit_log(&mut admin, ListAuditLogRequest::default()).await;
    let page = admin
        .list_audit_log(authed(
            ListAuditLogRequest {
                page_size: 2,
                ..Default::default()
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("a page")
        .into_inner();
    let next = audit_log(
        &mut admin,
        ListAuditLogRequest {
            page_token: page.next_page_token.clone(),
            ..Default::default()
        },
    )
    .await;
    let created = audit_log(
        &mut admin,
        ListAuditLogRequest {
            action: "create_account".into(),
            ..Default::default()
        },
    )
    .await;
    let bad = admin
        .list_audit_log(authed(
            ListAuditLogRequest {
                target_account_id: "x".into(),
                ..Default::default()
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect_err("not an id");

    // Assert
    let ids: Vec<i64> = all.iter().map(|e| e.id.parse().expect("id")).collect();
    assert!(ids.windows(2).all(|w| w[0] > w[1]), "newest first: {ids:?}");
    assert_eq!(all.len(), 3);
    assert_eq!(all[0].action, "set_account_status");
    assert_eq!(page.entries, all[..2]);
    assert_eq!(next, all[2..]);
    let targets: Vec<_> = created
        .iter()
        .map(|e| e.target_account_id.clone())
        .collect();
    assert_eq!(targets, [Some(b.id), Some(a.id)]);
    Expected::invalid("target_account_id").grpc(&bad);
    // No route writes the log: only a GET reaches it, and the API has no
    // call that changes or removes an entry.
    let audit_routes: Vec<_> = ROUTES
        .iter()
        .filter(|r| r.path.contains("audit"))
        .map(|r| (r.method, r.rpc))
        .collect();
    assert_eq!(audit_routes, [("GET", "ListAuditLog")]);
    let (status, _) = app
        .http()
        .call(
            "POST",
            "/v1/admin/audit-log",
            Some(OPERATOR_TOKEN),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, 405, "POST to the audit log");
    assert_eq!(
        audit_log(&mut admin, ListAuditLogRequest::default()).await,
        all
    );
    app.stop().await;
}
