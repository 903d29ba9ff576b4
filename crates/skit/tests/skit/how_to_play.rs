//! docs/how-to-play.md, which `skit play` names for the game's preset:
//! a section for every preset, under the anchor the terminal prints, and
//! short enough to read before a first game.

use skit_engine::Preset;

fn page() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/how-to-play.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_preset_has_a_short_section() {
    let page = page();
    for preset in Preset::ALL {
        let heading = format!("\n## `{}`\n", preset.name());
        assert!(page.contains(&heading), "no section {heading:?}");
    }
    let lines = page.lines().count();
    assert!(lines <= 200, "{lines} lines: keep it short");
}
