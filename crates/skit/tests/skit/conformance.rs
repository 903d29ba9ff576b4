//! `skit conformance` over the repo's rule scenarios (the public suite in
//! `tests/conformance/public` among them): all pass and it says so; a broken scenario fails
//! and is counted. The engine's tests run the same files without the CLI.

use std::path::PathBuf;
use std::process::Command;

fn skit(args: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_skit"))
        .args(args)
        .output()
        .expect("skit runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn repo_scenarios_pass() {
    let dir = root().join("tests/conformance");
    let (ok, out) = skit(&["conformance", dir.to_str().expect("utf-8 path")]);
    assert!(ok, "{out}");
    assert!(out.trim_end().ends_with(" 0 failed"), "{out}");
}

#[test]
fn public_scenarios_pass() {
    let dir = root().join("tests/conformance/public");
    let (ok, out) = skit(&["conformance", dir.to_str().expect("utf-8 path")]);
    assert!(ok, "{out}");
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.ends_with(", 0 failed") && !last.starts_with("0 passed"),
        "{out}"
    );
}

#[test]
fn a_broken_scenario_fails_and_is_counted() {
    let dir = std::env::temp_dir().join(format!("skit-broken-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("not-json.json"), "{").expect("write");
    std::fs::write(
        dir.join("wrong.json"),
        r#"{"rules":"skitgubbe","players":2,"start":{"phase":"two","trump":"H","hands":[["2C"],["3C"]],"leader":0},"expect":{"phase":"over"}}"#,
    )
    .expect("write");
    // A check that no action reaches would otherwise never run.
    std::fs::write(
        dir.join("unreached.json"),
        r#"{"rules":"skitgubbe","players":2,"start":{"phase":"two","trump":"H","hands":[["2C"],["3C"]],"leader":0},"actions":[],"checks":[{"after":1,"phase":"over"}]}"#,
    )
    .expect("write");
    let (ok, out) = skit(&["conformance", dir.to_str().expect("utf-8 path")]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(!ok);
    assert!(out.contains("only 0 actions"), "{out}");
    assert!(out.trim_end().ends_with("0 passed, 3 failed"), "{out}");
}
