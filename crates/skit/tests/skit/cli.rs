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
