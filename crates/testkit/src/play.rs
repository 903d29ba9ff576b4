//! Playing a game over gRPC as its seated players: views, moves, and
//! random legal moves to the end.

use rand::Rng;
use rand::seq::IndexedRandom;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::{
    Action, CreateGameRequest, GetViewRequest, Phase, Rules, SeatSpec, SubmitMoveRequest,
    SubmitMoveResponse, View,
};
use tonic::Status;
use tonic::transport::Channel;

use crate::{Player, authed};

/// A request for a skitgubbe game with `players` in its seats, in order
/// (for the operator to send: a player may seat only themselves).
pub fn skitgubbe_for(players: &[Player]) -> CreateGameRequest {
    CreateGameRequest {
        rules: Some(Rules {
            preset: "skitgubbe".into(),
            options: None,
        }),
        players: u32::try_from(players.len()).unwrap_or(u32::MAX),
        seats: players
            .iter()
            .map(|p| SeatSpec {
                account_id: Some(p.id.clone()),
            })
            .collect(),
        ..Default::default()
    }
}

/// `seat`'s view of `game`, asked with `token`.
pub async fn view(
    client: &mut GameServiceClient<Channel>,
    game: &str,
    seat: u32,
    token: &str,
) -> View {
    let request = GetViewRequest {
        game_id: game.into(),
        seat: Some(seat),
        ..Default::default()
    };
    client
        .get_view(authed(request, token))
        .await
        .unwrap_or_else(|e| panic!("seat {seat}'s view of {game}: {e}"))
        .into_inner()
}

/// A move by `seat` against the version `view` shows.
pub fn submit(
    game: &str,
    seat: u32,
    view: &View,
    action: Action,
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
    players: &[Player],
    rng: &mut impl Rng,
    seen: &mut impl FnMut(u32, &View),
) -> Option<Result<SubmitMoveResponse, Status>> {
    let mut choices = Vec::new();
    for (seat, player) in (0u32..).zip(players) {
        let v = view(client, game, seat, &player.token).await;
        seen(seat, &v);
        if v.phase == Phase::Over as i32 {
            return None;
        }
        if !v.legal_actions.is_empty() {
            choices.push((seat, v));
        }
    }
    let (seat, v) = choices
        .choose(rng)
        .unwrap_or_else(|| panic!("nobody may act in {game}, which is not over"));
    let action = v
        .legal_actions
        .choose(rng)
        .unwrap_or_else(|| panic!("seat {seat} may act"))
        .clone();
    let move_id = format!("m{}-{}", v.version, rng.random::<u32>());
    let request = submit(game, *seat, v, action, &move_id);
    let reply = client
        .submit_move(authed(request, &players[*seat as usize].token))
        .await;
    if let Some(view) = reply.as_ref().ok().and_then(|r| r.get_ref().view.as_ref()) {
        seen(*seat, view);
    }
    Some(reply.map(tonic::Response::into_inner))
}

/// Plays random legal moves until the game is over; returns the moves made.
pub async fn play_out(
    client: &mut GameServiceClient<Channel>,
    game: &str,
    players: &[Player],
    rng: &mut impl Rng,
    seen: &mut impl FnMut(u32, &View),
) -> usize {
    let mut moves = 0;
    while let Some(reply) = random_move(client, game, players, rng, seen).await {
        if let Err(e) = reply {
            panic!("a legal move was refused: {e}");
        }
        moves += 1;
        assert!(moves < 5000, "game {game} did not end");
    }
    moves
}

/// A seat that may act, with its view.
pub async fn seat_to_act(
    client: &mut GameServiceClient<Channel>,
    game: &str,
    players: &[Player],
) -> (u32, View) {
    for (seat, player) in (0u32..).zip(players) {
        let v = view(client, game, seat, &player.token).await;
        if !v.legal_actions.is_empty() {
            return (seat, v);
        }
    }
    panic!("nobody may act in {game}");
}
