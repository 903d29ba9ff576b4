//! Registered names: what a person may be called, and when two names are
//! one. A registered name is first a name as every account's is
//! (`skit_api::text::name`: trimmed, 1 to 40 characters, no control or
//! bidirectional formatting characters). It is then put in NFC (composed
//! form: `Zoe` + U+0308 is `Zoë`) and must be at least
//! [`REGISTERED_MIN_CHARS`] characters of letters, digits, combining marks,
//! single spaces and `-`, `_`, `.`: it starts with a letter or digit, ends
//! with one (or its marks), and a mark follows a letter, a digit or another
//! mark, so a name can be read aloud and typed back (`लक्ष्मी`, `ณัฐพงษ์`).
//!
//! Two names are one if their [`key`]s are equal: compatibility forms
//! (NFKC: a full-width `Ａ` is `A`, the ligature `ﬁ` is `fi`) and case
//! (Unicode's full case folding: `ß`, `ẞ` and `SS` alike) make no
//! difference. And a name may not be registered while another looks like
//! it: two names with one [`skeleton`] (UTS #39's confusable skeleton of
//! the key, so a Cyrillic `Ѕ` reads as a Latin `S`) cannot both be held.

use skit_api::ApiError;
use skit_store::Registration;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use unicode_security::confusable_detection;

/// The rule [`key`] and [`skeleton`] follow; keys stored under an older
/// rule are recomputed when the service starts (`rekey`).
pub const NAME_RULE: i64 = 2;

/// The fewest characters a registered name has.
pub const REGISTERED_MIN_CHARS: usize = 3;

/// The punctuation a registered name may hold between letters and digits.
const INNER_PUNCTUATION: [char; 4] = [' ', '-', '_', '.'];

/// `value` (the request field `field`) as a registered name, trimmed; or
/// INVALID_ARGUMENT naming the field and the rule it breaks.
pub fn registered(field: &str, value: &str) -> Result<String, ApiError> {
    let name: String = skit_api::text::name(field, value)?.nfc().collect();
    let chars: Vec<char> = name.chars().collect();
    if chars.len() < REGISTERED_MIN_CHARS {
        return Err(ApiError::invalid(
            field,
            format!("a registered name must be at least {REGISTERED_MIN_CHARS} characters"),
        ));
    }
    for (at, &c) in chars.iter().enumerate() {
        let previous = at.checked_sub(1).map(|p| chars[p]);
        let last = at + 1 == chars.len();
        let after_letter = previous.is_some_and(|p| p.is_alphanumeric() || is_combining_mark(p));
        let fine = c.is_alphanumeric()
            || is_combining_mark(c) && after_letter
            || INNER_PUNCTUATION.contains(&c)
                && at > 0
                && !last
                && !(c == ' ' && previous == Some(' '));
        if !fine {
            return Err(ApiError::invalid(
                field,
                format!(
                    "a registered name holds letters (with their marks), digits, single spaces \
                     and - _ . between them, and starts and ends with a letter or digit (U+{:04X} \
                     at character {at})",
                    u32::from(c)
                ),
            ));
        }
    }
    Ok(name)
}

/// The key two names share exactly when they are one name: NFKC, then
/// Unicode's full case folding (`ẞ`, `ß` and `SS` all fold to `ss`), then
/// NFKC again, which folding may have undone.
pub fn key(name: &str) -> String {
    let compatible: String = name.trim().nfkc().collect();
    let folded = caseless::default_case_fold_str(&compatible);
    folded.nfkc().collect()
}

/// The confusable skeleton (UTS #39) of the name's [`key`]: names that
/// look alike (`Ѕtraße` with a Cyrillic `Ѕ`, and `Straße`) share it.
pub fn skeleton(name: &str) -> String {
    confusable_detection::skeleton(&key(name)).collect()
}

/// What registering `name` stores: its key and skeleton under the current
/// rule, and the password hash.
pub fn registration(name: &str, password_hash: Option<String>) -> Registration {
    Registration {
        name_key: key(name),
        name_skeleton: skeleton(name),
        name_rule: NAME_RULE,
        password_hash,
    }
}

/// The key under rule 1 (upper then lower case, which is not full case
/// folding): how names registered before [`NAME_RULE`] were found, kept so
/// that one whose new key another account already held still signs in.
pub fn legacy_key(name: &str) -> String {
    let compatible: String = name.trim().nfkc().collect();
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
        assert_eq!(key("STRAẞE"), key("Straße"), "capital sharp s");
        assert_eq!(key("ΣΟΦΟΣ"), key("σοφος"), "final sigma folds as sigma");
        assert_eq!(key("Ａｄａ"), key("ada"), "full-width forms");
        assert_eq!(key("Ǆemal"), key("džemal"), "a compatibility ligature");
        assert_eq!(key("Åsa"), key("A\u{030A}sa"), "composed and decomposed");
        assert_ne!(key("Ada"), key("Adam"));
        assert_ne!(
            legacy_key("STRAẞE"),
            legacy_key("Straße"),
            "rule 1 missed it"
        );
    }

    #[test]
    fn look_alike_names_share_a_skeleton() {
        assert_eq!(skeleton("\u{0405}traße"), skeleton("Straße"), "Cyrillic Ѕ");
        assert_eq!(skeleton("раураl"), skeleton("paypal"), "Cyrillic letters");
        assert_ne!(skeleton("Ada"), skeleton("Eva"));
        assert_ne!(
            key("\u{0405}traße"),
            key("Straße"),
            "different names all the same"
        );
    }

    #[test]
    fn names_with_combining_marks_are_composed_and_accepted() {
        assert_eq!(registered("name", "Zoe\u{0308}").as_deref(), Ok("Zoë"));
        assert_eq!(key("Zoe\u{0308}"), key("Zoë"));
        for name in ["लक्ष्मी", "ณัฐพงษ์", "Nguyễn Văn", "Zoë"] {
            assert_eq!(registered("name", name).as_deref(), Ok(name), "{name}");
        }
        assert!(rule("\u{0301}Ada").contains("U+0301 at character 0"));
        assert!(rule("Ada-\u{0301}x").contains("U+0301 at character 4"));
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
