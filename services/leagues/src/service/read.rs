//! Reading tournaments: one, a list, the entries, the tables (a player's
//! own: their next table is the last), and the standings, consistent with
//! one sequence number.

use skit_api::ApiError;
use skit_proto::v1::{
    self, AuditRoundRequest, AuditRoundResponse, ListEntriesResponse, ListTablesRequest,
    ListTablesResponse, ListTournamentsRequest, ListTournamentsResponse, TournamentState,
};
use skit_store::{AccountId, TournamentTable};

use super::{Caller, LeagueApi};
use crate::convert;
use crate::error::store_error;
use crate::pairing::{continuous, field, next_round, standings_of};
use crate::spec::Spec;

/// The most tournaments one list answers.
const MAX_LIST: u32 = 100;
/// Reads of the standings that may be overtaken by a change before the
/// answer is the latest consistent one read.
const STANDINGS_TRIES: usize = 5;

impl LeagueApi {
    pub(super) async fn get(&self, id: &str) -> Result<v1::Tournament, ApiError> {
        let s = self.snapshot(id).await?;
        Ok(convert::tournament(
            &s.tournament,
            &s.spec,
            field(&s.entries).len(),
        ))
    }

    pub(super) async fn list(
        &self,
        caller: Caller,
        req: ListTournamentsRequest,
    ) -> Result<ListTournamentsResponse, ApiError> {
        let state = TournamentState::try_from(req.state)
            .map_err(|_| ApiError::invalid("state", "not a tournament state"))?;
        let limit = match req.limit {
            0 => MAX_LIST,
            n => n.min(MAX_LIST),
        };
        let phase = convert::phase(state);
        let listed = match req.entered {
            true => self
                .store
                .tournaments_entered(AccountId(caller.account_id), limit)
                .await
                .map_err(store_error)?
                .into_iter()
                .filter(|t| phase.is_none_or(|p| t.phase == p))
                .collect(),
            false => self
                .store
                .tournaments(phase, limit)
                .await
                .map_err(store_error)?,
        };
        let mut tournaments = Vec::with_capacity(listed.len());
        for t in listed {
            let Some(spec) = Spec::from_value(&t.spec) else {
                tracing::error!(tournament_id = %t.id, "stored spec unreadable; left out");
                continue;
            };
            let entries = self
                .store
                .tournament_entries(&t.id)
                .await
                .map_err(store_error)?;
            tournaments.push(convert::tournament(&t, &spec, field(&entries).len()));
        }
        Ok(ListTournamentsResponse { tournaments })
    }

    pub(super) async fn entries(&self, id: &str) -> Result<ListEntriesResponse, ApiError> {
        let s = self.snapshot(id).await?;
        Ok(ListEntriesResponse {
            entries: s
                .entries
                .iter()
                .map(|e| convert::entry(&s.tournament.id, e))
                .collect(),
        })
    }

    pub(super) async fn tables(
        &self,
        caller: Caller,
        req: ListTablesRequest,
    ) -> Result<ListTablesResponse, ApiError> {
        let s = self.snapshot(&req.tournament_id).await?;
        let me = AccountId(caller.account_id);
        let tables = s
            .tables
            .iter()
            .filter(|t| req.round == 0 || t.round == req.round)
            .filter(|t| !req.mine_only || t.seats.contains(&me))
            .map(|t| convert::table_in(&s.spec, &s.tables, t))
            .collect();
        Ok(ListTablesResponse { tables })
    }

    /// Round `req.round` recomputed from what was stored before it, beside
    /// the tables it got.
    pub(super) async fn audit(
        &self,
        req: AuditRoundRequest,
    ) -> Result<AuditRoundResponse, ApiError> {
        let s = self.snapshot(&req.tournament_id).await?;
        if continuous(&s.spec) {
            return Err(ApiError::failed_precondition(
                "an arena's or a ladder's tables depend on when tables finished; they are not recomputed",
            ));
        }
        let round = req.round;
        if round == 0 || round > s.tournament.round {
            return Err(ApiError::invalid(
                "round",
                format!("must be 1 to {}, the round seated last", s.tournament.round),
            ));
        }
        let before: Vec<TournamentTable> = s
            .tables
            .iter()
            .filter(|t| t.round < round)
            .cloned()
            .collect();
        let recomputed = next_round(&s.spec, &s.entries, &before, &s.seating(), round)
            .map_err(|e| {
                ApiError::failed_precondition(format!("round {round} cannot be recomputed: {e}"))
            })?
            .tables;
        let stored: Vec<&TournamentTable> = s.tables.iter().filter(|t| t.round == round).collect();
        let seats = |t: &TournamentTable| t.seats.clone();
        let matches = stored.len() == recomputed.len()
            && stored
                .iter()
                .zip(&recomputed)
                .all(|(a, b)| seats(a) == seats(b));
        Ok(AuditRoundResponse {
            round,
            matches,
            stored: stored.into_iter().map(convert::table).collect(),
            recomputed: recomputed.iter().map(convert::table).collect(),
        })
    }

    /// The standings over the tables stored at one sequence number: read
    /// again if the tournament moved on while its tables were read.
    pub(super) async fn standings(&self, id: &str) -> Result<v1::Standings, ApiError> {
        let mut s = self.snapshot(id).await?;
        for _ in 0..STANDINGS_TRIES {
            let now = self.tournament(id).await?;
            if now.revision == s.tournament.revision {
                break;
            }
            s = self.snapshot(id).await?;
        }
        let rows = standings_of(&s.spec, &s.entries, &s.tables)
            .map_err(|e| ApiError::internal("standings", &e))?;
        Ok(convert::standings(&s.tournament, &rows, &s.entries))
    }

    /// The standings for an export, if the bearer token in `metadata` may
    /// read them.
    pub async fn export_standings(
        &self,
        metadata: &tonic::metadata::MetadataMap,
        id: &str,
    ) -> Result<v1::Standings, ApiError> {
        let caller = self.game.identify(metadata).await?;
        if !caller.has_scope("read") && caller.kind != skit_proto::v1::AccountKind::Operator {
            return Err(ApiError::missing_scope("read"));
        }
        self.standings(id).await
    }
}
