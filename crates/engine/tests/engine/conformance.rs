//! The rule scenarios (`tests/conformance/FORMAT.md`) pass: the
//! repository's own and the public suite that came with the rules contract
//! (`tests/conformance/public`). `skit conformance` runs the same files.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs the scenarios under `dir`; returns how many passed.
fn all_pass(dir: &Path) -> usize {
    let (passed, failures) = skit_conformance::run(&[dir.to_owned()]);
    assert!(
        failures.is_empty(),
        "{} of {} scenarios under {} failed:\n{}",
        failures.len(),
        passed + failures.len(),
        dir.display(),
        failures.join("\n")
    );
    passed
}

#[test]
fn repo_scenarios_pass() {
    let passed = all_pass(&root().join("tests/conformance"));
    // A moved folder would otherwise pass with nothing in it.
    assert!(passed >= 400, "only {passed} scenarios found");
}

#[test]
fn public_scenarios_pass() {
    let dir = root().join("tests/conformance/public");
    assert!(all_pass(&dir) > 0, "no scenarios in {}", dir.display());
}
