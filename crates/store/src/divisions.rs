//! Divisions: each period of a season with divisions places its players
//! in tiers and cohorts. The store keeps the places and hands back what a
//! turn or a cohort's standings need (each member's period and lifetime
//! ratings); who goes where is the service's to say.

use sqlx::FromRow;
use time::OffsetDateTime;

use crate::{AccountId, Error, SeasonRating, SeasonTrack, Skill, Store, rows};

/// How a player came to their place in a period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arrival {
    /// Placed by lifetime rating when the season began.
    Seeded,
    /// Entered the bottom tier with a first rated game of the season.
    Entered,
    /// Kept their tier at the last turn.
    Stayed,
    Promoted,
    Relegated,
    /// Relegated for playing too few games in the last period.
    Inactive,
    /// Asked to go down a tier.
    SteppedDown,
}

impl Arrival {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Seeded => "seeded",
            Self::Entered => "entered",
            Self::Stayed => "stayed",
            Self::Promoted => "promoted",
            Self::Relegated => "relegated",
            Self::Inactive => "inactive",
            Self::SteppedDown => "stepped_down",
        }
    }

    fn parse(text: &str) -> Result<Self, Error> {
        Ok(match text {
            "seeded" => Self::Seeded,
            "entered" => Self::Entered,
            "stayed" => Self::Stayed,
            "promoted" => Self::Promoted,
            "relegated" => Self::Relegated,
            "inactive" => Self::Inactive,
            "stepped_down" => Self::SteppedDown,
            other => return Err(Error::Corrupt(format!("division arrival {other:?}"))),
        })
    }
}

/// A player's place in one period: tier 1 is the top, cohort 1 the
/// strongest of its tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DivisionPlace {
    pub account_id: AccountId,
    pub tier: u32,
    pub cohort: u32,
    pub arrival: Arrival,
    /// Goes down a tier when the period turns, at the player's request.
    pub stepping_down: bool,
}

/// A placed player with what a turn or a standings page reads.
#[derive(Debug, Clone, PartialEq)]
pub struct DivisionMember {
    pub place: DivisionPlace,
    pub name: String,
    pub bot: bool,
    /// The player's rating in this period; none before a game of it.
    pub season: Option<SeasonRating>,
    /// The lifetime rating of the season's key; none before a rated game.
    pub lifetime: Option<Skill>,
}

#[derive(Debug, FromRow)]
struct MemberRow {
    account_id: i64,
    tier: i32,
    cohort: i32,
    arrival: String,
    stepping_down: bool,
    name: String,
    kind: String,
    season_mu: Option<f64>,
    season_sigma: Option<f64>,
    season_games: Option<i32>,
    life_mu: Option<f64>,
    life_sigma: Option<f64>,
}

fn number(n: i32, what: &str) -> Result<u32, Error> {
    u32::try_from(n).map_err(|_| Error::Corrupt(format!("division {what} {n}")))
}

/// Columns `tier, cohort, arrival, stepping_down` as read.
type PlaceColumns = (i32, i32, String, bool);

/// `account`'s place from its stored columns.
fn place(account: AccountId, columns: PlaceColumns) -> Result<DivisionPlace, Error> {
    let (tier, cohort, arrival, stepping_down) = columns;
    Ok(DivisionPlace {
        account_id: account,
        tier: number(tier, "tier")?,
        cohort: number(cohort, "cohort")?,
        arrival: Arrival::parse(&arrival)?,
        stepping_down,
    })
}

fn to_db(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

impl TryFrom<MemberRow> for DivisionMember {
    type Error = Error;

    fn try_from(r: MemberRow) -> Result<Self, Error> {
        let season = match (r.season_mu, r.season_sigma, r.season_games) {
            (Some(mu), Some(sigma), Some(games)) => Some(SeasonRating {
                account_id: AccountId(r.account_id),
                skill: Skill { mu, sigma },
                games: number(games, "games")?,
            }),
            _ => None,
        };
        let lifetime = match (r.life_mu, r.life_sigma) {
            (Some(mu), Some(sigma)) => Some(Skill { mu, sigma }),
            _ => None,
        };
        Ok(Self {
            place: place(
                AccountId(r.account_id),
                (r.tier, r.cohort, r.arrival, r.stepping_down),
            )?,
            name: r.name,
            bot: r.kind == "bot",
            season,
            lifetime,
        })
    }
}

macro_rules! members {
    ($filter:literal) => {
        concat!(
            "SELECT p.account_id, p.tier, p.cohort, p.arrival, p.stepping_down, a.name, a.kind, \
             sr.mu AS season_mu, sr.sigma AS season_sigma, sr.games AS season_games, \
             r.mu AS life_mu, r.sigma AS life_sigma \
             FROM division_places p \
             JOIN seasons s ON s.id = p.season_id \
             JOIN accounts a ON a.id = p.account_id \
             LEFT JOIN season_ratings sr ON sr.season_id = p.season_id \
               AND sr.period_start = p.period_start AND sr.account_id = p.account_id \
             LEFT JOIN ratings r ON r.account_id = p.account_id AND r.ruleset_key = s.ruleset_key \
             WHERE p.season_id = $1 AND p.period_start = $2 ",
            $filter,
            " ORDER BY p.tier, p.cohort, p.account_id"
        )
    };
}

const PLACE: &str = "SELECT tier, cohort, arrival, stepping_down FROM division_places \
     WHERE season_id = $1 AND period_start = $2 AND account_id = $3";

const TURNED: &str =
    "SELECT COUNT(*) FROM division_periods WHERE season_id = $1 AND period_start = $2";

const MARK_TURNED: &str = "INSERT INTO division_periods (season_id, period_start, turned_at) \
     VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";

const INSERT_PLACE: &str = "INSERT INTO division_places (season_id, period_start, account_id, \
     tier, cohort, arrival, stepping_down, placed_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING";

const UNPLACED: &str = "SELECT sr.account_id FROM season_ratings sr \
     WHERE sr.season_id = $1 AND sr.period_start = $2 AND NOT EXISTS ( \
       SELECT 1 FROM division_places p WHERE p.season_id = sr.season_id \
       AND p.period_start = sr.period_start AND p.account_id = sr.account_id) \
     ORDER BY sr.account_id";

const COHORT_SIZES: &str = "SELECT cohort, COUNT(*) FROM division_places \
     WHERE season_id = $1 AND period_start = $2 AND tier = $3 GROUP BY cohort ORDER BY cohort";

const TIER_SIZES: &str = "SELECT tier, cohort, COUNT(*) FROM division_places \
     WHERE season_id = $1 AND period_start = $2 GROUP BY tier, cohort ORDER BY tier, cohort";

const SET_STEPPING_DOWN: &str = "UPDATE division_places SET stepping_down = $4 \
     WHERE season_id = $1 AND period_start = $2 AND account_id = $3";

/// Each player's lifetime rating of a key as it stood at `$3`, for those
/// whose last change before then came at or after `$2`; best first.
const RATINGS_AS_OF: &str = "SELECT c.account_id, c.mu_after, c.sigma_after \
     FROM rating_changes c \
     WHERE c.ruleset_key = $1 AND c.created_at >= $2 AND c.created_at < $3 \
     AND NOT EXISTS (SELECT 1 FROM rating_changes d \
       WHERE d.account_id = c.account_id AND d.ruleset_key = c.ruleset_key \
       AND d.created_at < $3 AND (d.created_at > c.created_at \
         OR (d.created_at = c.created_at AND d.game_id > c.game_id))) \
     ORDER BY c.mu_after - 3 * c.sigma_after DESC, c.account_id";

impl Store {
    /// Whether the places of `track`'s period have been written.
    pub async fn division_turned(&self, track: &SeasonTrack) -> Result<bool, Error> {
        let (n,): (i64,) = self
            .db
            .fetch_one(TURNED, (track.season_id.as_str(), track.period_start))
            .await?;
        Ok(n > 0)
    }

    /// Writes the places of `track`'s period, once: `false` (and nothing
    /// written) if they were written before.
    pub async fn write_division_turn(
        &self,
        track: &SeasonTrack,
        places: &[DivisionPlace],
    ) -> Result<bool, Error> {
        let (season, period) = (track.season_id.as_str(), track.period_start);
        let at = rows::now();
        let mut tx = self.db.begin().await?;
        if tx.execute(MARK_TURNED, (season, period, at)).await? == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        for p in places {
            let params = place_params(season, period, p, at);
            tx.execute(INSERT_PLACE, params).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Places one player in `track`'s period, unless they have a place
    /// there already: `false` then.
    pub async fn enter_division(
        &self,
        track: &SeasonTrack,
        place: &DivisionPlace,
    ) -> Result<bool, Error> {
        let params = place_params(&track.season_id, track.period_start, place, rows::now());
        let _turn = self.db.write_turn().await;
        Ok(self.db.execute(INSERT_PLACE, params).await? > 0)
    }

    /// Every placed player of `track`'s period, by tier, cohort and
    /// account.
    pub async fn division_members(
        &self,
        track: &SeasonTrack,
    ) -> Result<Vec<DivisionMember>, Error> {
        let params = (track.season_id.as_str(), track.period_start);
        let rows: Vec<MemberRow> = self.db.fetch_all(members!(""), params).await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }

    /// The players of one cohort of `track`'s period.
    pub async fn division_cohort(
        &self,
        track: &SeasonTrack,
        tier: u32,
        cohort: u32,
    ) -> Result<Vec<DivisionMember>, Error> {
        let sql = members!("AND p.tier = $3 AND p.cohort = $4");
        let params = (
            track.season_id.as_str(),
            track.period_start,
            to_db(tier),
            to_db(cohort),
        );
        let rows: Vec<MemberRow> = self.db.fetch_all(sql, params).await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }

    /// One player's place in `track`'s period (by its key: every rated
    /// game of a season with divisions asks this for each player).
    pub async fn division_place(
        &self,
        track: &SeasonTrack,
        account: AccountId,
    ) -> Result<Option<DivisionPlace>, Error> {
        let params = (track.season_id.as_str(), track.period_start, account.0);
        let row: Option<PlaceColumns> = self.db.fetch_optional(PLACE, params).await?;
        row.map(|columns| place(account, columns)).transpose()
    }

    /// Players rated in `track`'s period who have no place in it.
    pub async fn division_unplaced(&self, track: &SeasonTrack) -> Result<Vec<AccountId>, Error> {
        let params = (track.season_id.as_str(), track.period_start);
        let rows: Vec<(i64,)> = self.db.fetch_all(UNPLACED, params).await?;
        Ok(rows.into_iter().map(|(id,)| AccountId(id)).collect())
    }

    /// How many players each cohort of one tier holds, by cohort.
    pub async fn cohort_sizes(
        &self,
        track: &SeasonTrack,
        tier: u32,
    ) -> Result<Vec<(u32, u32)>, Error> {
        let params = (track.season_id.as_str(), track.period_start, to_db(tier));
        let rows: Vec<(i32, i64)> = self.db.fetch_all(COHORT_SIZES, params).await?;
        rows.into_iter()
            .map(|(cohort, n)| Ok((number(cohort, "cohort")?, u32::try_from(n).unwrap_or(0))))
            .collect()
    }

    /// Every cohort of `track`'s period: tier, cohort and players.
    pub async fn division_sizes(&self, track: &SeasonTrack) -> Result<Vec<(u32, u32, u32)>, Error> {
        let params = (track.season_id.as_str(), track.period_start);
        let rows: Vec<(i32, i32, i64)> = self.db.fetch_all(TIER_SIZES, params).await?;
        rows.into_iter()
            .map(|(tier, cohort, n)| {
                Ok((
                    number(tier, "tier")?,
                    number(cohort, "cohort")?,
                    u32::try_from(n).unwrap_or(0),
                ))
            })
            .collect()
    }

    /// Marks (or unmarks) a player as stepping down when `track`'s period
    /// turns; `false` if they have no place in it.
    pub async fn set_stepping_down(
        &self,
        track: &SeasonTrack,
        account: AccountId,
        stepping_down: bool,
    ) -> Result<bool, Error> {
        let params = (
            track.season_id.as_str(),
            track.period_start,
            account.0,
            stepping_down,
        );
        let _turn = self.db.write_turn().await;
        Ok(self.db.execute(SET_STEPPING_DOWN, params).await? > 0)
    }

    /// The lifetime ratings of `ruleset_key` as they stood at `at`, of
    /// players whose rating last changed at or after `since`: the
    /// highest conservative rating first. Whom a season's divisions seed,
    /// the same whenever it is asked.
    pub async fn ratings_as_of(
        &self,
        ruleset_key: &str,
        since: OffsetDateTime,
        at: OffsetDateTime,
    ) -> Result<Vec<(AccountId, Skill)>, Error> {
        let rows: Vec<(i64, f64, f64)> = self
            .db
            .fetch_all(RATINGS_AS_OF, (ruleset_key, since, at))
            .await?;
        Ok(rows
            .into_iter()
            .map(|(id, mu, sigma)| (AccountId(id), Skill { mu, sigma }))
            .collect())
    }
}

fn place_params<'a>(
    season: &'a str,
    period: OffsetDateTime,
    p: &DivisionPlace,
    at: OffsetDateTime,
) -> (
    &'a str,
    OffsetDateTime,
    i64,
    i32,
    i32,
    &'static str,
    bool,
    OffsetDateTime,
) {
    (
        season,
        period,
        p.account_id.0,
        to_db(p.tier),
        to_db(p.cohort),
        p.arrival.as_str(),
        p.stepping_down,
        at,
    )
}
