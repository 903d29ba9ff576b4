//! LeagueService: every method authenticates (WhoAmI at the game service)
//! and delegates: the operator's calls in `operator`, entering and leaving
//! in `entries`, reads in `read`, the event stream in `watch`.

mod entries;
mod operator;
mod read;
mod watch;

use std::sync::Arc;
use std::time::Duration;

use skit_api::ApiError;
pub(crate) use skit_gateway::game_client::Caller;
use skit_gateway::game_client::GameClient;
use skit_proto::v1::league_service_server::LeagueService;
use skit_proto::v1::{self, AccountKind};
use skit_store::{Store, Tournament, TournamentChange};
use tokio::sync::Notify;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};

use crate::director::read;
use crate::error::store_error;
use crate::lifecycle::Snapshot;

#[derive(Debug, Clone)]
pub struct LeagueApi {
    pub(crate) store: Store,
    pub(crate) game: GameClient,
    /// Wakes the director after a change it should act on.
    pub(crate) wake: Arc<Notify>,
    /// How often a watch looks for events another instance wrote.
    pub(crate) watch_poll: Duration,
}

/// PERMISSION_DENIED unless `caller` is the operator.
fn operator_only(caller: &Caller) -> Result<(), ApiError> {
    if caller.kind == AccountKind::Operator {
        return Ok(());
    }
    Err(ApiError::permission_denied(
        "only the operator creates and steers tournaments",
    ))
}

impl LeagueApi {
    /// The caller, if its credential has `scope` (`play` to enter and
    /// leave, `read` to look; PERMISSION_DENIED `missing_scope` otherwise).
    async fn caller<T>(&self, request: &Request<T>, scope: &str) -> Result<Caller, ApiError> {
        let caller = self.game.identify(request.metadata()).await?;
        if !caller.has_scope(scope) && caller.kind != AccountKind::Operator {
            return Err(ApiError::missing_scope(scope));
        }
        Ok(caller)
    }

    /// The operator, or PERMISSION_DENIED.
    async fn operator<T>(&self, request: &Request<T>) -> Result<Caller, ApiError> {
        let caller = self.caller(request, "read").await?;
        operator_only(&caller)?;
        Ok(caller)
    }

    /// The stored tournament; NOT_FOUND naming it otherwise.
    async fn tournament(&self, id: &str) -> Result<Tournament, ApiError> {
        if uuid::Uuid::parse_str(id).is_err() {
            return Err(ApiError::invalid(
                "tournament_id",
                "not a tournament id (a UUID)",
            ));
        }
        self.store
            .tournament(id)
            .await
            .map_err(store_error)?
            .ok_or_else(|| ApiError::not_found(format!("no tournament {id}")))
    }

    /// The tournament with its spec, entries and tables.
    async fn snapshot(&self, id: &str) -> Result<Snapshot, ApiError> {
        let t = self.tournament(id).await?;
        read(&self.store, t).await.map_err(|e| match e {
            crate::director::StepError::Store(e) => store_error(e),
            other => ApiError::internal("tournament unreadable", &other),
        })
    }

    /// Applies `change` to the snapshot's revision: the tournament after
    /// it, or `None` if it changed meanwhile (the director moves it on
    /// all the time, so callers read again and retry).
    async fn apply(
        &self,
        snapshot: &Snapshot,
        change: &TournamentChange,
    ) -> Result<Option<Tournament>, ApiError> {
        let t = &snapshot.tournament;
        let applied = self
            .store
            .change_tournament(&t.id, t.revision, change)
            .await
            .map_err(store_error)?;
        if !applied {
            return Ok(None);
        }
        self.wake.notify_one();
        self.tournament(&t.id).await.map(Some)
    }

    /// Reads the tournament, lets `decide` refuse or make the change, and
    /// applies it; read again and decided again on a lost race.
    async fn steer(
        &self,
        id: &str,
        decide: impl Fn(&Snapshot) -> Result<TournamentChange, ApiError>,
    ) -> Result<Tournament, ApiError> {
        for _ in 0..TRIES {
            let snapshot = self.snapshot(id).await?;
            let change = decide(&snapshot)?;
            if let Some(t) = self.apply(&snapshot, &change).await? {
                return Ok(t);
            }
        }
        Err(busy())
    }
}

/// Tries of a change that keeps losing races.
const TRIES: usize = 20;

/// A change that lost every race.
fn busy() -> ApiError {
    ApiError::unavailable(
        "the tournament is busy; try again",
        Duration::from_millis(200),
    )
}

/// Credentials as the REST face checks them before refusing a request's
/// content: as every call checks them.
#[tonic::async_trait]
impl skit_gateway::Authenticate for LeagueApi {
    async fn authenticate(&self, metadata: tonic::metadata::MetadataMap) -> Result<(), Status> {
        self.game
            .identify(&metadata)
            .await
            .map(|_| ())
            .map_err(Status::from)
    }
}

fn ok<T>(answer: Result<T, ApiError>) -> Result<Response<T>, Status> {
    answer.map(Response::new).map_err(Status::from)
}

#[tonic::async_trait]
impl LeagueService for LeagueApi {
    async fn create_tournament(
        &self,
        request: Request<v1::CreateTournamentRequest>,
    ) -> Result<Response<v1::Tournament>, Status> {
        let caller = self.operator(&request).await?;
        ok(self.create(caller, request.into_inner()).await)
    }

    async fn get_tournament(
        &self,
        request: Request<v1::GetTournamentRequest>,
    ) -> Result<Response<v1::Tournament>, Status> {
        self.caller(&request, "read").await?;
        ok(self.get(&request.into_inner().tournament_id).await)
    }

    async fn list_tournaments(
        &self,
        request: Request<v1::ListTournamentsRequest>,
    ) -> Result<Response<v1::ListTournamentsResponse>, Status> {
        let caller = self.caller(&request, "read").await?;
        ok(self.list(caller, request.into_inner()).await)
    }

    async fn enter_tournament(
        &self,
        request: Request<v1::EnterTournamentRequest>,
    ) -> Result<Response<v1::Entry>, Status> {
        let caller = self.caller(&request, "play").await?;
        ok(self.enter(caller, request.into_inner()).await)
    }

    async fn leave_tournament(
        &self,
        request: Request<v1::LeaveTournamentRequest>,
    ) -> Result<Response<v1::Entry>, Status> {
        let caller = self.caller(&request, "play").await?;
        ok(self.leave(caller, request.into_inner()).await)
    }

    async fn list_entries(
        &self,
        request: Request<v1::ListEntriesRequest>,
    ) -> Result<Response<v1::ListEntriesResponse>, Status> {
        self.caller(&request, "read").await?;
        ok(self.entries(&request.into_inner().tournament_id).await)
    }

    async fn get_standings(
        &self,
        request: Request<v1::GetStandingsRequest>,
    ) -> Result<Response<v1::Standings>, Status> {
        self.caller(&request, "read").await?;
        ok(self.standings(&request.into_inner().tournament_id).await)
    }

    async fn list_tables(
        &self,
        request: Request<v1::ListTablesRequest>,
    ) -> Result<Response<v1::ListTablesResponse>, Status> {
        let caller = self.caller(&request, "read").await?;
        ok(self.tables(caller, request.into_inner()).await)
    }

    type WatchTournamentStream = ReceiverStream<Result<v1::TournamentEvent, Status>>;

    async fn watch_tournament(
        &self,
        request: Request<v1::WatchTournamentRequest>,
    ) -> Result<Response<Self::WatchTournamentStream>, Status> {
        self.caller(&request, "read").await?;
        ok(self.watch(request.into_inner()).await)
    }

    async fn start_tournament(
        &self,
        request: Request<v1::StartTournamentRequest>,
    ) -> Result<Response<v1::Tournament>, Status> {
        self.operator(&request).await?;
        ok(self.start(&request.into_inner().tournament_id).await)
    }

    async fn audit_round(
        &self,
        request: Request<v1::AuditRoundRequest>,
    ) -> Result<Response<v1::AuditRoundResponse>, Status> {
        self.caller(&request, "read").await?;
        ok(self.audit(request.into_inner()).await)
    }

    async fn preview_round(
        &self,
        request: Request<v1::PreviewRoundRequest>,
    ) -> Result<Response<v1::PreviewRoundResponse>, Status> {
        self.operator(&request).await?;
        ok(self.preview(&request.into_inner().tournament_id).await)
    }

    async fn constrain_seating(
        &self,
        request: Request<v1::ConstrainSeatingRequest>,
    ) -> Result<Response<v1::Tournament>, Status> {
        self.operator(&request).await?;
        ok(self.constrain(request.into_inner()).await)
    }

    async fn edit_tournament(
        &self,
        request: Request<v1::EditTournamentRequest>,
    ) -> Result<Response<v1::Tournament>, Status> {
        self.operator(&request).await?;
        ok(self.edit(request.into_inner()).await)
    }

    async fn pause_tournament(
        &self,
        request: Request<v1::PauseTournamentRequest>,
    ) -> Result<Response<v1::Tournament>, Status> {
        self.operator(&request).await?;
        ok(self.pause(&request.into_inner().tournament_id, true).await)
    }

    async fn resume_tournament(
        &self,
        request: Request<v1::ResumeTournamentRequest>,
    ) -> Result<Response<v1::Tournament>, Status> {
        self.operator(&request).await?;
        ok(self.pause(&request.into_inner().tournament_id, false).await)
    }

    async fn terminate_tournament(
        &self,
        request: Request<v1::TerminateTournamentRequest>,
    ) -> Result<Response<v1::Tournament>, Status> {
        self.operator(&request).await?;
        ok(self.terminate(request.into_inner()).await)
    }
}
