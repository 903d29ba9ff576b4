//! A bearer token that does not print: `Debug` hides it, so logging a
//! configuration or an account list cannot leak it.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A secret string (a bearer token).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: impl Into<String>) -> Secret {
        Secret(s.into())
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
}
