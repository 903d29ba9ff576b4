//! The game service on port 0 against a fresh database, and its clients.

use std::net::SocketAddr;

use skit_api::{Client, Secret};
use skit_game::Config;
use skit_proto::v1::account_service_client::AccountServiceClient;
use skit_proto::v1::admin_service_client::AdminServiceClient;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::rating_service_client::RatingServiceClient;
use skit_proto::v1::{AccountKind, CreateAccountRequest, ListGamesRequest, SetHouseBotRequest};
use skit_store::testing::TestDb;
use tonic::transport::Channel;

use crate::running::{Running, Shutdown, bind};
use crate::{Http, OPERATOR_TOKEN, Player, authed, guest_at, skitgubbe_for};

/// A game service running in this process.
#[derive(Debug)]
pub struct GameService {
    pub addr: SocketAddr,
    running: Running,
}

/// The game service's settings for tests: `db`, `addr`, the operator token
/// [`OPERATOR_TOKEN`], and long polls capped at 10 s so a test that waits
/// for nothing ends soon.
pub fn game_config(db: &TestDb, addr: SocketAddr) -> Config {
    Config {
        database_url: db.url().into(),
        addr,
        operator_token: Some(Secret::new(OPERATOR_TOKEN)),
        long_poll_cap_ms: 10_000,
        ..Config::default()
    }
}

/// The game service on `db` with [`game_config`].
pub async fn spawn_game(db: &TestDb) -> GameService {
    spawn_game_with(db, |_| {}).await
}

/// As [`spawn_game`], with `tweak` applied to the config first.
pub async fn spawn_game_with(db: &TestDb, tweak: impl FnOnce(&mut Config)) -> GameService {
    let (listener, addr) = bind().await;
    let mut config = game_config(db, addr);
    tweak(&mut config);
    let running =
        Running::start(|shutdown: Shutdown| skit_game::run(listener, config, shutdown.wait()));
    GameService { addr, running }
}

impl GameService {
    /// `http://127.0.0.1:port`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops the service (drop its clients first: open calls delay the stop).
    pub async fn stop(self) {
        self.running.stop().await;
    }

    /// A GameService client; requests carry no token unless [`authed`].
    pub async fn games(&self) -> GameServiceClient<Channel> {
        GameServiceClient::connect(self.url())
            .await
            .unwrap_or_else(|e| panic!("connect to {}: {e}", self.url()))
    }

    /// An AccountService client; requests carry no token unless [`authed`].
    pub async fn accounts(&self) -> AccountServiceClient<Channel> {
        AccountServiceClient::connect(self.url())
            .await
            .unwrap_or_else(|e| panic!("connect to {}: {e}", self.url()))
    }

    /// A RatingService client; requests carry no token unless [`authed`].
    pub async fn ratings(&self) -> RatingServiceClient<Channel> {
        RatingServiceClient::connect(self.url())
            .await
            .unwrap_or_else(|e| panic!("connect to {}: {e}", self.url()))
    }

    /// An AdminService client; requests carry no token unless [`authed`].
    pub async fn admin(&self) -> AdminServiceClient<Channel> {
        AdminServiceClient::connect(self.url())
            .await
            .unwrap_or_else(|e| panic!("connect to {}: {e}", self.url()))
    }

    /// GameService and AccountService as `player`: every call carries its
    /// bearer token.
    pub async fn client(&self, player: &Player) -> Client {
        self.client_with_token(&player.token).await
    }

    /// GameService and AccountService as the operator.
    pub async fn operator(&self) -> Client {
        self.client_with_token(OPERATOR_TOKEN).await
    }

    async fn client_with_token(&self, token: &str) -> Client {
        Client::connect(&self.url(), Secret::new(token))
            .await
            .unwrap_or_else(|e| panic!("connect to {}: {e}", self.url()))
    }

    /// The REST/JSON routes on the same port; pass a player's token per call.
    pub fn http(&self) -> Http {
        Http::new(self.url())
    }

    /// How many games `player` sits in, finished ones included.
    pub async fn games_of(&self, player: &Player) -> usize {
        let request = ListGamesRequest {
            include_over: true,
            ..Default::default()
        };
        self.games()
            .await
            .list_games(authed(request, &player.token))
            .await
            .unwrap_or_else(|e| panic!("list games: {e}"))
            .into_inner()
            .games
            .len()
    }

    /// A new guest account, signed up as a client would.
    pub async fn guest(&self, name: &str) -> Player {
        guest_at(&self.url(), name).await
    }

    /// A player or bot account created by the operator.
    pub async fn account(&self, name: &str, kind: AccountKind) -> Player {
        self.account_owned_by(name, kind, None).await
    }

    /// A bot account run by `owner` (a player), created by the operator.
    pub async fn bot_of(&self, name: &str, owner: &Player) -> Player {
        self.account_owned_by(name, AccountKind::Bot, Some(owner))
            .await
    }

    async fn account_owned_by(
        &self,
        name: &str,
        kind: AccountKind,
        owner: Option<&Player>,
    ) -> Player {
        let request = CreateAccountRequest {
            name: name.into(),
            kind: kind.into(),
            owner_account_id: owner.map(|o| o.id.clone()).unwrap_or_default(),
        };
        let created = self
            .accounts()
            .await
            .create_account(authed(request, OPERATOR_TOKEN))
            .await
            .unwrap_or_else(|e| panic!("account {name}: {e}"))
            .into_inner();
        Player {
            id: created.account_id,
            token: created.token,
        }
    }

    /// A bot account the operator marked as a house bot: one the
    /// matchmaker may seat to fill a table.
    pub async fn house_bot(&self, name: &str) -> Player {
        let bot = self.account(name, AccountKind::Bot).await;
        let request = SetHouseBotRequest {
            account_id: bot.id.clone(),
            house_bot: true,
        };
        self.accounts()
            .await
            .set_house_bot(authed(request, OPERATOR_TOKEN))
            .await
            .unwrap_or_else(|e| panic!("mark {name} a house bot: {e}"));
        bot
    }

    /// A skitgubbe game with a new guest (`p0`, `p1`, ...) in each seat;
    /// returns the guests, the game id and its version.
    pub async fn game_with_guests(&self, players: usize) -> (Vec<Player>, String, u64) {
        let mut guests = Vec::new();
        for i in 0..players {
            guests.push(self.guest(&format!("p{i}")).await);
        }
        let (game, version) = self.game_for(&guests).await;
        (guests, game, version)
    }

    /// A skitgubbe game with `players` in its seats, in order; returns its
    /// id and version. The operator creates it, as the matchmaker does for
    /// players who queued: only the operator seats other accounts.
    pub async fn game_for(&self, players: &[Player]) -> (String, u64) {
        let created = self
            .games()
            .await
            .create_game(authed(skitgubbe_for(players), OPERATOR_TOKEN))
            .await
            .unwrap_or_else(|e| panic!("create a game: {e}"))
            .into_inner();
        (created.game_id, created.version)
    }
}
