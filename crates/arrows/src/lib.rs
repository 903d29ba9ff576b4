//! Arrows only point down: no file of a crate uses, directly or through
//! others, a file that uses it. A cycle between files means neither can be
//! read, tested or moved without the other; this crate finds them, and its
//! test checks every crate of the workspace.
//!
//! An arrow is a path the code mentions (`use crate::live::Live`,
//! `crate::rated::refresh(..)`, `super::Live`, `ending::Ending`), followed
//! through child modules and re-exports to the file that defines what it
//! names. A `pub use` that only passes a child's name on (a flat `lib.rs`)
//! is not an arrow unless the module's own code uses the name. Methods are
//! not paths: a type whose `impl` is split over a parent and its child
//! files is one concept here. Items compiled for tests only
//! (`#[cfg(test)]`, `#[cfg(all(test, ...))]`) are left out.
//!
//! ```no_run
//! let cycles = skit_arrows::cycles(std::path::Path::new("services/game/src/lib.rs"))?;
//! for cycle in &cycles {
//!     eprintln!("{cycle}");
//! }
//! # Ok::<(), skit_arrows::Error>(())
//! ```

mod error;
mod graph;
mod modules;

use std::fmt;
use std::path::{Path, PathBuf};

pub use error::Error;

/// Files that use each other, directly or through one another, with the
/// arrows between them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    pub files: Vec<PathBuf>,
    /// Each arrow as (from, to), both among `files`.
    pub arrows: Vec<(PathBuf, PathBuf)>,
}

/// Sibling modules, at least one of them a folder, that use each other
/// through some of their files, with the file arrows that cross between
/// them: a folder is one node, so a loop between folders is a loop even
/// when no two files use each other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleCycle {
    /// Each module's path from the crate root (`batch`, `live::ending`).
    pub modules: Vec<String>,
    /// Each arrow as (from, to): a file of one module using one of another.
    pub arrows: Vec<(PathBuf, PathBuf)>,
}

impl fmt::Display for ModuleCycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "a cycle through modules {}:", self.modules.join(", "))?;
        for (from, to) in &self.arrows {
            writeln!(f, "  {} -> {}", from.display(), to.display())?;
        }
        Ok(())
    }
}

impl fmt::Display for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "a cycle through {} files:", self.files.len())?;
        for (from, to) in &self.arrows {
            writeln!(f, "  {} -> {}", from.display(), to.display())?;
        }
        Ok(())
    }
}

/// The cycles between the files of the crate whose root file (`lib.rs`,
/// `main.rs`, `bin/x.rs`) is `root`; empty when its arrows only point
/// down.
pub fn cycles(root: &Path) -> Result<Vec<Cycle>, Error> {
    let tree = modules::read(root)?;
    let files = graph::files(&tree);
    let cycles = graph::cycles(&files)
        .into_iter()
        .map(|members| {
            let arrows = files
                .edge_indices()
                .filter_map(|e| files.edge_endpoints(e))
                .map(|(a, b)| (files[a], files[b]))
                .filter(|(a, b)| members.contains(a) && members.contains(b))
                .map(|(a, b)| (tree.files[a].clone(), tree.files[b].clone()))
                .collect();
            Cycle {
                files: members.iter().map(|&f| tree.files[f].clone()).collect(),
                arrows,
            }
        })
        .collect();
    Ok(cycles)
}

/// The loops between sibling modules of the crate whose root file is
/// `root`, where at least one of them is a folder; loops between single
/// files are [`cycles`]'. Empty when its modules' arrows only point down.
pub fn module_cycles(root: &Path) -> Result<Vec<ModuleCycle>, Error> {
    let tree = modules::read(root)?;
    let files = graph::files(&tree);
    Ok(graph::module_cycles(&tree, &files)
        .into_iter()
        .map(|(modules, arrows)| ModuleCycle {
            modules: modules.iter().map(|p| p.join("::")).collect(),
            arrows: arrows
                .into_iter()
                .map(|(a, b)| (tree.files[a].clone(), tree.files[b].clone()))
                .collect(),
        })
        .collect())
}

/// The crate root files of the package in `dir`: `src/lib.rs`,
/// `src/main.rs` and each `src/bin` target.
pub fn crate_roots(dir: &Path) -> Vec<PathBuf> {
    let src = dir.join("src");
    let mut roots: Vec<PathBuf> = [src.join("lib.rs"), src.join("main.rs")]
        .into_iter()
        .filter(|f| f.is_file())
        .collect();
    if let Ok(bins) = std::fs::read_dir(src.join("bin")) {
        let mut bins: Vec<PathBuf> = bins
            .flatten()
            .map(|e| e.path())
            .filter_map(|p| match p.extension() {
                Some(ext) if ext == "rs" => Some(p),
                _ => Some(p.join("main.rs")).filter(|m| m.is_file()),
            })
            .collect();
        bins.sort();
        roots.extend(bins);
    }
    roots
}

#[cfg(test)]
mod tests;
