//! ExportGames' pages: how many games one holds, and the token that says
//! where the next one starts.

use skit_api::ApiError;
use skit_store::{Finished, FinishedAfter, GameId};
use time::OffsetDateTime;

/// Games per page when the request does not say.
const DEFAULT_PAGE: u32 = 100;
/// The most games per page.
const MAX_PAGE: u32 = 1000;
/// The most games per page with each seat's views: a game's views are
/// some hundred times its record.
const MAX_PAGE_WITH_VIEWS: u32 = 100;

/// The page size to use for `asked` (0: the default), lowered to the cap.
pub(super) fn page_size(asked: u32, seat_views: bool) -> u32 {
    let cap = if seat_views {
        MAX_PAGE_WITH_VIEWS
    } else {
        MAX_PAGE
    };
    match asked {
        0 => DEFAULT_PAGE,
        n => n,
    }
    .min(cap)
}

/// A page token: the last exported game's time of finishing (microseconds
/// since the epoch) and id.
pub(super) fn page_token(last: &Finished) -> String {
    let micros = last.finished_at.unix_timestamp_nanos() / 1_000;
    format!("{micros}_{}", last.game_id)
}

/// Where the page `token` asks for starts; `None` for the first page.
pub(super) fn page_after(token: &str) -> Result<Option<FinishedAfter>, ApiError> {
    if token.is_empty() {
        return Ok(None);
    }
    let refused = || {
        ApiError::invalid(
            "page_token",
            "not a page token of ExportGames: pass a previous page's next_page_token as it came",
        )
    };
    let (micros, game_id) = token.split_once('_').ok_or_else(refused)?;
    let micros: i128 = micros.parse().map_err(|_| refused())?;
    let finished_at = micros
        .checked_mul(1_000)
        .and_then(|nanos| OffsetDateTime::from_unix_timestamp_nanos(nanos).ok())
        .ok_or_else(refused)?;
    let game_id: GameId = game_id.parse().map_err(|_| refused())?;
    Ok(Some(FinishedAfter {
        finished_at,
        game_id,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_sizes_default_and_are_capped() {
        assert_eq!(page_size(0, false), 100);
        assert_eq!(page_size(7, false), 7);
        assert_eq!(page_size(5000, false), 1000);
        assert_eq!(page_size(0, true), 100);
        assert_eq!(page_size(500, true), 100);
    }

    #[test]
    fn page_tokens_round_trip_and_nonsense_is_refused() {
        let finished = Finished {
            game_id: "5f0c6c2e-8d2a-4a3b-9d4e-1c2b3a4d5e6f"
                .parse()
                .expect("an id"),
            finished_at: OffsetDateTime::from_unix_timestamp_nanos(1_700_000_000_123_456_000)
                .expect("in range"),
            tournament_id: None,
        };
        let after = page_after(&page_token(&finished));
        assert_eq!(after.ok().flatten(), Some(finished.after()));
        assert_eq!(page_after("").ok().flatten(), None);
        for nonsense in [
            "x",
            "12_not-a-game",
            "_5f0c6c2e-8d2a-4a3b-9d4e-1c2b3a4d5e6f",
        ] {
            let refused = page_after(nonsense).err().map(|e| e.to_string());
            assert!(
                refused.as_deref().is_some_and(|e| e.contains("page_token")),
                "{nonsense}: {refused:?}"
            );
        }
    }
}
