//! README.md's curl walkthrough, run as written against a fresh game
//! service: the block after the `<!-- walkthrough` marker goes to
//! `bash -euo pipefail` with only `SKIT_URL` set, and curl fails on any
//! HTTP error (a `.curlrc` with `fail-with-body`), so a request the
//! service refuses fails the test with the service's answer. Then the game
//! the walkthrough left in `$G` must hold both guests and show its one move.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use skit_proto::v1::{GetViewRequest, View};
use skit_testkit::*;
use tokio::process::Command;

const MARKER: &str = "<!-- walkthrough";

/// The walkthrough's shell text: the first ```sh block after the marker.
fn walkthrough() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let readme = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let (_, after) = readme
        .split_once(MARKER)
        .unwrap_or_else(|| panic!("README.md has no {MARKER} marker before its walkthrough"));
    let (_, block) = after
        .split_once("```sh\n")
        .expect("a ```sh block after the walkthrough marker");
    let (script, _) = block
        .split_once("\n```")
        .expect("the walkthrough's block ends with ```");
    script.to_owned()
}

/// Panics, saying what to install, unless `tool` runs.
fn require(tool: &str) {
    let runs = std::process::Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        runs,
        "the README walkthrough needs `{tool}`, which is not installed \
         (Debian/Ubuntu: apt-get install {tool}; .ci/run installs it)"
    );
}

/// A `.curlrc` that makes every curl of the walkthrough fail on an HTTP
/// error and say why, in `dir`.
fn strict_curl(dir: &Path) {
    std::fs::write(dir.join(".curlrc"), "fail-with-body\nshow-error\n").expect("write .curlrc");
}

async fn spectate(game: &GameService, id: &str) -> View {
    game.games()
        .await
        .get_view(authed(
            GetViewRequest {
                game_id: id.into(),
                spectator: true,
                ..Default::default()
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("spectator view")
        .into_inner()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_readme_walkthrough_runs_as_written() {
    require("curl");
    require("jq");
    let db = TestDb::sqlite();
    let game = spawn_game(&db).await;
    let curl_home = tempfile::tempdir().expect("temp dir");
    strict_curl(curl_home.path());
    // The walkthrough as written, then where it left its game.
    let script = format!("{}\necho \"walkthrough-game=$G\"\n", walkthrough());

    let run = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &script])
        .env("SKIT_URL", game.url())
        .env("CURL_HOME", curl_home.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the walkthrough finished within a minute")
        .expect("bash runs");

    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the README walkthrough failed ({}):\n{stdout}\n{stderr}",
        output.status
    );
    let lines: Vec<&str> = stdout.lines().collect();
    let id = lines
        .last()
        .and_then(|l| l.strip_prefix("walkthrough-game="))
        .unwrap_or_else(|| panic!("no game id at the end:\n{stdout}"));
    let view = spectate(&game, id).await;
    let names: Vec<_> = view.seats.iter().map(|s| s.name.as_deref()).collect();
    assert_eq!(
        names,
        [Some("ann"), Some("bo")],
        "the creator and the joiner"
    );
    let last = view.history.last().expect("a history");
    assert_eq!(view.history.len(), 2, "the deal and the one move: {view:?}");
    assert!(last.seat.is_some(), "the move is a seat's action: {last:?}");
    // What the walkthrough printed last is that move, as everyone sees it.
    let printed: Value = serde_json::from_str(lines[lines.len() - 2])
        .unwrap_or_else(|e| panic!("the last event is not JSON ({e}):\n{stdout}"));
    let version = view.version.to_string();
    assert_eq!(
        printed["version"].as_str(),
        Some(version.as_str()),
        "{stdout}"
    );
    assert_eq!(
        printed["seat"].as_u64(),
        last.seat.map(u64::from),
        "{stdout}"
    );
    assert_eq!(printed["cards"], serde_json::json!(last.cards), "{stdout}");
    game.stop().await;
}
