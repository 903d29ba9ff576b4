//! Cross-instance append notices over Postgres `LISTEN`/`NOTIFY`.
//!
//! Every append sends `pg_notify` right after its commit; each instance runs
//! one listener task that forwards notices into its local broadcast channel.
//! An instance hears its own appends this way too, so there is one path.
//!
//! Not inside the writing transaction: Postgres serializes every notifying
//! transaction of the cluster through its commit, fsync included (a global
//! lock keeps the notice queue in commit order), which would cap all
//! appends at one per disk flush. Sent after the commit on a session with
//! `synchronous_commit` off, a notice costs no flush and holds that lock
//! only briefly; a crash between commit and notice loses a hint, which
//! listeners tolerate (see [`Appended`]).

use std::sync::Arc;
use std::time::Duration;

use sqlx::Postgres;
use sqlx::postgres::{PgListener, PgPool};
use tokio::sync::broadcast;
use tokio::task::JoinHandle;

use crate::held::Held;
use crate::{AccountId, Appended, Error};

const CHANNEL: &str = "skit_events";

/// Pause before listening again after the connection dropped.
const RETRY_DELAY: Duration = Duration::from_secs(1);

/// The longest payload sent (Postgres refuses 8000 bytes or more).
const MAX_PAYLOAD: usize = 7000;

/// Sends the notices (game, last seq) packed into as few notifications as
/// fit, in one statement, on `held` (a session that need not wait for the
/// disk). One notification per batch instead of one per game keeps both
/// Postgres' notice queue and every listener's work small under load.
pub(crate) async fn notify_all(
    held: &mut Held<Postgres>,
    notices: &[Appended],
) -> Result<(), Error> {
    if notices.is_empty() {
        return Ok(());
    }
    let result = sqlx::query("SELECT pg_notify($1, n) FROM unnest($2::text[]) AS n")
        .bind(CHANNEL)
        .bind(pack(notices))
        .execute(held.get().await?)
        .await;
    held.check(result)?;
    Ok(())
}

/// `game seq` pairs, each followed by ` a,b,...` (the accounts that may
/// act) where the notice says, joined by `;`, in payloads of at most
/// [`MAX_PAYLOAD`].
fn pack(notices: &[Appended]) -> Vec<String> {
    let mut payloads = vec![String::new()];
    for notice in notices {
        let mut one = format!("{} {}", notice.game_id, notice.seq);
        if let Some(accounts) = &notice.to_act {
            let ids: Vec<String> = accounts.iter().map(|a| a.0.to_string()).collect();
            one.push(' ');
            one.push_str(&ids.join(","));
        }
        let last = payloads
            .last_mut()
            .filter(|p| p.len() + 1 + one.len() <= MAX_PAYLOAD);
        match last {
            Some(p) if p.is_empty() => *p = one,
            Some(p) => {
                p.push(';');
                p.push_str(&one);
            }
            None => payloads.push(one),
        }
    }
    payloads
}

/// The notices of one payload; `None` if any part is unreadable.
fn parse(payload: &str) -> Option<Vec<Appended>> {
    payload.split(';').map(parse_one).collect()
}

fn parse_one(notice: &str) -> Option<Appended> {
    let mut parts = notice.splitn(3, ' ');
    let (game_id, seq) = (parts.next()?, parts.next()?);
    let to_act = match parts.next() {
        None => None,
        Some("") => Some(Arc::from([])),
        Some(ids) => Some(
            ids.split(',')
                .map(|id| id.parse().ok().map(AccountId))
                .collect::<Option<Arc<[AccountId]>>>()?,
        ),
    };
    Some(Appended {
        game_id: game_id.parse().ok()?,
        seq: seq.parse().ok()?,
        to_act,
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
                Some(notices) => {
                    for notice in notices {
                        drop(appended.send(notice));
                    }
                }
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
    use crate::GameId;

    #[test]
    fn notices_round_trip() {
        let game_id = GameId(uuid::Uuid::new_v4());
        assert_eq!(
            parse(&format!("{game_id} 42")),
            Some(vec![Appended::new(game_id, 42)])
        );
        let to_act: Arc<[AccountId]> = Arc::from([AccountId(7), AccountId(12)]);
        assert_eq!(
            parse(&format!("{game_id} 43 7,12;{game_id} 44 ")),
            Some(vec![
                Appended {
                    to_act: Some(to_act),
                    ..Appended::new(game_id, 43)
                },
                Appended {
                    to_act: Some(Arc::from([])),
                    ..Appended::new(game_id, 44)
                }
            ])
        );
        assert_eq!(parse(&format!("{game_id} 43 7,x")), None);
        assert_eq!(parse("nonsense"), None);
        assert_eq!(parse(&format!("{game_id} 1;nonsense")), None);
    }

    #[test]
    fn many_notices_fit_few_payloads() {
        let notices: Vec<Appended> = (0..500u64)
            .map(|i| Appended {
                to_act: (i % 2 == 0).then(|| Arc::from([AccountId(i as i64)])),
                ..Appended::new(GameId(uuid::Uuid::new_v4()), i)
            })
            .collect();
        let payloads = pack(&notices);
        assert!(payloads.len() < 5, "{} payloads", payloads.len());
        assert!(payloads.iter().all(|p| p.len() <= MAX_PAYLOAD));
        let back: Vec<Appended> = payloads
            .iter()
            .flat_map(|p| parse(p).unwrap_or_default())
            .collect();
        assert_eq!(back, notices);
    }
}
