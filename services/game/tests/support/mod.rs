//! Spawning the real service on a free port against a fresh database, and
//! talking to it as a client would.

#![allow(dead_code)]

use std::net::SocketAddr;

use rand::Rng;
use rand::seq::IndexedRandom;
use skit_game::{Config, Secret};
use skit_proto::v1::account_service_client::AccountServiceClient;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::{
    CreateGameRequest, CreateGuestRequest, GetViewRequest, Rules, SeatSpec, SubmitMoveRequest,
    SubmitMoveResponse, View,
};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;
use tonic::{Request, Status};

/// Writes one test per name for SQLite and one for Postgres, each on a
/// fresh database: `async fn name(db: &TestDb)` is the body.
#[allow(unused_macros)]
macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let db = skit_store::testing::TestDb::sqlite();
                    super::$name(&db).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let db = skit_store::testing::TestDb::postgres().await;
                    super::$name(&db).await;
                }
            )*
        }
    };
}

pub const OPERATOR_TOKEN: &str = "operator-secret-for-tests";

pub struct App {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<anyhow::Result<()>>,
}

pub async fn spawn_app(database_url: &str) -> App {
    spawn_app_with(database_url, |_| {}).await
}

/// As [`spawn_app`], with `tweak` applied to the config first.
pub async fn spawn_app_with(database_url: &str, tweak: impl FnOnce(&mut Config)) -> App {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let mut config = Config {
        database_url: database_url.into(),
        addr,
        operator_token: Some(Secret::new(OPERATOR_TOKEN)),
        long_poll_cap_ms: 10_000,
        ..Config::default()
    };
    tweak(&mut config);
    let (stop, stopped) = oneshot::channel();
    let task = tokio::spawn(skit_game::run(listener, config, async {
        let _ = stopped.await;
    }));
    App {
        addr,
        stop: Some(stop),
        task,
    }
}

impl App {
    pub async fn games(&self) -> GameServiceClient<Channel> {
        GameServiceClient::connect(format!("http://{}", self.addr))
            .await
            .expect("connect")
    }

    pub async fn accounts(&self) -> AccountServiceClient<Channel> {
        AccountServiceClient::connect(format!("http://{}", self.addr))
            .await
            .expect("connect")
    }

    /// Stops the service (drop clients first: open calls delay the stop).
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.task.await.expect("join").expect("service ran");
    }

    pub async fn guest(&self, name: &str) -> Guest {
        guest_at(&format!("http://{}", self.addr), name).await
    }

    /// A game with one guest per seat; returns the guests and the game id.
    pub async fn game_with_guests(&self, players: usize) -> (Vec<Guest>, String, u64) {
        let mut guests = Vec::new();
        for i in 0..players {
            guests.push(self.guest(&format!("p{i}")).await);
        }
        let (game, version) = self.game_for(&guests).await;
        (guests, game, version)
    }

    /// A skitgubbe game with `guests` in its seats, in order, created by
    /// the first; returns its id and version.
    pub async fn game_for(&self, guests: &[Guest]) -> (String, u64) {
        let created = self
            .games()
            .await
            .create_game(authed(skitgubbe_for(guests), &guests[0].token))
            .await
            .expect("create")
            .into_inner();
        (created.game_id, created.version)
    }
}

/// A new guest on the service at `url`.
pub async fn guest_at(url: &str, name: &str) -> Guest {
    let reply = AccountServiceClient::connect(url.to_owned())
        .await
        .expect("connect")
        .create_guest(CreateGuestRequest {
            name: Some(name.into()),
        })
        .await
        .expect("guest")
        .into_inner();
    Guest {
        id: reply.account_id,
        token: reply.token,
    }
}

/// A request for a skitgubbe game with `guests` in its seats, in order.
pub fn skitgubbe_for(guests: &[Guest]) -> CreateGameRequest {
    CreateGameRequest {
        rules: Some(Rules {
            preset: "skitgubbe".into(),
            options: None,
        }),
        players: guests.len() as u32,
        seats: guests
            .iter()
            .map(|g| SeatSpec {
                account_id: Some(g.id.clone()),
            })
            .collect(),
        ..Default::default()
    }
}

#[derive(Debug, Clone)]
pub struct Guest {
    pub id: String,
    pub token: String,
}

pub fn authed<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("ascii"),
    );
    request
}

pub async fn view(
    client: &mut GameServiceClient<Channel>,
    game: &str,
    seat: u32,
    token: &str,
) -> View {
    let req = GetViewRequest {
        game_id: game.into(),
        seat: Some(seat),
        ..Default::default()
    };
    client
        .get_view(authed(req, token))
        .await
        .expect("view")
        .into_inner()
}

pub fn submit(
    game: &str,
    seat: u32,
    view: &View,
    action: skit_proto::v1::Action,
    move_id: &str,
) -> SubmitMoveRequest {
    SubmitMoveRequest {
        game_id: game.into(),
        seat,
        move_id: move_id.into(),
        expected_version: view.version,
        action: Some(action),
    }
}

/// One random legal move by some seat that may act; `None` once over.
/// Every view fetched is passed to `seen` (seat, view).
pub async fn random_move(
    client: &mut GameServiceClient<Channel>,
    game: &str,
    guests: &[Guest],
    rng: &mut impl Rng,
    seen: &mut impl FnMut(u32, &View),
) -> Option<Result<SubmitMoveResponse, Status>> {
    let mut choices = Vec::new();
    for (seat, guest) in guests.iter().enumerate() {
        let v = view(client, game, seat as u32, &guest.token).await;
        seen(seat as u32, &v);
        if v.phase == skit_proto::v1::Phase::Over as i32 {
            return None;
        }
        if !v.legal_actions.is_empty() {
            choices.push((seat, v));
        }
    }
    let (seat, v) = choices
        .choose(rng)
        .expect("someone may act while the game runs");
    let action = v.legal_actions.choose(rng).expect("legal").clone();
    let move_id = format!("m{}-{}", v.version, rng.random::<u32>());
    let req = submit(game, *seat as u32, v, action, &move_id);
    let reply = client.submit_move(authed(req, &guests[*seat].token)).await;
    if let Some(view) = reply.as_ref().ok().and_then(|r| r.get_ref().view.as_ref()) {
        seen(*seat as u32, view);
    }
    Some(reply.map(tonic::Response::into_inner))
}

/// Plays random legal moves until the game is over; returns the moves made.
pub async fn play_out(
    client: &mut GameServiceClient<Channel>,
    game: &str,
    guests: &[Guest],
    rng: &mut impl Rng,
    seen: &mut impl FnMut(u32, &View),
) -> usize {
    let mut moves = 0;
    while let Some(reply) = random_move(client, game, guests, rng, seen).await {
        reply.expect("a legal move is accepted");
        moves += 1;
        assert!(moves < 5000, "game did not end");
    }
    moves
}

/// A seat that may act, with its view.
pub async fn seat_to_act(
    client: &mut GameServiceClient<Channel>,
    game: &str,
    guests: &[Guest],
) -> (u32, View) {
    for (seat, guest) in guests.iter().enumerate() {
        let v = view(client, game, seat as u32, &guest.token).await;
        if !v.legal_actions.is_empty() {
            return (seat as u32, v);
        }
    }
    panic!("nobody may act");
}
