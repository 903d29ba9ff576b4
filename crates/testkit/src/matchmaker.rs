//! The matchmaker on port 0 against a fresh database, creating its games
//! at a game service started here.

use std::net::SocketAddr;
use std::time::Duration;

use skit_api::Secret;
use skit_matchmaker::Config;
use skit_proto::v1::matchmaking_service_client::MatchmakingServiceClient;
use skit_proto::v1::{EnqueueRequest, GetTicketRequest, Ticket, TicketState};
use skit_store::testing::TestDb;
use tonic::transport::Channel;

use crate::running::{Running, Shutdown, bind};
use crate::{GameService, Http, OPERATOR_TOKEN, Player, authed};

/// A matchmaker running in this process.
#[derive(Debug)]
pub struct Matchmaker {
    pub addr: SocketAddr,
    running: Running,
}

/// The matchmaker's settings for tests: tickets on `db`, games at `game`
/// as the operator, a fast matching loop and a short wait for bots.
pub fn matchmaker_config(db: &TestDb, game: &GameService, addr: SocketAddr) -> Config {
    Config {
        database_url: db.url().into(),
        addr,
        game_url: game.url(),
        operator_token: Some(Secret::new(OPERATOR_TOKEN)),
        match_interval_ms: 50,
        bot_fill_wait_ms: 200,
        recheck_ms: 50,
        long_poll_cap_ms: 10_000,
        ..Config::default()
    }
}

/// The matchmaker on `db` with [`matchmaker_config`].
pub async fn spawn_matchmaker(db: &TestDb, game: &GameService) -> Matchmaker {
    spawn_matchmaker_with(db, game, |_| {}).await
}

/// As [`spawn_matchmaker`], with `tweak` applied to the config first.
pub async fn spawn_matchmaker_with(
    db: &TestDb,
    game: &GameService,
    tweak: impl FnOnce(&mut Config),
) -> Matchmaker {
    let (listener, addr) = bind().await;
    let mut config = matchmaker_config(db, game, addr);
    tweak(&mut config);
    let running = Running::start(|shutdown: Shutdown| {
        skit_matchmaker::run(listener, config, shutdown.wait())
    });
    Matchmaker { addr, running }
}

impl Matchmaker {
    /// `http://127.0.0.1:port`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops the matchmaker (drop its clients first).
    pub async fn stop(self) {
        self.running.stop().await;
    }

    /// The REST/JSON routes on the same port; pass a player's token per call.
    pub fn http(&self) -> Http {
        Http::new(self.url())
    }

    /// A MatchmakingService client; requests carry no token unless
    /// [`authed`](crate::authed).
    pub async fn client(&self) -> MatchmakingServiceClient<Channel> {
        // It may still be opening its database: retry briefly.
        for _ in 0..50 {
            if let Ok(client) = MatchmakingServiceClient::connect(self.url()).await {
                return client;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("the matchmaker at {} did not start", self.url());
    }

    /// `player` queues with `request`; panics if it is refused.
    pub async fn enqueue(&self, player: &Player, request: EnqueueRequest) -> Ticket {
        self.client()
            .await
            .enqueue(authed(request, &player.token))
            .await
            .unwrap_or_else(|e| panic!("enqueue: {e}"))
            .into_inner()
    }

    /// Long-polls `player`'s ticket until it is no longer queued or
    /// `within` has passed; returns it as it is then.
    pub async fn settled(&self, player: &Player, ticket: &Ticket, within: Duration) -> Ticket {
        let mut client = self.client().await;
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let request = GetTicketRequest {
                ticket_id: ticket.ticket_id.clone(),
                wait_ms: 1000,
            };
            let now = client
                .get_ticket(authed(request, &player.token))
                .await
                .unwrap_or_else(|e| panic!("get ticket {}: {e}", ticket.ticket_id))
                .into_inner();
            if now.state != TicketState::Queued as i32 || tokio::time::Instant::now() >= deadline {
                return now;
            }
        }
    }
}
