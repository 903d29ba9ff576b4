//! What an outside client finds before reading any docs: `skit-game
//! --help` and `--version` answer without starting a server, and gRPC
//! reflection, in both versions tools speak, lists exactly this port's
//! services.

use skit_gateway::cli_probe::{answer, refusal};
use skit_gateway::reflection_probe::{list_services, v1alpha_describes};
use skit_testkit::{TestDb, spawn_game};

const EXE: &str = env!("CARGO_BIN_EXE_skit-game");

#[test]
fn help_lists_the_environment_without_starting() {
    let help = answer(EXE, "--help");

    assert!(help.contains("Usage: skit-game"), "{help}");
    for variable in [
        "DATABASE_URL",
        "SKIT_ADDR",
        "SKIT_OPERATOR_TOKEN",
        "SKIT_CORS_ORIGINS",
        "SKIT_GROUP_COMMIT",
        "SKIT_CACHE_IDLE_MS",
        "SKIT_HEALTH_CHECK_MS",
        "SKIT_DB_ACQUIRE_TIMEOUT_MS",
        "RUST_LOG",
    ] {
        assert!(help.contains(variable), "{variable} missing:\n{help}");
    }
    assert!(help.contains("[default: 127.0.0.1:50051]"), "{help}");
}

#[test]
fn version_answers_without_starting() {
    let version = answer(EXE, "--version");

    assert_eq!(
        version.trim(),
        format!("skit-game {}", env!("CARGO_PKG_VERSION"))
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
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let url = app.url();

    let (v1, v1alpha) = list_services(&url).await;

    let expected = [
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
        "skitgubbe.v1.AccountService",
        "skitgubbe.v1.AdminService",
        "skitgubbe.v1.GameService",
        "skitgubbe.v1.RatingService",
    ];
    assert_eq!(v1, expected);
    assert_eq!(v1alpha, expected);
    assert!(v1alpha_describes(&url, "skitgubbe.v1.GameService").await);
    assert!(v1alpha_describes(&url, "grpc.health.v1.Health").await);
    app.stop().await;
}
