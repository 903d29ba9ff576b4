//! Cross-instance append notices over Postgres `LISTEN`/`NOTIFY`.
//!
//! Every append sends `pg_notify` inside its transaction; each instance runs
//! one listener task that forwards notices into its local broadcast channel.
//! An instance hears its own appends this way too, so there is one path.

use std::time::Duration;

use sqlx::postgres::{PgListener, PgPool};
use sqlx::{Postgres, Transaction};
use tokio::sync::broadcast;
use tokio::task::JoinHandle;

use crate::{Appended, Error, GameId};

const CHANNEL: &str = "skit_events";

/// Pause before listening again after the connection dropped.
const RETRY_DELAY: Duration = Duration::from_secs(1);

/// Queues a notice for `seq`; Postgres delivers it when the transaction
/// commits and drops it on rollback.
pub(crate) async fn notify(
    tx: &mut Transaction<'static, Postgres>,
    game_id: GameId,
    seq: u64,
) -> Result<(), Error> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(CHANNEL)
        .bind(format!("{game_id} {seq}"))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

fn parse(payload: &str) -> Option<Appended> {
    let (game_id, seq) = payload.split_once(' ')?;
    Some(Appended {
        game_id: game_id.parse().ok()?,
        seq: seq.parse().ok()?,
    })
}

/// The forwarding task; aborted when dropped, so a dropped store does not
/// leave a connection listening.
#[derive(Debug)]
pub(crate) struct ListenerTask(JoinHandle<()>);

impl Drop for ListenerTask {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Starts listening before returning, so no later append is missed.
pub(crate) async fn start(
    pool: &PgPool,
    appended: broadcast::Sender<Appended>,
) -> Result<ListenerTask, Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(CHANNEL).await?;
    Ok(ListenerTask(tokio::spawn(forward(listener, appended))))
}

async fn forward(mut listener: PgListener, appended: broadcast::Sender<Appended>) {
    loop {
        match listener.recv().await {
            Ok(notice) => match parse(notice.payload()) {
                // No receivers is fine: nobody is watching.
                Some(notice) => drop(appended.send(notice)),
                None => tracing::warn!(payload = notice.payload(), "unreadable append notice"),
            },
            // PgListener reconnects and re-listens on the next recv; notices
            // sent meanwhile are lost, which subscribers tolerate (they are
            // hints to re-read, see `Appended`).
            Err(error) => {
                tracing::warn!(%error, "append listener lost its connection");
                tokio::time::sleep(RETRY_DELAY).await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_round_trip() {
        let game_id = GameId(uuid::Uuid::new_v4());
        assert_eq!(
            parse(&format!("{game_id} 42")),
            Some(Appended { game_id, seq: 42 })
        );
        assert_eq!(parse("nonsense"), None);
    }
}
