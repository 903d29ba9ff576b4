//! Which service to drive: one started here (`--spawn`) on its own runtime,
//! or one already running (`--url`), and how to connect to it.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::{Context, bail};
use skit_api::authed;
use skit_proto::v1::account_service_client::AccountServiceClient;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::{CreateGameRequest, CreateGuestRequest, JoinGameRequest, Rules};
use tokio::sync::oneshot;
use tonic::transport::{Channel, Endpoint};

use crate::cpu;

#[derive(clap::Args, Debug, Clone)]
pub struct TargetArgs {
    /// Start the service in this process, on --database-url.
    #[arg(long)]
    pub spawn: bool,
    /// The database for --spawn and for the raw-insert measurement
    /// (postgres://... or sqlite://...?mode=rwc).
    #[arg(long)]
    pub database_url: Option<String>,
    /// A running service to drive instead of --spawn.
    #[arg(long, default_value = "http://127.0.0.1:50051")]
    pub url: String,
    /// The service's process id (with --url), to report its CPU.
    #[arg(long)]
    pub service_pid: Option<u32>,
    /// With --spawn: group commit on (true) or off (false: each move its
    /// own commit, and the service's pool two connections per game, so
    /// as many commits are in flight as in the raw loop).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub group_commit: bool,
    /// With --spawn: group commit's committer tasks (0: the service's
    /// default, sized to the machine and the database).
    #[arg(long, default_value_t = 0)]
    pub committers: usize,
    /// HTTP/2 connections the tool spreads its calls over (default: one
    /// per core, at least 4: the service reads each connection's frames
    /// on one task at a time).
    #[arg(long)]
    pub connections: Option<usize>,
    /// The tool's own threads (default: a quarter of the cores, at least
    /// one; the rest are the service's and the database's).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// The machine's cores, as the service sizes itself by them.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

impl TargetArgs {
    /// The tool's runtime threads.
    pub fn threads(&self) -> usize {
        self.threads.unwrap_or(cores() / 4).max(1)
    }

    /// The HTTP/2 connections to open.
    pub fn connections(&self) -> usize {
        self.connections.unwrap_or(cores().max(4)).max(1)
    }
}

/// A service being driven: its address and, if started here, the handle
/// that stops it.
pub struct Service {
    pub url: String,
    stop: Option<(
        oneshot::Sender<()>,
        std::thread::JoinHandle<anyhow::Result<()>>,
    )>,
}

impl Service {
    /// Starts (--spawn) or names (--url) the service.
    pub async fn start(args: &TargetArgs, pool: u32) -> anyhow::Result<Service> {
        if !args.spawn {
            return Ok(Service {
                url: args.url.clone(),
                stop: None,
            });
        }
        let Some(database_url) = args.database_url.clone() else {
            bail!("--spawn needs --database-url (or DATABASE_URL)");
        };
        let listener = std::net::TcpListener::bind("127.0.0.1:0").context("bind")?;
        let addr: SocketAddr = listener.local_addr()?;
        listener.set_nonblocking(true)?;
        let config = skit_game::Config {
            database_url: database_url.into(),
            addr,
            group_commit: args.group_commit,
            group_committers: args.committers,
            db_max_connections: pool,
            // Every game made stays cached, so `memory` counts them all.
            cache_idle_ms: 60 * 60 * 1000,
            // It measures the service, not its defences: every guest and
            // game, and every watcher's connection, comes from this one
            // address as fast as it can.
            quota_open_games: 0,
            quota_games_per_hour: 0,
            quota_bot_games_per_day: 0,
            limits: skit_gateway::LimitsConfig {
                limits: false,
                max_connections: 100_000,
                max_connections_per_ip: 100_000,
                ..skit_gateway::LimitsConfig::default()
            },
            ..skit_game::Config::default()
        };
        let (stop, stopped) = oneshot::channel::<()>();
        let (ready, is_ready) = oneshot::channel::<()>();
        // Its own runtime and named threads, so its CPU can be told apart;
        // as many as the binary's would have, one per core.
        let thread = std::thread::Builder::new()
            .name(cpu::SERVICE_THREADS.into())
            .spawn(move || -> anyhow::Result<()> {
                let runtime = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(cores())
                    .thread_name(cpu::SERVICE_THREADS)
                    .enable_all()
                    .build()?;
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(listener)?;
                    let _ = ready.send(());
                    skit_game::run(listener, config, async {
                        let _ = stopped.await;
                    })
                    .await
                })
            })?;
        let _ = is_ready.await;
        let service = Service {
            url: format!("http://{addr}"),
            stop: Some((stop, thread)),
        };
        // The service is up once a guest can be made.
        for _ in 0..100 {
            if service.guest("probe").await.is_ok() {
                return Ok(service);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        bail!("the spawned service did not answer")
    }

    /// `n` channels (HTTP/2 connections) to the service.
    pub async fn channels(&self, n: usize) -> anyhow::Result<Vec<Channel>> {
        let mut channels = Vec::with_capacity(n);
        for _ in 0..n.max(1) {
            let channel = Endpoint::from_shared(self.url.clone())?
                .tcp_nodelay(true)
                .connect()
                .await
                .with_context(|| format!("cannot connect to {}", self.url))?;
            channels.push(channel);
        }
        Ok(channels)
    }

    /// A new guest: (account id, token).
    pub async fn guest(&self, name: &str) -> anyhow::Result<(String, String)> {
        let mut client = AccountServiceClient::connect(self.url.clone()).await?;
        let reply = client
            .create_guest(CreateGuestRequest {
                name: Some(name.into()),
                request_id: String::new(),
            })
            .await?
            .into_inner();
        Ok((reply.account_id, reply.token))
    }

    /// Stops a spawned service and waits for it.
    pub async fn stop(self) -> anyhow::Result<()> {
        if let Some((stop, thread)) = self.stop {
            let _ = stop.send(());
            tokio::task::spawn_blocking(move || thread.join())
                .await?
                .map_err(|_| anyhow::anyhow!("the service thread panicked"))??;
        }
        Ok(())
    }
}

/// The guests seated in every game, one per seat: (account id, token).
pub type Seats = Vec<(String, String)>;

/// A game with `seats` in order: the first creates it (taking seat 0) and
/// the others join the open seats in turn, as players do (only the
/// operator seats other accounts). Returns its id and version.
pub async fn create_game(
    client: &mut GameServiceClient<Channel>,
    seats: &Seats,
    preset: &str,
) -> Result<(String, u64), tonic::Status> {
    create_game_with(client, seats, preset, "").await
}

/// [`create_game`] with a request id: sent again, it answers with the same
/// game (and each seat already joined is kept).
pub async fn create_game_with(
    client: &mut GameServiceClient<Channel>,
    seats: &Seats,
    preset: &str,
    request_id: &str,
) -> Result<(String, u64), tonic::Status> {
    let req = CreateGameRequest {
        rules: Some(Rules {
            preset: preset.into(),
            options: None,
        }),
        players: seats.len() as u32,
        request_id: request_id.into(),
        ..Default::default()
    };
    let created = client
        .create_game(authed(req, &seats[0].1)?)
        .await?
        .into_inner();
    let mut version = created.version;
    for (_, token) in &seats[1..] {
        let join = JoinGameRequest {
            game_id: created.game_id.clone(),
            seat: None,
        };
        let joined = client.join_game(authed(join, token)?).await?.into_inner();
        version = joined.view.map_or(version, |v| v.version);
    }
    Ok((created.game_id, version))
}

/// `total` games of `preset` with `seats`, `concurrency` creations at once
/// over `channels`: the games made (id and version) and how many
/// creations failed (each printed).
pub async fn create_games(
    channels: &[Channel],
    seats: &Seats,
    preset: &str,
    total: u64,
    concurrency: usize,
) -> (Vec<(String, u64)>, u64) {
    create_games_timed(channels, seats, preset, total, concurrency, None).await
}

/// [`create_games`], timing every `window` games created ([`Windows`]).
pub async fn create_games_timed(
    channels: &[Channel],
    seats: &Seats,
    preset: &str,
    total: u64,
    concurrency: usize,
    windows: Option<Arc<Windows>>,
) -> (Vec<(String, u64)>, u64) {
    let (next, errors) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let mut tasks = tokio::task::JoinSet::new();
    for w in 0..concurrency {
        let mut client = GameServiceClient::new(channels[w % channels.len()].clone());
        let (next, errors, seats, preset, windows) = (
            next.clone(),
            errors.clone(),
            seats.clone(),
            preset.to_owned(),
            windows.clone(),
        );
        tasks.spawn(async move {
            let mut made = Vec::new();
            while next.fetch_add(1, Ordering::Relaxed) < total {
                match create_game(&mut client, &seats, &preset).await {
                    Ok(game) => {
                        made.push(game);
                        if let Some(windows) = &windows {
                            windows.created();
                        }
                    }
                    Err(status) => {
                        errors.fetch_add(1, Ordering::Relaxed);
                        eprintln!("error: {} {}", status.code(), status.message());
                    }
                }
            }
            made
        });
    }
    let games = tasks.join_all().await.into_iter().flatten().collect();
    (games, errors.load(Ordering::Relaxed))
}

/// The create-and-join rate per window of `size` games, in order: whether
/// creating slows as games accumulate.
#[derive(Debug)]
pub struct Windows {
    size: u64,
    created: AtomicU64,
    /// When the last window closed, and each closed window's rate.
    marks: std::sync::Mutex<(std::time::Instant, Vec<f64>)>,
}

impl Windows {
    pub fn new(size: u64) -> Arc<Self> {
        Arc::new(Self {
            size: size.max(1),
            created: AtomicU64::new(0),
            marks: std::sync::Mutex::new((std::time::Instant::now(), Vec::new())),
        })
    }

    /// One more game created; closes a window every `size` games.
    fn created(&self) {
        let n = self.created.fetch_add(1, Ordering::Relaxed) + 1;
        if !n.is_multiple_of(self.size) {
            return;
        }
        let mut marks = self
            .marks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let now = std::time::Instant::now();
        let rate = self.size as f64 / (now - marks.0).as_secs_f64().max(1e-9);
        marks.0 = now;
        marks.1.push(rate);
    }

    /// Each closed window's rate (games/s), in order.
    pub fn rates(&self) -> Vec<f64> {
        self.marks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .1
            .clone()
    }

    pub fn size(&self) -> u64 {
        self.size
    }
}
