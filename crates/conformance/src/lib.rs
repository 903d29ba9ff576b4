//! Rule scenarios (`tests/conformance/FORMAT.md`): JSON files that set
//! up a game, play actions, and say what the engine must then show or
//! refuse. `skit conformance PATH...` reports on them, and the engine's
//! tests run the repository's scenarios with `cargo test -p skit-engine`.
//!
//! ```no_run
//! let (passed, failures) = skit_conformance::run(&["tests/conformance".into()]);
//! assert!(failures.is_empty(), "{failures:#?}");
//! println!("{passed} passed");
//! ```

mod assert;
mod scenario;

use std::path::{Path, PathBuf};

use skit_engine::{Action, Game};

/// Runs every scenario file under `paths` (files, or folders searched for
/// `*.json`); returns how many passed, and one line per failure naming the
/// file and what went wrong.
pub fn run(paths: &[PathBuf]) -> (usize, Vec<String>) {
    let mut files = Vec::new();
    for path in paths {
        collect(path, &mut files);
    }
    files.sort();
    let mut passed = 0;
    let mut failures = Vec::new();
    for file in files {
        match run_file(&file) {
            Ok(()) => passed += 1,
            Err(problem) => failures.push(format!("{}: {problem}", file.display())),
        }
    }
    (passed, failures)
}

fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else {
            return files.push(path.to_owned());
        };
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_dir() || p.extension().is_some_and(|e| e == "json") {
                collect(&p, files);
            }
        }
    } else {
        files.push(path.to_owned());
    }
}

fn run_file(file: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read: {e}"))?;
    let scenario = scenario::parse(&text)?;
    let set_up = scenario::set_up(&scenario);
    if scenario.refused {
        return match set_up {
            Err(_) => Ok(()),
            Ok(_) => Err("set-up: expected it to be refused, but it was accepted".into()),
        };
    }
    let mut game = set_up.map_err(|e| format!("set-up refused: {e}"))?;
    let actions = scenario.actions.len();
    if let Some((at, _)) = scenario.checks.iter().find(|(at, _)| *at > actions) {
        return Err(format!(
            "a check after {at}, but the scenario has only {actions} actions"
        ));
    }
    check_at(&game, &scenario, 0)?;
    for (i, entry) in scenario.actions.iter().enumerate() {
        let step = i + 1;
        let reject = entry
            .get("reject")
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        let mut stripped = entry.clone();
        if let Some(object) = stripped.as_object_mut() {
            object.remove("reject");
        }
        let outcome = Action::from_json(&stripped)
            .map_err(|e| e.to_string())
            .and_then(|action| {
                let before = *game.state();
                let result = game.apply(&action).map_err(|e| e.to_string());
                if result.is_err() && *game.state() != before {
                    return Err("refused but the state changed".into());
                }
                result
            });
        match (outcome, reject) {
            (Ok(()), true) => {
                return Err(format!(
                    "step {step}: expected a refusal of {entry}, but it was accepted"
                ));
            }
            (Err(e), false) => return Err(format!("step {step}: {entry} refused: {e}")),
            _ => {}
        }
        check_at(&game, &scenario, step)?;
    }
    Ok(())
}

fn check_at(game: &Game, scenario: &scenario::Scenario, after: usize) -> Result<(), String> {
    for (at, assertion) in scenario.checks.iter().filter(|(at, _)| *at == after) {
        let problems = assert::compare(game, assertion);
        if !problems.is_empty() {
            return Err(format!("after {at}: {}", problems.join("; ")));
        }
    }
    Ok(())
}
