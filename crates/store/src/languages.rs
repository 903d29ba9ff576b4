//! The language each account chose to read (`account_languages`): a tag
//! the service checked (`en`, `sv`, `fi`, `nb`), or none.

use crate::{AccountId, Error, Store};

const GET: &str = "SELECT language FROM account_languages WHERE account_id = $1";

const SET: &str = "INSERT INTO account_languages (account_id, language) VALUES ($1, $2) \
     ON CONFLICT (account_id) DO UPDATE SET language = excluded.language";

const CLEAR: &str = "DELETE FROM account_languages WHERE account_id = $1";

impl Store {
    /// The language account `id` chose; `None` if it chose none.
    pub async fn account_language(&self, id: AccountId) -> Result<Option<String>, Error> {
        let row: Option<(String,)> = self.db.fetch_optional(GET, (id.0,)).await?;
        Ok(row.map(|(language,)| language))
    }

    /// Sets the language account `id` chose; `None` clears the choice.
    pub async fn set_account_language(
        &self,
        id: AccountId,
        language: Option<&str>,
    ) -> Result<(), Error> {
        let _turn = self.db.write_turn().await;
        match language {
            Some(language) => self.db.execute(SET, (id.0, language)).await?,
            None => self.db.execute(CLEAR, (id.0,)).await?,
        };
        Ok(())
    }
}
