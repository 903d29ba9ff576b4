//! The Python example bot (`examples/python/skit_bot.py`) as its guide
//! says to run it, against a local Skitgubbe (game service, matchmaker and
//! house bots on SQLite in a fresh folder): it makes its own key with the
//! operator's token from the folder's token file, queues, is seated with
//! two house bots and plays until its game is over.

use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::{GetViewRequest, ListGamesRequest, Phase};
use skit_testkit::{authed, python_bot_script, python3};
use tokio::process::Command;

fn any_port() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .trim()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_bot_makes_its_key_queues_and_plays_to_the_end() {
    let Some(python) = python3() else {
        eprintln!("SKIPPED: python3 is not installed, so the Python example bot cannot run");
        return;
    };
    // Arrange: a local Skitgubbe in a fresh folder, two greedy house bots
    let dir = tempfile::tempdir().expect("temp dir");
    let settings = skitgubbe::Settings {
        data_dir: dir.path().to_owned(),
        game_addr: any_port(),
        matchmaker_addr: any_port(),
        leagues_addr: any_port(),
        bots: vec![("greedy".into(), 2)],
        bot_fill_wait: Duration::from_millis(200),
        database_url: None,
        page_origins: Vec::new(),
    };
    let running = skitgubbe::start(settings).await.expect("start");
    let key_file = dir.path().join("py-bot.key");

    // Act: the bot as the guide runs it
    let child = Command::new(python)
        .arg(python_bot_script())
        .args(["--url", &running.game_url])
        .args(["--matchmaker", &running.matchmaker_url])
        .args(["--new-bot", "py-bot", "--key-file"])
        .arg(&key_file)
        .args(["--queue", "skitgubbe", "--wait-ms", "2000"])
        .env("SKIT_DATA_DIR", dir.path())
        .env_remove("SKIT_OPERATOR_TOKEN")
        .env_remove("SKIT_TOKEN")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start python3");
    let output = tokio::time::timeout(Duration::from_secs(180), child.wait_with_output())
        .await
        .expect("the bot finished in time")
        .expect("the bot ran");

    // Assert: it exited cleanly after its game ended, and the service agrees
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the bot failed: {said}");
    for text in [
        "created the bot account py-bot",
        "queued for skitgubbe",
        "game over",
    ] {
        assert!(said.contains(text), "{text:?} missing: {said}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key_file)
            .expect("key file")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "the key is its owner's only");
    }
    let key = read(&key_file);
    let mut games = GameServiceClient::connect(running.game_url.clone())
        .await
        .expect("connect");
    let listed = games
        .list_games(authed(
            ListGamesRequest {
                include_over: true,
                ..Default::default()
            },
            &key,
        ))
        .await
        .expect("the bot's games")
        .into_inner()
        .games;
    assert_eq!(listed.len(), 1, "one game: {listed:?}");
    let view = games
        .get_view(authed(
            GetViewRequest {
                game_id: listed[0].game_id.clone(),
                spectator: true,
                ..Default::default()
            },
            &key,
        ))
        .await
        .expect("the game")
        .into_inner();
    assert_eq!(view.phase, Phase::Over as i32, "{view:?}");
    assert!(view.result.is_some());
    let names: Vec<&str> = view
        .seats
        .iter()
        .filter_map(|s| s.name.as_deref())
        .collect();
    assert_eq!(names.len(), 3, "skitgubbe's usual table: {names:?}");
    let house = names
        .iter()
        .filter(|n| n.starts_with("bot-greedy-"))
        .count();
    assert_eq!(house, 2, "two house bots beside py-bot: {names:?}");
    assert!(names.contains(&"py-bot"), "{names:?}");
    drop(games);
    running.stop().await.expect("stop");
}
