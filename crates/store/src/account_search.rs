//! Finding accounts for operators: by name (exact or prefix, ignoring
//! case: of every letter on PostgreSQL, of ASCII letters on SQLite, whose
//! LOWER folds no other), kind and status, a page at a time; and how many
//! games an account has played.

use crate::rows::AccountRow;
use crate::{Account, AccountId, AccountKind, AccountStatus, Error, Store, sql};

/// What [`Store::find_accounts`] matches; `None` matches any.
#[derive(Debug, Clone, Default)]
pub struct AccountQuery {
    /// The whole name, or (with `name_prefix`) its start.
    pub name: Option<String>,
    pub name_prefix: bool,
    pub kind: Option<AccountKind>,
    pub status: Option<AccountStatus>,
    /// Only accounts with a larger id (the previous page's last).
    pub after: Option<AccountId>,
}

/// How many games an account sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameCounts {
    pub total: i64,
    /// Not over yet.
    pub running: i64,
}

const FIND_ACCOUNTS: &str = concat!(
    "SELECT ",
    sql::account_columns!(),
    " FROM accounts WHERE ($1 IS NULL OR LOWER(name) = LOWER($1)) \
     AND ($2 IS NULL OR LOWER(name) LIKE LOWER($2) ESCAPE '\\') \
     AND ($3 IS NULL OR kind = $3) AND ($4 IS NULL OR status = $4) \
     AND ($5 IS NULL OR id > $5) ORDER BY id LIMIT $6"
);

const GAMES_OF_ACCOUNT: &str = "SELECT COUNT(DISTINCT game_id) FROM seats WHERE account_id = $1";

const RUNNING_GAMES_OF_ACCOUNT: &str =
    "SELECT COUNT(DISTINCT game_id) FROM seats WHERE account_id = $1 AND NOT over";

/// `text` as a LIKE pattern matching itself at the start of a name.
fn prefix_pattern(text: &str) -> String {
    let mut pattern = String::with_capacity(text.len() + 1);
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

impl Store {
    /// Accounts `query` matches, by ascending id, at most `limit`.
    pub async fn find_accounts(
        &self,
        query: &AccountQuery,
        limit: u32,
    ) -> Result<Vec<Account>, Error> {
        let (exact, prefix) = match (query.name.clone(), query.name_prefix) {
            (Some(name), true) => (None, Some(prefix_pattern(&name))),
            (name, _) => (name, None),
        };
        let params = (
            exact,
            prefix,
            query.kind.map(AccountKind::as_str),
            query.status.map(AccountStatus::as_str),
            query.after.map(|a| a.0),
            i64::from(limit),
        );
        let rows: Vec<AccountRow> = self.db.fetch_all(FIND_ACCOUNTS, params).await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }

    /// How many games `account` sits in, and how many of them still run.
    pub async fn game_counts(&self, account: AccountId) -> Result<GameCounts, Error> {
        let (total,): (i64,) = self.db.fetch_one(GAMES_OF_ACCOUNT, (account.0,)).await?;
        let (running,): (i64,) = self
            .db
            .fetch_one(RUNNING_GAMES_OF_ACCOUNT, (account.0,))
            .await?;
        Ok(GameCounts { total, running })
    }
}

#[cfg(test)]
mod tests {
    use super::prefix_pattern;

    #[test]
    fn a_prefix_matches_its_wildcards_literally() {
        assert_eq!(prefix_pattern("a_b%c\\"), "a\\_b\\%c\\\\%");
    }
}
