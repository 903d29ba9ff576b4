//! `skit verify FILE`: checks a finished game's record (GetHistory's JSON
//! with the revealed seed) against its commitment and every shuffle.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use skit_fairness::GameRecord;

/// The keys a record's seed may be under.
const SEED_KEYS: [&str; 3] = ["seed", "shuffleSeed", "shuffle_seed"];

fn read(path: &Path) -> anyhow::Result<GameRecord> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    // GetHistory of a game still in play: everything but the seed.
    let unfinished = value.get("complete") == Some(&serde_json::Value::Bool(false))
        || value.get("actions").is_some() && !SEED_KEYS.iter().any(|k| value.get(k).is_some());
    if unfinished {
        anyhow::bail!(
            "{} is the record of a game not yet over: the seed is revealed when the game \
             ends; fetch its history again then",
            path.display()
        );
    }
    serde_json::from_value(value)
        .with_context(|| format!("{} is not a game record", path.display()))
}

/// Exit 0 when verified, 1 on a mismatch, 2 when the file cannot be read.
pub fn run(path: &Path) -> ExitCode {
    let record = match read(path) {
        Ok(record) => record,
        Err(e) => {
            eprintln!("error: {e:#}");
            return ExitCode::from(2);
        }
    };
    match record.verify() {
        Ok(summary) => {
            println!("verified: {summary}");
            ExitCode::SUCCESS
        }
        Err(mismatch) => {
            println!("mismatch: {mismatch}");
            ExitCode::FAILURE
        }
    }
}
