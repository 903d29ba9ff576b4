//! An operator resets a person's password, on SQLite and Postgres: the
//! old password and every session end, the new one (given or picked by
//! the service) logs in, and the reset is audited; accounts without a
//! password, unknown accounts, bad passwords and non-operators change
//! nothing.

use skit_proto::v1::{
    ListAuditLogRequest, LoginRequest, RegisterRequest, ResetPasswordRequest, WhoAmIRequest,
};
use skit_testkit::{
    Expected, GameService, OPERATOR_TOKEN, TestDb, authed, on_both_databases, spawn_game,
};
use tonic::Code;

use crate::admin::audit_log;

on_both_databases!(
    a_reset_password_signs_the_person_out_everywhere,
    only_a_password_account_is_reset,
);

const OLD: &str = "correct horse battery";

fn reset(account: &str, new_password: Option<&str>, reason: &str) -> ResetPasswordRequest {
    ResetPasswordRequest {
        account_id: account.into(),
        new_password: new_password.map(Into::into),
        reason: reason.into(),
    }
}

async fn login(app: &GameService, name: &str, password: &str) -> Result<String, tonic::Status> {
    let req = LoginRequest {
        name: name.into(),
        password: password.into(),
    };
    let answer = app.accounts().await.login(req).await?.into_inner();
    Ok(answer.session.expect("a session").access_token)
}

async fn reset_entries(app: &GameService) -> usize {
    let mut admin = app.admin().await;
    let request = ListAuditLogRequest {
        action: "reset_password".into(),
        ..Default::default()
    };
    audit_log(&mut admin, request).await.len()
}

async fn a_reset_password_signs_the_person_out_everywhere(db: &TestDb) {
    // Arrange: Ann registered, and signed in a second time
    let app = spawn_game(db).await;
    let registered = app
        .accounts()
        .await
        .register(RegisterRequest {
            name: "Ann".into(),
            password: OLD.into(),
        })
        .await
        .expect("register")
        .into_inner();
    let first = registered.session.expect("a session").access_token;
    let second = login(&app, "ann", OLD).await.expect("log in");
    let mut admin = app.admin().await;

    // Act: the operator picks her a password, then sets one she asked for
    let picked = admin
        .reset_password(authed(
            reset(&registered.account_id, None, "lost her password"),
            OPERATOR_TOKEN,
        ))
        .await
        .expect("reset")
        .into_inner();
    let given = admin
        .reset_password(authed(
            reset(
                &registered.account_id,
                Some("her own new phrase"),
                "asked again",
            ),
            OPERATOR_TOKEN,
        ))
        .await
        .expect("reset to a given password")
        .into_inner();

    // Assert: both sessions are over, only the last password logs in
    assert!(picked.generated_password.len() >= 8, "{picked:?}");
    assert!(given.generated_password.is_empty(), "{given:?}");
    assert_eq!(given.account.expect("the account").name, "Ann");
    for token in [&first, &second] {
        let refused = app
            .accounts()
            .await
            .who_am_i(authed(WhoAmIRequest {}, token))
            .await
            .expect_err("a session from before the reset");
        Expected::new(Code::Unauthenticated, "token_revoked").grpc(&refused);
    }
    for stale in [OLD, picked.generated_password.as_str()] {
        let refused = login(&app, "Ann", stale)
            .await
            .expect_err("a replaced password");
        Expected::new(Code::Unauthenticated, "wrong_password").grpc(&refused);
    }
    let token = login(&app, "Ann", "her own new phrase")
        .await
        .expect("the new password logs in");
    let me = app
        .accounts()
        .await
        .who_am_i(authed(WhoAmIRequest {}, &token))
        .await
        .expect("the new session works")
        .into_inner();
    assert_eq!(me.account_id, registered.account_id);
    assert_eq!(reset_entries(&app).await, 2);
    app.stop().await;
}

async fn only_a_password_account_is_reset(db: &TestDb) {
    // Arrange: a guest (no password), and a registered person
    let app = spawn_game(db).await;
    let guest = app.guest("gus").await;
    let person = app
        .accounts()
        .await
        .register(RegisterRequest {
            name: "Bob".into(),
            password: OLD.into(),
        })
        .await
        .expect("register")
        .into_inner();
    let mut admin = app.admin().await;

    // Act
    let no_password = admin
        .reset_password(authed(reset(&guest.id, None, "why not"), OPERATOR_TOKEN))
        .await
        .expect_err("a guest has no password");
    let unknown = admin
        .reset_password(authed(reset("987654", None, "typo"), OPERATOR_TOKEN))
        .await
        .expect_err("no such account");
    let short = admin
        .reset_password(authed(
            reset(&person.account_id, Some("short"), "too short"),
            OPERATOR_TOKEN,
        ))
        .await
        .expect_err("a password too short");
    let unexplained = admin
        .reset_password(authed(reset(&person.account_id, None, ""), OPERATOR_TOKEN))
        .await
        .expect_err("no reason");
    let by_a_guest = admin
        .reset_password(authed(
            reset(&person.account_id, None, "mine now"),
            &guest.token,
        ))
        .await
        .expect_err("not an operator");

    // Assert: specific refusals; Bo's password and the audit log unchanged
    Expected::new(Code::FailedPrecondition, "no_password").grpc(&no_password);
    assert_eq!(unknown.code(), Code::NotFound, "{unknown:?}");
    Expected::invalid("new_password").grpc(&short);
    Expected::invalid("reason").grpc(&unexplained);
    assert_eq!(by_a_guest.code(), Code::PermissionDenied, "{by_a_guest:?}");
    login(&app, "Bob", OLD)
        .await
        .expect("Bob's password still works");
    assert_eq!(reset_entries(&app).await, 0);
    app.stop().await;
}
