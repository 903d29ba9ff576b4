//! Registered names: what a person may be called, and when two names are
//! one. A registered name is first a name as every account's is
//! (`skit_api::text::name`: trimmed, 1 to 40 characters, no control or
//! bidirectional formatting characters), and further at least
//! [`REGISTERED_MIN_CHARS`] characters of letters, digits, marks, single
//! spaces and `-`, `_`, `.`, starting and ending with a letter or digit, so
//! a name can be read aloud and typed back.
//!
//! Two names are one if their [`key`]s are equal: compatibility forms
//! (NFKC: a full-width `Ａ` is `A`, the ligature `ﬁ` is `fi`) and case
//! (`ß` and `SS` included) make no difference.

use skit_api::ApiError;
use unicode_normalization::UnicodeNormalization;

/// The fewest characters a registered name has.
pub const REGISTERED_MIN_CHARS: usize = 3;

/// The punctuation a registered name may hold between letters and digits.
const INNER_PUNCTUATION: [char; 4] = [' ', '-', '_', '.'];

/// `value` (the request field `field`) as a registered name, trimmed; or
/// INVALID_ARGUMENT naming the field and the rule it breaks.
pub fn registered(field: &str, value: &str) -> Result<String, ApiError> {
    let name = skit_api::text::name(field, value)?;
    let chars: Vec<char> = name.chars().collect();
    if chars.len() < REGISTERED_MIN_CHARS {
        return Err(ApiError::invalid(
            field,
            format!("a registered name must be at least {REGISTERED_MIN_CHARS} characters"),
        ));
    }
    for (at, &c) in chars.iter().enumerate() {
        let edge = at == 0 || at + 1 == chars.len();
        let fine = c.is_alphanumeric()
            || is_mark(c) && !edge
            || INNER_PUNCTUATION.contains(&c) && !edge && !(c == ' ' && chars[at - 1] == ' ');
        if !fine {
            return Err(ApiError::invalid(
                field,
                format!(
                    "a registered name holds letters, digits, single spaces and - _ . between \
                     them, and starts and ends with a letter or digit (U+{:04X} at character {at})",
                    u32::from(c)
                ),
            ));
        }
    }
    Ok(name)
}

/// Combining marks (accents written as a character of their own), which
/// letters in decomposed form carry.
fn is_mark(c: char) -> bool {
    matches!(u32::from(c), 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// The key two names share exactly when they are one name: NFKC, then
/// full case folding (upper then lower case, so `ß` meets `SS`), then NFKC
/// again, which the case mappings may have undone.
pub fn key(name: &str) -> String {
    let compatible: String = name.nfkc().collect();
    let folded = compatible.to_uppercase().to_lowercase();
    folded.nfkc().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(value: &str) -> String {
        let error = registered("name", value).expect_err("refused");
        assert_eq!(error.violations()[0].field, "name");
        error.violations()[0].description.clone()
    }

    #[test]
    fn names_differing_in_case_or_form_share_a_key() {
        assert_eq!(key("Ada"), key("aDA"));
        assert_eq!(key("Straße"), key("STRASSE"));
        assert_eq!(key("Ａｄａ"), key("ada"), "full-width forms");
        assert_eq!(key("Ǆemal"), key("džemal"), "a compatibility ligature");
        assert_eq!(key("Åsa"), key("A\u{030A}sa"), "composed and decomposed");
        assert_ne!(key("Ada"), key("Adam"));
    }

    #[test]
    fn a_registered_name_is_readable() {
        assert_eq!(
            registered("name", "  Ada Lovelace ").as_deref(),
            Ok("Ada Lovelace")
        );
        assert!(registered("name", "dr.who_42").is_ok());
        assert!(registered("name", "Åsa-Märta").is_ok());

        assert!(rule("Al").contains("at least 3"));
        assert!(rule("-ada").contains("starts and ends"));
        assert!(rule("ada!").contains("U+0021 at character 3"));
        assert!(rule("ada  lovelace").contains("single spaces"));
        assert!(
            rule("ada\u{202E}x").contains("bidirectional"),
            "the shared rule first"
        );
    }
}
