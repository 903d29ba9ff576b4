//! The turn index: who may act in each game, kept on the seats by the
//! append that changes it (migrations `*_turns.sql`), and the pages of an
//! account's games that ListGames reads through it and the seats' other
//! indexes. A page costs its own size whatever the number of games the
//! account sits in.

use time::OffsetDateTime;

use crate::{AccountId, Error, GameId, Store, rows};

/// Which of an account's games a page lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// Every game, over or not.
    All,
    /// Games not over.
    Running,
    /// Games not over where the account may act, or where no append has
    /// said who may (the caller looks at those itself).
    MayAct,
}

/// Where a page starts: after this game in the order of listing (newest
/// first, then by id).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageAfter {
    pub created_at: OffsetDateTime,
    pub game_id: GameId,
}

/// One game of a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listed {
    pub game_id: GameId,
    pub created_at: OffsetDateTime,
}

impl Listed {
    /// The page that follows this game.
    pub fn after(&self) -> PageAfter {
        PageAfter {
            created_at: self.created_at,
            game_id: self.game_id,
        }
    }
}

/// The seats' rows of one account, newest game first, from `$2`/`$3`
/// (`created_at`, `game_id`) on, at most `$4`: each listing is one range of
/// its own index (`seats_newest`, `seats_running`, `seats_to_act`).
macro_rules! page_of {
    ($filter:literal) => {
        concat!(
            "SELECT DISTINCT game_id, game_created_at FROM seats WHERE account_id = $1",
            $filter,
            " AND (game_created_at < $2 OR (game_created_at = $2 AND game_id > $3)) \
             ORDER BY game_created_at DESC, game_id LIMIT $4"
        )
    };
}

pub(crate) const PAGE_ALL: &str = page_of!("");
pub(crate) const PAGE_RUNNING: &str = page_of!(" AND NOT over");
pub(crate) const PAGE_MAY_ACT: &str = page_of!(" AND to_act IS NOT FALSE AND NOT over");

impl Store {
    /// Up to `limit` of `account`'s games as `listing` says, newest first,
    /// starting after `after` (`None`: from the newest).
    pub async fn account_games_page(
        &self,
        account: AccountId,
        listing: Listing,
        after: Option<PageAfter>,
        limit: u32,
    ) -> Result<Vec<Listed>, Error> {
        let query = match listing {
            Listing::All => PAGE_ALL,
            Listing::Running => PAGE_RUNNING,
            Listing::MayAct => PAGE_MAY_ACT,
        };
        // Later than any game: the first page.
        let (created_at, game_id) = match after {
            Some(after) => (after.created_at, after.game_id.to_string()),
            None => (
                OffsetDateTime::now_utc() + time::Duration::days(36_500),
                String::new(),
            ),
        };
        let params = (account.0, created_at, game_id, i64::from(limit));
        let found: Vec<(String, OffsetDateTime)> = self.db.fetch_all(query, params).await?;
        found
            .into_iter()
            .map(|(id, created_at)| {
                Ok(Listed {
                    game_id: rows::parse_game_id(&id)?,
                    created_at,
                })
            })
            .collect()
    }
}
