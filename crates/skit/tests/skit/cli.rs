//! `skit --help` and `--version` answer at once, naming the commands.

use std::process::Command;

const EXE: &str = env!("CARGO_BIN_EXE_skit");

fn answer(arg: &str) -> String {
    let output = Command::new(EXE).arg(arg).output().expect("skit runs");
    assert!(output.status.success(), "skit {arg}: {output:?}");
    String::from_utf8(output.stdout).expect("text")
}

#[test]
fn help_names_every_command() {
    let help = answer("--help");

    assert!(help.contains("Usage: skit"), "{help}");
    for command in [
        "play",
        "conformance",
        "bench",
        "demo",
        "verify",
        "arena",
        "admin",
    ] {
        assert!(help.contains(command), "{command} missing:\n{help}");
    }
}

#[test]
fn version_answers() {
    assert_eq!(
        answer("--version").trim(),
        format!("skit {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn an_unreachable_service_is_named_with_each_cause_once() {
    // A port nobody listens on: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let url = format!("http://127.0.0.1:{port}");

    let output = Command::new(EXE)
        .args(["play", "--game-url", &url, "--matchmaker-url", &url])
        .env_remove("SKIT_TOKEN")
        .output()
        .expect("skit runs");

    let err = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{err}");
    assert!(err.contains(&format!("cannot reach {url}")), "{err}");
    assert_eq!(err.matches("tcp connect error").count(), 1, "{err}");
}
