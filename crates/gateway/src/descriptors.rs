//! The `skitgubbe.v1` descriptors, read from the set compiled into
//! `skit-proto`, and the `.proto` comments attached to them, so the query
//! decoder and the OpenAPI document follow the `.proto` and cannot drift.

use std::collections::HashMap;
use std::sync::LazyLock;

use prost_reflect::{DescriptorPool, FileDescriptor};

/// The set, decoded once.
static POOL: LazyLock<DescriptorPool> = LazyLock::new(|| {
    DescriptorPool::decode(skit_proto::FILE_DESCRIPTOR_SET).unwrap_or_else(|error| {
        tracing::error!(%error, "skit-proto descriptor set does not decode");
        DescriptorPool::new()
    })
});

/// The pool of `skit_proto::FILE_DESCRIPTOR_SET`. The set is produced by
/// `skit-proto`'s build script and checked by its tests, so decoding cannot
/// fail in a correct build; if it did, the gateway still serves every JSON
/// body route and the descriptor-driven parts answer 500 naming the cause
/// (a refused body then names its field without saying what it expected).
pub fn pool() -> DescriptorPool {
    POOL.clone()
}

/// Leading comments by source path, for one pool's files.
#[derive(Debug, Default)]
pub struct Comments {
    by_file: HashMap<String, HashMap<Vec<i32>, String>>,
}

impl Comments {
    pub fn new(pool: &DescriptorPool) -> Self {
        let by_file = pool
            .files()
            .map(|file| (file.name().to_owned(), file_comments(&file)))
            .collect();
        Self { by_file }
    }

    /// The leading comment of the element at `path` in `file`, trimmed.
    pub fn get(&self, file: &str, path: &[i32]) -> Option<&str> {
        self.by_file.get(file)?.get(path).map(String::as_str)
    }
}

fn file_comments(file: &FileDescriptor) -> HashMap<Vec<i32>, String> {
    let Some(info) = &file.file_descriptor_proto().source_code_info else {
        return HashMap::new();
    };
    info.location
        .iter()
        .filter_map(|location| {
            let text = location.leading_comments.as_deref()?;
            let text = text
                .lines()
                .map(str::trim)
                .collect::<Vec<_>>()
                .join("\n")
                .trim()
                .to_owned();
            (!text.is_empty()).then(|| (location.path.clone(), text))
        })
        .collect()
}
