//! The matching loop: every interval (and right after an enqueue) it
//! finishes planned matches left by a crash, forms tables from the waiting
//! tickets and seats each one: plan (claim the tickets), create the game
//! with the match id as request id, confirm. A crash anywhere in between
//! leaves a planned match that the next round (of any instance) finishes
//! with the same request id, so it yields one game, never two.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use skit_proto::v1::{CreateGameRequest, OnTimeout, SeatSpec, TimeControl, time_control};
use skit_store::{AccountId, MatchSeat, PlannedMatch, Store, Ticket, TicketId};
use time::OffsetDateTime;
use tokio::sync::Notify;
use tonic::Code;
use tonic_types::StatusExt;

use crate::changes::Changes;
use crate::config::Config;
use crate::convert;
use crate::forming::{self, Bot, Seat, Table, Waiting};
use crate::metrics;
use skit_gateway::game_client::{GameClient, bot_games_wait};

/// The most waiting tickets one round looks at (oldest first).
const ROUND_LIMIT: u32 = 2000;

#[derive(Debug, Clone)]
pub struct Matcher {
    store: Store,
    game: GameClient,
    config: Config,
    changes: Changes,
    wake: Arc<Notify>,
    /// Bots whose owner is at the cap on games between bots
    /// (docs/limits.md): account, owner and until when their tickets are
    /// left out of forming (they keep their place in the queue).
    benched: Arc<Mutex<HashMap<i64, (i64, Instant)>>>,
}

impl Matcher {
    pub fn new(store: Store, game: GameClient, config: Config, changes: Changes) -> Self {
        Self {
            store,
            game,
            config,
            changes,
            wake: Arc::default(),
            benched: Arc::default(),
        }
    }

    /// Wakes the loop for a round now (after an enqueue).
    pub fn waker(&self) -> Arc<Notify> {
        self.wake.clone()
    }

    /// Runs rounds until the task is aborted. The first round finishes
    /// every planned match: those of a previous life of this instance.
    pub async fn run(self) {
        self.recover(OffsetDateTime::now_utc()).await;
        let mut ticker = tokio::time::interval(self.config.match_interval());
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = ticker.tick() => {}
                () = self.wake.notified() => {}
            }
            if let Err(error) = self.round().await {
                tracing::warn!(%error, "matching round failed");
            }
        }
    }

    #[tracing::instrument(skip_all, fields(waiting, tables))]
    async fn round(&self) -> Result<(), skit_store::Error> {
        let now = OffsetDateTime::now_utc();
        self.recover(now - self.config.recover_after()).await;
        let tickets = self.store.waiting_tickets(ROUND_LIMIT).await?;
        metrics::tickets_waiting(tickets.len());
        if tickets.is_empty() {
            return Ok(());
        }
        tracing::Span::current().record("waiting", tickets.len());
        let mut usual: HashMap<&str, u32> = HashMap::new();
        let waiting: Vec<Waiting> = tickets
            .iter()
            .map(|t| {
                let usual = *usual
                    .entry(&t.ruleset_key)
                    .or_insert_with(|| usual_players(t));
                waiting(t, usual)
            })
            .filter(|w| !self.is_benched(w))
            .collect();
        let bots = self.bots(&tickets, now).await;
        let tables = forming::form(
            &waiting,
            &bots,
            now,
            &self.config.forming(),
            &mut StdRng::from_os_rng(),
        );
        tracing::Span::current().record("tables", tables.len());
        let by_id: HashMap<TicketId, &Ticket> = tickets.iter().map(|t| (t.id, t)).collect();
        for table in tables {
            self.seat(&table, &by_id).await?;
        }
        Ok(())
    }

    /// Bots by ruleset key, with ratings, for the keys where a ticket that
    /// allows bots has waited the fill wait (none asked for otherwise).
    async fn bots(&self, tickets: &[Ticket], now: OffsetDateTime) -> BTreeMap<String, Vec<Bot>> {
        let wait = self.config.forming().bot_fill_wait;
        let mut keys: BTreeMap<&str, &Ticket> = BTreeMap::new();
        for t in tickets {
            if t.allow_bots && now - t.created_at >= wait {
                keys.entry(&t.ruleset_key).or_insert(t);
            }
        }
        if keys.is_empty() {
            return BTreeMap::new();
        }
        let accounts = match self.game.bots().await {
            Ok(accounts) => accounts,
            Err(status) => {
                tracing::warn!(code = ?status.code(), message = status.message(), "cannot list bots");
                return BTreeMap::new();
            }
        };
        let mut bots = BTreeMap::new();
        for (key, ticket) in keys {
            let rules = convert::rules_from_store(&ticket.rules);
            let ids: Vec<i64> = accounts.iter().map(|b| b.account_id).collect();
            let ratings = self.game.ratings(&ids, &rules).await;
            let list = accounts
                .iter()
                .zip(ratings)
                .map(|(b, rating)| Bot {
                    account: b.account_id,
                    owner: b.owner,
                    rating,
                })
                .collect();
            bots.insert(key.to_owned(), list);
        }
        bots
    }

    /// Plans the table (claiming its tickets) and creates its game.
    #[tracing::instrument(skip_all, fields(players = table.seats.len(), bots = table.bots()))]
    async fn seat(
        &self,
        table: &Table,
        tickets: &HashMap<TicketId, &Ticket>,
    ) -> Result<(), skit_store::Error> {
        let Some(first) = table.tickets().find_map(|id| tickets.get(&id)) else {
            return Ok(());
        };
        let planned = PlannedMatch {
            id: uuid::Uuid::new_v4().to_string(),
            rules: first.rules.clone(),
            rated: table.rated,
            seats: table
                .seats
                .iter()
                .map(|s| MatchSeat {
                    account_id: AccountId(s.account()),
                    ticket: match *s {
                        Seat::Ticket { id, .. } => Some(id),
                        Seat::Bot { .. } => None,
                    },
                })
                .collect(),
        };
        if !self.store.plan_match(&planned).await? {
            // Another matchmaker or a cancel got a ticket first; the rest
            // wait for the next round.
            return Ok(());
        }
        let now = OffsetDateTime::now_utc();
        for ticket in table.tickets().filter_map(|id| tickets.get(&id)) {
            metrics::ticket_seated((now - ticket.created_at).try_into().unwrap_or_default());
        }
        self.finish(&planned).await
    }

    /// Finishes planned matches planned at or before `before`.
    async fn recover(&self, before: OffsetDateTime) {
        let planned = match self.store.planned_matches(before).await {
            Ok(planned) => planned,
            Err(error) => {
                tracing::warn!(%error, "cannot read planned matches");
                return;
            }
        };
        for m in planned {
            tracing::info!(match_id = %m.id, "finishing a planned match");
            if let Err(error) = self.finish(&m).await {
                tracing::warn!(%error, match_id = %m.id, "cannot finish a planned match");
            }
        }
    }

    /// Creates the game (again, harmlessly, if it exists) and confirms the
    /// match; a refusal that retrying cannot fix abandons it instead.
    #[tracing::instrument(skip_all, fields(match_id = %planned.id, game_id))]
    async fn finish(&self, planned: &PlannedMatch) -> Result<(), skit_store::Error> {
        let request = CreateGameRequest {
            rules: Some(convert::rules_from_store(&planned.rules)),
            players: u32::try_from(planned.seats.len()).unwrap_or(u32::MAX),
            seats: planned
                .seats
                .iter()
                .map(|s| SeatSpec {
                    account_id: Some(s.account_id.0.to_string()),
                })
                .collect(),
            dealer: None,
            rated: planned.rated,
            time_control: self.time_control(),
            request_id: planned.id.clone(),
            ..Default::default()
        };
        match self.game.create_game(request).await {
            Ok(game_id) => {
                tracing::Span::current().record("game_id", &game_id);
                self.store.confirm_match(&planned.id, &game_id).await?;
                tracing::info!("match seated");
                let bot_seats = planned.seats.iter().filter(|s| s.ticket.is_none()).count();
                metrics::game_created(bot_seats);
                self.changes.bump();
            }
            Err(status) => match bot_games_wait(&status) {
                Some(wait) => {
                    let owner = status
                        .get_details_error_info()
                        .and_then(|info| info.metadata.get("owner")?.parse().ok());
                    tracing::info!(
                        owner,
                        wait_ms = wait.as_millis(),
                        "an owner's bots are at the cap on games between bots; tickets wait again"
                    );
                    self.bench(planned, owner, wait);
                    self.store.abandon_match(&planned.id).await?;
                    self.changes.bump();
                }
                None if is_permanent(status.code()) => {
                    tracing::error!(code = ?status.code(), message = status.message(), "game refused; tickets wait again");
                    self.store.abandon_match(&planned.id).await?;
                    self.changes.bump();
                }
                None => {
                    tracing::warn!(code = ?status.code(), message = status.message(), "cannot create the game yet; will retry");
                }
            },
        }
        Ok(())
    }

    /// Leaves the ticketed seats of `planned` that `owner` runs out of
    /// forming for `wait`: the game service refused their table for the
    /// owner's cap on games between bots.
    fn bench(&self, planned: &PlannedMatch, owner: Option<i64>, wait: Duration) {
        let Some(owner) = owner else {
            return;
        };
        let until = Instant::now() + wait;
        let mut benched = self.benched();
        benched.retain(|_, (_, at)| Instant::now() < *at);
        for seat in planned.seats.iter().filter(|s| s.ticket.is_some()) {
            benched.insert(seat.account_id.0, (owner, until));
        }
    }

    /// Whether `w`'s bot waits out its owner's cap on games between bots.
    fn is_benched(&self, w: &Waiting) -> bool {
        self.benched()
            .get(&w.account)
            .is_some_and(|&(owner, until)| owner == w.owner && Instant::now() < until)
    }

    fn benched(&self) -> std::sync::MutexGuard<'_, HashMap<i64, (i64, Instant)>> {
        self.benched.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn time_control(&self) -> Option<TimeControl> {
        let ms = self.config.move_time_ms;
        (ms > 0).then(|| TimeControl {
            clock: Some(time_control::Clock::PerMove(pbjson_types::Duration {
                seconds: i64::try_from(ms / 1000).unwrap_or(i64::MAX),
                nanos: i32::try_from(ms % 1000 * 1_000_000).unwrap_or(0),
            })),
            on_timeout: OnTimeout::BotMove.into(),
        })
    }
}

/// Refusals about the request itself: retrying the same request cannot
/// succeed, so the tickets go back to waiting.
fn is_permanent(code: Code) -> bool {
    matches!(
        code,
        Code::InvalidArgument | Code::FailedPrecondition | Code::NotFound | Code::AlreadyExists
    )
}

/// The usual table of the ticket's ruleset; the base game's if its stored
/// rules no longer read (its game would be refused anyway).
fn usual_players(t: &Ticket) -> u32 {
    let rules = convert::rules_from_store(&t.rules);
    let usual = skit_api::rules(Some(&rules))
        .map_or(skit_engine::Preset::Skitgubbe.usual_players(), |rules| {
            rules.usual_players()
        });
    u32::from(usual)
}

fn waiting(t: &Ticket, usual: u32) -> Waiting {
    Waiting {
        id: t.id,
        account: t.account_id.0,
        owner: t.owner_group.0,
        ruleset_key: t.ruleset_key.clone(),
        counts: t.player_counts.clone(),
        usual,
        allow_bots: t.allow_bots,
        rating: t.rating,
        enqueued_at: t.created_at,
        guest: t.guest,
    }
}
