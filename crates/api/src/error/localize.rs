//! An error's message in the reader's language. The reason, code, fields
//! and metadata stay as they are (machine-readable English); only the
//! message changes, and only for a language other than English: the
//! English message is the one the error was made with, which clients may
//! match exactly. The text is the catalogue's entry for the reason
//! (`error-<reason>`, see `skit_i18n`), else for the error's class, filled
//! with the metadata and the first field at fault (`$field`).

use skit_i18n::{Language, text};

use super::ErrorBody;

impl ErrorBody {
    /// This body with its message in `language`; unchanged in English or
    /// when the catalogue has no entry for the reason or its class.
    pub fn localize(&mut self, language: Language) {
        if language == Language::En {
            return;
        }
        let mut args: Vec<(&str, &str)> = self
            .metadata
            .iter()
            .map(|(key, value)| (key.as_str(), value.as_str()))
            .collect();
        let field = self.field_violations.first().map(|v| v.field.as_str());
        if let Some(field) = field {
            args.push(("field", field));
        }
        let class = self.code.to_ascii_lowercase();
        // The message of a malformed request names the field at fault;
        // without one, the request as a whole is at fault.
        let entry = |reason: &str| match (reason, field) {
            ("invalid_argument", None) => "error-invalid-request".to_owned(),
            _ => format!("error-{}", reason.replace('_', "-")),
        };
        let translated = [self.reason.as_str(), class.as_str()]
            .into_iter()
            .find_map(|reason| text(language, &entry(reason), &args));
        if let Some(message) = translated {
            self.message = message;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{ApiError, ErrorBody};
    use skit_engine::MoveError;
    use skit_i18n::Language;

    #[test]
    fn only_the_message_is_translated() {
        let english = ErrorBody::from(ApiError::invalid("seat", "no seat 9"));
        let mut swedish = english.clone();
        swedish.localize(Language::Sv);

        assert_eq!(swedish.message, "Fältet seat är ogiltigt.");
        assert_eq!(swedish.reason, english.reason);
        assert_eq!(swedish.code, english.code);
        assert_eq!(swedish.field_violations, english.field_violations);
        assert_eq!(swedish.details, english.details);
    }

    #[test]
    fn english_keeps_the_message_the_error_was_made_with() {
        let english = ErrorBody::from(ApiError::stale(3, 5));
        let mut same = english.clone();
        same.localize(Language::En);
        assert_eq!(same, english);
    }

    #[test]
    fn metadata_fills_the_message_and_rules_use_the_games_words() {
        let mut stale = ErrorBody::from(ApiError::stale(3, 5));
        stale.localize(Language::Fi);
        assert!(
            stale.message.contains("5") && stale.message.contains("3"),
            "{}",
            stale.message
        );

        let mut must_beat = ErrorBody::from(ApiError::from(MoveError::MustFollow));
        must_beat.localize(Language::Nb);
        assert_eq!(
            must_beat.message,
            "Du har fargen som ble spilt ut, og må følge farge."
        );
    }

    #[test]
    fn a_reason_without_an_entry_takes_its_class_message() {
        let mut body = ErrorBody::from(ApiError::failed_precondition("seat 2 is taken"));
        body.reason = "some_new_reason".to_owned();
        body.localize(Language::Sv);
        assert_eq!(body.message, "Det går inte just nu.");

        let mut whole = ErrorBody::from(ApiError::of(crate::ErrorCode::InvalidArgument, "bad"));
        whole.localize(Language::Sv);
        assert_eq!(whole.message, "Begäran är ogiltig.");
    }
}
