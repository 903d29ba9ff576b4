use std::path::Path;

use super::*;

/// The cycles of a crate made of `files` (path under `src/`, text), each
/// as its files' paths under `src/`.
fn cycles_of(files: &[(&str, &str)]) -> Vec<Vec<String>> {
    let dir = tempfile::tempdir().expect("a temp dir");
    for (path, text) in files {
        let path = dir.path().join("src").join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a dir");
        std::fs::write(path, text).expect("a file");
    }
    let src = dir.path().join("src");
    let root = crate_roots(dir.path()).into_iter().next().expect("a root");
    cycles(&root)
        .expect("a readable crate")
        .into_iter()
        .map(|c| {
            c.files
                .iter()
                .map(|f| {
                    f.strip_prefix(&src)
                        .expect("under src")
                        .display()
                        .to_string()
                })
                .collect()
        })
        .collect()
}

#[test]
fn two_files_that_use_each_other_are_a_cycle() {
    let cycles = cycles_of(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "use crate::b::B;\npub struct A(B);\n"),
        ("b.rs", "use crate::a::A;\npub struct B(Box<A>);\n"),
    ]);
    assert_eq!(cycles, [["a.rs", "b.rs"]]);
}

#[test]
fn a_chain_is_not_a_cycle() {
    let cycles = cycles_of(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\npub use a::A;\n"),
        ("a.rs", "use crate::b::B;\npub struct A(B);\n"),
        ("b.rs", "pub struct B(crate::c::C);\n"),
        ("c.rs", "pub struct C;\n"),
    ]);
    assert!(cycles.is_empty(), "{cycles:?}");
}

#[test]
fn paths_in_code_and_macros_are_arrows_too() {
    let cycles = cycles_of(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        (
            "a.rs",
            "pub const NAME: &str = \"a\";\npub fn f() { crate::b::g() }\n",
        ),
        ("b.rs", "pub fn g() { println!(\"{}\", crate::a::NAME); }\n"),
    ]);
    assert_eq!(cycles, [["a.rs", "b.rs"]]);
}

#[test]
fn flat_reexports_pass_names_on_without_arrows() {
    // `crate::B` is b.rs's, not lib.rs's: lib.rs only passes it on.
    let cycles = cycles_of(&[
        ("lib.rs", "mod a;\nmod b;\npub use a::A;\npub use b::B;\n"),
        ("a.rs", "use crate::B;\npub struct A(B);\n"),
        ("b.rs", "pub struct B;\n"),
    ]);
    assert!(cycles.is_empty(), "{cycles:?}");
}

#[test]
fn a_parent_using_what_its_child_uses_of_it_is_a_cycle() {
    let live =
        "mod ending;\npub use ending::Ending;\npub struct Live { pub ending: Option<Ending> }\n";
    let ending = "use super::Live;\npub struct Ending;\nimpl Live { pub fn over(&self) -> bool { self.ending.is_some() } }\n";
    let cycles = cycles_of(&[
        ("lib.rs", "mod live;\n"),
        ("live.rs", live),
        ("live/ending.rs", ending),
    ]);
    assert_eq!(cycles, [["live.rs", "live/ending.rs"]]);
    // The same parent only passing the name on: the child's `impl` is the
    // parent's type split over two files, not a cycle.
    let live = "mod ending;\npub use ending::Ending;\npub struct Live { pub over: bool }\n";
    let cycles = cycles_of(&[
        ("lib.rs", "mod live;\n"),
        ("live.rs", live),
        (
            "live/ending.rs",
            ending
                .replace("self.ending.is_some()", "self.over")
                .as_str(),
        ),
    ]);
    assert!(cycles.is_empty(), "{cycles:?}");
}

#[test]
fn tests_may_reach_anywhere() {
    let cycles = cycles_of(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        (
            "a.rs",
            "pub struct A;\n#[cfg(test)]\nmod tests {\n    use crate::b::B;\n}\n",
        ),
        ("b.rs", "pub struct B(crate::a::A);\n"),
    ]);
    assert!(cycles.is_empty(), "{cycles:?}");
}

#[test]
fn tests_behind_a_feature_may_reach_anywhere_too() {
    let cycles = cycles_of(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        (
            "a.rs",
            "pub struct A;\n#[cfg(all(test, feature = \"testing\"))]\nmod tests {\n    use crate::b::B;\n}\n",
        ),
        ("b.rs", "pub struct B(crate::a::A);\n"),
    ]);
    assert!(cycles.is_empty(), "{cycles:?}");
    // Code for any build that is not a test's is an arrow.
    let cycles = cycles_of(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        (
            "a.rs",
            "pub struct A;\n#[cfg(any(test, feature = \"testing\"))]\nmod tests {\n    use crate::b::B;\n}\n",
        ),
        ("b.rs", "pub struct B(crate::a::A);\n"),
    ]);
    assert_eq!(cycles, [["a.rs", "b.rs"]]);
}

#[test]
fn a_cycle_through_a_mod_rs_and_an_inline_module_is_found() {
    let cycles = cycles_of(&[
        ("main.rs", "mod game;\nmod view;\nfn main() {}\n"),
        (
            "game/mod.rs",
            "pub mod kind {\n    pub const MOVE: &str = super::super::view::NAME;\n}\n",
        ),
        (
            "view.rs",
            "pub const NAME: &str = crate::game::kind::MOVE;\n",
        ),
    ]);
    assert_eq!(cycles, [["game/mod.rs", "view.rs"]]);
}

/// The module loops of a crate made of `files`, each as its modules.
fn module_cycles_of(files: &[(&str, &str)]) -> Vec<Vec<String>> {
    let dir = tempfile::tempdir().expect("a temp dir");
    for (path, text) in files {
        let path = dir.path().join("src").join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a dir");
        std::fs::write(path, text).expect("a file");
    }
    let root = crate_roots(dir.path()).into_iter().next().expect("a root");
    module_cycles(&root)
        .expect("a readable crate")
        .into_iter()
        .map(|c| c.modules)
        .collect()
}

#[test]
fn a_folder_and_a_file_that_use_each_other_through_different_files_are_a_module_cycle() {
    // No two files use each other: log.rs uses batch/plan.rs, and
    // batch/round.rs uses log.rs.
    let crate_files = [
        (
            "lib.rs",
            "mod batch;
mod log;
",
        ),
        (
            "batch/mod.rs",
            "mod plan;
mod round;
pub use plan::Plan;
",
        ),
        (
            "batch/plan.rs",
            "pub struct Plan;
",
        ),
        (
            "batch/round.rs",
            "pub fn go() { crate::log::append() }
",
        ),
        (
            "log.rs",
            "use crate::batch::Plan;
pub fn append() {}
pub fn make() -> Plan { Plan }
",
        ),
    ];
    assert!(cycles_of(&crate_files).is_empty());
    assert_eq!(module_cycles_of(&crate_files), [["batch", "log"]]);
}

#[test]
fn a_folder_used_one_way_is_not_a_module_cycle() {
    let crate_files = [
        (
            "lib.rs",
            "mod batch;
mod log;
",
        ),
        (
            "batch/mod.rs",
            "mod plan;
mod round;
pub use plan::Plan;
",
        ),
        (
            "batch/plan.rs",
            "pub struct Plan;
",
        ),
        (
            "batch/round.rs",
            "pub fn go() { crate::log::append() }
",
        ),
        (
            "log.rs",
            "pub fn append() {}
",
        ),
    ];
    assert!(module_cycles_of(&crate_files).is_empty());
}

#[test]
fn module_cycles_are_found_below_the_root_too() {
    let crate_files = [
        (
            "lib.rs",
            "mod game;
",
        ),
        (
            "game/mod.rs",
            "mod moves;
mod view;
",
        ),
        (
            "game/moves/mod.rs",
            "mod check;
",
        ),
        (
            "game/moves/check.rs",
            "pub fn ok() -> bool { super::super::view::seen() }
",
        ),
        (
            "game/view.rs",
            "pub fn seen() -> bool { true }
pub fn after() -> bool { crate::game::moves::check::ok() }
",
        ),
    ];
    assert_eq!(
        module_cycles_of(&crate_files),
        [["game::moves", "game::view"]]
    );
}

#[test]
fn a_missing_module_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("a temp dir");
    std::fs::create_dir(dir.path().join("src")).expect("src");
    std::fs::write(dir.path().join("src/lib.rs"), "mod gone;\n").expect("lib.rs");
    let error = cycles(&dir.path().join("src/lib.rs")).expect_err("no gone.rs");
    assert!(error.to_string().contains("`gone`"), "{error}");
}

/// The check itself: every crate of the workspace, libraries and programs.
#[test]
fn arrows_only_point_down_in_every_crate_of_the_workspace() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace folder");
    let mut roots = Vec::new();
    for group in ["crates", "services"] {
        let mut packages: Vec<_> = std::fs::read_dir(workspace.join(group))
            .expect("the workspace's folders")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join("Cargo.toml").is_file())
            .collect();
        packages.sort();
        roots.extend(packages.iter().flat_map(|p| crate_roots(p)));
    }
    // Not a pass by reading nothing.
    assert!(roots.len() >= 12, "{roots:?}");
    assert!(
        roots
            .iter()
            .any(|r| r.ends_with("services/game/src/lib.rs"))
    );
    let mut found = String::new();
    for root in &roots {
        let name = root.strip_prefix(&workspace).unwrap_or(root);
        for cycle in cycles(root).expect("a readable crate") {
            found.push_str(&format!("{}: {cycle}", name.display()));
        }
        for cycle in module_cycles(root).expect("a readable crate") {
            found.push_str(&format!("{}: {cycle}", name.display()));
        }
    }
    assert!(
        found.is_empty(),
        "files or modules that use each other:\n{found}"
    );
}
