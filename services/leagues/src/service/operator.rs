//! The operator's calls: create a tournament (once per request id), start
//! it now, preview the next round, pin and forbid seatings, pause, resume
//! and terminate. Each is one change applied to the tournament as read, so
//! it races safely with the director.

use skit_api::ApiError;
use skit_proto::v1::{
    self, ConstrainSeatingRequest, CreateTournamentRequest, EditTournamentRequest,
    TerminateTournamentRequest,
};
use skit_store::{AccountId, CreatedTournament, NewTournament, TournamentChange, TournamentPhase};
use time::OffsetDateTime;

use super::{Caller, LeagueApi};
use crate::convert;
use crate::error::store_error;
use crate::events::Events;
use crate::lifecycle::Snapshot;
use crate::pairing::{Seating, field, next_round};
use crate::spec::{self, Conditions, Spec};

/// The longest termination reason.
const MAX_REASON: usize = 500;

impl LeagueApi {
    #[tracing::instrument(skip_all, fields(account = caller.account_id))]
    pub(super) async fn create(
        &self,
        caller: Caller,
        req: CreateTournamentRequest,
    ) -> Result<v1::Tournament, ApiError> {
        let request_id = skit_api::request_id(&req.request_id, "request_id")?;
        let spec = Spec::from_request(&req)?;
        let starts_at = req.starts_at.as_ref().map(spec::starts_at).transpose()?;
        let new = NewTournament {
            spec: spec.to_value(),
            starts_at,
            created_by: AccountId(caller.account_id),
            request_id: request_id.map(str::to_owned),
        };
        match self
            .store
            .create_tournament(new)
            .await
            .map_err(store_error)?
        {
            CreatedTournament::New(t) => {
                tracing::info!(tournament_id = %t.id, "tournament created");
                self.wake.notify_one();
                Ok(convert::tournament(&t, &spec, 0))
            }
            CreatedTournament::Requested(first) => {
                // A drawn seed differs on every try; a given one must match.
                let same = Spec::from_value(&first.spec).is_some_and(|f| {
                    let mut mine = spec.clone();
                    if req.seed.is_none() {
                        mine.seed = f.seed;
                    }
                    // Drawn on every try too, and never shown.
                    mine.deal_secret.clone_from(&f.deal_secret);
                    mine == f
                });
                if !same {
                    return Err(ApiError::request_id_reused(
                        "request_id",
                        format!(
                            "request_id was used for tournament {} with other settings",
                            first.id
                        ),
                    ));
                }
                self.get(&first.id).await
            }
        }
    }

    pub(super) async fn start(&self, id: &str) -> Result<v1::Tournament, ApiError> {
        let t = self
            .steer(id, |s| {
                if s.tournament.phase != TournamentPhase::Registering {
                    return Err(ApiError::failed_precondition(format!(
                        "tournament {id} is {}, not registering",
                        s.tournament.phase.as_str()
                    )));
                }
                Ok(s.start(OffsetDateTime::now_utc()))
            })
            .await?;
        self.get(&t.id).await
    }

    /// Changes what the request sets, while the tournament registers.
    pub(super) async fn edit(
        &self,
        req: EditTournamentRequest,
    ) -> Result<v1::Tournament, ApiError> {
        let name = req.name.as_deref().map(spec::name).transpose()?;
        let starts_at = req.starts_at.as_ref().map(spec::starts_at).transpose()?;
        let conditions = req
            .conditions
            .as_ref()
            .map(|c| Conditions::from_message(Some(c)))
            .transpose()?;
        let code = req
            .entry_code
            .as_deref()
            .map(spec::entry_code)
            .transpose()?;
        let t = self
            .steer(&req.tournament_id, |s| {
                if s.tournament.phase != TournamentPhase::Registering {
                    return Err(ApiError::failed_precondition(format!(
                        "tournament {} is {}: only a registering tournament is edited",
                        s.tournament.id,
                        s.tournament.phase.as_str()
                    )));
                }
                let mut spec = s.spec.clone();
                if let Some(name) = &name {
                    spec.name = name.clone();
                }
                if let Some(conditions) = &conditions {
                    let ladder = spec.format() == v1::TournamentFormat::Ladder;
                    spec.conditions = conditions.clone();
                    spec.conditions.allow_bots |= ladder;
                }
                if let Some(code) = &code {
                    spec.entry_code = code.clone();
                }
                Ok(TournamentChange {
                    spec: Some(spec.to_value()),
                    starts_at: Some(starts_at.or(s.tournament.starts_at)),
                    ..Default::default()
                })
            })
            .await?;
        self.get(&t.id).await
    }

    pub(super) async fn preview(&self, id: &str) -> Result<v1::PreviewRoundResponse, ApiError> {
        let s = self.snapshot(id).await?;
        let t = &s.tournament;
        if t.phase.ended() || t.round >= s.spec.rounds {
            return Err(ApiError::failed_precondition(format!(
                "tournament {id} has no round left to seat"
            )));
        }
        let round = t.round + 1;
        let seated =
            next_round(&s.spec, &s.entries, &s.tables, &s.seating(), round).map_err(|e| {
                ApiError::failed_precondition(format!("round {round} cannot be seated: {e}"))
            })?;
        Ok(v1::PreviewRoundResponse {
            round,
            tables: seated.tables.iter().map(convert::table).collect(),
            repeat_limit: seated.repeat_limit,
        })
    }

    pub(super) async fn constrain(
        &self,
        req: ConstrainSeatingRequest,
    ) -> Result<v1::Tournament, ApiError> {
        let seating = seating(&req)?;
        self.known_accounts(&req).await?;
        let t = self
            .steer(&req.tournament_id, |s| {
                if s.tournament.phase.ended() {
                    return Err(ApiError::failed_precondition(format!(
                        "tournament {} has ended",
                        s.tournament.id
                    )));
                }
                // Before the start the field may still grow: anyone named
                // counts as entered then, and the table size is not known.
                let mut accounts: Vec<AccountId> =
                    field(&s.entries).iter().map(|e| e.account_id).collect();
                let seats = match s.tournament.phase {
                    TournamentPhase::Registering => {
                        accounts.extend(seating.named());
                        6
                    }
                    _ => s.spec.seats,
                };
                seating
                    .check(&s.entries, &accounts, seats)
                    .map_err(|e| ApiError::invalid("together", e))?;
                Ok(TournamentChange {
                    constraints: Some(seating.to_value()),
                    ..Default::default()
                })
            })
            .await?;
        self.get(&t.id).await
    }

    /// Every account a constraint names exists; otherwise INVALID_ARGUMENT
    /// naming the first unknown one's field.
    async fn known_accounts(&self, req: &ConstrainSeatingRequest) -> Result<(), ApiError> {
        let together = req.together.iter().enumerate();
        let apart = req.apart.iter().enumerate();
        let groups = together
            .map(|(i, g)| (format!("together[{i}]"), g))
            .chain(apart.map(|(i, g)| (format!("apart[{i}]"), g)));
        for (field, group) in groups {
            for (i, id) in accounts(&field, group)?.into_iter().enumerate() {
                let found = self.game.account_exists(id).await.map_err(|status| {
                    ApiError::unavailable(
                        format!(
                            "cannot check account {id} with the game service: {}",
                            status.message()
                        ),
                        std::time::Duration::from_secs(1),
                    )
                })?;
                if !found {
                    return Err(ApiError::invalid(
                        format!("{field}.account_ids[{i}]"),
                        format!("no account {id}"),
                    ));
                }
            }
        }
        Ok(())
    }

    pub(super) async fn pause(&self, id: &str, pause: bool) -> Result<v1::Tournament, ApiError> {
        let (from, to) = match pause {
            true => (TournamentPhase::Running, TournamentPhase::Paused),
            false => (TournamentPhase::Paused, TournamentPhase::Running),
        };
        let t = self
            .steer(id, |s| {
                if s.tournament.phase != from {
                    return Err(ApiError::failed_precondition(format!(
                        "tournament {id} is {}, not {}",
                        s.tournament.phase.as_str(),
                        from.as_str()
                    )));
                }
                Ok(phase_change(s, to, String::new()))
            })
            .await?;
        self.get(&t.id).await
    }

    pub(super) async fn terminate(
        &self,
        req: TerminateTournamentRequest,
    ) -> Result<v1::Tournament, ApiError> {
        let reason = req.reason.trim();
        if reason.is_empty() || reason.chars().count() > MAX_REASON {
            return Err(ApiError::invalid("reason", "must be 1 to 500 characters"));
        }
        skit_api::text::stored("reason", reason)?;
        let t = self
            .steer(&req.tournament_id, |s| {
                if s.tournament.phase.ended() {
                    return Err(ApiError::failed_precondition(format!(
                        "tournament {} has already ended ({})",
                        s.tournament.id,
                        s.tournament.phase.as_str()
                    )));
                }
                Ok(s.end(TournamentPhase::Terminated, reason.to_owned()))
            })
            .await?;
        tracing::info!(tournament_id = %t.id, reason, "tournament terminated");
        self.get(&t.id).await
    }
}

/// `s` enters `phase`, reported.
fn phase_change(s: &Snapshot, phase: TournamentPhase, reason: String) -> TournamentChange {
    let mut after = s.tournament.clone();
    after.phase = phase;
    after.reason = reason.clone();
    let mut events = Events::after(&s.tournament);
    events.state_changed(&after);
    TournamentChange {
        phase: Some((phase, reason)),
        events: events.into_bodies(),
        ..Default::default()
    }
}

fn accounts(field: &str, group: &v1::SeatGroup) -> Result<Vec<i64>, ApiError> {
    group
        .account_ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            id.parse::<i64>().ok().filter(|&a| a > 0).ok_or_else(|| {
                ApiError::invalid(format!("{field}.account_ids[{i}]"), "not an account id")
            })
        })
        .collect()
}

fn seating(req: &ConstrainSeatingRequest) -> Result<Seating, ApiError> {
    let mut together = Vec::new();
    for (i, group) in req.together.iter().enumerate() {
        let field = format!("together[{i}]");
        let ids = accounts(&field, group)?;
        if !(2..=6).contains(&ids.len()) {
            return Err(ApiError::invalid(
                field,
                "a pinned group has 2 to 6 accounts",
            ));
        }
        together.push(ids);
    }
    let mut apart = Vec::new();
    for (i, group) in req.apart.iter().enumerate() {
        let field = format!("apart[{i}]");
        match accounts(&field, group)?.as_slice() {
            [a, b] if a != b => apart.push((*a, *b)),
            _ => {
                return Err(ApiError::invalid(
                    field,
                    "a forbid names two different accounts",
                ));
            }
        }
    }
    let seating = Seating { together, apart };
    // The shapes alone (a player in two pins, a pinned pair kept apart).
    seating
        .check(&[], &seating.named(), 6)
        .map_err(|e| ApiError::invalid("together", e))?;
    Ok(seating)
}
