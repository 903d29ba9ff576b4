//! GameService: the trait methods authenticate and delegate; the work is in
//! inherent methods (commands in `play`, queries in `read`, sampled worlds
//! in `worlds`) that return [`ApiError`], mapped to a status in one place.

mod admin;
mod finish;
mod list;
mod play;
mod quotas;
mod read;
mod request_id;
mod resign;
mod timeouts;
mod worlds;

use futures_util::{StreamExt, stream::BoxStream};
use skit_api::ApiError;
use skit_engine::Seat;
use skit_gateway::{SharedViews, SharedWatch};
use skit_proto::v1::game_service_server::GameService;
use skit_proto::v1::{
    CreateGameRequest, CreateGameResponse, ExportGamesRequest, ExportRecord, GetHistoryRequest,
    GetHistoryResponse, GetViewRequest, JoinGameRequest, JoinGameResponse, ListGamesRequest,
    ListGamesResponse, ResignRequest, ResignResponse, SampleWorldsRequest, SampleWorldsResponse,
    SeatAssignment, SubmitMoveRequest, SubmitMoveResponse, View, WatchGameRequest,
};
use skit_store::{AccountKind, GameId, Scope};
use tonic::{Request, Response, Status};

use crate::auth::Caller;
use crate::games::Locked;
use crate::live::{Holder, Live};
use crate::state::AppState;

#[derive(Debug, Clone)]
pub struct GameApi {
    pub(crate) state: AppState,
}

pub(crate) fn game_id(text: &str) -> Result<GameId, ApiError> {
    text.parse()
        .map_err(|_| ApiError::invalid("game_id", "not a game id (a UUID)"))
}

pub(crate) fn seat_number(seat: u32, field: &str) -> Result<Seat, ApiError> {
    Seat::try_from(seat).map_err(|_| ApiError::invalid(field, format!("no seat {seat}")))
}

/// `seat` (field `seat`) if the caller may act for it: they hold it, or
/// they are the operator and the game has it.
fn held_seat(caller: &Caller, live: &Live, seat: u32) -> Result<Seat, ApiError> {
    let seat = seat_number(seat, "seat")?;
    if live.holds(caller.account.id, seat)
        || caller.is_operator() && seat < live.game.state().players()
    {
        Ok(seat)
    } else {
        Err(ApiError::permission_denied(format!(
            "you do not hold seat {seat}"
        )))
    }
}

/// The key a seat's move id is stored under: the id (1 to 128 characters,
/// no NUL) within the seat's own name space. Ids are the client's, and one
/// player could otherwise take another's next id (a bot's are easily
/// guessed) and make that player's move refused as a reuse.
fn seat_move_id(seat: Seat, move_id: &str) -> Result<String, ApiError> {
    if move_id.is_empty() {
        return Err(ApiError::invalid("move_id", "must be 1 to 128 characters"));
    }
    skit_api::text::id("move_id", move_id)?;
    Ok(format!("{seat}/{move_id}"))
}

fn assignments(live: &Live) -> Vec<SeatAssignment> {
    live.seats
        .iter()
        .enumerate()
        .map(|(i, h)| SeatAssignment {
            seat: i as u32,
            account_id: h.as_ref().map(|h| h.account_id.to_string()),
        })
        .collect()
}

fn holder(account: &skit_store::Account) -> Holder {
    Holder {
        account_id: account.id.0,
        name: account.name.clone(),
        bot: account.kind == AccountKind::Bot,
    }
}

impl GameApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }

    /// `check` of the caller's seat against this instance's copy of the
    /// game and, if it refuses, once more caught up with the log: the seat
    /// may have been taken through another instance a moment ago.
    async fn seat_checked<T>(
        &self,
        live: &mut Locked,
        check: impl Fn(&Live) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        match check(live) {
            Ok(found) => Ok(found),
            Err(_) => {
                self.state.games.catch_up_known(live).await?;
                check(live)
            }
        }
    }

    /// The caller, if its credential has `scope`: `play` to change games,
    /// `read` to look at them.
    async fn caller<T>(&self, request: &Request<T>, scope: Scope) -> Result<Caller, ApiError> {
        self.state.auth.authorize(request.metadata(), scope).await
    }
}

#[tonic::async_trait]
impl SharedWatch for GameApi {
    async fn watch_shared(
        &self,
        request: Request<WatchGameRequest>,
    ) -> Result<SharedViews, Status> {
        let caller = self.caller(&request, Scope::Read).await?;
        Ok(self.watch(caller, request.into_inner()).await?)
    }
}

#[tonic::async_trait]
impl GameService for GameApi {
    async fn create_game(
        &self,
        request: Request<CreateGameRequest>,
    ) -> Result<Response<CreateGameResponse>, Status> {
        let caller = self.caller(&request, Scope::Play).await?;
        Ok(Response::new(
            self.create(caller, request.into_inner()).await?,
        ))
    }

    async fn join_game(
        &self,
        request: Request<JoinGameRequest>,
    ) -> Result<Response<JoinGameResponse>, Status> {
        let caller = self.caller(&request, Scope::Play).await?;
        Ok(Response::new(
            self.join(caller, request.into_inner()).await?,
        ))
    }

    async fn submit_move(
        &self,
        request: Request<SubmitMoveRequest>,
    ) -> Result<Response<SubmitMoveResponse>, Status> {
        let caller = self.caller(&request, Scope::Play).await?;
        match self.submit(caller, request.into_inner()).await {
            Ok(reply) => {
                crate::metrics::record_move();
                Ok(Response::new(reply))
            }
            Err(error) => {
                crate::metrics::record_rejection(error.reason());
                Err(error.into())
            }
        }
    }

    async fn resign(
        &self,
        request: Request<ResignRequest>,
    ) -> Result<Response<ResignResponse>, Status> {
        let caller = self.caller(&request, Scope::Play).await?;
        Ok(Response::new(
            self.resign_seat(caller, request.into_inner()).await?,
        ))
    }

    async fn get_view(&self, request: Request<GetViewRequest>) -> Result<Response<View>, Status> {
        let caller = self.caller(&request, Scope::Read).await?;
        Ok(Response::new(
            self.get_view_for(caller, request.into_inner()).await?,
        ))
    }

    type WatchGameStream = BoxStream<'static, Result<View, Status>>;

    /// Each view copied out of its shared frame; the gateway serves
    /// WatchGame from [`SharedWatch`] instead, which copies no message.
    async fn watch_game(
        &self,
        request: Request<WatchGameRequest>,
    ) -> Result<Response<Self::WatchGameStream>, Status> {
        let views = self.watch_shared(request).await?;
        Ok(Response::new(
            views.map(|view| view.map(|v| v.message().clone())).boxed(),
        ))
    }

    /// Written by `crate::export`.
    type ExportGamesStream = BoxStream<'static, Result<ExportRecord, Status>>;

    async fn export_games(
        &self,
        request: Request<ExportGamesRequest>,
    ) -> Result<Response<Self::ExportGamesStream>, Status> {
        let caller = self.caller(&request, Scope::Read).await?;
        Ok(Response::new(
            self.export(caller, request.into_inner()).await?,
        ))
    }

    async fn list_games(
        &self,
        request: Request<ListGamesRequest>,
    ) -> Result<Response<ListGamesResponse>, Status> {
        let caller = self.caller(&request, Scope::Read).await?;
        Ok(Response::new(
            self.list(caller, request.into_inner()).await?,
        ))
    }

    async fn get_history(
        &self,
        request: Request<GetHistoryRequest>,
    ) -> Result<Response<GetHistoryResponse>, Status> {
        let caller = self.caller(&request, Scope::Read).await?;
        Ok(Response::new(
            self.history(caller, request.into_inner()).await?,
        ))
    }

    async fn sample_worlds(
        &self,
        request: Request<SampleWorldsRequest>,
    ) -> Result<Response<SampleWorldsResponse>, Status> {
        let caller = self.caller(&request, Scope::Read).await?;
        Ok(Response::new(
            self.sample_worlds_for(caller, request.into_inner()).await?,
        ))
    }
}
