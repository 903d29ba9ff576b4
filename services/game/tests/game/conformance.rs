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

/// Operations that end the caller's session (a guest's upgrade replaces
/// it): run last, on their own, so every other operation is tried with a
/// live token.
const ENDING: [&str; 3] = [
    "/v1/accounts/logout",
    "/v1/accounts/me/upgrade",
    "/v1/accounts/me/sessions/{session_id}/revoke",
];

/// Which operations a run tries.
#[derive(Clone, Copy)]
enum Part {
    AllButEnding,
    Ending,
}

/// schemathesis over `part` of the document at `url`, as `token`.
async fn schemathesis(
    python: &std::path::Path,
    url: &str,
    token: &str,
    part: Part,
) -> (bool, String) {
    let bin = python.with_file_name("schemathesis");
    let config = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/game/schemathesis.toml");
    let run = Command::new(bin)
        .arg("--config-file")
        .arg(config)
        .arg("run")
        .arg(format!("{url}/openapi.json"))
        .args(["--url", url])
        .args(["--header", &format!("Authorization: Bearer {token}")])
        .args([
            "--checks",
            "response_schema_conformance,content_type_conformance,\
             status_code_conformance,response_headers_conformance",
        ])
        .args(["--max-examples", "10", "--seed", "41", "--workers", "2"])
        .args(ENDING.iter().flat_map(|path| {
            let flag = match part {
                Part::AllButEnding => "--exclude-path",
                Part::Ending => "--include-path",
            };
            [flag, path]
        }))
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
    let url = game.url();

    let runs = [
        ("as a guest", guest.token.as_str(), Part::AllButEnding),
        ("as the operator", OPERATOR_TOKEN, Part::AllButEnding),
        (
            "as a guest, the session's end",
            guest.token.as_str(),
            Part::Ending,
        ),
    ];
    for (who, token, part) in runs {
        let (ok, report) = schemathesis(&python, &url, token, part).await;
        // Shown with --no-capture (nextest: --success-output immediate).
        eprintln!("{who}:\n{report}");
        assert!(ok, "{who}:\n{report}");
    }
    game.stop().await;
}
