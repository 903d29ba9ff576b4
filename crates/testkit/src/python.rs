//! The Python example bot (`examples/python/skit_bot.py`) and an
//! interpreter to run it with, for the tests that run it as its guide says.

use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The example bot's script.
pub fn python_bot_script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/python/skit_bot.py")
}

/// `python3` if it runs here; `None` where it is not installed (the
/// caller skips, saying so).
pub fn python3() -> Option<&'static str> {
    let ok = Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some("python3")
}
