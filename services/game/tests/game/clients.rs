//! docs/clients.md run as written against a fresh game service: the
//! TypeScript client (protoc-gen-es, Connect's gRPC-Web transport, under
//! node) and the Python one (grpcio-tools) are generated from the protos,
//! and each creates a guest and a game through the service. Each block
//! after its `<!-- clients:… -->` marker goes to `bash -euo pipefail` from
//! the repository root with only `SKIT_URL` set; the game it prints must
//! exist, seating the guest it made.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use skit_proto::v1::{GetViewRequest, Phase, View};
use skit_testkit::*;
use tokio::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The shell text of the first ```sh block after `marker`.
fn block(marker: &str) -> String {
    let path = root().join("docs/clients.md");
    let doc = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let (_, after) = doc
        .split_once(marker)
        .unwrap_or_else(|| panic!("docs/clients.md has no {marker} marker"));
    let (_, block) = after
        .split_once("```sh\n")
        .expect("a ```sh block after the marker");
    let (script, _) = block.split_once("\n```").expect("the block ends with ```");
    script.to_owned()
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
        .unwrap_or_else(|e| panic!("no game {id}: {e}"))
        .into_inner()
}

/// Runs the block after `marker` against a fresh service, and checks the
/// game it printed holds `name` in seat 0.
async fn generated_client_plays(marker: &str, name: &str) {
    let db = TestDb::sqlite();
    let game = spawn_game(&db).await;

    let run = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &block(marker)])
        .current_dir(root())
        .env("SKIT_URL", game.url())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .output();
    // The first run installs the tools (npm ci, pip), hence the minutes.
    let output = tokio::time::timeout(Duration::from_secs(600), run)
        .await
        .expect("the walkthrough finished")
        .expect("bash runs");

    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{marker} failed ({}):\n{stdout}\n{stderr}",
        output.status
    );
    let printed = stdout.lines().last().unwrap_or_default();
    let words: Vec<&str> = printed.split(' ').collect();
    let [game_word, seat, phase] = words.as_slice() else {
        panic!("not `game=… seat=… phase=…`: {printed}");
    };
    assert_eq!(*seat, "seat=0", "{printed}");
    assert_eq!(*phase, "phase=PHASE_ONE", "{printed}");
    let id = game_word.strip_prefix("game=").expect("game=");
    let view = spectate(&game, id).await;
    assert_eq!(view.phase, Phase::One as i32);
    assert_eq!(view.seats[0].name.as_deref(), Some(name), "{view:?}");
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typescript_client_generated_from_the_protos_plays_over_grpc_web() {
    generated_client_plays("<!-- clients:typescript -->", "ts-client").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_client_generated_from_the_protos_plays_over_grpc() {
    generated_client_plays("<!-- clients:python -->", "py-client").await;
}
