//! The league service started here beside a game service, bot accounts
//! played by a bot worker, and the calls the tests share.

use std::net::SocketAddr;
use std::time::Duration;

use skit_api::Secret;
use skit_botworker::BotAccount;
use skit_leagues::Config;
use skit_proto::v1::league_service_client::LeagueServiceClient;
use skit_proto::v1::{
    AccountKind, Conditions, CreateTournamentRequest, EnterTournamentRequest, GetTournamentRequest,
    ListTablesRequest, Rules, StartTournamentRequest, TerminateTournamentRequest, Tournament,
    TournamentFormat, TournamentState, TournamentTable,
};
use skit_testkit::{GameService, OPERATOR_TOKEN, Player, TestDb, authed};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;

/// A fresh database of `db`'s kind, for the game service: each service
/// keeps its own, as deployed.
pub async fn game_db(db: &TestDb) -> TestDb {
    match db.sqlite_path() {
        Some(_) => TestDb::sqlite(),
        None => TestDb::postgres().await,
    }
}

/// A league service running in this process.
pub struct Leagues {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<anyhow::Result<()>>,
}

pub async fn spawn_leagues(db: &TestDb, game: &GameService) -> Leagues {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let config = Config {
        database_url: db.url().into(),
        addr,
        game_url: game.url(),
        operator_token: Some(Secret::new(OPERATOR_TOKEN)),
        tick_ms: 50,
        watch_poll_ms: 50,
        ..Config::default()
    };
    let (stop, stopped) = oneshot::channel();
    let task = tokio::spawn(skit_leagues::run(listener, config, async {
        let _ = stopped.await;
    }));
    Leagues {
        addr,
        stop: Some(stop),
        task,
    }
}

impl Leagues {
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub async fn client(&self) -> LeagueServiceClient<Channel> {
        for _ in 0..100 {
            if let Ok(client) = LeagueServiceClient::connect(self.url()).await {
                return client;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("the league service at {} did not start", self.url());
    }

    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.task
            .await
            .expect("join")
            .expect("the league service ran");
    }

    /// Creates `request` as the operator.
    pub async fn create(&self, request: CreateTournamentRequest) -> Tournament {
        self.client()
            .await
            .create_tournament(authed(request, OPERATOR_TOKEN))
            .await
            .unwrap_or_else(|e| panic!("create: {e}"))
            .into_inner()
    }

    pub async fn enter(&self, player: &Player, tournament: &Tournament) {
        let request = EnterTournamentRequest {
            tournament_id: tournament.tournament_id.clone(),
            entry_code: String::new(),
        };
        self.client()
            .await
            .enter_tournament(authed(request, &player.token))
            .await
            .unwrap_or_else(|e| panic!("enter: {e}"));
    }

    pub async fn get(&self, id: &str) -> Tournament {
        let request = GetTournamentRequest {
            tournament_id: id.to_owned(),
        };
        self.client()
            .await
            .get_tournament(authed(request, OPERATOR_TOKEN))
            .await
            .unwrap_or_else(|e| panic!("get: {e}"))
            .into_inner()
    }

    /// Starts the tournament as the operator.
    pub async fn start(&self, id: &str) {
        let request = StartTournamentRequest {
            tournament_id: id.to_owned(),
        };
        self.client()
            .await
            .start_tournament(authed(request, OPERATOR_TOKEN))
            .await
            .unwrap_or_else(|e| panic!("start: {e}"));
    }

    /// Every table of the tournament.
    pub async fn tables(&self, id: &str) -> Vec<TournamentTable> {
        let request = ListTablesRequest {
            tournament_id: id.to_owned(),
            ..Default::default()
        };
        self.client()
            .await
            .list_tables(authed(request, OPERATOR_TOKEN))
            .await
            .unwrap_or_else(|e| panic!("tables: {e}"))
            .into_inner()
            .tables
    }

    /// Ends the tournament as the operator.
    pub async fn terminate(&self, id: &str) {
        let request = TerminateTournamentRequest {
            tournament_id: id.to_owned(),
            reason: "the test is over".into(),
        };
        self.client()
            .await
            .terminate_tournament(authed(request, OPERATOR_TOKEN))
            .await
            .unwrap_or_else(|e| panic!("terminate: {e}"));
    }

    /// `player`'s entry into tournament `id`, which must be refused.
    pub async fn refused_entry(&self, player: &Player, id: &str) -> tonic::Status {
        let request = EnterTournamentRequest {
            tournament_id: id.to_owned(),
            entry_code: String::new(),
        };
        self.client()
            .await
            .enter_tournament(authed(request, &player.token))
            .await
            .expect_err("the entry is refused")
    }

    /// Polls until `ready` holds of the tournament; panics after `within`.
    pub async fn until(
        &self,
        id: &str,
        within: Duration,
        ready: impl Fn(&Tournament) -> bool,
    ) -> Tournament {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let t = self.get(id).await;
            if ready(&t) {
                return t;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "tournament never got there: {t:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

pub fn is(state: TournamentState) -> impl Fn(&Tournament) -> bool {
    move |t| t.state == state as i32
}

/// A Swiss tournament of skitgubbe at `seats`-seat tables that takes bots.
pub fn swiss(name: &str, seats: u32, rounds: u32) -> CreateTournamentRequest {
    CreateTournamentRequest {
        name: name.into(),
        rules: Some(Rules {
            preset: "skitgubbe".into(),
            options: None,
        }),
        format: TournamentFormat::Swiss as i32,
        seats,
        rounds,
        conditions: Some(Conditions {
            allow_bots: true,
            ..Default::default()
        }),
        seed: Some("7".into()),
        ..Default::default()
    }
}

/// `n` bot accounts, `prefix0`, `prefix1`, ...
pub async fn bots(game: &GameService, prefix: &str, n: usize) -> Vec<Player> {
    let mut bots = Vec::new();
    for i in 0..n {
        bots.push(
            game.account(&format!("{prefix}{i}"), AccountKind::Bot)
                .await,
        );
    }
    bots
}

/// A bot worker playing `bots` at `game` with the random strategy.
pub struct Worker {
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<anyhow::Result<()>>,
}

impl Worker {
    pub fn start(game: &GameService, bots: &[Player]) -> Worker {
        let config = skit_botworker::Config {
            server: game.url(),
            wait_ms: 1_000,
            max_games: 16,
            retry_max_delay_ms: 200,
            shutdown_grace_ms: 2_000,
            ..skit_botworker::Config::default()
        };
        let accounts = bots
            .iter()
            .enumerate()
            .map(|(i, b)| BotAccount {
                name: format!("bot{i}"),
                token: Secret::new(b.token.clone()),
                strategy: "random".into(),
                account_id: Some(b.id.clone()),
            })
            .collect();
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(skit_botworker::run(config, accounts, async {
            let _ = stopped.await;
        }));
        Worker {
            stop: Some(stop),
            task,
        }
    }

    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.task.await.expect("join").expect("the worker ran");
    }
}

/// The registration condition a refused entry names.
pub fn condition(status: &tonic::Status) -> String {
    use tonic_types::StatusExt;
    assert_eq!(status.code(), tonic::Code::FailedPrecondition, "{status:?}");
    let info = status.get_details_error_info().expect("ErrorInfo");
    assert_eq!(info.reason, "registration_condition");
    info.metadata.get("condition").cloned().unwrap_or_default()
}
