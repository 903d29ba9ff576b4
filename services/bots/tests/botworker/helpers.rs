//! The helpers the worker tests share: the game service on a fresh
//! database, provisioning bots, creating games, running a worker, waiting
//! for games to end.

use std::path::Path;
use std::time::Duration;

use skit_api::{Client, Secret};
use skit_botworker::{AccountsFile, Config, Provision};
use skit_proto::v1::{self, CreateGameRequest, GetViewRequest, Rules, SeatSpec};
use skit_testkit::{GameService, OPERATOR_TOKEN, TestDb, spawn_game_with};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub struct Service {
    pub url: String,
    game: GameService,
    _db: TestDb,
}

/// The game service on port 0 over a fresh SQLite database.
pub async fn spawn_service() -> Service {
    let db = TestDb::sqlite();
    // Short long polls: the Python bot's last wait ends soon after its games.
    let game = spawn_game_with(&db, |c| c.long_poll_cap_ms = 2_000).await;
    Service {
        url: game.url(),
        game,
        _db: db,
    }
}

impl Service {
    pub async fn operator(&self) -> Client {
        self.game.operator().await
    }

    /// How many entries of `action` the audit log holds.
    pub async fn audited(&self, action: &str) -> usize {
        let request = v1::ListAuditLogRequest {
            action: action.into(),
            page_size: 500,
            ..Default::default()
        };
        self.game
            .admin()
            .await
            .list_audit_log(skit_testkit::authed(request, OPERATOR_TOKEN))
            .await
            .expect("the audit log")
            .into_inner()
            .entries
            .len()
    }

    /// A worker configuration for this service with short waits.
    pub fn config(&self, accounts: &Path) -> Config {
        Config {
            server: self.url.clone(),
            accounts_file: accounts.to_owned(),
            operator_token: Some(Secret::new(OPERATOR_TOKEN)),
            wait_ms: 1_000,
            max_games: 4,
            search_playouts: 24,
            search_determinizations: 3,
            retry_max_delay_ms: 500,
            shutdown_grace_ms: 5_000,
            ..Config::default()
        }
    }

    /// `count` bot accounts playing `strategy`, in the file at `path`.
    pub async fn provision(&self, path: &Path, count: usize, strategy: &str) -> AccountsFile {
        let want = Provision {
            count,
            strategy: strategy.into(),
            prefix: "test".into(),
        };
        skit_botworker::provision(&self.url, &Secret::new(OPERATOR_TOKEN), path, &want)
            .await
            .expect("provision")
    }

    /// A game of `preset` created by the operator with the given holders.
    pub async fn game(&self, preset: &str, holders: &[String]) -> String {
        let request = CreateGameRequest {
            rules: Some(Rules {
                preset: preset.into(),
                options: None,
            }),
            players: holders.len() as u32,
            seats: holders
                .iter()
                .map(|id| SeatSpec {
                    account_id: Some(id.clone()),
                })
                .collect(),
            ..Default::default()
        };
        self.operator()
            .await
            .games
            .create_game(request)
            .await
            .expect("create game")
            .into_inner()
            .game_id
    }

    /// The spectator view of `game`.
    pub async fn spectate(&self, game: &str) -> v1::View {
        self.operator()
            .await
            .games
            .get_view(GetViewRequest {
                game_id: game.into(),
                spectator: true,
                ..Default::default()
            })
            .await
            .expect("view")
            .into_inner()
    }

    /// Waits until every game in `games` is over; panics after `limit`.
    pub async fn wait_over(&self, games: &[String], limit: Duration) -> Vec<v1::View> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let mut views = Vec::new();
            for game in games {
                views.push(self.spectate(game).await);
            }
            if views.iter().all(is_over) {
                return views;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "games not over in time: {:?}",
                views
                    .iter()
                    .map(|v| (v.phase, v.version))
                    .collect::<Vec<_>>()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

pub fn is_over(view: &v1::View) -> bool {
    view.phase == v1::Phase::Over as i32
}

/// A worker running in the background until stopped.
pub struct Worker {
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<anyhow::Result<()>>,
}

impl Worker {
    /// Starts a worker on the accounts in its config's file, as `main` does.
    pub fn start(config: Config) -> Worker {
        let accounts = AccountsFile::load(&config.accounts_file)
            .expect("accounts file")
            .accounts;
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(skit_botworker::run(config, accounts, async {
            let _ = stopped.await;
        }));
        Worker {
            stop: Some(stop),
            task,
        }
    }

    /// Shuts the worker down and waits until it has.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.task.await.expect("join").expect("the worker ran");
    }
}

/// The account ids in an accounts file, in order.
pub fn ids(file: &AccountsFile) -> Vec<String> {
    file.accounts
        .iter()
        .map(|a| a.account_id.clone().expect("provisioned accounts have ids"))
        .collect()
}
