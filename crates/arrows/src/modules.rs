//! A crate's module tree as its source files say it: which file holds each
//! module, its child modules, what it re-exports and which paths its code
//! mentions. Items compiled for tests only (`#[cfg(test)]`, or
//! `#[cfg(all(test, ...))]`) are left out: a file's tests may
//! reach anywhere without making an arrow of the library.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use proc_macro2::{Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::{Attribute, Item, Meta, Token, UseTree, Visibility};

use crate::Error;

/// One module, inline or a file of its own.
#[derive(Debug)]
pub(crate) struct Module {
    /// The path from the crate root (empty for the root).
    pub path: Vec<String>,
    /// The index of the file it is written in, in [`Tree::files`].
    pub file: usize,
    /// The names of its child modules.
    pub children: Vec<String>,
    /// `pub use` items: the name each is known by here, and its path as
    /// written.
    pub reexports: Vec<(String, Vec<String>)>,
    /// The paths its own code mentions (its imports included), as written.
    pub mentions: Vec<Vec<String>>,
}

#[derive(Debug)]
pub(crate) struct Tree {
    pub files: Vec<PathBuf>,
    pub modules: Vec<Module>,
}

/// Reads the crate whose root file (`lib.rs`, `main.rs`, ...) is `root`,
/// following its `mod` items to the other files.
pub(crate) fn read(root: &Path) -> Result<Tree, Error> {
    let mut tree = Tree {
        files: Vec::new(),
        modules: Vec::new(),
    };
    let dir = root.parent().unwrap_or(Path::new("")).to_path_buf();
    tree.read_file(root, Vec::new(), dir)?;
    Ok(tree)
}

impl Tree {
    /// `children` is where the file's child modules' files are.
    fn read_file(
        &mut self,
        file: &Path,
        path: Vec<String>,
        children: PathBuf,
    ) -> Result<(), Error> {
        let read = |source| Error::Read {
            file: file.to_owned(),
            source,
        };
        let text = std::fs::read_to_string(file).map_err(read)?;
        let syntax = syn::parse_file(&text).map_err(|e| Error::Parse {
            file: file.to_owned(),
            message: e.to_string(),
        })?;
        self.files.push(file.to_owned());
        self.read_items(&syntax.items, path, self.files.len() - 1, &children)
    }

    fn read_items(
        &mut self,
        items: &[Item],
        path: Vec<String>,
        file: usize,
        children: &Path,
    ) -> Result<(), Error> {
        let mut module = Module {
            path: path.clone(),
            file,
            children: Vec::new(),
            reexports: Vec::new(),
            mentions: Vec::new(),
        };
        // Every word the module's code uses, to tell a `pub use` the code
        // itself relies on from one that only passes a name on.
        let mut words = HashSet::new();
        for item in items.iter().filter(|item| !under_test(item)) {
            match item {
                Item::Mod(m) => {
                    let name = m.ident.to_string();
                    let mut child = path.clone();
                    child.push(name.clone());
                    module.children.push(name.clone());
                    match &m.content {
                        Some((_, inner)) => {
                            self.read_items(inner, child, file, &children.join(&name))?;
                        }
                        None => {
                            let source = self.module_file(&m.attrs, children, &name)?;
                            let below = match source.file_name() {
                                Some(f) if f == "mod.rs" => source.parent().map(Path::to_path_buf),
                                _ => source.parent().map(|p| p.join(&name)),
                            };
                            self.read_file(&source, child, below.unwrap_or_default())?;
                        }
                    }
                }
                Item::Use(u) => {
                    let mut leaves = Vec::new();
                    use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
                    for (name, target) in leaves {
                        match (&u.vis, name) {
                            (Visibility::Inherited, _) | (_, None) => module.mentions.push(target),
                            (_, Some(name)) => module.reexports.push((name, target)),
                        }
                    }
                }
                other => scan(other.to_token_stream(), &mut module.mentions, &mut words),
            }
        }
        for (name, target) in &module.reexports {
            if words.contains(name) {
                module.mentions.push(target.clone());
            }
        }
        self.modules.push(module);
        Ok(())
    }

    /// The file of `mod name;`: `#[path]`'s, else `name.rs` or
    /// `name/mod.rs` in `children`.
    fn module_file(
        &self,
        attrs: &[Attribute],
        children: &Path,
        name: &str,
    ) -> Result<PathBuf, Error> {
        let current = self
            .files
            .last()
            .and_then(|f| f.parent())
            .unwrap_or(Path::new(""));
        for attr in attrs.iter().filter(|a| a.path().is_ident("path")) {
            if let syn::Meta::NameValue(nv) = &attr.meta
                && let syn::Expr::Lit(lit) = &nv.value
                && let syn::Lit::Str(s) = &lit.lit
            {
                return Ok(current.join(s.value()));
            }
        }
        let candidates = [
            children.join(format!("{name}.rs")),
            children.join(name).join("mod.rs"),
        ];
        candidates
            .iter()
            .find(|c| c.is_file())
            .cloned()
            .ok_or_else(|| Error::NoModuleFile {
                module: name.to_owned(),
                looked_in: children.to_owned(),
            })
    }
}

/// Whether an item is compiled for tests only (`#[cfg(test)]`, or a
/// `cfg` that requires `test`).
fn under_test(item: &Item) -> bool {
    let attrs: &[Attribute] = match item {
        Item::Mod(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::Const(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        _ => &[],
    };
    attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .any(|a| a.parse_args::<Meta>().is_ok_and(|p| needs_test(&p)))
}

/// Whether a `cfg` predicate holds only when compiling tests: `test`, or
/// an `all(..)` with such a predicate among its parts.
fn needs_test(predicate: &Meta) -> bool {
    match predicate {
        Meta::Path(path) => path.is_ident("test"),
        Meta::List(list) if list.path.is_ident("all") => list
            .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
            .is_ok_and(|parts| parts.iter().any(needs_test)),
        _ => false,
    }
}

/// The paths a `use` tree brings in, each with the name it is known by
/// (`None` for a glob).
fn use_leaves(
    tree: &UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Option<String>, Vec<String>)>,
) {
    let leaf = |prefix: &[String], name: &syn::Ident| {
        let mut path = prefix.to_vec();
        if name != "self" {
            path.push(name.to_string());
        }
        path
    };
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        UseTree::Name(n) => {
            let path = leaf(prefix, &n.ident);
            out.push((path.last().cloned(), path));
        }
        UseTree::Rename(r) => out.push((Some(r.rename.to_string()), leaf(prefix, &r.ident))),
        UseTree::Glob(_) => out.push((None, prefix.clone())),
        UseTree::Group(g) => {
            for tree in &g.items {
                use_leaves(tree, prefix, out);
            }
        }
    }
}

/// Collects the paths of two segments or more (`a::b`, `crate::x::Y`) in
/// `tokens`, macro bodies included, and every word that is not the tail
/// of a path (a name used as this module knows it).
fn scan(tokens: TokenStream, paths: &mut Vec<Vec<String>>, words: &mut HashSet<String>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let colons = |i: usize| {
        matches!((trees.get(i), trees.get(i + 1)),
            (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':')
    };
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Group(g) => scan(g.stream(), paths, words),
            TokenTree::Ident(first) if !(i >= 2 && colons(i - 2)) => {
                let mut path = vec![first.to_string()];
                while colons(i + 1) {
                    let Some(TokenTree::Ident(next)) = trees.get(i + 3) else {
                        break;
                    };
                    path.push(next.to_string());
                    i += 3;
                }
                words.insert(path[0].clone());
                if path.len() > 1 {
                    paths.push(path);
                }
            }
            TokenTree::Ident(word) => {
                words.insert(word.to_string());
            }
            _ => {}
        }
        i += 1;
    }
}
