//! `skit-botworker --help` and `--version` answer without starting, and a
//! short operator token stops it at start-up.

use skit_gateway::cli_probe::{answer, refusal};

const EXE: &str = env!("CARGO_BIN_EXE_skit-botworker");

#[test]
fn help_lists_the_options_and_the_environment_without_starting() {
    let help = answer(EXE, "--help");

    assert!(help.contains("Usage: skit-botworker"), "{help}");
    for text in [
        "--provision",
        "SKIT_OPERATOR_TOKEN",
        "SKIT_BOT_SERVER",
        "SKIT_BOT_MAX_GAMES",
        "[default: http://127.0.0.1:50051]",
        "LOG_FORMAT",
    ] {
        assert!(help.contains(text), "{text} missing:\n{help}");
    }
}

#[test]
fn version_answers_without_starting() {
    let version = answer(EXE, "--version");

    assert_eq!(
        version.trim(),
        format!("skit-botworker {}", env!("CARGO_PKG_VERSION"))
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
