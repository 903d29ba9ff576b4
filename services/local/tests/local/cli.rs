//! `skitgubbe --help` and `--version` answer without starting the three
//! services (nothing binds 50051, nothing is written to the data folder),
//! and a short operator token stops it at start-up.

use skit_gateway::cli_probe::{answer, refusal};

const EXE: &str = env!("CARGO_BIN_EXE_skitgubbe");

#[test]
fn help_says_what_starts_and_what_the_environment_sets() {
    let help = answer(EXE, "--help");

    assert!(help.contains("Usage: skitgubbe"), "{help}");
    for text in [
        "skit play",
        "SKIT_DATA_DIR",
        "DATABASE_URL",
        "SKIT_OPERATOR_TOKEN",
        "skit-game --help",
    ] {
        assert!(help.contains(text), "{text} missing:\n{help}");
    }
}

#[test]
fn version_answers_without_starting() {
    let version = answer(EXE, "--version");

    assert_eq!(
        version.trim(),
        format!("skitgubbe {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn a_one_character_operator_token_is_refused_at_start_up() {
    let refusal = refusal(EXE, &[("SKIT_OPERATOR_TOKEN", "x")]);

    assert!(
        refusal.contains("SKIT_OPERATOR_TOKEN is too short: 1 character,"),
        "{refusal}"
    );
}
