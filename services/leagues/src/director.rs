//! The loop that runs tournaments: every tick it looks at each live one,
//! starts those due, creates the games of seated tables through the game
//! service (the table's place in the tournament is the CreateGame request
//! id, so a game is created once however often this is retried), reads
//! finished games' results, and seats the next round when one is done.
//!
//! Every change is applied only if the tournament is as it was read
//! ([`skit_store::Store::change_tournament`]), so several league services
//! on one database, or one restarted mid-round, never seat a round twice
//! or lose a result: the loser of a race reads again on its next tick.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use skit_gateway::game_client::{GameClient, bot_games_wait};
use skit_proto::v1::{CreateGameRequest, EndReason, SeatSpec};
use skit_store::{
    AccountId, Store, TablePhase, Tournament, TournamentChange, TournamentPhase, TournamentTable,
};
use time::OffsetDateTime;
use tokio::sync::Notify;

use crate::lifecycle::Snapshot;
use crate::spec::Spec;
use crate::validation::HouseBot;

#[derive(Debug, Clone)]
pub struct Director {
    store: Store,
    game: GameClient,
    tick: Duration,
    wake: Arc<Notify>,
    /// Seated tables whose game the game service refused for an owner's
    /// cap on games between bots, by request id: not asked for again
    /// before then (the table stays seated; the others go on).
    held: Arc<Mutex<HashMap<String, Instant>>>,
}

/// Why a step stopped; logged, and tried again next tick.
#[derive(Debug, thiserror::Error)]
pub enum StepError {
    #[error(transparent)]
    Store(#[from] skit_store::Error),
    #[error("the game service: {0}")]
    Game(#[from] tonic::Status),
    #[error("tournament {0}: its stored spec is unreadable")]
    Spec(String),
}

impl Director {
    pub fn new(store: Store, game: GameClient, tick: Duration) -> Self {
        Self {
            store,
            game,
            tick,
            wake: Arc::default(),
            held: Arc::default(),
        }
    }

    /// Wakes the loop before its next tick (after an operator's change).
    pub fn waker(&self) -> Arc<Notify> {
        self.wake.clone()
    }

    pub async fn run(self) {
        loop {
            match self.store.live_tournaments().await {
                Ok(live) => {
                    for t in live {
                        let id = t.id.clone();
                        if let Err(error) = self.drive(t).await {
                            tracing::warn!(tournament_id = %id, %error, "tournament step failed; retrying");
                        }
                    }
                }
                Err(error) => tracing::warn!(%error, "cannot list live tournaments"),
            }
            tokio::select! {
                () = tokio::time::sleep(self.tick) => {}
                () = self.wake.notified() => {}
            }
        }
    }

    /// Everything `t` needs now, each step its own change.
    async fn drive(&self, t: Tournament) -> Result<(), StepError> {
        let now = OffsetDateTime::now_utc();
        let due =
            t.phase == TournamentPhase::Registering && t.starts_at.is_some_and(|at| at <= now);
        if t.phase == TournamentPhase::Registering && !due {
            return Ok(());
        }
        let mut snapshot = read(&self.store, t).await?;
        if due {
            let change = snapshot.start(now);
            self.apply(&mut snapshot, change).await?;
            return Ok(());
        }
        let active: Vec<TournamentTable> = snapshot.active().cloned().collect();
        for table in active {
            let changed = match table.phase {
                TablePhase::Seated => match self.create_game(&snapshot, table).await? {
                    Some(created) => Some((created, false)),
                    // Held by the cap on games between bots: the other
                    // tables go on.
                    None => continue,
                },
                TablePhase::Playing => self.read_result(table).await?,
                TablePhase::Over | TablePhase::Void => None,
            };
            if let Some((table, timed_out)) = changed {
                let leaves = snapshot.failed_validation(&table, timed_out);
                let change = snapshot.table_changed(table, leaves);
                if !self.apply(&mut snapshot, change).await? {
                    return Ok(());
                }
            }
        }
        let house = match snapshot.owes_validation() {
            true => self.house_bots().await?,
            false => Vec::new(),
        };
        if let Some(change) = snapshot.advance(now, &house) {
            self.apply(&mut snapshot, change).await?;
        }
        Ok(())
    }

    /// Applies `change` if nobody changed the tournament since it was read;
    /// the snapshot is read again after a success. `false` on a lost race.
    async fn apply(
        &self,
        snapshot: &mut Snapshot,
        change: TournamentChange,
    ) -> Result<bool, StepError> {
        let t = &snapshot.tournament;
        if !self
            .store
            .change_tournament(&t.id, t.revision, &change)
            .await?
        {
            tracing::debug!(tournament_id = %t.id, "changed meanwhile; reading again next tick");
            return Ok(false);
        }
        let id = snapshot.tournament.id.clone();
        let Some(fresh) = self.store.tournament(&id).await? else {
            return Ok(false);
        };
        *snapshot = read(&self.store, fresh).await?;
        Ok(true)
    }

    /// The table's game, created (or found, on a retry) as the operator;
    /// `None` while an owner of its bots is at the cap on games between
    /// bots (docs/limits.md): the table waits, seated, for the hint.
    async fn create_game(
        &self,
        snapshot: &Snapshot,
        table: TournamentTable,
    ) -> Result<Option<TournamentTable>, StepError> {
        let request_id = format!(
            "tournament/{}/{}/{}",
            snapshot.tournament.id, table.round, table.table
        );
        if self
            .held()
            .get(&request_id)
            .is_some_and(|until| Instant::now() < *until)
        {
            return Ok(None);
        }
        let spec = &snapshot.spec;
        // A duplicate event deals every rotation of a deal from its seed,
        // sealed so that no player learns it before the deal is over.
        let (deal, _) = crate::duplicate::deal_and_rotation(spec, table.round);
        let shuffle_seed = crate::duplicate::deal_seed(spec, deal, table.table);
        let request = CreateGameRequest {
            rules: Some(spec.rules_message()),
            players: u32::try_from(table.seats.len()).unwrap_or(u32::MAX),
            seats: table
                .seats
                .iter()
                .map(|a| SeatSpec {
                    account_id: Some(a.0.to_string()),
                })
                .collect(),
            // Seat 0 deals: the pairing balanced who sits there.
            dealer: Some(0),
            rated: spec.rated,
            time_control: spec.time_control_message(),
            request_id: request_id.clone(),
            seal_seed: shuffle_seed.is_some(),
            shuffle_seed,
        };
        let game_id = match self.game.create_game(request).await {
            Ok(game_id) => game_id,
            Err(status) => {
                let Some(wait) = bot_games_wait(&status) else {
                    return Err(status.into());
                };
                tracing::info!(tournament_id = %snapshot.tournament.id, round = table.round, table = table.table, wait_ms = wait.as_millis(), "a bot's owner is at the cap on games between bots; the table waits");
                let mut held = self.held();
                held.retain(|_, until| Instant::now() < *until);
                held.insert(request_id, Instant::now() + wait);
                return Ok(None);
            }
        };
        self.held().remove(&request_id);
        tracing::info!(tournament_id = %snapshot.tournament.id, round = table.round, table = table.table, %game_id, "table's game created");
        Ok(Some(TournamentTable {
            phase: TablePhase::Playing,
            game_id: Some(game_id),
            ..table
        }))
    }

    /// The service's house bots, for a ladder's validation games.
    async fn house_bots(&self) -> Result<Vec<HouseBot>, StepError> {
        Ok(self
            .game
            .bots()
            .await?
            .into_iter()
            .map(|b| HouseBot {
                account: AccountId(b.account_id),
                owner: AccountId(b.owner),
            })
            .collect())
    }

    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<String, Instant>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The table with its result once its game is over, and whether its
    /// loser lost on time.
    async fn read_result(
        &self,
        table: TournamentTable,
    ) -> Result<Option<(TournamentTable, bool)>, StepError> {
        let Some(game_id) = table.game_id.as_deref() else {
            return Ok(None);
        };
        let view = self.game.spectate(game_id).await?;
        let Some(result) = view.result else {
            return Ok(None);
        };
        if result.reason == EndReason::Void as i32 {
            let void = TournamentTable {
                phase: TablePhase::Void,
                ..table
            };
            return Ok(Some((void, false)));
        }
        // A loss on time: the game ended by it, or a seat forfeited and
        // the others played on (the loser is the first that forfeited).
        let timed_out = [EndReason::Timeout, EndReason::Forfeit]
            .iter()
            .any(|&r| result.reason == r as i32);
        // The seat that lost on time: a no-show, or an abandon.
        let no_show = result
            .loser
            .filter(|_| timed_out)
            .and_then(|seat| table.seats.get(seat as usize).copied());
        let finished_at = result
            .ended_at
            .and_then(|t| OffsetDateTime::from_unix_timestamp(t.seconds).ok())
            .unwrap_or_else(OffsetDateTime::now_utc);
        let over = TournamentTable {
            phase: TablePhase::Over,
            places: Some(result.places),
            loser: result.loser,
            no_show,
            finished_at: Some(finished_at),
            ..table
        };
        Ok(Some((over, timed_out)))
    }
}

/// `t`, as just read, with its spec, entries and tables. The tables are
/// read after `t`, so a change in between leaves the snapshot's revision
/// behind and its own change is refused, never applied to newer tables.
pub async fn read(store: &Store, t: Tournament) -> Result<Snapshot, StepError> {
    let spec = Spec::from_value(&t.spec).ok_or_else(|| StepError::Spec(t.id.clone()))?;
    let entries = store.tournament_entries(&t.id).await?;
    let tables = store.tournament_tables(&t.id).await?;
    Ok(Snapshot {
        tournament: t,
        spec,
        entries,
        tables,
    })
}
