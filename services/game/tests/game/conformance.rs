//! The REST face answers as its own OpenAPI document says: schemathesis
//! (requirements-dev.txt, installed into .venv by scripts/python-env)
//! generates requests for every operation of `/openapi.json`, valid and
//! invalid, once with a guest's credentials and once with the operator's,
//! and checks every answer against the document: its schema, its content
//! type, its status and its headers. Any failure fails the test, with
//! schemathesis' report of the request that produced it.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use skit_testkit::*;
use tokio::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `.venv`'s python, made (or brought up to requirements-dev.txt) first.
async fn python() -> PathBuf {
    let made = Command::new(root().join("scripts/python-env"))
        .stderr(Stdio::inherit())
        .output()
        .await
        .expect("scripts/python-env runs");
    assert!(made.status.success(), "scripts/python-env failed");
    PathBuf::from(String::from_utf8_lossy(&made.stdout).trim())
}

/// schemathesis over the whole document at `url`, as `token`.
async fn schemathesis(python: &std::path::Path, url: &str, token: &str) -> (bool, String) {
    let bin = python.with_file_name("schemathesis");
    let run = Command::new(bin)
        .arg("run")
        .arg(format!("{url}/openapi.json"))
        .args(["--url", url])
        .args(["--header", &format!("Authorization: Bearer {token}")])
        .args([
            "--checks",
            "response_schema_conformance,content_type_conformance,\
             status_code_conformance,response_headers_conformance",
        ])
        .args(["--phases", "examples,coverage,fuzzing"])
        .args(["--max-examples", "10", "--seed", "41", "--workers", "2"])
        // A stream that is served stays open; its headers are what a run
        // checks, so it is read no longer than this.
        .args(["--request-timeout", "5"])
        .current_dir(std::env::temp_dir())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(Duration::from_secs(600), run)
        .await
        .expect("schemathesis finished within ten minutes")
        .expect("schemathesis runs");
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_matches_the_openapi_document() {
    let python = python().await;
    let db = TestDb::sqlite();
    // Long polls answer at once, so a run waits on none.
    let game = spawn_game_with(&db, |config| config.long_poll_cap_ms = 100).await;
    let guest = game.guest("fuzzed").await;

    let (guest_ok, guest_report) = schemathesis(&python, &game.url(), &guest.token).await;
    let (operator_ok, operator_report) = schemathesis(&python, &game.url(), OPERATOR_TOKEN).await;

    assert!(guest_ok, "as a guest:\n{guest_report}");
    assert!(operator_ok, "as the operator:\n{operator_report}");
    game.stop().await;
}
