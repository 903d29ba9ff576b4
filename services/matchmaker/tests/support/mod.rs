//! The real game service and matchmaker, each on port 0 and a fresh
//! database, and clients that talk to them as a player would.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use skit_proto::v1::account_service_client::AccountServiceClient;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::matchmaking_service_client::MatchmakingServiceClient;
use skit_proto::v1::{
    AccountKind, CreateAccountRequest, CreateGuestRequest, EnqueueRequest, GameSummary,
    GetTicketRequest, ListGamesRequest, Rules, Ticket, TicketState,
};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::Request;
use tonic::transport::Channel;

pub const OPERATOR_TOKEN: &str = "operator-secret-for-matchmaker-tests";

/// A running service: its address and how to stop it.
pub struct Running {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<anyhow::Result<()>>,
}

impl Running {
    /// Stops the service (drop its clients first).
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.task.await.expect("join").expect("service ran");
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

pub async fn spawn_game(database_url: &str) -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let config = skit_game::Config {
        database_url: database_url.into(),
        addr,
        operator_token: Some(skit_game::Secret::new(OPERATOR_TOKEN)),
        ..skit_game::Config::default()
    };
    let (stop, stopped) = oneshot::channel();
    let task = tokio::spawn(skit_game::run(listener, config, async {
        let _ = stopped.await;
    }));
    Running {
        addr,
        stop: Some(stop),
        task,
    }
}

/// The matchmaker's settings for tests: a fast loop and a short bot wait.
pub fn mm_config(database_url: &str, game: &Running) -> skit_matchmaker::Config {
    skit_matchmaker::Config {
        database_url: database_url.into(),
        game_url: game.url(),
        operator_token: Some(skit_matchmaker::Secret::new(OPERATOR_TOKEN)),
        match_interval_ms: 50,
        bot_fill_wait_ms: 200,
        recheck_ms: 50,
        long_poll_cap_ms: 10_000,
        ..skit_matchmaker::Config::default()
    }
}

pub async fn spawn_matchmaker(config: skit_matchmaker::Config) -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = oneshot::channel();
    let task = tokio::spawn(skit_matchmaker::run(listener, config, async {
        let _ = stopped.await;
    }));
    Running {
        addr,
        stop: Some(stop),
        task,
    }
}

pub fn authed<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("ascii"),
    );
    request
}

/// An account and its token.
#[derive(Debug, Clone)]
pub struct Player {
    pub id: String,
    pub token: String,
}

pub async fn accounts(game: &Running) -> AccountServiceClient<Channel> {
    AccountServiceClient::connect(game.url())
        .await
        .expect("connect")
}

pub async fn games(game: &Running) -> GameServiceClient<Channel> {
    GameServiceClient::connect(game.url())
        .await
        .expect("connect")
}

pub async fn matchmaking(mm: &Running) -> MatchmakingServiceClient<Channel> {
    // The server may still be starting: retry briefly.
    for _ in 0..50 {
        if let Ok(client) = MatchmakingServiceClient::connect(mm.url()).await {
            return client;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("matchmaker did not start");
}

/// A player (or bot) account created by the operator.
pub async fn account(game: &Running, name: &str, kind: AccountKind) -> Player {
    let created = accounts(game)
        .await
        .create_account(authed(
            CreateAccountRequest {
                name: name.into(),
                kind: kind.into(),
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("create account")
        .into_inner();
    Player {
        id: created.account_id,
        token: created.token,
    }
}

pub async fn guest(game: &Running, name: &str) -> Player {
    let created = accounts(game)
        .await
        .create_guest(CreateGuestRequest {
            name: Some(name.into()),
        })
        .await
        .expect("guest")
        .into_inner();
    Player {
        id: created.account_id,
        token: created.token,
    }
}

pub fn rules(preset: &str) -> Option<Rules> {
    Some(Rules {
        preset: preset.into(),
        options: None,
    })
}

pub fn enqueue_request(preset: &str, counts: &[u32], allow_bots: bool) -> EnqueueRequest {
    EnqueueRequest {
        rules: rules(preset),
        player_counts: counts.to_vec(),
        allow_bots,
    }
}

pub async fn enqueue(mm: &Running, player: &Player, req: EnqueueRequest) -> Ticket {
    matchmaking(mm)
        .await
        .enqueue(authed(req, &player.token))
        .await
        .expect("enqueue")
        .into_inner()
}

/// Long-polls the ticket until it is no longer queued or `within` passes.
pub async fn settled(mm: &Running, player: &Player, ticket: &Ticket, within: Duration) -> Ticket {
    let mut client = matchmaking(mm).await;
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let now = client
            .get_ticket(authed(
                GetTicketRequest {
                    ticket_id: ticket.ticket_id.clone(),
                    wait_ms: 1000,
                },
                &player.token,
            ))
            .await
            .expect("get ticket")
            .into_inner();
        if now.state != TicketState::Queued as i32 || tokio::time::Instant::now() >= deadline {
            return now;
        }
    }
}

/// The games the player sits in.
pub async fn games_of(game: &Running, player: &Player) -> Vec<GameSummary> {
    games(game)
        .await
        .list_games(authed(
            ListGamesRequest {
                include_over: true,
                ..Default::default()
            },
            &player.token,
        ))
        .await
        .expect("list games")
        .into_inner()
        .games
}
