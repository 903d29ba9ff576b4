//! The audit log: an operator action and its entry commit together; the
//! log lists newest first by operator, action and target; and the
//! database itself refuses to change or remove an entry.

#![allow(clippy::unwrap_used)]

use serde_json::json;
use skit_store::on_both_databases;
use skit_store::testing::TestDb;
use skit_store::{
    AccountKind, AccountStatus, AuditFilter, CredentialKind, NewAccount, NewAudit, NewCredential,
    Scope, Store, Voided, token_hash,
};
use sqlx::Connection;

use crate::helpers::{account, game_with_seats};

on_both_databases!(
    a_status_change_commits_with_its_entry,
    a_void_is_recorded_once_and_never_after_the_end,
    entries_cannot_be_changed_or_removed,
);

async fn operator(store: &Store) -> skit_store::Account {
    store
        .create_account(NewAccount {
            name: "operator".into(),
            kind: AccountKind::Operator,
            token_hash: token_hash("operator"),
        })
        .await
        .unwrap()
}

fn audit(operator: &skit_store::Account, action: &'static str) -> NewAudit {
    NewAudit {
        operator: operator.id,
        action,
        target_account: None,
        target_game: None,
        reason: "why".into(),
        details: json!({}),
    }
}

async fn a_status_change_commits_with_its_entry(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let op = operator(&store).await;
    let player = account(&store, "p").await;
    let key = NewCredential {
        kind: CredentialKind::ApiKey,
        token_hash: token_hash("players-key"),
        session_id: None,
        scopes: vec![Scope::Play],
        label: None,
        expires_at: None,
    };
    store.add_credentials(player.id, &[key]).await.unwrap();
    let feed_before = store.last_revocation().await.unwrap();
    let record = NewAudit {
        target_account: Some(player.id),
        ..audit(&op, "set_account_status")
    };

    let changed = store
        .set_account_status(player.id, AccountStatus::Banned, "spam", &record)
        .await
        .unwrap()
        .unwrap();
    let refused = store
        .set_account_status(op.id, AccountStatus::Banned, "x", &record)
        .await
        .unwrap();

    assert_eq!(changed.status, AccountStatus::Banned);
    assert_eq!(changed.status_reason, "spam");
    assert!(refused.is_none(), "an operator account keeps its status");
    let log = store.audit_log(&AuditFilter::default(), 10).await.unwrap();
    assert_eq!(log.len(), 1, "the refused change left no entry");
    assert_eq!(log[0].target_account, Some(player.id));
    assert_eq!(log[0].details["status"], "banned");
    assert_eq!(log[0].details["previous"], "active");
    assert_eq!(log[0].details["credentials_revoked"], 1);
    let key = store.credential_by_hash(&token_hash("players-key")).await;
    let key = key.unwrap().unwrap();
    assert_eq!(key.revoked_reason.as_deref(), Some("account_disabled"));
    let feed = store
        .revocations_since(feed_before, time::OffsetDateTime::now_utc())
        .await
        .unwrap();
    assert!(
        feed.iter().any(|r| r.account_id == Some(player.id)),
        "{feed:?}"
    );
    let by_action = AuditFilter {
        action: Some("void_game".into()),
        ..AuditFilter::default()
    };
    assert!(store.audit_log(&by_action, 10).await.unwrap().is_empty());
}

async fn a_void_is_recorded_once_and_never_after_the_end(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let op = operator(&store).await;
    let game = game_with_seats(&store, 2).await;
    let record = NewAudit {
        target_game: Some(game.id),
        ..audit(&op, "void_game")
    };

    let first = store.void_game(game.id, &record).await.unwrap();
    store.finish_game(game.id).await.unwrap();
    let after_end = store.void_game(game.id, &record).await.unwrap();

    assert_eq!(first, Voided::Voided);
    assert_eq!(after_end, Voided::AlreadyOver);
    let filter = AuditFilter {
        target_game: Some(game.id),
        ..AuditFilter::default()
    };
    assert_eq!(store.audit_log(&filter, 10).await.unwrap().len(), 1);
    assert!(!store.game(game.id).await.unwrap().unwrap().rated);
}

async fn entries_cannot_be_changed_or_removed(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let op = operator(&store).await;
    store
        .record_audit(&audit(&op, "create_account"))
        .await
        .unwrap();

    let statements = [
        "UPDATE audit_log SET reason = 'forged'",
        "DELETE FROM audit_log",
    ];
    for statement in statements {
        let refused = match db.sqlite_path() {
            Some(_) => {
                let mut c = sqlx::SqliteConnection::connect(db.url()).await.unwrap();
                sqlx::query(statement).execute(&mut c).await.map(drop)
            }
            None => {
                let mut c = sqlx::PgConnection::connect(db.url()).await.unwrap();
                sqlx::query(statement).execute(&mut c).await.map(drop)
            }
        };
        let error = refused.expect_err(statement).to_string();
        assert!(error.contains("append-only"), "{statement}: {error}");
    }
    let log = store.audit_log(&AuditFilter::default(), 10).await.unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].reason, "why");
}
