//! `skit admin` as an operator runs it: the built binary against the real
//! game service (started here on a fresh database), reading what it prints.

use std::process::{Command, Output};

use serde_json::Value;
use skit_proto::v1::AccountKind;
use skit_testkit::{GameService, OPERATOR_TOKEN, TestDb, on_both_databases, spawn_game};

on_both_databases!(an_operator_finds_disables_and_audits_an_account);

/// `skit admin <args>` against `game` with `token`; run off the runtime
/// the service answers on.
async fn skit_admin(game: &GameService, token: &str, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skit"));
    command
        .args(["admin", "--game-url", &game.url()])
        .args(args)
        .env("SKIT_OPERATOR_TOKEN", token);
    tokio::task::spawn_blocking(move || command.output().expect("skit runs"))
        .await
        .expect("skit finished")
}

fn text(output: &Output) -> String {
    assert!(output.status.success(), "skit admin failed: {output:?}");
    String::from_utf8(output.stdout.clone()).expect("text")
}

async fn an_operator_finds_disables_and_audits_an_account(db: &TestDb) {
    // Arrange
    let game = spawn_game(db).await;
    let mallory = game.account("Mallory", AccountKind::Player).await;
    let guest = game.guest("nosy").await;

    // Act: find her, disable her, read the log.
    let found = text(
        &skit_admin(
            &game,
            OPERATOR_TOKEN,
            &["accounts", "find", "--name", "MALLORY"],
        )
        .await,
    );
    let disabled = text(
        &skit_admin(
            &game,
            OPERATOR_TOKEN,
            &["disable", &mallory.id, "--reason", "cheating"],
        )
        .await,
    );
    let log = text(
        &skit_admin(
            &game,
            OPERATOR_TOKEN,
            &["audit", "--account", &mallory.id, "--json"],
        )
        .await,
    );
    let refused = skit_admin(&game, &guest.token, &["accounts", "show", &mallory.id]).await;

    // Assert
    assert!(
        found.contains(&mallory.id) && found.contains("Mallory"),
        "{found}"
    );
    assert!(found.contains("active"), "{found}");
    assert!(disabled.contains("disabled (cheating)"), "{disabled}");
    let log: Value = serde_json::from_str(&log).expect("JSON");
    assert_eq!(log["entries"][0]["action"], "set_account_status");
    assert_eq!(log["entries"][0]["reason"], "cheating");
    assert_eq!(log["entries"][0]["details"]["status"], "disabled");
    assert!(!refused.status.success());
    let error = String::from_utf8_lossy(&refused.stderr);
    assert!(error.contains("PermissionDenied"), "{error}");
    game.stop().await;
}
