//! Credentials and the revocation feed, on both databases: found by hash,
//! refresh tokens used once (a second use revokes their session), every
//! revocation on the feed, the operator credential replaced.

#![allow(clippy::unwrap_used)]

use skit_store::on_both_databases;
use skit_store::testing::TestDb;
use skit_store::{
    AccountId, AccountKind, CredentialKind, NewAccount, NewCredential, RefreshRefusal, Scope,
    Store, token_hash,
};
use time::{Duration, OffsetDateTime};

use crate::helpers::account;

on_both_databases!(
    an_account_is_created_with_its_credentials,
    a_refresh_token_rotates_once,
    a_reused_refresh_token_revokes_its_session,
    an_expired_refresh_token_buys_nothing,
    live_sessions_are_listed,
    revocations_reach_the_feed,
    the_operator_credential_is_replaced,
    an_operator_credential_is_phased_out_with_an_overlap,
);

fn credential(kind: CredentialKind, secret: &str, session: Option<&str>) -> NewCredential {
    NewCredential {
        kind,
        token_hash: token_hash(secret),
        session_id: session.map(Into::into),
        scopes: Vec::new(),
        label: None,
        expires_at: Some(OffsetDateTime::now_utc() + Duration::hours(1)),
    }
}

/// A session `s` of a new account: access `<s>-a`, refresh `<s>-r`.
async fn session(store: &Store, s: &str) -> AccountId {
    let owner = account(store, "owner").await;
    store
        .add_credentials(
            owner.id,
            &[
                credential(CredentialKind::Access, &format!("{s}-a"), Some(s)),
                credential(CredentialKind::Refresh, &format!("{s}-r"), Some(s)),
            ],
        )
        .await
        .unwrap();
    owner.id
}

async fn an_account_is_created_with_its_credentials(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let key = NewCredential {
        scopes: vec![Scope::Play],
        label: Some("fleet".into()),
        expires_at: None,
        ..credential(CredentialKind::ApiKey, "key-1", None)
    };
    let new = NewAccount {
        name: "robot".into(),
        kind: AccountKind::Bot,
        token_hash: token_hash("key-1"),
    };

    let (bot, stored) = store
        .create_account_with_credentials(new, &[key])
        .await
        .unwrap();

    let found = store
        .credential_by_hash(&token_hash("key-1"))
        .await
        .unwrap();
    assert_eq!(found.as_ref(), stored.first());
    let found = found.unwrap();
    assert_eq!(found.account_id, bot.id);
    assert_eq!(found.scopes, vec![Scope::Play]);
    assert_eq!(found.label.as_deref(), Some("fleet"));
    assert!(found.is_live(OffsetDateTime::now_utc()));
    let twin = NewAccount {
        name: "twin".into(),
        kind: AccountKind::Bot,
        token_hash: token_hash("other"),
    };
    let taken = store
        .create_account_with_credentials(twin, &[credential(CredentialKind::ApiKey, "key-1", None)])
        .await;
    assert!(
        matches!(taken, Err(skit_store::Error::TokenTaken)),
        "{taken:?}"
    );
    let bots = store.accounts(Some(AccountKind::Bot), 10).await.unwrap();
    assert_eq!(bots.len(), 1, "the refused account was not created");
}

async fn a_refresh_token_rotates_once(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let owner = session(&store, "s1").await;

    let (used, issued) = store
        .rotate_refresh(
            &token_hash("s1-r"),
            credential(CredentialKind::Access, "s1-a2", None),
            credential(CredentialKind::Refresh, "s1-r2", None),
        )
        .await
        .unwrap()
        .unwrap();

    assert_eq!(used.account_id, owner);
    assert!(issued.iter().all(|c| c.session_id.as_deref() == Some("s1")));
    let old = store
        .credential_by_hash(&token_hash("s1-r"))
        .await
        .unwrap()
        .unwrap();
    assert!(old.revoked_at.is_some(), "used up");
    let next = store
        .credential_by_hash(&token_hash("s1-r2"))
        .await
        .unwrap()
        .unwrap();
    assert!(next.revoked_at.is_none());
    let unknown = store
        .rotate_refresh(
            &token_hash("nobody"),
            credential(CredentialKind::Access, "x-a", None),
            credential(CredentialKind::Refresh, "x-r", None),
        )
        .await
        .unwrap();
    assert_eq!(unknown.unwrap_err(), RefreshRefusal::Unknown);
}

async fn a_reused_refresh_token_revokes_its_session(db: &TestDb) {
    let store = db.connect().await.unwrap();
    session(&store, "s1").await;
    let rotate = |secret: &'static str, next: &'static str| {
        let store = store.clone();
        async move {
            store
                .rotate_refresh(
                    &token_hash(secret),
                    credential(CredentialKind::Access, &format!("{next}-a"), None),
                    credential(CredentialKind::Refresh, &format!("{next}-r"), None),
                )
                .await
                .unwrap()
        }
    };
    rotate("s1-r", "n1").await.unwrap();

    let reused = rotate("s1-r", "n2").await;

    assert_eq!(reused.unwrap_err(), RefreshRefusal::Reused);
    for secret in ["s1-a", "n1-a", "n1-r"] {
        let c = store
            .credential_by_hash(&token_hash(secret))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            c.revoked_reason.as_deref(),
            Some("refresh_token_reused"),
            "{secret}"
        );
    }
    assert_eq!(
        rotate("n1-r", "n3").await.unwrap_err(),
        RefreshRefusal::Revoked
    );
    assert!(
        store
            .credential_by_hash(&token_hash("n2-r"))
            .await
            .unwrap()
            .is_none()
    );
}

async fn an_expired_refresh_token_buys_nothing(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let owner = account(&store, "owner").await;
    let expired = NewCredential {
        expires_at: Some(OffsetDateTime::now_utc() - Duration::seconds(1)),
        ..credential(CredentialKind::Refresh, "old-r", Some("s"))
    };
    store.add_credentials(owner.id, &[expired]).await.unwrap();

    let refused = store
        .rotate_refresh(
            &token_hash("old-r"),
            credential(CredentialKind::Access, "new-a", None),
            credential(CredentialKind::Refresh, "new-r", None),
        )
        .await
        .unwrap();

    assert_eq!(refused.unwrap_err(), RefreshRefusal::Expired);
    assert!(
        store
            .credential_by_hash(&token_hash("new-a"))
            .await
            .unwrap()
            .is_none()
    );
}

async fn live_sessions_are_listed(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let owner = session(&store, "s1").await;
    store
        .add_credentials(
            owner,
            &[credential(CredentialKind::Refresh, "s2-r", Some("s2"))],
        )
        .await
        .unwrap();
    store
        .rotate_refresh(
            &token_hash("s1-r"),
            credential(CredentialKind::Access, "s1-a2", None),
            credential(CredentialKind::Refresh, "s1-r2", None),
        )
        .await
        .unwrap()
        .unwrap();
    store.revoke_session(owner, "s2", "logout").await.unwrap();

    let sessions = store
        .sessions_of(owner, OffsetDateTime::now_utc())
        .await
        .unwrap();

    assert_eq!(sessions.len(), 1, "{sessions:?}");
    let s1 = &sessions[0];
    assert_eq!(s1.session_id, "s1");
    assert!(s1.refreshed_at > s1.created_at, "{s1:?}");
    let current = store
        .credential_by_hash(&token_hash("s1-r2"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(s1.expires_at, current.expires_at);
    let stranger = account(&store, "stranger").await;
    let revoked = store
        .revoke_session(stranger.id, "s1", "revoked")
        .await
        .unwrap();
    assert!(revoked.is_empty(), "not the stranger's session");
}

async fn revocations_reach_the_feed(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let owner = session(&store, "s1").await;
    let start = store.last_revocation().await.unwrap();
    let since = OffsetDateTime::now_utc() + Duration::hours(1);

    store.revoke_session(owner, "s1", "logout").await.unwrap();
    store
        .revoke_account_credentials(owner, "disabled")
        .await
        .unwrap();

    let feed = store.revocations_since(start, since).await.unwrap();
    let hashes: Vec<_> = feed.iter().filter_map(|r| r.token_hash.clone()).collect();
    assert_eq!(hashes, vec![token_hash("s1-a"), token_hash("s1-r")]);
    let accounts: Vec<_> = feed.iter().filter_map(|r| r.account_id).collect();
    assert_eq!(accounts, vec![owner]);
    let later = store.last_revocation().await.unwrap();
    assert!(
        store
            .revocations_since(later, since)
            .await
            .unwrap()
            .is_empty()
    );
    let by_time = store
        .revocations_since(later, OffsetDateTime::now_utc() - Duration::minutes(1))
        .await
        .unwrap();
    assert_eq!(by_time.len(), feed.len(), "rows re-read by time");
}

async fn the_operator_credential_is_replaced(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let operator = account(&store, "operator").await;
    let first = NewCredential {
        expires_at: None,
        ..credential(CredentialKind::Operator, "op-1", None)
    };
    let second = NewCredential {
        token_hash: token_hash("op-2"),
        ..first.clone()
    };
    assert_eq!(
        store
            .replace_operator_credential(operator.id, &first)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        store
            .replace_operator_credential(operator.id, &first)
            .await
            .unwrap(),
        0
    );

    let replaced = store
        .replace_operator_credential(operator.id, &second)
        .await
        .unwrap();

    assert_eq!(replaced, 1);
    let old = store
        .credential_by_hash(&token_hash("op-1"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(old.revoked_reason.as_deref(), Some("operator_rotated"));
    let new = store
        .credential_by_hash(&token_hash("op-2"))
        .await
        .unwrap()
        .unwrap();
    assert!(new.revoked_at.is_none());
}

async fn an_operator_credential_is_phased_out_with_an_overlap(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let operator = account(&store, "operator").await;
    let first = NewCredential {
        expires_at: None,
        ..credential(CredentialKind::Operator, "op-1", None)
    };
    let second = NewCredential {
        token_hash: token_hash("op-2"),
        ..first.clone()
    };
    let now = OffsetDateTime::now_utc();
    let until = now + Duration::hours(1);
    store
        .phase_out_operator_credentials(operator.id, &first, until)
        .await
        .unwrap();
    let feed = store.last_revocation().await.unwrap();

    let phased = store
        .phase_out_operator_credentials(operator.id, &second, until)
        .await
        .unwrap();

    assert_eq!(phased, 1);
    let old = store
        .credential_by_hash(&token_hash("op-1"))
        .await
        .unwrap()
        .unwrap();
    assert!(old.revoked_at.is_none(), "still valid during the overlap");
    assert!(!old.expired(now + Duration::minutes(59)));
    assert!(old.expired(until + Duration::seconds(1)));
    let new = store
        .credential_by_hash(&token_hash("op-2"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(new.expires_at, None);
    let feed_after = store.last_revocation().await.unwrap();
    assert!(feed_after > feed, "the phased-out hash is on the feed");

    // Again with a later end: the earlier one holds, nothing changes.
    let again = store
        .phase_out_operator_credentials(operator.id, &second, until + Duration::hours(1))
        .await
        .unwrap();
    assert_eq!(again, 0);
    let old = store
        .credential_by_hash(&token_hash("op-1"))
        .await
        .unwrap()
        .unwrap();
    assert!(old.expired(until + Duration::seconds(1)));
    assert_eq!(store.last_revocation().await.unwrap(), feed_after);
}
