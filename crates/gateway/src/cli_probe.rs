//! A service binary run briefly for tests (feature `testing`): `--help`
//! and `--version` must answer and exit at once, and a refused setting
//! must stop it at start-up, in both cases starting nothing.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long a binary may take to answer or refuse; one that starts a
/// service instead never exits by itself.
const LIMIT: Duration = Duration::from_secs(30);

/// A long enough operator token, so only what a test sets is refused.
const TOKEN: &str = "operator-token-for-cli-probes";

/// What the binary at `exe` (a test's `env!("CARGO_BIN_EXE_...")`) prints
/// on standard output for `arg`.
///
/// # Panics
/// If it runs past the limit (it started a server), exits unsuccessfully,
/// or leaves anything in its folder (see [`run`]).
pub fn answer(exe: &str, arg: &str) -> String {
    let output = run(exe, &[arg], &[]);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{exe} {arg}: {}\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// What the binary prints on standard error when started with `env` set,
/// which it must refuse.
///
/// # Panics
/// If it runs past the limit, exits successfully, or leaves anything in
/// its folder (see [`run`]).
pub fn refusal(exe: &str, env: &[(&str, &str)]) -> String {
    let output = run(exe, &[], env);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success(), "{exe} started with {env:?}");
    stderr
}

/// Runs `exe` with `args` in an empty folder, every address at port 0 and
/// every database and file inside that folder, so a binary that started
/// anyway could neither take a real port nor write anywhere else; `env`
/// last.
///
/// # Panics
/// If it runs past the limit, or leaves anything in its folder (it opened
/// a database or wrote a file).
pub fn run(exe: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut command = confined(Command::new(exe), dir.path());
    let mut child = command
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {exe}: {e}"));
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            panic!("{exe} {args:?} did not exit within {LIMIT:?}: it started instead");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("output");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .expect("read the folder")
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "{exe} {args:?} wrote {left:?}");
    output
}

fn confined(mut command: Command, dir: &Path) -> Command {
    let db = format!("sqlite://{}?mode=rwc", dir.join("probe.db").display());
    command
        .current_dir(dir)
        .env("DATABASE_URL", &db)
        .env("SKIT_MM_DATABASE_URL", &db)
        .env("SKIT_ADDR", "127.0.0.1:0")
        .env("SKIT_MM_ADDR", "127.0.0.1:0")
        .env("SKIT_DATA_DIR", dir)
        .env("SKIT_BOT_ACCOUNTS_FILE", dir.join("bots.json"))
        .env("SKIT_OPERATOR_TOKEN", TOKEN)
        // Plain text: the refusal is read from standard error.
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE");
    command
}
