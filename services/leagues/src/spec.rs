//! What an operator asked for when creating a tournament, as stored (the
//! store keeps it as opaque JSON): checked once, at creation, and fixed
//! from then on, so every round is paired from the same inputs.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use skit_api::ApiError;
use skit_proto::v1::{self, CreateTournamentRequest, TournamentFormat};

/// The most rounds a tournament may have.
pub const MAX_ROUNDS: u32 = 50;
/// The longest arena: a week.
pub const MAX_ARENA_MINUTES: u32 = 7 * 24 * 60;
/// The longest name.
const MAX_NAME: usize = 100;
/// A ladder's validation games per new bot when its creator names none.
pub const DEFAULT_VALIDATION_GAMES: u32 = 2;
/// The most validation games a ladder may ask of a new bot.
pub const MAX_VALIDATION_GAMES: u32 = 10;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Spec {
    pub name: String,
    /// The Rules message in its JSON mapping.
    pub rules: Value,
    /// The ruleset's rating key.
    pub ruleset_key: String,
    /// `TournamentFormat` as its number.
    pub format: i32,
    pub seats: u32,
    pub rounds: u32,
    pub rated: bool,
    /// The TimeControl message in its JSON mapping.
    pub time_control: Option<Value>,
    pub conditions: Conditions,
    pub entry_code: String,
    /// `Tiebreak`s as their numbers, in chain order.
    pub tiebreaks: Vec<i32>,
    pub seed: u64,
    /// An arena's length; 0 for the other formats.
    #[serde(default)]
    pub duration_minutes: u32,
    /// An elimination event's stages, in order; empty otherwise.
    #[serde(default)]
    pub stages: Vec<StageSpec>,
    /// A duplicate event's secret, 64 hex characters drawn at creation:
    /// each deal's seed derives from it (the duplicate format's). Never
    /// shown; absent for the other formats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal_secret: Option<String>,
    /// A ladder's validation games per new bot; absent for the other
    /// formats (and for a ladder stored before there was a choice: the
    /// default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation_games: Option<u32>,
}

/// One stage of an elimination event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StageSpec {
    Swiss { rounds: u32 },
    Cut { top: u32 },
    Knockout { advance: u32 },
    FinalTable,
}

impl StageSpec {
    /// The rounds the stage is played in.
    pub fn rounds(self) -> u32 {
        match self {
            Self::Swiss { rounds } => rounds,
            Self::Cut { .. } => 0,
            Self::Knockout { .. } | Self::FinalTable => 1,
        }
    }

    pub fn league(self) -> skit_league::Stage {
        match self {
            Self::Swiss { rounds } => skit_league::Stage::Swiss { rounds },
            Self::Cut { top } => skit_league::Stage::Cut { top: top as usize },
            Self::Knockout { advance } => skit_league::Stage::Knockout {
                advance: advance as usize,
            },
            Self::FinalTable => skit_league::Stage::FinalTable,
        }
    }

    pub fn message(self) -> v1::Stage {
        use v1::stage::Kind;
        let kind = match self {
            Self::Swiss { rounds } => Kind::SwissRounds(rounds),
            Self::Cut { top } => Kind::CutTo(top),
            Self::Knockout { advance } => Kind::KnockoutAdvance(advance),
            Self::FinalTable => Kind::FinalTable(true),
        };
        v1::Stage { kind: Some(kind) }
    }
}

/// An elimination event's stages checked one by one (whether they fit the
/// field is checked at the start, when the field is known).
fn stages(
    format: TournamentFormat,
    seats: u32,
    given: &[v1::Stage],
) -> Result<Vec<StageSpec>, ApiError> {
    use v1::stage::Kind;
    if format != TournamentFormat::Elimination {
        if !given.is_empty() {
            return Err(ApiError::invalid(
                "stages",
                "only an elimination event has stages",
            ));
        }
        return Ok(Vec::new());
    }
    if given.is_empty() {
        return Err(ApiError::invalid(
            "stages",
            "an elimination event needs at least one stage",
        ));
    }
    let mut out = Vec::with_capacity(given.len());
    for (i, stage) in given.iter().enumerate() {
        let field = format!("stages[{i}]");
        let last = i + 1 == given.len();
        let spec = match stage.kind {
            Some(Kind::SwissRounds(rounds)) if (1..=MAX_ROUNDS).contains(&rounds) => {
                StageSpec::Swiss { rounds }
            }
            Some(Kind::SwissRounds(_)) => {
                return Err(ApiError::invalid(field, "a Swiss stage has 1 to 50 rounds"));
            }
            Some(Kind::CutTo(top)) if top >= 2 => StageSpec::Cut { top },
            Some(Kind::CutTo(_)) => return Err(ApiError::invalid(field, "a cut keeps at least 2")),
            Some(Kind::KnockoutAdvance(advance)) if (1..seats).contains(&advance) => {
                StageSpec::Knockout { advance }
            }
            Some(Kind::KnockoutAdvance(_)) => {
                return Err(ApiError::invalid(
                    field,
                    format!(
                        "a knockout advances 1 to {} of each table of {seats}",
                        seats - 1
                    ),
                ));
            }
            Some(Kind::FinalTable(true)) if last => StageSpec::FinalTable,
            Some(Kind::FinalTable(true)) => {
                return Err(ApiError::invalid(
                    field,
                    "the final table is the last stage",
                ));
            }
            Some(Kind::FinalTable(false)) | None => {
                return Err(ApiError::invalid(field, "names no stage"));
            }
        };
        out.push(spec);
    }
    if out.last() != Some(&StageSpec::FinalTable) {
        return Err(ApiError::invalid(
            "stages",
            "an elimination event ends with a final table",
        ));
    }
    Ok(out)
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Conditions {
    pub allow_bots: bool,
    pub min_rating: Option<f64>,
    pub max_rating: Option<f64>,
    pub invited: Vec<i64>,
    pub max_entrants: u32,
    #[serde(default)]
    pub min_rated_games: u32,
}

impl Spec {
    /// The request checked in full; the first bad field is named.
    pub fn from_request(req: &CreateTournamentRequest) -> Result<Self, ApiError> {
        let name = name(&req.name)?;
        let rules = req.rules.clone().unwrap_or_else(|| v1::Rules {
            preset: "skitgubbe".into(),
            options: None,
        });
        let stored_rules =
            serde_json::to_value(&rules).map_err(|e| ApiError::invalid("rules", e.to_string()))?;
        skit_api::text::stored_json("rules", &stored_rules)?;
        let ruleset = skit_api::rules(Some(&rules))?;
        let format = TournamentFormat::try_from(req.format)
            .ok()
            .filter(|f| *f != TournamentFormat::Unspecified)
            .ok_or_else(|| {
                ApiError::invalid(
                    "format",
                    "must be SWISS, ROUND_ROBIN, ARENA, LADDER, ELIMINATION or DUPLICATE",
                )
            })?;
        if !(2..=6).contains(&req.seats) {
            return Err(ApiError::invalid("seats", "must be 2 to 6"));
        }
        // Tables of k and k - 1 seats: the preset must allow both (k - 1
        // only matters from 3 seats up, a 2-seat table never shrinks).
        let smallest = if req.seats > 2 { req.seats - 1 } else { 2 };
        for n in smallest..=req.seats {
            let players = u8::try_from(n).unwrap_or(u8::MAX);
            ruleset
                .check_players(players)
                .map_err(|e| ApiError::invalid("seats", format!("tables of {n} seats: {e}")))?;
        }
        check_length(format, req.rounds, req.duration_minutes)?;
        if format == TournamentFormat::Duplicate && !req.rounds.is_multiple_of(req.seats) {
            return Err(ApiError::invalid(
                "rounds",
                format!(
                    "a duplicate event plays each deal once per seat: rounds must be a \
                     multiple of seats ({})",
                    req.seats
                ),
            ));
        }
        let stages = stages(format, req.seats, &req.stages)?;
        let validation_games = validation_games(format, req.validation_games)?;
        // An elimination event's rounds are its stages'.
        let rounds = match format {
            TournamentFormat::Elimination => stages.iter().map(|s| s.rounds()).sum(),
            _ => req.rounds,
        };
        let time_control = req
            .time_control
            .as_ref()
            .map(serde_json::to_value)
            .transpose()
            .map_err(|e| ApiError::invalid("time_control", e.to_string()))?;
        let mut conditions = Conditions::from_message(req.conditions.as_ref())?;
        if format == TournamentFormat::Ladder {
            // A ladder is for bots.
            conditions.allow_bots = true;
        }
        let entry_code = entry_code(&req.entry_code)?;
        let mut tiebreaks = Vec::with_capacity(req.tiebreaks.len());
        for (i, &t) in req.tiebreaks.iter().enumerate() {
            let known = v1::Tiebreak::try_from(t)
                .ok()
                .filter(|t| *t != v1::Tiebreak::Unspecified);
            if known.is_none() {
                return Err(ApiError::invalid(
                    format!("tiebreaks[{i}]"),
                    "not a tiebreak",
                ));
            }
            if tiebreaks.contains(&t) {
                return Err(ApiError::invalid(format!("tiebreaks[{i}]"), "listed twice"));
            }
            tiebreaks.push(t);
        }
        let seed = match &req.seed {
            Some(text) => text
                .parse::<u64>()
                .map_err(|_| ApiError::invalid("seed", "not a decimal unsigned 64-bit number"))?,
            None => rand::random(),
        };
        Ok(Self {
            name,
            rules: stored_rules,
            ruleset_key: ruleset.key(),
            format: format as i32,
            seats: req.seats,
            rounds,
            rated: req.rated,
            time_control,
            conditions,
            entry_code,
            tiebreaks,
            seed,
            duration_minutes: req.duration_minutes,
            stages,
            // Each deal's seed derives from it (`duplicate::deal_seed`).
            deal_secret: (format == TournamentFormat::Duplicate)
                .then(|| hex::encode(rand::random::<[u8; 32]>())),
            validation_games,
        })
    }

    /// How many of a new bot's first tables are validation games: a
    /// ladder's setting, or its default; none in the other formats.
    pub fn validation_games(&self) -> u32 {
        match self.format() {
            TournamentFormat::Ladder => self.validation_games.unwrap_or(DEFAULT_VALIDATION_GAMES),
            _ => 0,
        }
    }

    pub fn format(&self) -> TournamentFormat {
        TournamentFormat::try_from(self.format).unwrap_or(TournamentFormat::Swiss)
    }

    pub fn rules_message(&self) -> v1::Rules {
        serde_json::from_value(self.rules.clone()).unwrap_or_default()
    }

    pub fn time_control_message(&self) -> Option<v1::TimeControl> {
        let value = self.time_control.clone()?;
        serde_json::from_value(value).ok()
    }

    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// A stored spec; `None` if unreadable.
    pub fn from_value(value: &Value) -> Option<Self> {
        serde_json::from_value(value.clone()).ok()
    }
}

/// A tournament's name, trimmed: 1 to 100 storable characters.
pub fn name(text: &str) -> Result<String, ApiError> {
    let name = text.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME {
        return Err(ApiError::invalid("name", "must be 1 to 100 characters"));
    }
    skit_api::text::stored("name", name)?;
    Ok(name.to_owned())
}

/// An entry code: empty (none), or an id's characters.
pub fn entry_code(code: &str) -> Result<String, ApiError> {
    if !code.is_empty() {
        skit_api::text::id("entry_code", code)?;
    }
    Ok(code.to_owned())
}

/// A start time from the API.
pub fn starts_at(t: &skit_proto::Timestamp) -> Result<time::OffsetDateTime, ApiError> {
    time::OffsetDateTime::from_unix_timestamp(t.seconds)
        .map(|at| at + time::Duration::nanoseconds(i64::from(t.nanos)))
        .map_err(|_| ApiError::invalid("starts_at", "out of range"))
}

/// A ladder's validation games, checked: its default when absent; only a
/// ladder takes them.
fn validation_games(format: TournamentFormat, given: Option<u32>) -> Result<Option<u32>, ApiError> {
    if format != TournamentFormat::Ladder {
        return match given {
            Some(_) => Err(ApiError::invalid(
                "validation_games",
                "only a ladder has validation games",
            )),
            None => Ok(None),
        };
    }
    let n = given.unwrap_or(DEFAULT_VALIDATION_GAMES);
    if n > MAX_VALIDATION_GAMES {
        return Err(ApiError::invalid(
            "validation_games",
            "a ladder asks 0 to 10 validation games of a new bot",
        ));
    }
    Ok(Some(n))
}

/// Rounds for the formats played in rounds; a duration for an arena;
/// neither for a ladder.
fn check_length(format: TournamentFormat, rounds: u32, minutes: u32) -> Result<(), ApiError> {
    let in_rounds = matches!(
        format,
        TournamentFormat::Swiss | TournamentFormat::RoundRobin | TournamentFormat::Duplicate
    );
    if in_rounds && !(1..=MAX_ROUNDS).contains(&rounds) {
        return Err(ApiError::invalid("rounds", "must be 1 to 50"));
    }
    if !in_rounds && rounds != 0 {
        return Err(ApiError::invalid(
            "rounds",
            "an arena, a ladder or an elimination event (whose stages say its rounds) \
             takes no rounds: leave it 0",
        ));
    }
    let arena = format == TournamentFormat::Arena;
    if arena && !(1..=MAX_ARENA_MINUTES).contains(&minutes) {
        return Err(ApiError::invalid(
            "duration_minutes",
            "an arena lasts 1 to 10080 minutes",
        ));
    }
    if !arena && minutes != 0 {
        return Err(ApiError::invalid(
            "duration_minutes",
            "only an arena has a duration",
        ));
    }
    Ok(())
}

impl Conditions {
    pub fn from_message(m: Option<&v1::Conditions>) -> Result<Self, ApiError> {
        let Some(m) = m else {
            return Ok(Self::default());
        };
        for (field, value) in [
            ("conditions.min_rating", m.min_rating),
            ("conditions.max_rating", m.max_rating),
        ] {
            if value.is_some_and(|v| !v.is_finite()) {
                return Err(ApiError::invalid(field, "must be a finite number"));
            }
        }
        if let (Some(lo), Some(hi)) = (m.min_rating, m.max_rating)
            && lo > hi
        {
            return Err(ApiError::invalid(
                "conditions.max_rating",
                "is below conditions.min_rating",
            ));
        }
        let invited = m
            .invited
            .iter()
            .enumerate()
            .map(|(i, id)| {
                id.parse::<i64>().map_err(|_| {
                    ApiError::invalid(format!("conditions.invited[{i}]"), "not an account id")
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            allow_bots: m.allow_bots,
            min_rating: m.min_rating,
            max_rating: m.max_rating,
            invited,
            max_entrants: m.max_entrants,
            min_rated_games: m.min_rated_games,
        })
    }

    pub fn message(&self) -> v1::Conditions {
        v1::Conditions {
            allow_bots: self.allow_bots,
            min_rating: self.min_rating,
            max_rating: self.max_rating,
            invited: self.invited.iter().map(ToString::to_string).collect(),
            max_entrants: self.max_entrants,
            min_rated_games: self.min_rated_games,
        }
    }
}
