//! ListGames: the caller's games a page at a time, newest first, and the
//! long poll that waits for the caller's next turn (or the end of a game
//! the caller sits in, whose notice names every seated account). With my_turn_only the
//! store's turn index names the games where the caller may act (or may:
//! games stored before the index), so a page costs its own size however
//! many games the caller sits in; each listed game is then read as it is.

use skit_api::ApiError;
use skit_proto::v1::{GameSummary, ListGamesRequest, ListGamesResponse};
use skit_store::{GameId, Listed, Listing, PageAfter};
use time::OffsetDateTime;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;

use super::{GameApi, assignments};
use crate::auth::Caller;
use crate::convert;
use crate::error::store_error;

/// Games per page when the request does not say.
const DEFAULT_PAGE: u32 = 100;
/// The most games per page.
const MAX_PAGE: u32 = 1000;

fn page_size(asked: u32) -> u32 {
    match asked {
        0 => DEFAULT_PAGE,
        n => n.min(MAX_PAGE),
    }
}

/// A page token: the last listed game's creation time (microseconds since
/// the epoch) and id.
fn page_token(last: &Listed) -> String {
    let micros = last.created_at.unix_timestamp_nanos() / 1_000;
    format!("{micros}_{}", last.game_id)
}

fn page_after(token: &str) -> Result<Option<PageAfter>, ApiError> {
    if token.is_empty() {
        return Ok(None);
    }
    let refused = || {
        ApiError::invalid(
            "page_token",
            "not a page token of ListGames: pass a previous answer's next_page_token as it came",
        )
    };
    let (micros, game_id) = token.split_once('_').ok_or_else(refused)?;
    let micros: i128 = micros.parse().map_err(|_| refused())?;
    let created_at = micros
        .checked_mul(1_000)
        .and_then(|nanos| OffsetDateTime::from_unix_timestamp_nanos(nanos).ok())
        .ok_or_else(refused)?;
    let game_id: GameId = game_id.parse().map_err(|_| refused())?;
    Ok(Some(PageAfter {
        created_at,
        game_id,
    }))
}

impl GameApi {
    #[tracing::instrument(skip_all, fields(account = %caller.account.id))]
    pub(super) async fn list(
        &self,
        caller: Caller,
        req: ListGamesRequest,
    ) -> Result<ListGamesResponse, ApiError> {
        let after = page_after(&req.page_token)?;
        let deadline = Instant::now() + self.wait_time(req.wait_ms);
        // Subscribed before looking, so no append in between is missed.
        let mut notices = self.state.store.subscribe();
        let me = caller.account.id;
        let mut answer_now = false;
        loop {
            let page = self.page(&caller, &req, after).await?;
            if answer_now || page.games.iter().any(|g| g.my_turn) || Instant::now() >= deadline {
                return Ok(page);
            }
            // Looks again only when the answer may have changed: an append
            // after which the caller may act (the notice names who may, or
            // everyone seated when the append ends the game), or
            // a change that does not say (a new game, a seat taken). Other
            // games' moves, thousands a second on a busy service, leave the
            // poll asleep, however many games the caller sits in.
            loop {
                let notice = tokio::select! {
                    notice = tokio::time::timeout_at(deadline, notices.recv()) => notice,
                    () = self.state.draining.cancelled() => Ok(Err(RecvError::Closed)),
                };
                match notice {
                    Ok(Ok(notice)) if notice.may_concern(me) => {
                        // The cache hears of it here too, in case the next
                        // look comes before `follow_notices` has passed it on.
                        self.state.games.notice(notice.game_id, notice.seq);
                        // A turn of the caller's, or the end of one of its
                        // games: answered with the next look even if that
                        // turn is on a later page.
                        answer_now = notice.to_act.is_some();
                        break;
                    }
                    Ok(Ok(_)) => {}
                    Ok(Err(RecvError::Lagged(_))) | Err(_) => break,
                    Ok(Err(RecvError::Closed)) => {
                        answer_now = true;
                        break;
                    }
                }
            }
        }
    }

    /// One page of the caller's games as `req` asks, from `after` on.
    async fn page(
        &self,
        caller: &Caller,
        req: &ListGamesRequest,
        after: Option<PageAfter>,
    ) -> Result<ListGamesResponse, ApiError> {
        let limit = page_size(req.page_size);
        let listing = match (req.my_turn_only, req.include_over) {
            (true, _) => Listing::MayAct,
            (false, true) => Listing::All,
            (false, false) => Listing::Running,
        };
        let listed = self
            .state
            .store
            .account_games_page(caller.account.id, listing, after, limit)
            .await
            .map_err(store_error)?;
        let next_page_token = match (listed.len() == limit as usize, listed.last()) {
            (true, Some(last)) => page_token(last),
            _ => String::new(),
        };
        let mut games = Vec::with_capacity(listed.len());
        for entry in &listed {
            if let Some(summary) = self.summary(caller, req, entry.game_id).await? {
                games.push(summary);
            }
        }
        Ok(ListGamesResponse {
            games,
            next_page_token,
        })
    }

    /// The game as listed to the caller; `None` if `req` leaves it out.
    async fn summary(
        &self,
        caller: &Caller,
        req: &ListGamesRequest,
        id: GameId,
    ) -> Result<Option<GameSummary>, ApiError> {
        let live = self.state.games.lock(id).await?;
        if !req.include_over && live.is_over() {
            return Ok(None);
        }
        let may_act = live.seats_to_act();
        let to_act: Vec<u32> = live
            .seats_of(caller.account.id)
            .into_iter()
            .filter(|&s| may_act.contains(s))
            .map(u32::from)
            .collect();
        if req.my_turn_only && to_act.is_empty() {
            return Ok(None);
        }
        Ok(Some(GameSummary {
            game_id: live.id.to_string(),
            preset: live.game.rules().preset.name().to_owned(),
            phase: convert::phase(live.phase()) as i32,
            version: live.version,
            players: u32::from(live.game.state().players()),
            rated: live.rated,
            seats: assignments(&live),
            my_turn: !to_act.is_empty(),
            my_seats_to_act: to_act,
            void: live.void.is_some(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_tokens_round_trip_and_nonsense_is_refused() {
        let listed = Listed {
            game_id: GameId(uuid::Uuid::new_v4()),
            created_at: OffsetDateTime::from_unix_timestamp_nanos(1_790_000_000_123_456_000)
                .unwrap_or(OffsetDateTime::UNIX_EPOCH),
        };
        let after = page_after(&page_token(&listed));
        assert_eq!(after.ok().flatten(), Some(listed.after()));
        assert_eq!(page_after("").ok(), Some(None));
        for bad in ["x", "12_nope", "nope_ab", "99999999999999999999999999_x"] {
            let refused = page_after(bad).err().map(|e| e.to_string());
            assert!(
                refused.as_deref().is_some_and(|e| e.contains("page_token")),
                "{bad}: {refused:?}"
            );
        }
    }
}
