//! A bearer token that does not print: `Debug` hides it, so logging a
//! configuration or an account list cannot leak it.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The fewest characters an operator token may have. Whoever presents it
/// may create accounts and act for every seat, so a token short enough to
/// guess is refused at start-up rather than served.
pub const OPERATOR_TOKEN_MIN_CHARS: usize = 16;

/// An operator token (always set by `SKIT_OPERATOR_TOKEN`) that is too short.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "SKIT_OPERATOR_TOKEN is too short: {}, where an operator token needs at least {OPERATOR_TOKEN_MIN_CHARS}",
    characters(*.chars)
)]
pub struct ShortOperatorToken {
    pub chars: usize,
}

fn characters(n: usize) -> String {
    if n == 1 {
        "1 character".into()
    } else {
        format!("{n} characters")
    }
}

/// A secret string (a bearer token).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: impl Into<String>) -> Secret {
        Secret(s.into())
    }

    /// Refuses this secret as an operator token if it is shorter than
    /// [`OPERATOR_TOKEN_MIN_CHARS`] (surrounding spaces do not count).
    pub fn check_operator_token(&self) -> Result<(), ShortOperatorToken> {
        let chars = self.0.trim().chars().count();
        if chars < OPERATOR_TOKEN_MIN_CHARS {
            return Err(ShortOperatorToken { chars });
        }
        Ok(())
    }

    /// The secret itself, for the one place that must send it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<secret>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_hides_the_token() {
        let secret = Secret::new("skt_abc");
        assert_eq!(format!("{secret:?}"), "<secret>");
        assert_eq!(secret.expose(), "skt_abc");
    }

    #[test]
    fn a_short_operator_token_is_refused_naming_the_variable() {
        let err = Secret::new("x")
            .check_operator_token()
            .expect_err("one character");
        assert!(
            err.to_string()
                .starts_with("SKIT_OPERATOR_TOKEN is too short"),
            "{err}"
        );
        assert!(err.to_string().contains("at least 16"), "{err}");
        let padded = Secret::new(format!("  {}  ", "y".repeat(15)));
        assert_eq!(
            padded.check_operator_token(),
            Err(ShortOperatorToken { chars: 15 })
        );
        assert_eq!(Secret::new("y".repeat(16)).check_operator_token(), Ok(()));
    }
}
