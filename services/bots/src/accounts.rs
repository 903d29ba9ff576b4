//! The accounts file: which bot accounts this worker plays, with their
//! tokens and strategies. JSON, written by provisioning and editable by
//! hand; the only state the worker keeps.
//!
//! ```json
//! {"accounts": [{"name": "bot-greedy-1", "token": "skt_...", "strategy": "greedy", "account_id": "7"}]}
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use skit_api::Secret;

/// One bot account the worker plays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotAccount {
    pub name: String,
    pub token: Secret,
    /// `random`, `greedy` or `search`.
    pub strategy: String,
    /// Known when the worker created the account; informational.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account_id: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountsFile {
    pub accounts: Vec<BotAccount>,
}

#[derive(Debug, thiserror::Error)]
pub enum AccountsError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not an accounts file: {source}")]
    Parse {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("{path}: accounts[{index}].{field}: {message}")]
    Invalid {
        path: PathBuf,
        index: usize,
        field: &'static str,
        message: String,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl AccountsFile {
    /// The file at `path`; a missing file is an empty list.
    pub fn load(path: &Path) -> Result<AccountsFile, AccountsError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(AccountsFile::default());
            }
            Err(source) => {
                return Err(AccountsError::Read {
                    path: path.into(),
                    source,
                });
            }
        };
        let file: AccountsFile =
            serde_json::from_str(&text).map_err(|source| AccountsError::Parse {
                path: path.into(),
                source,
            })?;
        file.check(path)?;
        Ok(file)
    }

    fn check(&self, path: &Path) -> Result<(), AccountsError> {
        for (index, account) in self.accounts.iter().enumerate() {
            let invalid = |field, message: String| AccountsError::Invalid {
                path: path.into(),
                index,
                field,
                message,
            };
            if account.name.trim().is_empty() {
                return Err(invalid("name", "must not be empty".into()));
            }
            if account.token.expose().trim().is_empty() {
                return Err(invalid("token", "must not be empty".into()));
            }
            if let Some(reason) = skit_bots::refused_as_player(&account.strategy) {
                return Err(invalid("strategy", reason.into()));
            }
            if !skit_bots::NAMES.contains(&account.strategy.as_str()) {
                return Err(invalid(
                    "strategy",
                    format!(
                        "{:?} is not one of {}",
                        account.strategy,
                        skit_bots::NAMES.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Writes the file whole (a temporary file renamed over it), readable
    /// by its owner only: it holds tokens.
    pub fn save(&self, path: &Path) -> Result<(), AccountsError> {
        let error = |source| AccountsError::Write {
            path: path.into(),
            source,
        };
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let text = serde_json::to_string_pretty(self).map_err(|e| error(e.into()))?;
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(error)?;
        tmp.write_all(text.as_bytes()).map_err(error)?;
        tmp.write_all(b"\n").map_err(error)?;
        tmp.as_file().sync_all().map_err(error)?;
        tmp.persist(path).map_err(|e| error(e.error))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(strategy: &str) -> BotAccount {
        BotAccount {
            name: "b".into(),
            token: Secret::new("skt_x"),
            strategy: strategy.into(),
            account_id: Some("3".into()),
        }
    }

    #[test]
    fn saves_and_loads_again() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("bots.json");
        assert_eq!(
            AccountsFile::load(&path).expect("missing"),
            AccountsFile::default()
        );
        let file = AccountsFile {
            accounts: vec![account("greedy"), account("search")],
        };
        file.save(&path).expect("save");
        assert_eq!(AccountsFile::load(&path).expect("load"), file);
    }

    #[test]
    fn an_unknown_strategy_is_named() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("bots.json");
        std::fs::write(
            &path,
            r#"{"accounts":[{"name":"a","token":"t","strategy":"greedy"},{"name":"b","token":"t","strategy":"clever"}]}"#,
        )
        .expect("write");
        let err = AccountsFile::load(&path).expect_err("clever is unknown");
        let text = err.to_string();
        assert!(text.contains("accounts[1].strategy"), "{text}");
        assert!(text.contains("clever"), "{text}");
    }

    #[test]
    fn the_omniscient_bot_cannot_be_an_account() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("bots.json");
        std::fs::write(
            &path,
            r#"{"accounts":[{"name":"a","token":"t","strategy":"omniscient"}]}"#,
        )
        .expect("write");
        let text = AccountsFile::load(&path)
            .expect_err("omniscient is refused")
            .to_string();
        assert!(text.contains("accounts[0].strategy"), "{text}");
        assert!(text.contains("sees every hand"), "{text}");
        assert!(text.contains("never plays or is rated"), "{text}");
    }
}
