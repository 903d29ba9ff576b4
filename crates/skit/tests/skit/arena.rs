//! `skit arena --duplicate` prints every deal's seed, from which anyone can
//! recompute the deal, and seats every bot in every seat of it;
//! `skit arena strength` prints its table's columns for every level.

use std::process::Command;

use sha2::{Digest, Sha256};
use skit_fairness::Seed;

fn skit(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_skit"))
        .args(args)
        .output()
        .expect("skit runs");
    assert!(output.status.success(), "skit {args:?}: {output:?}");
    String::from_utf8(output.stdout).expect("text")
}

#[test]
fn duplicate_deals_print_recomputable_seeds_and_rotate_every_seat() {
    let out = skit(&[
        "arena",
        "--duplicate",
        "--deals",
        "2",
        "--seed",
        "9",
        "--strategies",
        "random,greedy,omniscient",
        "--decision-ms",
        "1",
        "--threads",
        "1",
    ]);
    assert!(
        out.contains("2 duplicate deals x 3 rotations, master seed 9"),
        "{out}"
    );
    for d in 0u64..2 {
        let mut hash = Sha256::new();
        hash.update(b"skit-arena-deal");
        hash.update(9u64.to_be_bytes());
        hash.update(d.to_be_bytes());
        let seed = Seed::from_bytes(hash.finalize().into());
        let dealer = skit_fairness::deal(&seed, 3).1;
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("deal {d:>4} ")))
            .unwrap_or_else(|| panic!("no line for deal {d}:\n{out}"));
        assert!(
            line.contains(&format!("seed {} dealer {dealer}:", seed.to_hex())),
            "{line}"
        );
        // Three rotations, each with a loser (or a draw).
        let results = line.split(": lost ").nth(1).expect("results");
        assert_eq!(results.split(", ").count(), 3, "{line}");
    }
    // Each bot played each deal once per seat: 2 deals x 3 seats.
    for name in ["random", "greedy", "omniscient"] {
        let row = out
            .lines()
            .find(|l| l.starts_with(name) && !l.contains("deal"))
            .unwrap_or_else(|| panic!("no row for {name}:\n{out}"));
        let games: u32 = row
            .split_whitespace()
            .nth(1)
            .and_then(|g| g.parse().ok())
            .expect("games");
        assert_eq!(games, 6, "{row}");
    }
    assert!(out.contains("bootstrap over deals"), "{out}");
}

#[test]
fn strength_prints_each_level_with_its_interval_and_ratio() {
    let out = skit(&[
        "arena",
        "strength",
        "--presets",
        "skitgubbe,two-player",
        "--deals",
        "1",
        "--decision-ms",
        "1",
        "--threads",
        "1",
    ]);
    for header in ["level", "games", "lost", "rate", "95% CI", "/ omniscient"] {
        assert!(out.contains(header), "{header} missing:\n{out}");
    }
    for preset in ["skitgubbe (3 players", "two-player (2 players"] {
        assert!(out.contains(preset), "{preset} missing:\n{out}");
    }
    for level in ["random", "greedy", "search", "ismcts"] {
        let rows = out.lines().filter(|l| l.starts_with(level)).count();
        assert_eq!(rows, 2, "{level}:\n{out}");
    }
    let ceiling = out
        .lines()
        .filter(|l| l.starts_with("omniscient") && l.ends_with("(ceiling)"))
        .count();
    assert_eq!(ceiling, 2, "{out}");
}
