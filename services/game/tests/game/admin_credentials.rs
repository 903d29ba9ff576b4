//! An account's credentials as operators see and revoke them, on SQLite
//! and Postgres: listed without secrets, revoked one at a time (audited)
//! or all at once when the account is disabled.

use skit_proto::v1::{
    AccountKind, AccountStatus, ListAuditLogRequest, ListCredentialsRequest,
    RevokeCredentialRequest,
};
use skit_store::{AccountId, CredentialKind, NewCredential, Scope, token_hash};
use skit_testkit::TestDb;
use skit_testkit::*;
use tonic::Code;

use crate::admin::{audit_log, set_status};

on_both_databases!(credentials_are_listed_and_revoked);

/// Gives the account two API keys, as their owner would have made them.
async fn two_keys(db: &TestDb, account: &str) {
    let store = db.connect().await.expect("the same database");
    let id = AccountId(account.parse().expect("an id"));
    let key = |label: &str| NewCredential {
        kind: CredentialKind::ApiKey,
        token_hash: token_hash(&format!("secret-{account}-{label}")),
        session_id: None,
        scopes: vec![Scope::Play, Scope::Read],
        label: Some(label.into()),
        expires_at: None,
    };
    store
        .add_credentials(id, &[key("laptop"), key("server")])
        .await
        .expect("keys");
}

fn revoke(account: &str, credential: &str, reason: &str) -> RevokeCredentialRequest {
    RevokeCredentialRequest {
        account_id: account.into(),
        credential_id: credential.into(),
        reason: reason.into(),
    }
}

async fn credentials_are_listed_and_revoked(db: &TestDb) {
    // Arrange
    let app = spawn_game(db).await;
    let bot = app.account("keyholder", AccountKind::Bot).await;
    two_keys(db, &bot.id).await;
    let mut admin = app.admin().await;
    let list = |id: &str| {
        authed(
            ListCredentialsRequest {
                account_id: id.into(),
            },
            OPERATOR_TOKEN,
        )
    };
    let before = admin
        .list_credentials(list(&bot.id))
        .await
        .expect("list")
        .into_inner()
        .credentials;
    let keys: Vec<_> = before.iter().filter(|c| c.kind == "api_key").collect();
    let laptop = keys
        .iter()
        .find(|c| c.label.as_deref() == Some("laptop"))
        .expect("the laptop key");

    // Act
    let revoked = admin
        .revoke_credential(authed(
            revoke(&bot.id, &laptop.credential_id, "leaked"),
            OPERATOR_TOKEN,
        ))
        .await
        .expect("revoke")
        .into_inner();
    let again = admin
        .revoke_credential(authed(
            revoke(&bot.id, &laptop.credential_id, "again"),
            OPERATOR_TOKEN,
        ))
        .await
        .expect_err("already revoked");
    set_status(&mut admin, &bot.id, AccountStatus::Disabled, "abuse")
        .await
        .expect("disable");
    let after = admin
        .list_credentials(list(&bot.id))
        .await
        .expect("list")
        .into_inner()
        .credentials;

    // Assert
    assert!(keys.len() >= 2, "{before:?}");
    assert!(keys.iter().all(|c| c.revoked_at.is_none()));
    assert_eq!(laptop.scopes, ["play", "read"]);
    let shown = format!("{before:?}");
    assert!(!shown.contains("secret-"), "no secret is shown: {shown}");
    assert_eq!(revoked.revoked_reason.as_deref(), Some("leaked"));
    assert!(revoked.revoked_at.is_some());
    assert_eq!(again.code(), Code::NotFound);
    assert!(after.iter().all(|c| c.revoked_at.is_some()), "{after:?}");
    let server = after
        .iter()
        .find(|c| c.label.as_deref() == Some("server"))
        .expect("the server key");
    assert_eq!(server.revoked_reason.as_deref(), Some("account_disabled"));
    let log = audit_log(
        &mut admin,
        ListAuditLogRequest {
            action: "revoke_credential".into(),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(log.len(), 1, "the refused second revocation left none");
    assert_eq!(log[0].reason, "leaked");
    let missing = admin
        .list_credentials(list("987654"))
        .await
        .expect_err("no such account");
    assert_eq!(missing.code(), Code::NotFound);
    app.stop().await;
}
