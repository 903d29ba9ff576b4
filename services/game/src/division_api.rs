//! RatingService's divisions: anyone signed in reads a cohort of a
//! season's divisions (their own by default), ranked with the zone each
//! player stands in; a placed player asks to step down a tier at the next
//! turn, or takes it back.

use skit_api::ApiError;
use skit_proto::v1::{
    Division, DivisionArrival, DivisionCohort, DivisionStanding, DivisionZone, GetDivisionRequest,
    StepDownRequest,
};
use skit_store::{AccountId, Arrival, DivisionRules, Season, SeasonTrack};
use time::OffsetDateTime;

use crate::auth::Caller;
use crate::division_turns;
use crate::divisions::{self, Zone};
use crate::error::store_error;
use crate::rating_service::RatingApi;
use crate::season_api::{period, season_message, when};
use crate::seasons::{PROVISIONAL_SIGMA, Schedule};

fn zone(z: Zone) -> DivisionZone {
    match z {
        Zone::Promotion => DivisionZone::Promotion,
        Zone::Stay => DivisionZone::Stay,
        Zone::Relegation => DivisionZone::Relegation,
        Zone::Out => DivisionZone::Out,
    }
}

fn arrival(a: Arrival) -> DivisionArrival {
    match a {
        Arrival::Seeded => DivisionArrival::Seeded,
        Arrival::Entered => DivisionArrival::Entered,
        Arrival::Stayed => DivisionArrival::Stayed,
        Arrival::Promoted => DivisionArrival::Promoted,
        Arrival::Relegated => DivisionArrival::Relegated,
        Arrival::Inactive => DivisionArrival::Inactive,
        Arrival::SteppedDown => DivisionArrival::SteppedDown,
    }
}

/// Which cohort a request names.
enum Wanted {
    Of(AccountId),
    Cohort { tier: u32, cohort: u32 },
}

impl RatingApi {
    /// The season `id` names, with its divisions' rules.
    async fn division_season(&self, id: &str) -> Result<(Season, DivisionRules), ApiError> {
        let season = self.stored_season(id).await?;
        let rules = season.divisions.ok_or_else(|| {
            ApiError::failed_precondition(format!("season {} has no divisions", season.id))
        })?;
        Ok((season, rules))
    }

    /// The track of `season`'s period at `at`, its places written.
    async fn division_track(
        &self,
        season: &Season,
        at: OffsetDateTime,
    ) -> Result<SeasonTrack, ApiError> {
        division_turns::turned(&self.state.store, season, at)
            .await
            .map_err(store_error)?
            .ok_or_else(|| {
                ApiError::failed_precondition(format!(
                    "season {} has no period at {at}: it starts at {}{}",
                    season.id,
                    season.starts_at,
                    season
                        .ends_at
                        .map_or_else(String::new, |e| format!(" and ends at {e}"))
                ))
            })
    }

    pub(crate) async fn division(
        &self,
        caller: Caller,
        req: GetDivisionRequest,
    ) -> Result<Division, ApiError> {
        let (season, rules) = self.division_season(&req.season_id).await?;
        let now = OffsetDateTime::now_utc();
        let at = match &req.at {
            Some(t) => when("at", t)?,
            None => now,
        };
        if at > now {
            return Err(ApiError::invalid(
                "at",
                "is in the future: a period's places are known once it begins",
            ));
        }
        let wanted = match (req.tier, req.cohort, &req.account_id) {
            (0, 0, None) => Wanted::Of(caller.account.id),
            (0, 0, Some(text)) => Wanted::Of(self.account(text, "account_id").await?),
            (_, _, Some(_)) => {
                return Err(ApiError::invalid(
                    "account_id",
                    "name an account or a tier and cohort, not both",
                ));
            }
            (tier, _, None) if !(1..=rules.tiers).contains(&tier) => {
                return Err(ApiError::invalid(
                    "tier",
                    format!("must be 1 to {} with a cohort", rules.tiers),
                ));
            }
            (_, 0, None) => {
                return Err(ApiError::invalid("cohort", "must be 1 or more with a tier"));
            }
            (tier, cohort, None) => Wanted::Cohort { tier, cohort },
        };
        let track = self.division_track(&season, at).await?;
        self.cohort(&season, &rules, &track, at, wanted).await
    }

    /// One cohort of `track`'s period, ranked.
    async fn cohort(
        &self,
        season: &Season,
        rules: &DivisionRules,
        track: &SeasonTrack,
        at: OffsetDateTime,
        wanted: Wanted,
    ) -> Result<Division, ApiError> {
        let store = &self.state.store;
        let (tier, cohort) = match wanted {
            Wanted::Cohort { tier, cohort } => (tier, cohort),
            Wanted::Of(account) => {
                let place = store
                    .division_place(track, account)
                    .await
                    .map_err(store_error)?
                    .ok_or_else(|| {
                        ApiError::not_found(format!(
                            "account {} has no place in the divisions of season {} in the \
                             period from {}: a player enters with a rated game of the season",
                            account.0, season.id, track.period_start
                        ))
                    })?;
                (place.tier, place.cohort)
            }
        };
        let members = store
            .division_cohort(track, tier, cohort)
            .await
            .map_err(store_error)?;
        if members.is_empty() {
            return Err(ApiError::not_found(format!(
                "season {} has no cohort {cohort} in tier {tier} in the period from {}",
                season.id, track.period_start
            )));
        }
        let rows = divisions::rank(rules, &members)
            .into_iter()
            .map(|r| {
                let m = r.member;
                let skill = divisions::standing_skill(m);
                DivisionStanding {
                    rank: r.rank,
                    account_id: m.place.account_id.0.to_string(),
                    name: m.name.clone(),
                    is_bot: m.bot,
                    conservative: skill.conservative(),
                    games: m.season.as_ref().map_or(0, |s| s.games),
                    provisional: skill.sigma > PROVISIONAL_SIGMA,
                    active: r.active,
                    zone: zone(r.zone).into(),
                    arrival: arrival(m.place.arrival).into(),
                    stepping_down: m.place.stepping_down,
                }
            })
            .collect();
        let cohorts = store
            .division_sizes(track)
            .await
            .map_err(store_error)?
            .into_iter()
            .map(|(tier, cohort, players)| DivisionCohort {
                tier,
                cohort,
                players,
            })
            .collect();
        let (start, end) = Schedule::of(season)
            .period(season, at)
            .unwrap_or((track.period_start, None));
        Ok(Division {
            season: Some(season_message(season)),
            period: Some(period(start, end)),
            tier,
            cohort,
            rows,
            cohorts,
        })
    }

    pub(crate) async fn step_down(
        &self,
        caller: Caller,
        req: StepDownRequest,
    ) -> Result<Division, ApiError> {
        let (season, rules) = self.division_season(&req.season_id).await?;
        let now = OffsetDateTime::now_utc();
        let track = self.division_track(&season, now).await?;
        let account = caller.account.id;
        let store = &self.state.store;
        let place = store
            .division_place(&track, account)
            .await
            .map_err(store_error)?
            .ok_or_else(|| {
                ApiError::failed_precondition(format!(
                    "account {} has no place in the divisions of season {} this period",
                    account.0, season.id
                ))
            })?;
        if !req.undo && place.tier >= rules.tiers {
            return Err(ApiError::failed_precondition(format!(
                "account {} is in the bottom tier ({}): there is no tier to step down to",
                account.0, place.tier
            )));
        }
        store
            .set_stepping_down(&track, account, !req.undo)
            .await
            .map_err(store_error)?;
        tracing::info!(season_id = %season.id, account = account.0, undo = req.undo, "step down");
        self.cohort(&season, &rules, &track, now, Wanted::Of(account))
            .await
    }
}
