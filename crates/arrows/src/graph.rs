//! From a module tree to the arrows between its files: each mentioned path
//! is followed through child modules and re-exports to the file that
//! defines what it names; paths into other crates are not arrows here.

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

use crate::modules::{Module, Tree};

/// How many re-exports one path may pass through: more is a loop.
const MAX_HOPS: usize = 32;

/// The files of `tree` and an edge from each to every file it uses.
pub(crate) fn files(tree: &Tree) -> DiGraph<usize, ()> {
    let mut graph = DiGraph::new();
    let nodes: Vec<NodeIndex> = (0..tree.files.len()).map(|f| graph.add_node(f)).collect();
    for (index, module) in tree.modules.iter().enumerate() {
        for path in &module.mentions {
            if let Some(target) = resolve(tree, index, path, 0) {
                let (from, to) = (module.file, tree.modules[target].file);
                if from != to {
                    graph.update_edge(nodes[from], nodes[to], ());
                }
            }
        }
    }
    graph
}

/// The groups of files that reach each other: every cycle, as the files
/// it goes through.
pub(crate) fn cycles(graph: &DiGraph<usize, ()>) -> Vec<Vec<usize>> {
    tarjan_scc(graph)
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            let mut files: Vec<usize> = component.iter().map(|&n| graph[n]).collect();
            files.sort_unstable();
            files
        })
        .collect()
}

/// Sibling modules' paths, and the file arrows (file indexes) between them.
pub(crate) type SiblingLoop = (Vec<Vec<String>>, Vec<(usize, usize)>);

/// The loops between sibling modules where at least one is a folder (a
/// module with children of its own): each folder counts as one node, so a
/// loop that runs through different files of a folder is found although no
/// two files use each other. Each loop is given as the modules' paths
/// (sorted) with the file arrows that cross between them.
pub(crate) fn module_cycles(tree: &Tree, files: &DiGraph<usize, ()>) -> Vec<SiblingLoop> {
    // The module each file opens with: its path from the crate root.
    let mut file_path: Vec<Option<&[String]>> = vec![None; tree.files.len()];
    for module in &tree.modules {
        let slot = &mut file_path[module.file];
        if slot.is_none_or(|p| module.path.len() < p.len()) {
            *slot = Some(&module.path);
        }
    }
    let mut found = Vec::new();
    for parent in tree.modules.iter().filter(|m| m.children.len() > 1) {
        let depth = parent.path.len();
        // The child of `parent` that holds `file`, if any.
        let child_of = |file: usize| -> Option<&str> {
            let path = file_path[file]?;
            (path.len() > depth && path[..depth] == parent.path[..]).then(|| path[depth].as_str())
        };
        let mut siblings = DiGraph::<&str, ()>::new();
        let nodes: Vec<NodeIndex> = parent
            .children
            .iter()
            .map(|c| siblings.add_node(c.as_str()))
            .collect();
        let node = |name: &str| {
            parent
                .children
                .iter()
                .position(|c| c == name)
                .map(|i| nodes[i])
        };
        let mut crossing = Vec::new();
        for edge in files.edge_indices() {
            let Some((a, b)) = files.edge_endpoints(edge) else {
                continue;
            };
            let (from, to) = (files[a], files[b]);
            if let (Some(x), Some(y)) = (child_of(from), child_of(to))
                && x != y
                && let (Some(nx), Some(ny)) = (node(x), node(y))
            {
                siblings.update_edge(nx, ny, ());
                crossing.push((from, to, x, y));
            }
        }
        let is_folder = |name: &str| {
            let mut path = parent.path.clone();
            path.push(name.to_owned());
            tree.modules
                .iter()
                .filter(|m| m.path.starts_with(&path))
                .map(|m| m.file)
                .collect::<std::collections::HashSet<_>>()
                .len()
                > 1
        };
        for component in tarjan_scc(&siblings) {
            let names: Vec<&str> = component.iter().map(|&n| siblings[n]).collect();
            if names.len() < 2 || !names.iter().any(|n| is_folder(n)) {
                continue;
            }
            let mut modules: Vec<Vec<String>> = names
                .iter()
                .map(|n| {
                    let mut path = parent.path.clone();
                    path.push((*n).to_owned());
                    path
                })
                .collect();
            modules.sort();
            let arrows = crossing
                .iter()
                .filter(|(_, _, x, y)| names.contains(x) && names.contains(y))
                .map(|&(from, to, _, _)| (from, to))
                .collect();
            found.push((modules, arrows));
        }
    }
    found
}

/// The module a path mentioned in module `from` leads to, or `None` for a
/// path into another crate (or through a name imported from one).
fn resolve(tree: &Tree, from: usize, path: &[String], hops: usize) -> Option<usize> {
    if hops > MAX_HOPS {
        return None;
    }
    let (first, rest) = path.split_first()?;
    let mut at = match first.as_str() {
        "crate" => find(tree, &[])?,
        "self" => from,
        "super" => parent(tree, from)?,
        name => child(tree, from, name)?,
    };
    for segment in rest {
        if segment == "super" {
            at = parent(tree, at)?;
        } else if let Some(next) = child(tree, at, segment) {
            at = next;
        } else if let Some((_, target)) = tree.modules[at]
            .reexports
            .iter()
            .find(|(n, _)| n == segment)
        {
            // A name passed on from another crate stops at the module that
            // passes it on: that file is what the path names.
            match resolve(tree, at, target, hops + 1) {
                Some(next) => at = next,
                None => break,
            }
        } else {
            break;
        }
    }
    Some(at)
}

fn find(tree: &Tree, path: &[String]) -> Option<usize> {
    tree.modules.iter().position(|m| m.path == path)
}

fn child(tree: &Tree, module: usize, name: &str) -> Option<usize> {
    let Module { path, children, .. } = &tree.modules[module];
    if !children.iter().any(|c| c == name) {
        return None;
    }
    let mut path = path.clone();
    path.push(name.to_owned());
    find(tree, &path)
}

fn parent(tree: &Tree, module: usize) -> Option<usize> {
    let path = &tree.modules[module].path;
    find(tree, &path[..path.len().checked_sub(1)?])
}
