//! The Python example bot (`examples/python/skit_bot.py`) against the real
//! service over REST: one bot account holds every seat of two games, the
//! script plays them with `--until-done` and must leave both over with a
//! loser.

use std::process::Stdio;
use std::time::Duration;

use skit_proto::v1::{AccountKind, CreateAccountRequest};
use skit_testkit::{python_bot_script, python3};
use tokio::process::Command;

use crate::helpers::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_bot_plays_its_games_to_the_end() {
    let Some(python) = python3() else {
        eprintln!("SKIPPED: python3 is not installed, so the Python example bot cannot run");
        return;
    };
    // Arrange: a bot account (made by the operator) in every seat of a
    // three-seat and a two-seat game
    let service = spawn_service().await;
    let bot = service
        .operator()
        .await
        .accounts
        .create_account(CreateAccountRequest {
            name: "py".into(),
            kind: AccountKind::Bot as i32,
            ..Default::default()
        })
        .await
        .expect("bot account")
        .into_inner();
    let games = [
        service
            .game("skitgubbe", &vec![bot.account_id.clone(); 3])
            .await,
        service
            .game("two-player", &vec![bot.account_id.clone(); 2])
            .await,
    ];

    // Act: the script, until its games are done
    let child = Command::new(python)
        .arg(python_bot_script())
        .args(["--url", &service.url, "--wait-ms", "1000", "--until-done"])
        .env("SKIT_TOKEN", &bot.token)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start python3");
    let output = tokio::time::timeout(Duration::from_secs(180), child.wait_with_output())
        .await
        .expect("the bot finished in time")
        .expect("the bot ran");

    // Assert: it exited cleanly, both games are over with a loser
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the bot failed: {stderr}");
    for game in &games {
        let view = service.spectate(game).await;
        assert!(is_over(&view), "{game} is not over; bot said: {stderr}");
        let result = view.result.expect("result");
        assert!(
            result.loser.is_some() || result.drawn_by_limit,
            "{result:?}"
        );
        assert!(view.version > 20, "only {} events", view.version);
    }
    assert!(stderr.contains("no unfinished games"), "{stderr}");
}
