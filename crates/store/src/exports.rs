//! Finished games for export (the game service's ExportGames), a page at a
//! time in the order they were marked over, then by id: filtered by when
//! they were marked over, by tournament and by a seated account. Voided
//! games are left out (they have no result), and so is every game not
//! over.

use time::OffsetDateTime;

use crate::{AccountId, Error, GameId, Store, rows};

/// How the league service names a tournament table's game when it creates
/// it as the operator: request id `tournament/{tournament id}/{round}/{table}`.
pub const TOURNAMENT_REQUEST_PREFIX: &str = "tournament/";

/// Which finished games a page holds: every filter given must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportFilter {
    /// Marked over at or after this time.
    pub finished_from: Option<OffsetDateTime>,
    /// Marked over before this time.
    pub finished_before: Option<OffsetDateTime>,
    /// Created by an operator for a table of this tournament.
    pub tournament_id: Option<String>,
    /// With this account in a seat.
    pub account: Option<AccountId>,
}

/// Where a page starts: after this game in the order of export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FinishedAfter {
    pub finished_at: OffsetDateTime,
    pub game_id: GameId,
}

/// One game of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    pub game_id: GameId,
    /// When the game was marked over.
    pub finished_at: OffsetDateTime,
    /// The tournament an operator created the game for, if any.
    pub tournament_id: Option<String>,
}

impl Finished {
    /// The page that follows this game.
    pub fn after(&self) -> FinishedAfter {
        FinishedAfter {
            finished_at: self.finished_at,
            game_id: self.game_id,
        }
    }
}

/// `$1`/`$2` the time range, `$3`/`$4` the game the page starts after,
/// `$5` the seated account, `$6` the request ids' prefix, `$7` the limit.
/// The request id counts only on an operator's game, so no player can put
/// a game of theirs into a tournament's export.
const FINISHED_PAGE: &str = "SELECT g.id, g.finished_at, \
     CASE WHEN g.created_by IN (SELECT id FROM accounts WHERE kind = 'operator') \
     THEN g.request_id END \
     FROM games g \
     WHERE g.status = 'over' AND g.voided_at IS NULL \
     AND g.finished_at >= $1 AND g.finished_at < $2 \
     AND (g.finished_at > $3 OR (g.finished_at = $3 AND g.id > $4)) \
     AND ($5 IS NULL OR EXISTS \
         (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.account_id = $5)) \
     AND ($6 IS NULL OR (substr(g.request_id, 1, length($6)) = $6 \
         AND g.created_by IN (SELECT id FROM accounts WHERE kind = 'operator'))) \
     ORDER BY g.finished_at, g.id LIMIT $7";

/// The tournament a request id names, if it is a tournament table's.
fn tournament_of(request_id: &str) -> Option<String> {
    let rest = request_id.strip_prefix(TOURNAMENT_REQUEST_PREFIX)?;
    let (id, _) = rest.split_once('/')?;
    (!id.is_empty()).then(|| id.to_owned())
}

impl Store {
    /// Up to `limit` finished games that `filter` lets through, in the
    /// order they were marked over (then by id), from after `after` on
    /// (`None`: from the first).
    pub async fn finished_games_page(
        &self,
        filter: &ExportFilter,
        after: Option<FinishedAfter>,
        limit: u32,
    ) -> Result<Vec<Finished>, Error> {
        let earliest = OffsetDateTime::UNIX_EPOCH;
        let latest = OffsetDateTime::now_utc() + time::Duration::days(36_500);
        let (after_at, after_id) = match after {
            Some(after) => (after.finished_at, after.game_id.to_string()),
            None => (earliest, String::new()),
        };
        let prefix = filter
            .tournament_id
            .as_ref()
            .map(|id| format!("{TOURNAMENT_REQUEST_PREFIX}{id}/"));
        let params = (
            filter.finished_from.unwrap_or(earliest),
            filter.finished_before.unwrap_or(latest),
            after_at,
            after_id,
            filter.account.map(|a| a.0),
            prefix,
            i64::from(limit),
        );
        let found: Vec<(String, OffsetDateTime, Option<String>)> =
            self.db.fetch_all(FINISHED_PAGE, params).await?;
        found
            .into_iter()
            .map(|(id, finished_at, request_id)| {
                Ok(Finished {
                    game_id: rows::parse_game_id(&id)?,
                    finished_at,
                    tournament_id: request_id.as_deref().and_then(tournament_of),
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_tournament_tables_request_id_names_a_tournament() {
        let id = "0b7e4c56-3f1a-4d8e-9a51-6f2c1d0e9b3a";
        let table = format!("tournament/{id}/2/5");
        assert_eq!(tournament_of(&table).as_deref(), Some(id));
        assert_eq!(tournament_of("tournament//1/1"), None);
        assert_eq!(tournament_of("tournament/only"), None);
        assert_eq!(tournament_of("match/42"), None);
    }
}
