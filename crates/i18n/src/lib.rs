//! The four languages of Skitgubbe as a service (English, Swedish,
//! Finnish, Norwegian Bokmål) for the server's messages and the terminal
//! client: [`Language`] and how one is chosen, and the Fluent catalogues
//! ([`text`]) in `locales/`. The web client has its own catalogues with
//! the same words (`crates/web/app/i18n/`). How a language is chosen and
//! how to add a message: docs/languages.md.
//!
//! Machine-readable names (error reasons and codes, field names, enum
//! values) are never translated; only text for people is.
//!
//! ```
//! use skit_i18n::{Language, text};
//!
//! let language = Language::negotiate("sv-SE,sv;q=0.9,en;q=0.8").unwrap_or_default();
//! assert_eq!(text(language, "end-resigned", &[]).as_deref(), Some("Någon gav upp"));
//! ```

mod catalogue;
mod language;

pub use catalogue::{ids, problems, source, text, text_or_english};
pub use language::Language;
