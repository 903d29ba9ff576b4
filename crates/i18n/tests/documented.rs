//! The catalogue of error reasons is documented: docs/errors.md names
//! every reason the English catalogue has a message for, so a client
//! developer can look up each reason the services give.

use skit_i18n::{Language, ids};

/// A catalogue message that is not a reason of its own: what an
/// `invalid_argument` that names no field says.
const NOT_A_REASON: [&str; 1] = ["error-invalid-request"];

#[test]
fn docs_name_every_error_reason() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/errors.md");
    let docs = std::fs::read_to_string(path).expect("docs/errors.md");
    let reasons: Vec<String> = ids(Language::En)
        .into_iter()
        .filter(|id| !NOT_A_REASON.contains(&id.as_str()))
        .filter_map(|id| id.strip_prefix("error-").map(|r| r.replace('-', "_")))
        .collect();
    assert!(reasons.len() > 50, "only {} reasons", reasons.len());
    let missing: Vec<&String> = reasons
        .iter()
        .filter(|reason| !docs.contains(&format!("| `{reason}` |")))
        .collect();
    assert!(missing.is_empty(), "docs/errors.md names no {missing:?}");
}

/// The string literal `text` starts with after blanks, if any.
fn literal(text: &str) -> Option<&str> {
    let rest = text.trim_start().strip_prefix('"')?;
    rest.split('"').next()
}

/// The reasons the services' sources give by name: the second argument
/// of `ApiError::new(code, "reason", ...)`, the first of
/// `ApiError::refused("rule", ...)`.
fn reasons_in(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    for piece in source.split("ApiError::new(").skip(1) {
        if let Some((_, rest)) = piece.split_once(',')
            && let Some(reason) = literal(rest)
        {
            found.push(reason.to_owned());
        }
    }
    for piece in source.split("ApiError::refused(").skip(1) {
        if let Some(reason) = literal(piece) {
            found.push(reason.to_owned());
        }
    }
    found
}

fn rust_files(dir: &std::path::Path, files: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() && name != "target" && name != "tests" && name != "node_modules" {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn every_reason_the_services_give_is_in_the_catalogue() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut files = Vec::new();
    rust_files(&root.join("crates"), &mut files);
    rust_files(&root.join("services"), &mut files);
    let catalogue = ids(Language::En);
    let mut given = 0;
    let mut missing = Vec::new();
    for file in files {
        let source = std::fs::read_to_string(&file).expect("a source file");
        for reason in reasons_in(&source) {
            given += 1;
            if !catalogue.contains(&format!("error-{}", reason.replace('_', "-"))) {
                missing.push(format!("{reason} ({})", file.display()));
            }
        }
    }
    assert!(given > 10, "only {given} reasons found in the sources");
    assert!(missing.is_empty(), "no catalogue message for {missing:?}");
}
