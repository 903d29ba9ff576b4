//! The one error type of every service: a class ([`ErrorCode`]), a stable
//! machine-readable `reason`, a message for people, the request fields at
//! fault, metadata and a retry hint. It becomes a gRPC status once
//! ([`status`]: `google.rpc` details and the `skit-error-code` trailer), and
//! a status becomes an HTTP status and JSON body once ([`body`]), so gRPC
//! and REST clients see the same code, reason and fields.
//!
//! Internal failures are logged where they happen and reach the client only
//! as "internal error": database text never leaves the service.

mod body;
mod code;
mod localize;
mod status;

use std::collections::BTreeMap;
use std::time::Duration;

use skit_engine::{MoveError, RulesError};

use crate::ConvertError;

pub use body::ErrorBody;
pub use code::ErrorCode;
pub use status::{CODE_TRAILER, DOMAIN};

/// When to try again after the database was unavailable: about as long as
/// a restarting database server or a failover takes to answer again.
pub const DATABASE_RETRY_DELAY: Duration = Duration::from_secs(1);

/// When to try again after an instance shed a call for having more work
/// queued than it takes on: its queues drain in milliseconds.
pub const OVERLOAD_RETRY_DELAY: Duration = Duration::from_millis(100);

/// A request field at fault and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Violation {
    pub field: String,
    pub description: String,
}

/// Why a request was refused, as every client sees it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    code: ErrorCode,
    reason: &'static str,
    message: String,
    violations: Vec<Violation>,
    metadata: BTreeMap<&'static str, String>,
    retry_delay: Option<Duration>,
}

impl ApiError {
    /// An error of class `code` for `reason`, a fixed snake_case name that
    /// clients, logs and metrics can match on (never free text).
    pub fn new(code: ErrorCode, reason: &'static str, message: impl Into<String>) -> Self {
        Self {
            code,
            reason,
            message: message.into(),
            violations: Vec::new(),
            metadata: BTreeMap::new(),
            retry_delay: None,
        }
    }

    /// An error of class `code` with its class's own reason.
    pub fn of(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::new(code, code.default_reason(), message)
    }

    pub fn unauthenticated(message: impl Into<String>) -> Self {
        Self::of(ErrorCode::Unauthenticated, message)
    }

    pub fn permission_denied(message: impl Into<String>) -> Self {
        Self::of(ErrorCode::PermissionDenied, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::of(ErrorCode::NotFound, message)
    }

    /// A malformed request; `field` names the request field (dotted, with
    /// indexes: `action.play.cards`, `player_counts[1]`).
    pub fn invalid(field: impl Into<String>, description: impl Into<String>) -> Self {
        let violation = Violation {
            field: field.into(),
            description: description.into(),
        };
        let message = format!("{}: {}", violation.field, violation.description);
        let mut error = Self::of(ErrorCode::InvalidArgument, message);
        error.violations.push(violation);
        error
    }

    /// A request that conflicts with the state outside the rules (a seat
    /// already taken, a ticket already matched, ...).
    pub fn failed_precondition(message: impl Into<String>) -> Self {
        Self::of(ErrorCode::FailedPrecondition, message)
    }

    /// A well-formed action the rules refuse; `rule` is the engine's rule
    /// code (`does_not_beat`, ...).
    pub fn refused(rule: &'static str, message: impl std::fmt::Display) -> Self {
        Self::new(
            ErrorCode::FailedPrecondition,
            rule,
            format!("{rule}: {message}"),
        )
    }

    /// The client decided on a version of the game that is no longer
    /// current; the metadata says which is.
    pub fn stale(expected: u64, current: u64) -> Self {
        Self::new(
            ErrorCode::Aborted,
            "stale_version",
            format!("the game is at version {current}, not {expected}"),
        )
        .with_metadata("current_version", current)
        .with_metadata("expected_version", expected)
    }

    /// A read asked for a version (`min_version`) the game does not have
    /// yet; the metadata says which it has.
    pub fn version_ahead(asked: u64, current: u64) -> Self {
        Self::new(
            ErrorCode::FailedPrecondition,
            "version_ahead",
            format!("the game is at version {current}, not yet at {asked}"),
        )
        .with_metadata("current_version", current)
        .with_metadata("min_version", asked)
    }

    /// A move id already used for a different move or resignation.
    pub fn move_id_reused(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::AlreadyExists, "move_id_reused", message)
    }

    /// A request id (idempotency key) already used for a request with other
    /// content; `field` names it.
    pub fn request_id_reused(field: &str, message: impl Into<String>) -> Self {
        Self::new(ErrorCode::AlreadyExists, "request_id_reused", message)
            .with_violation(field, "already used for a different request")
    }

    /// The calling credential lacks `scope` (`play`, `read`, `admin`), named
    /// in the metadata (`scope`) for clients to act on.
    pub fn missing_scope(scope: &str) -> Self {
        Self::new(
            ErrorCode::PermissionDenied,
            "missing_scope",
            format!("this call needs a credential with the {scope:?} scope"),
        )
        .with_metadata("scope", scope)
    }

    /// Something the service needs cannot be reached; worth retrying after
    /// `retry_delay`.
    pub fn unavailable(message: impl Into<String>, retry_delay: Duration) -> Self {
        let mut error = Self::of(ErrorCode::Unavailable, message);
        error.retry_delay = Some(retry_delay);
        error
    }

    /// Too many calls of one class (`class`, e.g. `signup`) from one client
    /// in a short time: RESOURCE_EXHAUSTED, reason `rate_limited`, with the
    /// class and how long to wait (`retry_after_ms`, and the retry hint).
    pub fn rate_limited(class: &str, retry_after: Duration) -> Self {
        let millis = u64::try_from(retry_after.as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        let mut error = Self::new(
            ErrorCode::ResourceExhausted,
            "rate_limited",
            format!("too many {class} calls; retry after {millis} ms"),
        )
        .with_metadata("class", class)
        .with_metadata("retry_after_ms", millis);
        error.retry_delay = Some(Duration::from_millis(millis));
        error
    }

    /// An account holds as much of something as it may (`quota`, e.g.
    /// `open_games`, at most `limit`): RESOURCE_EXHAUSTED, reason
    /// `quota_exceeded`, naming the quota and its limit. Not worth retrying
    /// until the account holds less.
    pub fn quota_exceeded(quota: &str, limit: u64, message: impl Into<String>) -> Self {
        Self::new(ErrorCode::ResourceExhausted, "quota_exceeded", message)
            .with_metadata("quota", quota)
            .with_metadata("limit", limit)
    }

    /// Seating a table's last bot would start one more game between bots
    /// for `owner`, whose bots started `limit` in the last day (the
    /// `bot_games_per_day` quota): RESOURCE_EXHAUSTED, reason
    /// `bot_games_exceeded`, naming the quota, its limit and the owner, and
    /// when the oldest of those games leaves the count (`retry_after_ms`,
    /// and the retry hint).
    pub fn bot_games_exceeded(owner: &str, limit: u64, retry_after: Duration) -> Self {
        let millis = u64::try_from(retry_after.as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        let seconds = millis.div_ceil(1000);
        let mut error = Self::new(
            ErrorCode::ResourceExhausted,
            "bot_games_exceeded",
            format!(
                "the bots of account {owner} started {limit} games against bots in the last \
                 24 hours, the most allowed; the next may start in {seconds} s \
                 (retry after {millis} ms)"
            ),
        )
        .with_metadata("quota", "bot_games_per_day")
        .with_metadata("limit", limit)
        .with_metadata("owner", owner)
        .with_metadata("retry_after_ms", millis);
        error.retry_delay = Some(Duration::from_millis(millis));
        error
    }

    /// The instance has more work queued than it takes on and shed this
    /// call before doing anything (`queue` names what was full):
    /// UNAVAILABLE, reason `overloaded`, with when to try again
    /// (`retry_after_ms`, and the retry hint).
    pub fn overloaded(queue: &str, retry_after: Duration) -> Self {
        let millis = u64::try_from(retry_after.as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        let mut error = Self::new(
            ErrorCode::Unavailable,
            "overloaded",
            format!("the service is overloaded ({queue} full); retry after {millis} ms"),
        )
        .with_metadata("queue", queue)
        .with_metadata("retry_after_ms", millis);
        error.retry_delay = Some(Duration::from_millis(millis));
        error
    }

    /// The service's database cannot be reached or is not taking work
    /// (its store said so): logs the cause chain, which is never shown,
    /// and asks the client to retry shortly.
    pub fn database_unavailable(error: &(dyn std::error::Error + 'static)) -> Self {
        tracing::warn!(error = %error, causes = causes(error), "database unavailable");
        Self::unavailable(
            "the database is unavailable; try again shortly",
            DATABASE_RETRY_DELAY,
        )
    }

    /// Logs an internal failure with its cause chain and hides it.
    pub fn internal(context: &str, error: &(dyn std::error::Error + 'static)) -> Self {
        tracing::error!(error = %error, causes = causes(error), "{context}");
        Self::hidden()
    }

    /// Logs a broken invariant (a state the code should never reach) and
    /// hides it.
    pub fn invariant(context: &str) -> Self {
        tracing::error!("{context}");
        Self::hidden()
    }

    fn hidden() -> Self {
        Self::of(ErrorCode::Internal, "internal error")
    }

    /// Names a request field at fault in an error of any class (an
    /// INVALID_ARGUMENT gets its field from [`Self::invalid`]).
    pub fn with_violation(
        mut self,
        field: impl Into<String>,
        description: impl Into<String>,
    ) -> Self {
        self.violations.push(Violation {
            field: field.into(),
            description: description.into(),
        });
        self
    }

    /// Adds a fact a client can act on (e.g. `current_version`).
    pub fn with_metadata(mut self, key: &'static str, value: impl ToString) -> Self {
        self.metadata.insert(key, value.to_string());
        self
    }

    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The stable machine-readable reason, e.g. `does_not_beat` or
    /// `stale_version`.
    pub fn reason(&self) -> &'static str {
        self.reason
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// The request fields at fault.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    pub fn metadata(&self) -> &BTreeMap<&'static str, String> {
        &self.metadata
    }

    pub fn retry_delay(&self) -> Option<Duration> {
        self.retry_delay
    }
}

/// `error`'s sources, each after ": ", for a log line.
fn causes(error: &(dyn std::error::Error + 'static)) -> String {
    let mut causes = String::new();
    let mut source = error.source();
    while let Some(s) = source {
        causes.push_str(": ");
        causes.push_str(&s.to_string());
        source = s.source();
    }
    causes
}

impl From<MoveError> for ApiError {
    fn from(e: MoveError) -> Self {
        Self::refused(e.code(), e)
    }
}

impl From<RulesError> for ApiError {
    fn from(e: RulesError) -> Self {
        Self::invalid(format!("rules.{}", e.option), e.message)
    }
}

impl From<ConvertError> for ApiError {
    fn from(e: ConvertError) -> Self {
        Self::invalid(e.field, e.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invalid_field_is_named_in_the_message_and_the_violation() {
        let error = ApiError::invalid("action.play.cards", "7C is not in your hand");

        assert_eq!(error.code(), ErrorCode::InvalidArgument);
        assert_eq!(error.reason(), "invalid_argument");
        assert_eq!(error.message(), "action.play.cards: 7C is not in your hand");
        assert_eq!(error.violations()[0].field, "action.play.cards");
    }

    #[test]
    fn a_rate_limit_names_its_class_and_when_to_retry() {
        let error = ApiError::rate_limited("signup", Duration::from_micros(1_500_300));

        assert_eq!(error.code(), ErrorCode::ResourceExhausted);
        assert_eq!(error.reason(), "rate_limited");
        assert_eq!(error.metadata()["class"], "signup");
        assert_eq!(error.metadata()["retry_after_ms"], "1500");
        assert_eq!(error.retry_delay(), Some(Duration::from_millis(1500)));
        let quota = ApiError::quota_exceeded("open_games", 20, "too many");
        assert_eq!(quota.reason(), "quota_exceeded");
        assert_eq!(quota.metadata()["quota"], "open_games");
        assert_eq!(quota.metadata()["limit"], "20");
        assert_eq!(quota.retry_delay(), None);
    }

    #[test]
    fn a_rule_refusal_carries_the_engine_code() {
        let error = ApiError::from(MoveError::MustBeat);

        assert_eq!(error.code(), ErrorCode::FailedPrecondition);
        assert_eq!(error.reason(), "must_beat");
        assert!(error.message().starts_with("must_beat: "), "{error}");
    }

    #[test]
    fn a_bot_games_cap_names_its_limit_owner_and_when_to_retry() {
        let error = ApiError::bot_games_exceeded("7", 2, Duration::from_millis(1_500));
        assert_eq!(error.code(), ErrorCode::ResourceExhausted);
        assert_eq!(error.reason(), "bot_games_exceeded");
        assert_eq!(error.metadata()["quota"], "bot_games_per_day");
        assert_eq!(error.metadata()["limit"], "2");
        assert_eq!(error.metadata()["owner"], "7");
        assert_eq!(error.metadata()["retry_after_ms"], "1500");
        assert_eq!(error.retry_delay(), Some(Duration::from_millis(1_500)));
        assert!(error.message().contains("2 games"), "{}", error.message());
        assert!(error.message().contains("2 s"), "{}", error.message());
    }

    #[test]
    fn an_unavailable_database_asks_for_a_retry_and_hides_its_cause() {
        let cause = std::io::Error::other("connection to 10.0.0.7:5432 refused");

        let error = ApiError::database_unavailable(&cause);

        assert_eq!(error.code(), ErrorCode::Unavailable);
        assert_eq!(error.reason(), "unavailable");
        assert_eq!(error.retry_delay(), Some(DATABASE_RETRY_DELAY));
        assert!(!error.message().contains("10.0.0.7"), "{error}");
    }

    #[test]
    fn an_overloaded_instance_says_when_to_retry() {
        let error = ApiError::overloaded("appends", OVERLOAD_RETRY_DELAY);

        assert_eq!(error.code(), ErrorCode::Unavailable);
        assert_eq!(error.reason(), "overloaded");
        assert_eq!(error.metadata()["queue"], "appends");
        assert_eq!(error.metadata()["retry_after_ms"], "100");
        assert_eq!(error.retry_delay(), Some(OVERLOAD_RETRY_DELAY));
    }

    #[test]
    fn an_internal_error_hides_its_cause() {
        let cause = std::io::Error::other("relation \"games\" does not exist");

        let error = ApiError::internal("store error", &cause);

        assert_eq!(error.message(), "internal error");
        assert_eq!(error.reason(), "internal");
    }
}
