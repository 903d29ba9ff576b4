//! What an outside client finds before reading any docs: `skit-matchmaker
//! --help` and `--version` answer without starting a server, and gRPC
//! reflection (v1 and v1alpha) lists exactly this port's services. (That
//! `/metrics` shows the matchmaker's own figures is `tests/metrics.rs`.)

use skit_gateway::cli_probe::{answer, refusal};
use skit_gateway::reflection_probe::{list_services, v1alpha_describes};
use skit_testkit::{TestDb, spawn_game, spawn_matchmaker};

const EXE: &str = env!("CARGO_BIN_EXE_skit-matchmaker");

#[test]
fn help_lists_the_environment_without_starting() {
    let help = answer(EXE, "--help");

    assert!(help.contains("Usage: skit-matchmaker"), "{help}");
    for variable in [
        "DATABASE_URL",
        "SKIT_MM_ADDR",
        "SKIT_GAME_URL",
        "SKIT_OPERATOR_TOKEN",
        "SKIT_CORS_ORIGINS",
        "SKIT_MM_BOT_FILL_WAIT_MS",
        "OTEL_EXPORTER_OTLP_ENDPOINT",
    ] {
        assert!(help.contains(variable), "{variable} missing:\n{help}");
    }
    assert!(help.contains("[default: 127.0.0.1:50052]"), "{help}");
}

#[test]
fn version_answers_without_starting() {
    let version = answer(EXE, "--version");

    assert_eq!(
        version.trim(),
        format!("skit-matchmaker {}", env!("CARGO_PKG_VERSION"))
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

#[test]
fn a_malformed_cors_origin_is_refused_at_start_up() {
    let refusal = refusal(EXE, &[("SKIT_CORS_ORIGINS", "https://cards.example/")]);

    assert!(
        refusal.contains("SKIT_CORS_ORIGINS: \"https://cards.example/\" is not an origin"),
        "{refusal}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reflection_lists_this_ports_services_in_v1_and_v1alpha() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;

    let (v1, v1alpha) = list_services(&mm.url()).await;

    let expected = [
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
        "skitgubbe.v1.MatchmakingService",
    ];
    assert_eq!(v1, expected);
    assert_eq!(v1alpha, expected);
    assert!(v1alpha_describes(&mm.url(), "skitgubbe.v1.MatchmakingService").await);
    mm.stop().await;
    game.stop().await;
}
