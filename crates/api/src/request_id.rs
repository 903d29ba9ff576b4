//! Idempotency keys: the `request_id` a client chooses so that resending a
//! request whose answer was lost returns the first answer instead of doing
//! the work twice (CreateGame, CreateGuest, Enqueue). One check for every
//! service, so the same id is accepted or refused alike everywhere.

use crate::ApiError;

/// The longest request id accepted, in characters.
pub const REQUEST_ID_MAX_CHARS: usize = 128;

/// The request id in `field`, if one was given (empty: none, the request
/// is not deduplicated). Refused, naming `field`, when longer than
/// [`REQUEST_ID_MAX_CHARS`] or holding a control character (NUL included:
/// neither database stores every one, and no client needs them).
pub fn request_id<'a>(text: &'a str, field: &str) -> Result<Option<&'a str>, ApiError> {
    if text.chars().count() > REQUEST_ID_MAX_CHARS {
        return Err(ApiError::invalid(
            field,
            format!("at most {REQUEST_ID_MAX_CHARS} characters"),
        ));
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(ApiError::invalid(
            field,
            format!("no control characters (found U+{:04X})", u32::from(c)),
        ));
    }
    Ok(Some(text).filter(|t| !t.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_means_no_deduplication() {
        assert_eq!(request_id("", "request_id"), Ok(None));
        assert_eq!(request_id("q-1", "request_id"), Ok(Some("q-1")));
    }

    #[test]
    fn a_long_id_is_refused_naming_the_field() {
        let long = "é".repeat(REQUEST_ID_MAX_CHARS + 1);
        let error = request_id(&long, "request_id").expect_err("too long");
        assert_eq!(error.violations()[0].field, "request_id");
        assert!(request_id(&"é".repeat(REQUEST_ID_MAX_CHARS), "request_id").is_ok());
    }

    #[test]
    fn control_characters_are_refused() {
        for bad in ["a\0b", "tab\there", "line\n", "\u{7f}", "\u{85}"] {
            let error = request_id(bad, "request_id").expect_err(bad);
            assert_eq!(error.violations()[0].field, "request_id", "{bad:?}");
            assert!(error.message().contains("control"), "{error}");
        }
    }
}
