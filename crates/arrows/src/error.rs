//! Why a crate could not be read: the check then says so rather than pass.

use std::path::PathBuf;

/// Why a crate could not be read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot read {file}: {source}")]
    Read {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot parse {file}: {message}")]
    Parse { file: PathBuf, message: String },
    #[error("no file for module `{module}` in {looked_in}")]
    NoModuleFile { module: String, looked_in: PathBuf },
}
