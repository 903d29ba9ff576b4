//! WatchTournament: the stored events after a sequence number, in order,
//! then each new one as it is written (by this instance or another on the
//! same database), until the tournament has ended and its last event is
//! sent. Events are read from the store, never built twice, so every
//! watcher sees the same numbered events.

use skit_api::ApiError;
use skit_proto::v1::{TournamentEvent, WatchTournamentRequest};
use tokio_stream::wrappers::ReceiverStream;
use tonic::Status;

use super::LeagueApi;
use crate::error::store_error;

/// Events buffered for a slow watcher.
const WATCH_BUFFER: usize = 16;
/// Events read per query.
const PAGE: u32 = 100;

impl LeagueApi {
    #[tracing::instrument(skip_all, fields(tournament_id = %req.tournament_id, after = req.after_sequence))]
    pub(super) async fn watch(
        &self,
        req: WatchTournamentRequest,
    ) -> Result<ReceiverStream<Result<TournamentEvent, Status>>, ApiError> {
        let t = self.tournament(&req.tournament_id).await?;
        if req.after_sequence > t.sequence {
            return Err(ApiError::invalid(
                "after_sequence",
                format!("the tournament's latest event is {}", t.sequence),
            ));
        }
        let (tx, rx) = tokio::sync::mpsc::channel(WATCH_BUFFER);
        let api = self.clone();
        let id = t.id;
        tokio::spawn(async move {
            let mut after = req.after_sequence;
            loop {
                let page = match api.store.tournament_events(&id, after, PAGE).await {
                    Ok(page) => page,
                    Err(e) => {
                        let _ = tx.send(Err(Status::from(store_error(e)))).await;
                        return;
                    }
                };
                let full = page.len() == PAGE as usize;
                for row in page {
                    after = row.sequence;
                    let event: TournamentEvent = match serde_json::from_value(row.body) {
                        Ok(event) => event,
                        Err(e) => {
                            let _ = tx
                                .send(Err(Status::from(ApiError::internal("stored event", &e))))
                                .await;
                            return;
                        }
                    };
                    if tx.send(Ok(event)).await.is_err() {
                        return;
                    }
                }
                if full {
                    continue;
                }
                // Everything stored is sent: done if nothing more will come.
                match api.store.tournament(&id).await {
                    Ok(Some(t)) if t.phase.ended() && t.sequence <= after => return,
                    Ok(_) => {}
                    Err(e) => {
                        let _ = tx.send(Err(Status::from(store_error(e)))).await;
                        return;
                    }
                }
                tokio::select! {
                    () = tokio::time::sleep(api.watch_poll) => {}
                    () = tx.closed() => return,
                }
            }
        });
        Ok(ReceiverStream::new(rx))
    }
}
