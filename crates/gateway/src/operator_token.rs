//! The operator token a service calls the game service with, followed in
//! its file (`SKIT_OPERATOR_TOKEN_FILE`, a mounted secret) so a rotation
//! needs no restart: when the file's contents change, the new token is
//! used from then on, and the one before is kept to fall back on while the
//! game service does not know the new one yet (its instances learn it as
//! they restart; until then the old one stays valid for the rotation's
//! grace period, docs/accounts.md).

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use skit_api::Secret;

/// How often the file is read again, at most.
const RECHECK: Duration = Duration::from_secs(1);

/// The token now and the one before it.
#[derive(Debug)]
pub struct OperatorToken {
    file: Option<PathBuf>,
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    current: Secret,
    previous: Option<Secret>,
    checked: Instant,
}

impl OperatorToken {
    /// A token that never changes.
    pub fn fixed(token: Secret) -> Self {
        Self {
            file: None,
            state: Mutex::new(State {
                current: token,
                previous: None,
                checked: Instant::now(),
            }),
        }
    }

    /// `token`, as read from `file`, which is read again (at most once a
    /// second) whenever the token is asked for.
    pub fn followed(file: PathBuf, token: Secret) -> Self {
        Self {
            file: Some(file),
            ..Self::fixed(token)
        }
    }

    /// The token to call with now.
    pub fn current(&self) -> Secret {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(file) = &self.file
            && state.checked.elapsed() >= RECHECK
        {
            state.checked = Instant::now();
            match std::fs::read_to_string(file) {
                Ok(text) => {
                    let read = text.trim();
                    if !read.is_empty() && read != state.current.expose() {
                        match Secret::new(read).check_operator_token() {
                            Ok(()) => {
                                tracing::info!(file = %file.display(), "the operator token changed; calling with the new one");
                                let old = std::mem::replace(&mut state.current, Secret::new(read));
                                state.previous = Some(old);
                            }
                            Err(error) => {
                                tracing::warn!(file = %file.display(), %error, "the operator token's file holds a token too short; keeping the current one");
                            }
                        }
                    }
                }
                Err(error) => {
                    tracing::warn!(file = %file.display(), %error, "cannot read the operator token's file; keeping the current token");
                }
            }
        }
        state.current.clone()
    }

    /// The token before the latest change, if it changed.
    pub fn previous(&self) -> Option<Secret> {
        let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.previous.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_token_in_the_file_is_used_and_the_old_one_kept_to_fall_back_on() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("operator-token");
        std::fs::write(&file, "first-operator-token\n").expect("write");
        let token = OperatorToken::followed(file.clone(), Secret::new("first-operator-token"));
        assert_eq!(token.current().expose(), "first-operator-token");
        assert!(token.previous().is_none());

        std::fs::write(&file, "second-operator-token\n").expect("rotate");
        std::thread::sleep(RECHECK);

        assert_eq!(token.current().expose(), "second-operator-token");
        assert_eq!(
            token.previous().map(|t| t.expose().to_owned()).as_deref(),
            Some("first-operator-token")
        );
    }

    #[test]
    fn a_short_or_missing_token_in_the_file_keeps_the_current_one() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("operator-token");
        std::fs::write(&file, "short").expect("write");
        let token = OperatorToken::followed(file.clone(), Secret::new("first-operator-token"));
        std::thread::sleep(RECHECK);
        assert_eq!(token.current().expose(), "first-operator-token");

        std::fs::remove_file(&file).expect("remove");
        std::thread::sleep(RECHECK);
        assert_eq!(token.current().expose(), "first-operator-token");
        assert!(token.previous().is_none());
    }
}
