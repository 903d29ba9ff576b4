//! RatingService's seasons: an operator creates one for a ruleset key
//! (start, optional end, optional cron recurrence in a time zone); anyone
//! signed in lists them and reads a period's standings, each rating marked
//! provisional while its uncertainty is large. The tracks themselves are
//! updated with each rated game (`rated`).

use skit_api::{ApiError, timestamp};
use skit_proto::v1::{
    CreateSeasonRequest, Divisions, GetSeasonStandingsRequest, ListSeasonsRequest,
    ListSeasonsResponse, Season, SeasonPeriod, SeasonStanding, SeasonStandings,
};
use skit_store::{CreatedSeason, DivisionRules, NewSeason, SeasonTrack};
use time::OffsetDateTime;

use crate::audit::Operator;
use crate::auth::Caller;
use crate::error::store_error;
use crate::rating_service::{RatingApi, limit, ruleset_key};
use crate::seasons::{PROVISIONAL_SIGMA, Schedule};

/// The longest season name.
const MAX_NAME: usize = 100;

/// A request's timestamp, to the whole second (periods are named by their
/// start, which must read back exactly from either database).
pub(crate) fn when(field: &str, t: &skit_proto::Timestamp) -> Result<OffsetDateTime, ApiError> {
    OffsetDateTime::from_unix_timestamp(t.seconds)
        .map_err(|_| ApiError::invalid(field, "out of range"))
}

pub(crate) fn period(start: OffsetDateTime, end: Option<OffsetDateTime>) -> SeasonPeriod {
    SeasonPeriod {
        starts_at: Some(timestamp(start)),
        ends_at: end.map(timestamp),
    }
}

/// A season's divisions as asked for, defaults filled in; each bad number
/// refused naming its field.
fn division_rules(d: &Divisions) -> Result<DivisionRules, ApiError> {
    let within = |field: &str, n: u32, range: std::ops::RangeInclusive<u32>| {
        if range.contains(&n) {
            Ok(n)
        } else {
            Err(ApiError::invalid(
                format!("divisions.{field}"),
                format!("must be {} to {}", range.start(), range.end()),
            ))
        }
    };
    let or = |n: u32, default: u32| if n == 0 { default } else { n };
    let rules = DivisionRules {
        tiers: within("tiers", d.tiers, 2..=10)?,
        cohort_size: within("cohort_size", or(d.cohort_size, 20), 2..=1000)?,
        promote_percent: within("promote_percent", d.promote_percent, 0..=100)?,
        relegate_percent: within("relegate_percent", d.relegate_percent, 0..=100)?,
        min_games: within("min_games", or(d.min_games, 1), 1..=1000)?,
    };
    if rules.promote_percent + rules.relegate_percent > 100 {
        return Err(ApiError::invalid(
            "divisions.relegate_percent",
            "promote_percent and relegate_percent together must be at most 100",
        ));
    }
    Ok(rules)
}

fn divisions_message(d: &DivisionRules) -> Divisions {
    Divisions {
        tiers: d.tiers,
        cohort_size: d.cohort_size,
        promote_percent: d.promote_percent,
        relegate_percent: d.relegate_percent,
        min_games: d.min_games,
    }
}

/// A stored season as the API shows it, with its period now.
pub(crate) fn season_message(s: &skit_store::Season) -> Season {
    let current = Schedule::of(s)
        .period(s, OffsetDateTime::now_utc())
        .map(|(start, end)| period(start, end));
    Season {
        season_id: s.id.clone(),
        name: s.name.clone(),
        ruleset_key: s.ruleset_key.clone(),
        starts_at: Some(timestamp(s.starts_at)),
        ends_at: s.ends_at.map(timestamp),
        recurrence: s.recurrence.clone(),
        time_zone: s.time_zone.clone(),
        current,
        created_at: Some(timestamp(s.created_at)),
        divisions: s.divisions.as_ref().map(divisions_message),
    }
}

impl RatingApi {
    pub(crate) async fn create_season(
        &self,
        caller: Caller,
        req: CreateSeasonRequest,
    ) -> Result<Season, ApiError> {
        let operator = Operator::check(caller, "create seasons")?;
        let request_id = skit_api::request_id(&req.request_id, "request_id")?;
        let name = req.name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME {
            return Err(ApiError::invalid("name", "must be 1 to 100 characters"));
        }
        skit_api::text::stored("name", name)?;
        let key = ruleset_key(req.rules.as_ref())?;
        let starts_at = req
            .starts_at
            .as_ref()
            .ok_or_else(|| ApiError::invalid("starts_at", "is required"))
            .and_then(|t| when("starts_at", t))?;
        let ends_at = req
            .ends_at
            .as_ref()
            .map(|t| when("ends_at", t))
            .transpose()?;
        if ends_at.is_some_and(|end| end <= starts_at) {
            return Err(ApiError::invalid("ends_at", "must be after starts_at"));
        }
        let time_zone = match req.time_zone.trim() {
            "" => "UTC".to_owned(),
            zone => zone.to_owned(),
        };
        Schedule::parse(&req.recurrence, &time_zone)
            .map_err(|bad| ApiError::invalid(bad.field, bad.message))?;
        let divisions = req.divisions.as_ref().map(division_rules).transpose()?;
        if divisions.is_some() && req.recurrence.trim().is_empty() {
            return Err(ApiError::invalid(
                "recurrence",
                "divisions need a recurrence: players move between tiers when a period turns",
            ));
        }
        let new = NewSeason {
            name: name.to_owned(),
            ruleset_key: key,
            starts_at,
            ends_at,
            recurrence: req.recurrence.trim().to_owned(),
            time_zone,
            divisions,
            created_by: operator.id(),
            request_id: request_id.map(str::to_owned),
        };
        let created = self
            .state
            .store
            .create_season(new.clone())
            .await
            .map_err(store_error)?;
        match created {
            CreatedSeason::New(s) => {
                tracing::info!(season_id = %s.id, ruleset_key = %s.ruleset_key, "season created");
                Ok(season_message(&s))
            }
            CreatedSeason::Requested(first) => {
                let same = (
                    &first.name,
                    &first.ruleset_key,
                    first.starts_at,
                    first.ends_at,
                    &first.recurrence,
                    &first.time_zone,
                    first.divisions,
                ) == (
                    &new.name,
                    &new.ruleset_key,
                    new.starts_at,
                    new.ends_at,
                    &new.recurrence,
                    &new.time_zone,
                    new.divisions,
                );
                if !same {
                    return Err(ApiError::request_id_reused(
                        "request_id",
                        format!(
                            "request_id was used for season {} with other settings",
                            first.id
                        ),
                    ));
                }
                Ok(season_message(&first))
            }
        }
    }

    pub(crate) async fn seasons(
        &self,
        req: ListSeasonsRequest,
    ) -> Result<ListSeasonsResponse, ApiError> {
        let key = Some(req.ruleset_key.as_str()).filter(|k| !k.is_empty());
        let seasons = self.state.store.seasons(key).await.map_err(store_error)?;
        Ok(ListSeasonsResponse {
            seasons: seasons.iter().map(season_message).collect(),
        })
    }

    /// The season `id` names, or why not (`season_id` not a UUID, or no
    /// such season).
    pub(crate) async fn stored_season(&self, id: &str) -> Result<skit_store::Season, ApiError> {
        if uuid::Uuid::parse_str(id).is_err() {
            return Err(ApiError::invalid("season_id", "not a season id (a UUID)"));
        }
        self.state
            .store
            .season(id)
            .await
            .map_err(store_error)?
            .ok_or_else(|| ApiError::not_found(format!("no season {id}")))
    }

    pub(crate) async fn season_standings(
        &self,
        req: GetSeasonStandingsRequest,
    ) -> Result<SeasonStandings, ApiError> {
        let season = self.stored_season(&req.season_id).await?;
        let at = match &req.at {
            Some(t) => when("at", t)?,
            None => OffsetDateTime::now_utc(),
        };
        let (start, end) = Schedule::of(&season).period(&season, at).ok_or_else(|| {
            ApiError::failed_precondition(format!(
                "season {} has no period at {at}: it starts at {} and ends at {}",
                season.id,
                season.starts_at,
                season
                    .ends_at
                    .map_or_else(|| "no end".to_owned(), |e| e.to_string())
            ))
        })?;
        let track = SeasonTrack {
            season_id: season.id.clone(),
            period_start: start,
        };
        let ratings = self
            .state
            .store
            .season_standings(&track, limit(req.limit).min(100))
            .await
            .map_err(store_error)?;
        let rows = (1u32..)
            .zip(&ratings)
            .map(|(rank, line)| {
                let r = &line.rating;
                SeasonStanding {
                    rank,
                    account_id: r.account_id.0.to_string(),
                    mu: r.skill.mu,
                    sigma: r.skill.sigma,
                    conservative: r.skill.conservative(),
                    games: r.games,
                    provisional: r.skill.sigma > PROVISIONAL_SIGMA,
                    name: line.name.clone(),
                    is_bot: line.bot,
                }
            })
            .collect();
        Ok(SeasonStandings {
            season: Some(season_message(&season)),
            period: Some(period(start, end)),
            rows,
        })
    }
}
