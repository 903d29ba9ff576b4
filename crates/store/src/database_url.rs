//! A database URL that keeps its password out of logs: configurations are
//! logged whole at start-up (`?config`), and a Postgres URL may carry one.

use std::fmt;
use std::ops::Deref;

use serde::{Deserialize, Serialize};

/// `postgres://user:password@host/db` or `sqlite://file?mode=rwc`; its
/// `Debug` form shows the password as `***`.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DatabaseUrl(String);

impl DatabaseUrl {
    /// The URL with any password replaced by `***`.
    pub fn redacted(&self) -> String {
        match url::Url::parse(&self.0) {
            Ok(mut parsed) if parsed.password().is_some() => {
                // Only fails for URLs that cannot have a password at all.
                let _ = parsed.set_password(Some("***"));
                parsed.into()
            }
            Ok(_) => self.0.clone(),
            Err(_) => "<a database URL that does not parse>".into(),
        }
    }
}

impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.redacted())
    }
}

impl Deref for DatabaseUrl {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl From<String> for DatabaseUrl {
    fn from(url: String) -> Self {
        Self(url)
    }
}

impl From<&str> for DatabaseUrl {
    fn from(url: &str) -> Self {
        Self(url.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_hides_the_password_only() {
        let url = DatabaseUrl::from("postgres://skit:hunter2@db.example:5432/skit");
        let shown = format!("{url:?}");
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("skit:***@db.example:5432/skit"), "{shown}");
        assert_eq!(&*url, "postgres://skit:hunter2@db.example:5432/skit");

        let sqlite = DatabaseUrl::from("sqlite://skitgubbe.db?mode=rwc");
        assert_eq!(format!("{sqlite:?}"), "\"sqlite://skitgubbe.db?mode=rwc\"");
        let odd = DatabaseUrl::from("not a url with secret");
        assert!(!format!("{odd:?}").contains("secret"));
    }
}
