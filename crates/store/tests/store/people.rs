//! People's accounts: a registered name's key is held by one account, a
//! guest upgraded keeps its id, a device and an identity sign in as one
//! account each, and a refused write changes nothing.

#![allow(clippy::unwrap_used)]

use skit_store::on_both_databases;
use skit_store::testing::TestDb;
use skit_store::{AccountKind, Error, Identity, NewAccount, Registration, token_hash};

on_both_databases!(
    a_name_key_is_held_once,
    a_skeleton_is_held_once_and_old_keys_are_rekeyed,
    a_guest_becomes_a_player_keeping_its_id,
    a_device_signs_in_as_one_account,
    an_identity_signs_in_as_one_account,
);

fn new(name: &str, kind: AccountKind) -> NewAccount {
    NewAccount {
        name: name.into(),
        kind,
        token_hash: token_hash(&uuid::Uuid::new_v4().to_string()),
    }
}

/// A registration under rule 2 whose skeleton is the key itself.
fn registration(key: &str, password_hash: Option<&str>) -> Registration {
    Registration {
        name_key: key.into(),
        name_skeleton: key.into(),
        name_rule: 2,
        password_hash: password_hash.map(str::to_owned),
    }
}

async fn a_name_key_is_held_once(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let ada = store
        .register(
            new("Ada", AccountKind::Player),
            registration("ada", Some("$argon2id$x")),
        )
        .await
        .unwrap();

    let again = store
        .register(new("ADA", AccountKind::Player), registration("ada", None))
        .await;
    let found = store.person_by_name_key("ada").await.unwrap().unwrap();

    assert!(matches!(again, Err(Error::NameTaken)), "{again:?}");
    assert_eq!(found.0.id, ada.id);
    assert_eq!(found.0.name, "Ada");
    assert_eq!(found.1.as_deref(), Some("$argon2id$x"));
    assert!(store.person_by_name_key("bob").await.unwrap().is_none());
    let players = store.accounts(Some(AccountKind::Player), 10).await.unwrap();
    assert_eq!(players.len(), 1, "the refused registration created nothing");
}

async fn a_skeleton_is_held_once_and_old_keys_are_rekeyed(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let looks = |key: &str, skeleton: &str, rule| Registration {
        name_key: key.into(),
        name_skeleton: skeleton.into(),
        name_rule: rule,
        password_hash: None,
    };
    let straße = store
        .register(
            new("Straße", AccountKind::Player),
            looks("strasse", "strasse", 2),
        )
        .await
        .unwrap();
    let look_alike = store
        .register(
            new("Ѕtraße", AccountKind::Player),
            looks("ѕtrasse", "strasse", 2),
        )
        .await;
    assert!(
        matches!(look_alike, Err(Error::NameTaken)),
        "{look_alike:?}"
    );

    // Two names under rule 1, one of them new under rule 3, one whose new
    // key Straße holds.
    let old = store
        .register(new("Old", AccountKind::Player), looks("old", "old", 1))
        .await
        .unwrap();
    let clash = store
        .register(
            new("STRAẞE", AccountKind::Player),
            looks("straße", "straße", 1),
        )
        .await
        .unwrap();
    let before = store.names_before_rule(3, 10).await.unwrap();
    assert_eq!(before.len(), 3, "{before:?}");
    assert_eq!(before[0], (straße.id, "Straße".to_owned()));
    let before_rule_2 = store.names_before_rule(2, 10).await.unwrap();
    let ids: Vec<_> = before_rule_2.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, [old.id, clash.id]);

    let rekeyed = store.rekey_name(old.id, "old-3", "old-3", 3).await.unwrap();
    let kept = store
        .rekey_name(clash.id, "strasse", "strasse", 3)
        .await
        .unwrap();

    assert_eq!(rekeyed, skit_store::Rekeyed::Rekeyed);
    assert_eq!(kept, skit_store::Rekeyed::Kept);
    assert_eq!(
        store
            .person_by_name_key("old-3")
            .await
            .unwrap()
            .unwrap()
            .0
            .id,
        old.id
    );
    assert!(store.person_by_name_key("old").await.unwrap().is_none());
    let clash_found = store.person_by_name_key("straße").await.unwrap().unwrap();
    assert_eq!(clash_found.0.id, clash.id, "kept its old key");
    let left: Vec<_> = store.names_before_rule(3, 10).await.unwrap();
    assert_eq!(left, [(straße.id, "Straße".to_owned())]);
}

async fn a_guest_becomes_a_player_keeping_its_id(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let guest = store
        .create_account(new("guest-1", AccountKind::Guest))
        .await
        .unwrap();
    store
        .register(new("Bea", AccountKind::Player), registration("bea", None))
        .await
        .unwrap();

    let taken = store
        .upgrade_guest(guest.id, "BEA".into(), registration("bea", Some("h")))
        .await;
    let upgraded = store
        .upgrade_guest(guest.id, "Cid".into(), registration("cid", Some("h")))
        .await
        .unwrap()
        .unwrap();
    let twice = store
        .upgrade_guest(guest.id, "Dee".into(), registration("dee", Some("h")))
        .await
        .unwrap();

    assert!(matches!(taken, Err(Error::NameTaken)), "{taken:?}");
    assert_eq!(upgraded.id, guest.id);
    assert_eq!(upgraded.kind, AccountKind::Player);
    assert_eq!(upgraded.name, "Cid");
    assert_eq!(twice, None, "only a guest is upgraded");
    let (found, _) = store.person_by_name_key("cid").await.unwrap().unwrap();
    assert_eq!(found.id, guest.id);
}

async fn a_device_signs_in_as_one_account(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let phone = token_hash("phone");
    let created = store
        .create_device_account(new("guest-2", AccountKind::Guest), &phone)
        .await
        .unwrap();
    let other = store
        .create_account(new("other", AccountKind::Player))
        .await
        .unwrap();

    let twin = store
        .create_device_account(new("guest-3", AccountKind::Guest), &phone)
        .await;
    let found = store.account_by_device(&phone).await.unwrap().unwrap();
    let relinked = store.link_device(&phone, created.id).await;
    let stolen = store.link_device(&phone, other.id).await;
    let tablet = token_hash("tablet");
    store.link_device(&tablet, other.id).await.unwrap();

    assert!(matches!(twin, Err(Error::DeviceTaken)), "{twin:?}");
    assert_eq!(found.id, created.id);
    assert!(
        relinked.is_ok(),
        "linking again to its account is no change"
    );
    assert!(matches!(stolen, Err(Error::DeviceTaken)), "{stolen:?}");
    let on_tablet = store.account_by_device(&tablet).await.unwrap().unwrap();
    assert_eq!(on_tablet.id, other.id);
    let guests = store.accounts(Some(AccountKind::Guest), 10).await.unwrap();
    assert_eq!(guests.len(), 1, "the twin sign-in created no account");
}

async fn an_identity_signs_in_as_one_account(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let ann = Identity {
        issuer: "https://id.example",
        subject: "u-1",
    };
    let created = store
        .create_identity_account(
            new("ann", AccountKind::Player),
            registration("ann", None),
            ann,
        )
        .await
        .unwrap();

    let twin = store
        .create_identity_account(
            new("ann-2", AccountKind::Player),
            registration("ann-2", None),
            ann,
        )
        .await;
    let name_clash = store
        .create_identity_account(
            new("Ann", AccountKind::Player),
            registration("ann", None),
            Identity {
                subject: "u-2",
                ..ann
            },
        )
        .await;
    let elsewhere = Identity {
        issuer: "https://other.example",
        ..ann
    };

    assert!(matches!(twin, Err(Error::IdentityTaken)), "{twin:?}");
    assert!(
        matches!(name_clash, Err(Error::NameTaken)),
        "{name_clash:?}"
    );
    let found = store.account_by_identity(ann).await.unwrap().unwrap();
    assert_eq!(found.id, created.id);
    assert!(
        store
            .account_by_identity(elsewhere)
            .await
            .unwrap()
            .is_none()
    );
    let players = store.accounts(Some(AccountKind::Player), 10).await.unwrap();
    assert_eq!(players.len(), 1, "refused sign-ins created nothing");
}
