//! The newcomer's path end to end: the one-command start (game service,
//! matchmaker and bot worker from `skitgubbe::start`, on SQLite in a fresh
//! folder), then `skit play` as a person at a terminal, queueing, being
//! seated with a bot and typing moves until the game is over.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_a_whole_game_against_bots() {
    let dir = tempfile::tempdir().expect("temp dir");
    let running = skitgubbe::start(skitgubbe::Settings {
        data_dir: dir.path().to_owned(),
        game_addr: "127.0.0.1:0".parse().expect("addr"),
        matchmaker_addr: "127.0.0.1:0".parse().expect("addr"),
        leagues_addr: "127.0.0.1:0".parse().expect("addr"),
        bots: vec![("greedy".into(), 2)],
        bot_fill_wait: Duration::from_millis(200),
        database_url: None,
        page_origins: Vec::new(),
    })
    .await
    .expect("the services start");

    let mut child = Command::new(env!("CARGO_BIN_EXE_skit"))
        .args(["play", "--players", "2", "--name", "Tester"])
        .args(["--game-url", &running.game_url])
        .args(["--matchmaker-url", &running.matchmaker_url])
        .env_remove("SKIT_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("skit play starts");
    // The person always takes the first listed move; more lines than any
    // game needs, and stdin stays open until the end (closing it leaves).
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all("1\n".repeat(3000).as_bytes())
        .expect("type moves");

    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(240) {
            let _ = child.kill();
            panic!("skit play did not finish the game in time");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    drop(stdin);
    let text = reader.join().expect("reader");
    let mut errors = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        let _ = stderr.read_to_string(&mut errors);
    }
    assert!(status.success(), "skit play failed: {errors}\n{text}");
    assert!(text.contains("Queued (ticket"), "{text}");
    assert!(text.contains("you are seat"), "{text}");
    assert!(
        text.contains("How to play skitgubbe, in short: docs/how-to-play.md#skitgubbe"),
        "{text}"
    );
    assert!(text.contains("Your hand:"), "{text}");
    assert!(text.contains("You: "), "the person made moves: {text}");
    assert!(text.contains("[bot]"), "a bot filled the table: {text}");
    assert!(
        text.contains("is the skitgubbe.") || text.contains("drawn by the action limit"),
        "the game ended: {}",
        &text[text.len().saturating_sub(2000)..]
    );
    running.stop().await.expect("the services stop cleanly");
}
