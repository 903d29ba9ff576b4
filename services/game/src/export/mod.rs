//! ExportGames: finished games as records to learn from (export.proto,
//! docs/python.md "Records to learn from"), a page at a time. The store
//! lists the page's games (`finished_games_page`: only games marked over,
//! never a voided one); each is then read from its event log and replayed
//! ([`records`]) while the page is written, so a page holds one game's
//! records in memory at a time, and the replay runs off the async workers.

mod page;
mod records;

use futures_util::stream::{self, BoxStream, StreamExt};
use skit_api::ApiError;
use skit_proto::v1::{ExportGamesRequest, ExportPage, ExportRecord, export_record::Record};
use skit_store::{AccountId, ExportFilter, Finished, Store};
use time::OffsetDateTime;
use tonic::Status;

use crate::auth::Caller;
use crate::error::store_error;
use crate::game_service::GameApi;
use records::Shown;

/// A page's records, as the RPC streams them.
pub(crate) type Records = BoxStream<'static, Result<ExportRecord, Status>>;

impl GameApi {
    /// The page of finished games `req` asks for: each game's records,
    /// then the page's end.
    #[tracing::instrument(skip_all, fields(account = %caller.account.id))]
    pub(crate) async fn export(
        &self,
        caller: Caller,
        req: ExportGamesRequest,
    ) -> Result<Records, ApiError> {
        let filter = filter(&caller, &req)?;
        let after = page::page_after(&req.page_token)?;
        let limit = page::page_size(req.page_size, req.seat_views);
        let store = &self.state.store;
        // One more than the page, to tell whether another page follows.
        let mut games = store
            .finished_games_page(&filter, after, limit + 1)
            .await
            .map_err(store_error)?;
        let next_page_token = if games.len() > limit as usize {
            games.truncate(limit as usize);
            games.last().map(page::page_token).unwrap_or_default()
        } else {
            String::new()
        };
        let writer = Writer {
            store: store.clone(),
            games: games.into_iter(),
            shown: Shown {
                caller: caller.account.id.0,
                every_account: caller.is_operator(),
            },
            seat_views: req.seat_views,
            written: 0,
            next_page_token: Some(next_page_token),
        };
        let records = stream::unfold(writer, |mut writer| async move {
            let next = writer.next().await?;
            Some((next, writer))
        });
        Ok(records
            .flat_map(|next| {
                let records: Vec<Result<ExportRecord, Status>> = match next {
                    Ok(records) => records.into_iter().map(Ok).collect(),
                    Err(error) => vec![Err(error.into())],
                };
                stream::iter(records)
            })
            .boxed())
    }
}

/// Writes a page: one game's records at a time, then the page's end.
struct Writer {
    store: Store,
    games: std::vec::IntoIter<Finished>,
    shown: Shown,
    seat_views: bool,
    written: u32,
    /// Taken when the page's end is written, or by a failure: the stream
    /// then ends.
    next_page_token: Option<String>,
}

impl Writer {
    /// The next game's records, the page's end, or `None` once it is
    /// written or a failure was.
    async fn next(&mut self) -> Option<Result<Vec<ExportRecord>, ApiError>> {
        self.next_page_token.as_ref()?;
        let Some(finished) = self.games.next() else {
            let end = ExportPage {
                games: self.written,
                next_page_token: self.next_page_token.take().unwrap_or_default(),
            };
            let record = ExportRecord {
                record: Some(Record::Page(end)),
            };
            return Some(Ok(vec![record]));
        };
        match self.game(finished).await {
            Ok(records) => {
                self.written += u32::from(!records.is_empty());
                Some(Ok(records))
            }
            Err(error) => {
                self.next_page_token = None;
                Some(Err(error))
            }
        }
    }

    /// A game's records, read and replayed; none for a game its log shows
    /// is not over.
    async fn game(&self, finished: Finished) -> Result<Vec<ExportRecord>, ApiError> {
        let id = finished.game_id;
        let row = self
            .store
            .game(id)
            .await
            .map_err(store_error)?
            .ok_or_else(|| ApiError::invariant("a listed game is gone"))?;
        let events = self.store.load_events(id, 0).await.map_err(store_error)?;
        let (seat_views, shown) = (self.seat_views, self.shown);
        let built = tokio::task::spawn_blocking(move || {
            records::of_game(&row, &events, &finished, seat_views, shown)
        })
        .await
        .map_err(|e| ApiError::internal("the export of a game failed", &e))??;
        Ok(built.unwrap_or_default())
    }
}

/// The store's filter for `req`, each field checked; an account other than
/// the caller's own only for the operator.
fn filter(caller: &Caller, req: &ExportGamesRequest) -> Result<ExportFilter, ApiError> {
    let account = match req.account_id.as_str() {
        "" => None,
        text => Some(AccountId(text.parse().map_err(|_| {
            ApiError::invalid("account_id", "not an account id (a decimal number)")
        })?)),
    };
    if let Some(account) = account
        && account != caller.account.id
        && !caller.is_operator()
    {
        return Err(ApiError::permission_denied(format!(
            "you may export only your own games, not account {}'s",
            account.0
        )));
    }
    let tournament_id = match req.tournament_id.as_str() {
        "" => None,
        text => Some(
            uuid::Uuid::parse_str(text)
                .map_err(|_| ApiError::invalid("tournament_id", "not a tournament id (a UUID)"))?
                .hyphenated()
                .to_string(),
        ),
    };
    let finished_from = instant("finished_from", req.finished_from.as_ref())?;
    let finished_before = instant("finished_before", req.finished_before.as_ref())?;
    if let (Some(from), Some(before)) = (finished_from, finished_before)
        && before <= from
    {
        return Err(ApiError::invalid(
            "finished_before",
            "must be later than finished_from",
        ));
    }
    Ok(ExportFilter {
        finished_from,
        finished_before,
        tournament_id,
        account,
    })
}

/// A time filter, from 1970 to 9999.
fn instant(
    field: &str,
    t: Option<&skit_proto::Timestamp>,
) -> Result<Option<OffsetDateTime>, ApiError> {
    let Some(t) = t else {
        return Ok(None);
    };
    let nanos = i128::from(t.seconds) * 1_000_000_000 + i128::from(t.nanos);
    OffsetDateTime::from_unix_timestamp_nanos(nanos)
        .ok()
        .filter(|t| (1970..=9999).contains(&t.year()))
        .map(Some)
        .ok_or_else(|| ApiError::invalid(field, "must be a time from 1970 to 9999"))
}
