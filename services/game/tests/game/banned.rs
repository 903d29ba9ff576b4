//! A disabled or banned account signs in nowhere, on both databases: every
//! way in (Login, AuthenticateDevice, Refresh, CreateGuest's resend,
//! UpgradeGuest, CreateApiKey) answers UNAUTHENTICATED `account_disabled`,
//! and nothing issued before or around the ban works once the account is
//! enabled again, even for sign-ins racing the ban on another instance.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use serde_json::json;
use skit_proto::v1::account_service_client::AccountServiceClient;
use skit_proto::v1::{
    AccountStatus, AuthenticateDeviceRequest, CreateApiKeyRequest, CreateGuestRequest,
    LinkDeviceRequest, ListCredentialsRequest, LoginRequest, RefreshRequest, RegisterRequest,
    Session, UpgradeGuestRequest, WhoAmIRequest,
};
use skit_testkit::{
    Expected, GameService, OPERATOR_TOKEN, TestDb, authed, on_both_databases, spawn_game_with,
};
use tonic::Code;
use tonic::transport::Channel;

use crate::admin::set_status;

on_both_databases!(
    a_banned_account_signs_in_nowhere,
    sign_ins_racing_a_ban_leave_nothing_that_works,
);

const PASSWORD: &str = "correct horse battery";
const DEVICE: &str = "5c1f3a9e-2b7d-4e8a-9f01-6d2c4b8e0a17";
const GUEST_REQUEST: &str = "6f1c2a9e-4b7d-4e0a-9a51-3c8d2f7b1e44";

/// The service without rate limits: these tests sign in often from one
/// address.
async fn unlimited(db: &TestDb) -> GameService {
    spawn_game_with(db, |c| c.limits.limits = false).await
}

async fn register(accounts: &mut AccountServiceClient<Channel>, name: &str) -> (String, Session) {
    let request = RegisterRequest {
        name: name.into(),
        password: PASSWORD.into(),
    };
    let signed_in = accounts.register(request).await.expect("register");
    let signed_in = signed_in.into_inner();
    (signed_in.account_id, signed_in.session.expect("a session"))
}

fn device(id: &str) -> AuthenticateDeviceRequest {
    AuthenticateDeviceRequest {
        device_id: id.into(),
    }
}

fn refresh(session: &Session) -> RefreshRequest {
    RefreshRequest {
        refresh_token: session.refresh_token.clone(),
    }
}

fn login() -> LoginRequest {
    LoginRequest {
        name: "ada lovelace".into(),
        password: PASSWORD.into(),
    }
}

fn guest_request() -> CreateGuestRequest {
    CreateGuestRequest {
        name: Some("gus".into()),
        request_id: GUEST_REQUEST.into(),
    }
}

async fn a_banned_account_signs_in_nowhere(db: &TestDb) {
    // Arrange: a person with a session, a device and an API key, and a
    // guest made with a request id.
    let app = unlimited(db).await;
    let mut accounts = app.accounts().await;
    let mut admin = app.admin().await;
    let (ada, session) = register(&mut accounts, "Ada Lovelace").await;
    let access = session.access_token.clone();
    accounts
        .link_device(authed(
            LinkDeviceRequest {
                device_id: DEVICE.into(),
            },
            &access,
        ))
        .await
        .expect("link a device");
    let key_request = || CreateApiKeyRequest {
        label: "bot".into(),
        scopes: vec!["read".into()],
    };
    let key = accounts
        .create_api_key(authed(key_request(), &access))
        .await
        .expect("an API key")
        .into_inner()
        .token;
    let gus = accounts
        .create_guest(guest_request())
        .await
        .expect("a guest")
        .into_inner();
    set_status(&mut admin, &ada, AccountStatus::Banned, "cheating")
        .await
        .expect("ban");
    set_status(&mut admin, &gus.account_id, AccountStatus::Disabled, "spam")
        .await
        .expect("disable");

    // Act: every way in, while banned.
    let by_login = accounts.login(login()).await.map(|_| ());
    let by_rest_login = app
        .http()
        .call(
            "POST",
            "/v1/accounts/login",
            None,
            Some(json!({"name": "Ada Lovelace", "password": PASSWORD})),
        )
        .await;
    let by_device = accounts.authenticate_device(device(DEVICE)).await;
    let by_refresh = accounts.refresh(refresh(&session)).await;
    let by_key = accounts
        .create_api_key(authed(key_request(), &access))
        .await;
    let by_resend = accounts.create_guest(guest_request()).await;
    let upgrade = UpgradeGuestRequest {
        name: "Gus Grissom".into(),
        password: PASSWORD.into(),
    };
    let by_upgrade = accounts.upgrade_guest(authed(upgrade, &gus.token)).await;

    // Assert
    let disabled = Expected::new(Code::Unauthenticated, "account_disabled");
    disabled.grpc(&by_login.expect_err("login"));
    disabled.rest(&by_rest_login);
    disabled.grpc(&by_device.expect_err("device"));
    disabled.grpc(&by_refresh.expect_err("refresh"));
    disabled.grpc(&by_key.expect_err("API key"));
    disabled.grpc(&by_resend.expect_err("CreateGuest resent"));
    disabled.grpc(&by_upgrade.expect_err("upgrade"));
    // Enabled again, nothing from before the ban works; a new sign-in does.
    set_status(&mut admin, &ada, AccountStatus::Active, "")
        .await
        .expect("enable");
    for token in [&access, &key] {
        let refused = accounts
            .who_am_i(authed(WhoAmIRequest {}, token))
            .await
            .expect_err("revoked by the ban");
        Expected::new(Code::Unauthenticated, "token_revoked").grpc(&refused);
    }
    let refused = accounts.refresh(refresh(&session)).await;
    Expected::new(Code::Unauthenticated, "token_revoked").grpc(&refused.expect_err("refresh"));
    assert_eq!(live_credentials(&app, &ada).await, 0);
    let again = accounts.login(login()).await.expect("enabled").into_inner();
    let again = again.session.expect("a session").access_token;
    accounts
        .who_am_i(authed(WhoAmIRequest {}, &again))
        .await
        .expect("a session made after enabling");
    drop((accounts, admin));
    app.stop().await;
}

/// How many of the account's credentials are neither revoked nor expired.
async fn live_credentials(app: &GameService, account: &str) -> usize {
    let request = ListCredentialsRequest {
        account_id: account.into(),
    };
    let listed = app
        .admin()
        .await
        .list_credentials(authed(request, OPERATOR_TOKEN))
        .await
        .expect("list credentials")
        .into_inner();
    listed
        .credentials
        .iter()
        .filter(|c| c.revoked_at.is_none())
        .count()
}

/// Signs in as the device, and refreshes each session once, until refused
/// or until a try begun after the ban; the sessions answered, each also
/// counted in `answered` as it comes.
async fn sign_in_until_refused(
    app: &GameService,
    banned: Arc<AtomicBool>,
    answered: Arc<AtomicUsize>,
) -> Vec<Session> {
    let mut accounts = app.accounts().await;
    let mut sessions = Vec::new();
    loop {
        answered.store(sessions.len(), Ordering::SeqCst);
        let after_ban = banned.load(Ordering::SeqCst);
        let signed_in = match accounts.authenticate_device(device(DEVICE)).await {
            Ok(signed_in) => signed_in.into_inner().session.expect("a session"),
            Err(status) => {
                Expected::new(Code::Unauthenticated, "account_disabled").grpc(&status);
                return sessions;
            }
        };
        match accounts.refresh(refresh(&signed_in)).await {
            Ok(refreshed) => sessions.push(refreshed.into_inner()),
            Err(status) => {
                Expected::new(Code::Unauthenticated, "account_disabled").grpc(&status);
            }
        }
        sessions.push(signed_in);
        if after_ban {
            return sessions;
        }
    }
}

async fn sign_ins_racing_a_ban_leave_nothing_that_works(db: &TestDb) {
    // Arrange: a device's person; two instances on one database (the
    // second started once the first serves, as a second is deployed).
    let one = unlimited(db).await;
    let mut accounts = one.accounts().await;
    let (ada, session) = register(&mut accounts, "Ada Lovelace").await;
    let two = unlimited(db).await;
    let link = LinkDeviceRequest {
        device_id: DEVICE.into(),
    };
    accounts
        .link_device(authed(link, &session.access_token))
        .await
        .expect("link a device");
    let banned = Arc::new(AtomicBool::new(false));
    let app = Arc::new(two);
    let mut admin = one.admin().await;

    // Act: sign-ins through the second instance, the first banning once
    // each has been answered a few times.
    let (racers, answered): (Vec<_>, Vec<_>) = (0..8)
        .map(|_| {
            let (app, banned) = (app.clone(), banned.clone());
            let answered = Arc::new(AtomicUsize::new(0));
            let counted = answered.clone();
            let racer =
                tokio::spawn(async move { sign_in_until_refused(&app, banned, counted).await });
            (racer, answered)
        })
        .unzip();
    for _ in 0..3_000 {
        if answered.iter().all(|a| a.load(Ordering::SeqCst) >= 4) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    set_status(&mut admin, &ada, AccountStatus::Banned, "cheating")
        .await
        .expect("ban");
    banned.store(true, Ordering::SeqCst);
    let mut sessions = vec![session];
    for racer in racers {
        sessions.extend(racer.await.expect("a racer"));
    }
    set_status(&mut admin, &ada, AccountStatus::Active, "")
        .await
        .expect("enable");

    // Assert: the account is enabled, and nothing it was given works.
    assert!(
        sessions.len() > 32,
        "the sign-ins raced: {}",
        sessions.len()
    );
    assert_eq!(live_credentials(&one, &ada).await, 0);
    for session in &sessions {
        accounts
            .who_am_i(authed(WhoAmIRequest {}, &session.access_token))
            .await
            .expect_err("a session from before the ban");
    }
    drop((accounts, admin));
    one.stop().await;
    Arc::into_inner(app)
        .expect("the racers are done")
        .stop()
        .await;
}
