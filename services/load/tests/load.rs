//! `skit-load` end to end: a couple of games against a service it starts
//! itself on a fresh SQLite file, with the raw insert loop; a watched game
//! followed by every kind of spectator; counts, never speed. And its
//! `--help` and `--version`, which start nothing.

use std::process::Command;

#[test]
fn load_plays_games_to_the_end_without_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("load.db").display());

    let out = Command::new(env!("CARGO_BIN_EXE_skit-load"))
        .args(["--spawn", "--database-url", &url])
        .args(["--games", "2", "--players", "2", "--total-games", "2"])
        .args(["--raw-seconds", "0.5", "--connections", "1"])
        .output()
        .expect("run skit-load");

    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{stderr}");
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("moves:"))
        .unwrap_or_else(|| panic!("no moves line in:\n{stdout}"));
    let number_after = |label: &str| -> u64 {
        let rest = &line[line
            .find(label)
            .unwrap_or_else(|| panic!("{label} in {line}"))
            + label.len()..];
        rest.trim_start()
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a number after {label} in {line}"))
    };
    // A two-player game takes dozens of moves; two must have been finished.
    assert!(number_after("moves:") >= 20, "{line}");
    assert!(number_after("games finished:") >= 2, "{line}");
    assert_eq!(number_after("errors:"), 0, "{line}");
    assert!(stdout.contains("raw limit:"), "{stdout}");
    assert!(stdout.contains("ratio:"), "{stdout}");
}

#[test]
fn watch_reaches_every_kind_of_spectator_with_every_move() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("watch.db").display()
    );

    let out = Command::new(env!("CARGO_BIN_EXE_skit-load"))
        .args(["watch", "--spawn", "--database-url", &url])
        .args(["--streams", "6", "--sse", "3", "--long-polls", "4"])
        .args(["--streams-per-connection", "2", "--moves", "5"])
        .args(["--move-interval-ms", "20", "--other-games", "1"])
        .args(["--baseline-seconds", "0.2"])
        .output()
        .expect("run skit-load watch");

    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(
        stdout.contains("10 of 10 spectators open (3 gRPC streams over 2 connections, 3 SSE, 4 long polls over 2 connections)"),
        "{stdout}"
    );
    assert!(stdout.contains("5 moves of the watched game"), "{stdout}");
    for kind in ["gRPC", "SSE", "long poll"] {
        let row = format!("{kind} (ms): p50");
        assert!(stdout.contains(&row), "no {kind} deliveries in:\n{stdout}");
    }
    assert!(
        stdout.contains("spectators that received every move: 10 of 10; errors: 0"),
        "{stdout}"
    );
}

fn answer(arg: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_skit-load"))
        .arg(arg)
        .output()
        .expect("run skit-load");
    assert!(output.status.success(), "skit-load {arg}: {output:?}");
    String::from_utf8(output.stdout).expect("text")
}

#[test]
fn help_names_the_modes_and_version_answers() {
    let help = answer("--help");

    assert!(help.contains("Usage: skit-load"), "{help}");
    for text in ["watch", "memory", "--spawn", "--database-url"] {
        assert!(help.contains(text), "{text} missing:\n{help}");
    }
    assert_eq!(
        answer("--version").trim(),
        format!("skit-load {}", env!("CARGO_PKG_VERSION"))
    );
}
