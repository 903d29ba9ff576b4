//! The worker: one loop per bot account finds the games where the account
//! is to act (a `ListGames` long poll) and starts a [`Turn`] per game and
//! seat, at most `max_games` at once over all accounts. Nothing is kept
//! between turns but the accounts file, so a restarted worker simply
//! carries on.

use std::collections::HashSet;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use anyhow::Context;
use backon::ExponentialBuilder;
use skit_api::{Client, endpoint};
use skit_proto::v1::{GameSummary, ListGamesRequest};
use tokio::sync::{Notify, Semaphore};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tonic::Status;

use crate::accounts::BotAccount;
use crate::config::Config;
use crate::retry::{passing, retried};
use crate::turn::Turn;

/// What every task of the worker shares.
#[derive(Debug)]
pub struct Shared {
    pub config: Config,
    /// One permit per turn being played.
    slots: Semaphore,
}

impl Shared {
    pub fn retry_policy(&self) -> ExponentialBuilder {
        crate::retry::policy(self.config.retries, self.config.retry_max_delay())
    }
}

/// Plays `accounts` until `shutdown` resolves, then lets the turns being
/// played finish (up to `shutdown_grace`).
pub async fn run(
    config: Config,
    accounts: Vec<BotAccount>,
    shutdown: impl Future<Output = ()>,
) -> anyhow::Result<()> {
    anyhow::ensure!(!accounts.is_empty(), "no bot accounts to play");
    anyhow::ensure!(config.max_games > 0, "max_games must be at least 1");
    let channel = endpoint(&config.server)?.connect_lazy();
    let shared = Arc::new(Shared {
        slots: Semaphore::new(config.max_games),
        config,
    });
    let cancel = CancellationToken::new();
    let tasks = TaskTracker::new();
    for account in accounts {
        let client = Client::with_channel(channel.clone(), &account.token)
            .with_context(|| format!("account {}", account.name))?;
        if shared.config.strategy(&account.strategy).is_none() {
            anyhow::bail!(
                "account {}: no strategy {:?}",
                account.name,
                account.strategy
            );
        }
        let player = Player {
            account,
            client,
            shared: shared.clone(),
            busy: Arc::default(),
            finished: Arc::default(),
            cancel: cancel.clone(),
            tasks: tasks.clone(),
        };
        tasks.spawn(player.run());
    }
    tracing::info!(max_games = shared.config.max_games, "playing");
    shutdown.await;
    tracing::info!("shutting down");
    cancel.cancel();
    tasks.close();
    if tokio::time::timeout(shared.config.shutdown_grace(), tasks.wait())
        .await
        .is_err()
    {
        tracing::warn!("turns still running at the end of the grace period");
    }
    Ok(())
}

/// Turns asked for per ListGames page (the service's most).
const MY_TURNS_PAGE: u32 = 1000;

/// One account's loop.
struct Player {
    account: BotAccount,
    client: Client,
    shared: Arc<Shared>,
    /// (game, seat) pairs being played now.
    busy: Arc<Mutex<HashSet<(String, u32)>>>,
    /// Signalled when a turn ends.
    finished: Arc<Notify>,
    cancel: CancellationToken,
    tasks: TaskTracker,
}

impl Player {
    #[tracing::instrument(name = "account", skip_all, fields(account = %self.account.name))]
    async fn run(self) {
        let mut failures = 0u32;
        while !self.cancel.is_cancelled() {
            let listed = tokio::select! {
                () = self.cancel.cancelled() => return,
                listed = self.my_turns() => listed,
            };
            let games = match listed {
                Ok(games) => {
                    failures = 0;
                    games
                }
                Err(status) => {
                    failures += 1;
                    let pause = self.pause(failures);
                    tracing::error!(code = ?status.code(), message = status.message(), ?pause, "cannot list games");
                    tokio::select! {
                        () = self.cancel.cancelled() => return,
                        () = tokio::time::sleep(pause) => continue,
                    }
                }
            };
            let started = self.start_turns(&games);
            if started == 0 && !games.is_empty() {
                // Every listed turn is being played: the next listing would
                // answer at once, so wait for a turn to end first.
                tokio::select! {
                    () = self.cancel.cancelled() => return,
                    () = self.finished.notified() => {}
                    () = tokio::time::sleep(Duration::from_millis(250)) => {}
                }
            }
        }
    }

    /// Every game where one of the account's seats may act: the first page
    /// long-polled, the rest (an account in many games) read at once, so
    /// an old game's turn is never crowded out by newer ones.
    async fn my_turns(&self) -> Result<Vec<GameSummary>, Status> {
        let mut games = Vec::new();
        let mut page_token = String::new();
        loop {
            let request = ListGamesRequest {
                my_turn_only: true,
                include_over: false,
                wait_ms: match page_token.is_empty() {
                    true => self.shared.config.wait_ms,
                    false => 0,
                },
                page_size: MY_TURNS_PAGE,
                page_token,
            };
            let limit = Duration::from_millis(u64::from(request.wait_ms)) + Duration::from_secs(15);
            let reply = retried("ListGames", self.shared.retry_policy(), || {
                let mut client = self.client.games.clone();
                let mut request = tonic::Request::new(request.clone());
                request.set_timeout(limit);
                async move { client.list_games(request).await }
            })
            .await?
            .into_inner();
            games.extend(reply.games);
            if reply.next_page_token.is_empty() {
                return Ok(games);
            }
            page_token = reply.next_page_token;
        }
    }

    /// How long to wait after `failures` failed listings in a row.
    fn pause(&self, failures: u32) -> Duration {
        let max = self.shared.config.retry_max_delay();
        Duration::from_millis(100u64.saturating_mul(1 << failures.min(16))).min(max)
    }

    /// Starts a turn for every listed (game, seat) not already being
    /// played; returns how many were started.
    fn start_turns(&self, games: &[GameSummary]) -> usize {
        let mut started = 0;
        for game in games {
            for &seat in &game.my_seats_to_act {
                let key = (game.game_id.clone(), seat);
                let fresh = self
                    .busy
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(key.clone());
                if !fresh {
                    continue;
                }
                let Some(strategy) = self.shared.config.strategy(&self.account.strategy) else {
                    continue;
                };
                let turn = Turn {
                    client: self.client.games.clone(),
                    game: game.game_id.clone(),
                    seat,
                    known: game.version,
                    strategy,
                };
                let shared = self.shared.clone();
                let busy = self.busy.clone();
                let finished = self.finished.clone();
                let cancel = self.cancel.clone();
                self.tasks.spawn(async move {
                    let outcome = match shared.slots.acquire().await {
                        Ok(_permit) => Some(turn.play(shared.retry_policy(), &cancel).await),
                        Err(_) => None,
                    };
                    match outcome {
                        Some(Ok(moves)) => tracing::debug!(game_id = %key.0, seat = key.1, moves, "turn over"),
                        Some(Err(error)) if matches!(&error, crate::turn::TurnError::Call(s) if passing(s)) => {
                            tracing::warn!(game_id = %key.0, seat = key.1, %error, "turn interrupted; the next listing retries it");
                        }
                        Some(Err(error)) => {
                            tracing::error!(game_id = %key.0, seat = key.1, %error, "turn given up");
                        }
                        None => {}
                    }
                    busy.lock().unwrap_or_else(PoisonError::into_inner).remove(&key);
                    finished.notify_one();
                });
                started += 1;
            }
        }
        started
    }
}
