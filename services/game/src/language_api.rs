//! The language a person chose to read (AccountService's SetLanguage, and
//! WhoAmI's `language`): one of the four the service speaks, kept with the
//! account. Clients show their text in it, and error messages follow it
//! before Accept-Language (docs/languages.md).

use skit_api::ApiError;
use skit_i18n::Language;
use skit_proto::v1::WhoAmIResponse;

use crate::account_messages::{api_kind, owner_id};
use crate::account_service::AccountApi;
use crate::auth::Caller;
use crate::error::store_error;

/// The request's `language`: one of the four, by its primary subtag
/// (`sv-SE` is `sv`); empty clears the choice. Any other tag is refused,
/// naming the field.
pub(crate) fn chosen_language(tag: &str) -> Result<Option<Language>, ApiError> {
    if tag.trim().is_empty() {
        return Ok(None);
    }
    Language::parse(tag).map(Some).ok_or_else(|| {
        ApiError::invalid(
            "language",
            format!("{tag:?} is not a language this service speaks (en, sv, fi, nb)"),
        )
    })
}

impl AccountApi {
    /// Who the caller is, as WhoAmI answers, with the language they chose.
    pub(crate) async fn identity(&self, caller: Caller) -> Result<WhoAmIResponse, ApiError> {
        let language = self
            .state
            .store
            .account_language(caller.account.id)
            .await
            .map_err(store_error)?
            .unwrap_or_default();
        let scopes = caller
            .scopes()
            .iter()
            .map(|s| s.as_str().to_owned())
            .collect();
        Ok(WhoAmIResponse {
            account_id: caller.account.id.to_string(),
            owner_account_id: owner_id(&caller.account),
            name: caller.account.name,
            kind: api_kind(caller.account.kind) as i32,
            scopes,
            language,
        })
    }

    /// Keeps (or clears) the caller's choice of language.
    pub(crate) async fn set_language(
        &self,
        caller: Caller,
        tag: &str,
    ) -> Result<WhoAmIResponse, ApiError> {
        let language = chosen_language(tag)?;
        self.state
            .store
            .set_account_language(caller.account.id, language.map(Language::tag))
            .await
            .map_err(store_error)?;
        self.identity(caller).await
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_language_is_one_of_four_or_none() {
        assert_eq!(chosen_language("sv-SE").unwrap(), Some(Language::Sv));
        assert_eq!(chosen_language("nb").unwrap(), Some(Language::Nb));
        assert_eq!(chosen_language("").unwrap(), None);
        let refused = chosen_language("de").unwrap_err();
        assert_eq!(refused.violations()[0].field, "language");
    }
}
