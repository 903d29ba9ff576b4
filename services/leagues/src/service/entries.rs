//! Entering and leaving a tournament while it registers. The conditions
//! are checked against the caller as the game service knows them (kind,
//! conservative rating under the tournament's rules); a refusal names the
//! condition (`condition` in ErrorInfo metadata) and changes nothing.
//! Registrations race with each other and with the start through the
//! tournament's revision: a lost race is retried here, never half-applied.

use skit_api::{ApiError, ErrorCode};
use skit_proto::v1::{
    AccountKind, EnterTournamentRequest, Entry, LeaveTournamentRequest, TournamentFormat,
};
use skit_store::{AccountId, TournamentChange, TournamentEntry, TournamentPhase};
use time::OffsetDateTime;

use super::{Caller, LeagueApi, TRIES, busy};
use crate::convert;
use crate::error::store_error;
use crate::lifecycle::Snapshot;
use crate::no_shows;
use crate::pairing::field;

/// The rated games whose ratings a rating limit is judged on, with the
/// current one: the recent peak.
const PEAK_GAMES: u32 = 20;

fn unmet(condition: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::new(
        ErrorCode::FailedPrecondition,
        "registration_condition",
        message,
    )
    .with_metadata("condition", condition)
}

/// Open for entries: registering, or a ladder that has not ended.
fn registering(s: &Snapshot) -> Result<(), ApiError> {
    let ladder = s.spec.format() == TournamentFormat::Ladder;
    if s.tournament.phase == TournamentPhase::Registering || ladder && !s.tournament.phase.ended() {
        return Ok(());
    }
    Err(unmet(
        "registering",
        format!(
            "tournament {} is {}: registration is closed",
            s.tournament.id,
            s.tournament.phase.as_str()
        ),
    ))
}

impl LeagueApi {
    #[tracing::instrument(skip_all, fields(tournament_id = %req.tournament_id, account = caller.account_id))]
    pub(super) async fn enter(
        &self,
        caller: Caller,
        req: EnterTournamentRequest,
    ) -> Result<Entry, ApiError> {
        for _ in 0..TRIES {
            let s = self.snapshot(&req.tournament_id).await?;
            let mine = s
                .entries
                .iter()
                .find(|e| e.account_id.0 == caller.account_id);
            if let Some(entry) = mine.filter(|e| !e.withdrawn) {
                return Ok(convert::entry(&s.tournament.id, entry));
            }
            registering(&s)?;
            self.check_conditions(&s, &caller, &req.entry_code)?;
            self.check_no_shows(&caller).await?;
            let (rating, games) = self
                .game
                .rating_record(caller.account_id, &s.spec.rules_message())
                .await
                .map_err(|status| {
                    tracing::warn!(code = ?status.code(), message = status.message(), "no rating for an entry");
                    ApiError::unavailable(
                        "the game service's ratings cannot be read; try again",
                        std::time::Duration::from_secs(1),
                    )
                })?;
            let conditions = &s.spec.conditions;
            if games < conditions.min_rated_games {
                return Err(unmet(
                    "min_rated_games",
                    format!(
                        "this tournament needs {} rated games under its rules; you have played {games}",
                        conditions.min_rated_games
                    ),
                ));
            }
            if conditions.min_rating.is_some() || conditions.max_rating.is_some() {
                let rules = s.spec.rules_message();
                let peak = self
                    .game
                    .recent_peak(caller.account_id, &rules, rating, PEAK_GAMES)
                    .await;
                check_rating(&s, peak)?;
            }
            let entry = TournamentEntry {
                account_id: AccountId(caller.account_id),
                rating,
                withdrawn: false,
                registered_at: OffsetDateTime::now_utc(),
                name: caller.name.clone(),
                owner: AccountId(caller.owner),
            };
            if self.try_entry(&s, &entry).await? {
                return Ok(convert::entry(&s.tournament.id, &entry));
            }
        }
        Err(busy())
    }

    fn check_conditions(&self, s: &Snapshot, caller: &Caller, code: &str) -> Result<(), ApiError> {
        let c = &s.spec.conditions;
        match caller.kind {
            AccountKind::Operator => {
                return Err(unmet(
                    "account_kind",
                    "the operator does not play in tournaments",
                ));
            }
            AccountKind::Bot if !c.allow_bots => {
                return Err(unmet(
                    "allow_bots",
                    "this tournament does not take bot accounts",
                ));
            }
            AccountKind::Player | AccountKind::Guest
                if s.spec.format() == TournamentFormat::Ladder =>
            {
                return Err(unmet("account_kind", "a ladder is for bot accounts"));
            }
            AccountKind::Guest if s.spec.rated => {
                return Err(unmet(
                    "account_kind",
                    "guests may not play rated tournaments; create an account",
                ));
            }
            _ => {}
        }
        if !c.invited.is_empty() && !c.invited.contains(&caller.account_id) {
            return Err(unmet(
                "invited",
                "this tournament is by invitation, and you are not invited",
            ));
        }
        if !s.spec.entry_code.is_empty() && s.spec.entry_code != code {
            return Err(unmet(
                "entry_code",
                "entry_code is not this tournament's code",
            ));
        }
        let entrants = field(&s.entries).len();
        if c.max_entrants > 0 && entrants >= c.max_entrants as usize {
            return Err(unmet(
                "max_entrants",
                format!("the tournament is full ({entrants} entrants)"),
            ));
        }
        Ok(())
    }

    /// Refused while the caller's repeated no-shows bar them.
    async fn check_no_shows(&self, caller: &Caller) -> Result<(), ApiError> {
        let now = OffsetDateTime::now_utc();
        let times = self
            .store
            .tournament_no_shows(AccountId(caller.account_id), now - no_shows::WINDOW)
            .await
            .map_err(store_error)?;
        let Some(until) = no_shows::barred_until(&times, now) else {
            return Ok(());
        };
        let message = format!(
            "you lost {} tournament tables on time in the last 90 days; you may register again \
             from {until}",
            times.len()
        );
        Err(unmet("no_shows", message).with_metadata("barred_until", until.unix_timestamp()))
    }

    /// Stores `entry` if the tournament is as read; `false` on a lost race.
    async fn try_entry(&self, s: &Snapshot, entry: &TournamentEntry) -> Result<bool, ApiError> {
        let change = TournamentChange {
            entry: Some(entry.clone()),
            ..Default::default()
        };
        Ok(self.apply(s, &change).await?.is_some())
    }

    #[tracing::instrument(skip_all, fields(tournament_id = %req.tournament_id, account = caller.account_id))]
    pub(super) async fn leave(
        &self,
        caller: Caller,
        req: LeaveTournamentRequest,
    ) -> Result<Entry, ApiError> {
        for _ in 0..TRIES {
            let s = self.snapshot(&req.tournament_id).await?;
            let Some(entry) = s
                .entries
                .iter()
                .find(|e| e.account_id.0 == caller.account_id)
            else {
                return Err(ApiError::not_found(format!(
                    "you have not entered tournament {}",
                    s.tournament.id
                )));
            };
            if entry.withdrawn {
                return Ok(convert::entry(&s.tournament.id, entry));
            }
            registering(&s)?;
            let left = TournamentEntry {
                withdrawn: true,
                ..entry.clone()
            };
            if self.try_entry(&s, &left).await? {
                return Ok(convert::entry(&s.tournament.id, &left));
            }
        }
        Err(busy())
    }
}

fn check_rating(s: &Snapshot, rating: f64) -> Result<(), ApiError> {
    let c = &s.spec.conditions;
    if let Some(min) = c.min_rating
        && rating < min
    {
        return Err(unmet(
            "min_rating",
            format!("your recent peak rating {rating:.1} is below the minimum {min:.1}"),
        ));
    }
    if let Some(max) = c.max_rating
        && rating > max
    {
        return Err(unmet(
            "max_rating",
            format!("your recent peak rating {rating:.1} is above the maximum {max:.1}"),
        ));
    }
    Ok(())
}
