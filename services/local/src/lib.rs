//! A whole local Skitgubbe in one process: the game service, the
//! matchmaker, the league service and a bot worker, each started with its own library's `run`
//! exactly as its own binary would, talking to each other over the network
//! as separate processes do in production. Nothing to install: everything
//! is kept in SQLite files in one data folder.
//!
//! - [`operator_token`]: the operator's token, from the environment or a
//!   file made on the first start (its owner's only), so bots and tables
//!   survive restarts.
//! - [`start`]: binds, starts the game service, provisions the bot
//!   accounts, then starts the matchmaker, the league service and the
//!   worker. The game
//!   service serves the web client at `/` and tells it where the
//!   matchmaker is; the matchmaker lets that page's origin call it (CORS).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use skit_proto::v1::account_service_client::AccountServiceClient;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

mod operator;

pub use operator::{TOKEN_FILE, operator_token};

/// What differs between a newcomer's start and a test's.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Where the databases, the bot accounts and the operator token live.
    pub data_dir: PathBuf,
    /// The game service's address (port 0: any free port).
    pub game_addr: SocketAddr,
    pub matchmaker_addr: SocketAddr,
    /// The league service's address.
    pub leagues_addr: SocketAddr,
    /// Bot accounts to keep, by strategy.
    pub bots: Vec<(String, usize)>,
    /// How long a player waits before bots fill the table.
    pub bot_fill_wait: Duration,
    /// The game service's database; `None`: SQLite in `data_dir`.
    pub database_url: Option<String>,
    /// Origins besides the game service's own whose pages may call the
    /// matchmaker (added to `SKIT_CORS_ORIGINS`), e.g. a proxy in front.
    pub page_origins: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            data_dir: PathBuf::from("."),
            game_addr: SocketAddr::from(([127, 0, 0, 1], 50051)),
            matchmaker_addr: SocketAddr::from(([127, 0, 0, 1], 50052)),
            leagues_addr: SocketAddr::from(([127, 0, 0, 1], 50053)),
            bots: vec![("greedy".into(), 4), ("search".into(), 2)],
            bot_fill_wait: Duration::from_secs(3),
            database_url: None,
            page_origins: Vec::new(),
        }
    }
}

/// The running services.
#[derive(Debug)]
pub struct Running {
    pub game_url: String,
    pub matchmaker_url: String,
    pub leagues_url: String,
    stop: watch::Sender<bool>,
    tasks: Vec<(&'static str, JoinHandle<anyhow::Result<()>>)>,
}

/// The origins a browser gives the game service's page: its address and,
/// on the loopback interface, `localhost` too.
fn page_origins(game: SocketAddr, extra: &[String]) -> Vec<String> {
    let mut origins = vec![format!("http://{game}")];
    if game.ip().is_loopback() {
        origins.push(format!("http://localhost:{}", game.port()));
    }
    origins.extend(extra.iter().cloned());
    origins
}

/// `configured` (the environment's list, if any) and `more`, comma-separated.
fn with_origins(configured: Option<String>, more: &[String]) -> String {
    configured
        .into_iter()
        .filter(|c| !c.trim().is_empty())
        .chain(more.iter().cloned())
        .collect::<Vec<_>>()
        .join(",")
}

fn sqlite_url(dir: &Path, file: &str) -> String {
    format!("sqlite://{}?mode=rwc", dir.join(file).display())
}

/// A future that resolves when `stop` turns true.
async fn stopped(mut stop: watch::Receiver<bool>) {
    let _ = stop.wait_for(|&s| s).await;
}

/// Waits until the game service answers (it binds before it is ready to
/// serve: the database is opened first).
async fn wait_ready(url: &str) -> anyhow::Result<()> {
    for _ in 0..200 {
        if let Ok(mut client) = AccountServiceClient::connect(url.to_owned()).await {
            let probe = client
                .who_am_i(skit_proto::v1::WhoAmIRequest {})
                .await
                .err()
                .map(|s| s.code());
            if probe == Some(tonic::Code::Unauthenticated) {
                return Ok(());
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    anyhow::bail!("the game service at {url} did not become ready")
}

/// Starts the four services; they run until [`Running::stop`].
pub async fn start(settings: Settings) -> anyhow::Result<Running> {
    std::fs::create_dir_all(&settings.data_dir)
        .with_context(|| format!("cannot create {}", settings.data_dir.display()))?;
    let token = operator_token(&settings.data_dir)?;
    let (stop, stop_rx) = watch::channel(false);
    let mut tasks = Vec::new();

    let game_listener = TcpListener::bind(settings.game_addr)
        .await
        .with_context(|| format!("cannot listen on {}", settings.game_addr))?;
    let game_url = format!("http://{}", game_listener.local_addr()?);
    // Bound before the game service starts, so its page knows the address.
    let mm_listener = TcpListener::bind(settings.matchmaker_addr)
        .await
        .with_context(|| format!("cannot listen on {}", settings.matchmaker_addr))?;
    let matchmaker_url = format!("http://{}", mm_listener.local_addr()?);
    let leagues_listener = TcpListener::bind(settings.leagues_addr)
        .await
        .with_context(|| format!("cannot listen on {}", settings.leagues_addr))?;
    let leagues_url = format!("http://{}", leagues_listener.local_addr()?);
    let mut game = skit_game::Config::load().context("game service settings")?;
    game.addr = game_listener.local_addr()?;
    game.web_matchmaker_url = Some(matchmaker_url.clone());
    game.web_leagues_url = Some(leagues_url.clone());
    game.database_url = settings
        .database_url
        .clone()
        .unwrap_or_else(|| sqlite_url(&settings.data_dir, "skitgubbe.db"))
        .into();
    game.operator_token = Some(skit_api::Secret::new(token.clone()));
    let game_listener_addr = game_listener.local_addr()?;
    tasks.push((
        "game service",
        tokio::spawn(skit_game::run(
            game_listener,
            game,
            stopped(stop_rx.clone()),
        )),
    ));
    wait_ready(&game_url).await?;

    let mut worker = skit_botworker::Config::load().context("bot worker settings")?;
    worker.server = game_url.clone();
    worker.accounts_file = settings.data_dir.join("skitgubbe-bots.json");
    let operator = skit_api::Secret::new(token.clone());
    let mut accounts = Vec::new();
    for (strategy, count) in &settings.bots {
        let want = skit_botworker::Provision {
            count: *count,
            strategy: strategy.clone(),
            prefix: "bot".into(),
        };
        let file = skit_botworker::provision(&game_url, &operator, &worker.accounts_file, &want)
            .await
            .context("cannot create the bot accounts")?;
        accounts = file.accounts;
    }
    tasks.push((
        "bot worker",
        tokio::spawn(skit_botworker::run(
            worker,
            accounts,
            stopped(stop_rx.clone()),
        )),
    ));

    let mut mm = skit_matchmaker::Config::load().context("matchmaker settings")?;
    mm.addr = mm_listener.local_addr()?;
    mm.cors_origins = Some(with_origins(
        mm.cors_origins.take(),
        &page_origins(game_listener_addr, &settings.page_origins),
    ));
    mm.database_url = sqlite_url(&settings.data_dir, "skitgubbe-matchmaker.db").into();
    mm.game_url = game_url.clone();
    mm.operator_token = Some(skit_api::Secret::new(token.clone()));
    mm.bot_fill_wait_ms = settings.bot_fill_wait.as_millis() as u64;
    tasks.push((
        "matchmaker",
        tokio::spawn(skit_matchmaker::run(
            mm_listener,
            mm,
            stopped(stop_rx.clone()),
        )),
    ));

    let mut leagues = skit_leagues::Config::load().context("league service settings")?;
    leagues.addr = leagues_listener.local_addr()?;
    leagues.cors_origins = Some(with_origins(
        leagues.cors_origins.take(),
        &page_origins(game_listener_addr, &settings.page_origins),
    ));
    leagues.database_url = sqlite_url(&settings.data_dir, "skitgubbe-leagues.db").into();
    leagues.game_url = game_url.clone();
    leagues.operator_token = Some(skit_api::Secret::new(token));
    tasks.push((
        "league service",
        tokio::spawn(skit_leagues::run(
            leagues_listener,
            leagues,
            stopped(stop_rx),
        )),
    ));

    Ok(Running {
        game_url,
        matchmaker_url,
        leagues_url,
        stop,
        tasks,
    })
}

impl Running {
    /// Runs until Ctrl-C (or SIGTERM) or until one service stops on its own
    /// (an error).
    pub async fn until_ctrl_c(mut self) -> anyhow::Result<()> {
        let first = async {
            loop {
                if let Some(i) = self.tasks.iter().position(|(_, t)| t.is_finished()) {
                    return i;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        };
        tokio::select! {
            () = skit_gateway::stop_signal() => self.stop().await,
            i = first => {
                let (name, task) = self.tasks.remove(i);
                let outcome = task.await;
                let _ = self.stop().await;
                match outcome {
                    Ok(Err(e)) => Err(e.context(format!("the {name} stopped"))),
                    Ok(Ok(())) => anyhow::bail!("the {name} stopped"),
                    Err(e) => Err(anyhow::anyhow!("the {name} failed: {e}")),
                }
            }
        }
    }

    /// Stops every service and waits for them (the bot worker finishes the
    /// turns it is playing first).
    pub async fn stop(self) -> anyhow::Result<()> {
        let _ = self.stop.send(true);
        let mut first_error = None;
        for (name, task) in self.tasks.into_iter().rev() {
            match task.await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => {
                    first_error.get_or_insert(e.context(format!("the {name} failed")));
                }
                Err(e) => {
                    first_error.get_or_insert(anyhow::anyhow!("the {name} panicked: {e}"));
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    }
}
