//! A service binary's `--help` and `--version` for tests (feature
//! `testing`): they must answer and exit at once, starting nothing.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long a binary may take to answer `--help`; starting a service
/// instead never exits by itself.
const LIMIT: Duration = Duration::from_secs(30);

/// What the binary at `exe` (a test's `env!("CARGO_BIN_EXE_...")`) prints
/// on standard output for `arg`. It runs in an empty folder with every
/// address set to port 0 and every database and file inside that folder,
/// so a binary that started anyway could neither take a real port nor
/// write anywhere else.
///
/// # Panics
/// If it runs past the limit (it started a server), exits unsuccessfully,
/// or leaves anything in its folder (it opened a database or wrote a file).
pub fn answer(exe: &str, arg: &str) -> String {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut child = confined(Command::new(exe), dir.path())
        .arg(arg)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {exe}: {e}"));
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            panic!("{exe} {arg} did not exit within {LIMIT:?}: it started instead");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("output");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{exe} {arg}: {}\n{stdout}\n{stderr}",
        output.status
    );
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .expect("read the folder")
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "{exe} {arg} wrote {left:?}");
    stdout
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
        .env("SKIT_OPERATOR_TOKEN", "operator-token-for-cli-probes");
    command
}
