//! One game played by random players to its end: each move a GetView of
//! the seat to act and a SubmitMove with a move id and the expected
//! version, each call sent again after the service shed it (`retry`).

use std::time::Instant;

use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use skit_api::authed;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::{GetViewRequest, Phase, SubmitMoveRequest};
use std::sync::atomic::Ordering;
use tonic::transport::Channel;

use crate::lean::{LeanClient, SeatView};
use crate::report::Latencies;
use crate::retry::retried;
use crate::shared::Shared;
use crate::target::{Seats, create_game_with};

/// What a worker's next game is.
pub struct Game<'a> {
    pub seats: &'a Seats,
    pub preset: &'a str,
    pub seed: u64,
    /// CreateGame's request id: a shed create sent again makes one game.
    pub request_id: String,
    pub number: u64,
}

/// One game to the end (`true`), or until told to stop (`false`). Each
/// call is sent again after the service shed it (`retry`).
pub async fn play_game(
    (client, lean): &mut (GameServiceClient<Channel>, LeanClient),
    shared: &Shared,
    game: &Game<'_>,
    rng: &mut ChaCha8Rng,
    local: &mut Latencies,
) -> Result<bool, tonic::Status> {
    let seats = game.seats;
    let created = retried(&shared.stop, &shared.sheds, || {
        let mut client = client.clone();
        async move { create_game_with(&mut client, seats, game.preset, &game.request_id).await }
    })
    .await?;
    let Some((game_id, _)) = created else {
        return Ok(false);
    };
    let Some(mut view) = get_view(lean, shared, &game_id, 0, &seats[0].1, None, local).await?
    else {
        return Ok(false);
    };
    let mut position = 0usize;
    loop {
        if view.phase == Phase::Over as i32 {
            return Ok(true);
        }
        if shared.stopped() {
            return Ok(false);
        }
        let Some(&seat) = view.to_act.choose(rng) else {
            return Err(tonic::Status::internal("nobody may act in a running game"));
        };
        let token = &seats[seat as usize].1;
        let after = Some(view.version);
        let Some(seat_view) = get_view(lean, shared, &game_id, seat, token, after, local).await?
        else {
            return Ok(false);
        };
        let Some(action) = seat_view.legal_actions.choose(rng).cloned() else {
            return Err(tonic::Status::internal(format!(
                "seat {seat} to act has no legal action"
            )));
        };
        let req = SubmitMoveRequest {
            game_id: game_id.clone(),
            seat,
            move_id: format!("{}-{}-{position}", game.seed, game.number),
            expected_version: seat_view.version,
            action: Some(action),
        };
        let sent = Instant::now();
        let reply = retried(&shared.stop, &shared.sheds, || {
            let (mut lean, req) = (lean.clone(), req.clone());
            async move { lean.submit_move(authed(req, token)?).await }
        })
        .await?;
        let Some(reply) = reply else {
            return Ok(false);
        };
        local.record_move(position, sent.elapsed());
        shared.moves.fetch_add(1, Ordering::Relaxed);
        position += 1;
        view = reply
            .view
            .ok_or_else(|| tonic::Status::internal("a move's reply has no view"))?;
    }
}

/// A seat's view, sent again while shed; `None` if the run stopped first.
async fn get_view(
    client: &LeanClient,
    shared: &Shared,
    game_id: &str,
    seat: u32,
    token: &str,
    history_after: Option<u64>,
    local: &mut Latencies,
) -> Result<Option<SeatView>, tonic::Status> {
    let req = GetViewRequest {
        game_id: game_id.into(),
        seat: Some(seat),
        history_after,
        ..Default::default()
    };
    let sent = Instant::now();
    let view = retried(&shared.stop, &shared.sheds, || {
        let (mut client, req) = (client.clone(), req.clone());
        async move { client.get_view(authed(req, token)?).await }
    })
    .await?;
    if view.is_some() {
        local.record_view(sent.elapsed());
        shared.views.fetch_add(1, Ordering::Relaxed);
    }
    Ok(view)
}
