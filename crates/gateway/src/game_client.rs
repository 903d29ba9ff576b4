//! The game service as the services beside it (the matchmaker, the league
//! service) reach it: only through its public gRPC API with bearer tokens.
//! Who a caller is (WhoAmI with their token, cached briefly), the house
//! bots and ratings, creating games and reading them (as the operator).

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use skit_api::{ApiError, ErrorCode, bearer_token};
use skit_api::{Secret, authed};
use skit_proto::v1::account_service_client::AccountServiceClient;
use skit_proto::v1::admin_service_client::AdminServiceClient;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::rating_service_client::RatingServiceClient;
use skit_proto::v1::{
    AccountKind, CreateGameRequest, GetAccountRequest, GetRatingHistoryRequest, GetRatingsRequest,
    GetViewRequest, ListAccountsRequest, Rules, View, WhoAmIRequest, WhoAmIResponse,
};
use tonic::metadata::MetadataMap;
use tonic::transport::{Channel, Endpoint};
use tonic::{Code, Status};
use tonic_types::StatusExt;

use crate::operator_token::OperatorToken;

/// How long a token's WhoAmI answer is trusted: short, so that with the
/// game service's own bound (its cache follows the revocation feed) a
/// revoked token is refused here within a second too.
const WHOAMI_TTL: Duration = Duration::from_millis(200);
/// Entries kept before the cache is swept of expired ones.
const WHOAMI_SWEEP_AT: usize = 10_000;
/// The most house bots asked for.
const MAX_BOTS: u32 = 1000;
/// When to try again while the game service cannot be reached: about as
/// long as it takes a restarting instance to answer again.
const GAME_RETRY_DELAY: Duration = Duration::from_secs(1);

/// Callers' WhoAmI answers by token hash, with when they were asked.
type WhoAmICache = HashMap<[u8; 32], (WhoAmIResponse, Instant)>;

/// An authenticated caller, as the game service knows them.
#[derive(Debug, Clone)]
pub struct Caller {
    pub account_id: i64,
    /// Its owner group: who runs it, or itself (no two accounts of one
    /// owner share a table).
    pub owner: i64,
    pub name: String,
    pub kind: AccountKind,
    /// Its credential's scopes (`play`, `read`, ...).
    pub scopes: Vec<String>,
}

impl Caller {
    /// Whether its credential has `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }
}

/// A house bot: its account and its owner group (as [`Caller::owner`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HouseBot {
    pub account_id: i64,
    pub owner: i64,
}

/// A client of the game service. Cheap to clone.
#[derive(Debug, Clone)]
pub struct GameClient {
    channel: Channel,
    operator: Arc<OperatorToken>,
    /// sha256 of a token → the answer and when it was fetched.
    whoami: Arc<Mutex<WhoAmICache>>,
}

impl GameClient {
    /// Connects lazily: the game service may start after the matchmaker.
    pub fn new(url: &str, operator: Secret) -> Result<Self, tonic::transport::Error> {
        Self::with_operator(url, OperatorToken::fixed(operator))
    }

    /// As [`GameClient::new`], calling with the operator token as
    /// `operator` has it now (one followed in its file, after a rotation).
    pub fn with_operator(
        url: &str,
        operator: OperatorToken,
    ) -> Result<Self, tonic::transport::Error> {
        let channel = Endpoint::from_shared(url.to_owned())?
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(30))
            .connect_lazy();
        Ok(Self {
            channel,
            operator: Arc::new(operator),
            whoami: Arc::default(),
        })
    }

    /// `call` with `request` as the operator: with the current token, and
    /// if the game service refuses it (UNAUTHENTICATED: no instance has
    /// started with a new token yet), once more with the previous one.
    async fn as_operator<M, T, F, Fut>(&self, request: M, call: F) -> Result<T, Status>
    where
        M: Clone,
        F: Fn(tonic::Request<M>) -> Fut,
        Fut: Future<Output = Result<T, Status>>,
    {
        let answer = call(authed(request.clone(), self.operator.current().expose())?).await;
        match (answer, self.operator.previous()) {
            (Err(refused), Some(previous)) if refused.code() == Code::Unauthenticated => {
                call(authed(request, previous.expose())?).await
            }
            (answer, _) => answer,
        }
    }

    /// The account `token` belongs to; the game service's error (e.g.
    /// UNAUTHENTICATED) if none.
    #[tracing::instrument(skip_all)]
    pub async fn whoami(&self, token: &str) -> Result<WhoAmIResponse, Status> {
        let key: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        if let Some((answer, at)) = self.cache().get(&key)
            && at.elapsed() < WHOAMI_TTL
        {
            return Ok(answer.clone());
        }
        let answer = AccountServiceClient::new(self.channel.clone())
            .who_am_i(authed(WhoAmIRequest {}, token)?)
            .await?
            .into_inner();
        let mut cache = self.cache();
        if cache.len() >= WHOAMI_SWEEP_AT {
            cache.retain(|_, (_, at)| at.elapsed() < WHOAMI_TTL);
        }
        cache.insert(key, (answer.clone(), Instant::now()));
        Ok(answer)
    }

    /// The caller whose bearer token `metadata` carries; UNAUTHENTICATED
    /// (with the game service's reason) if none.
    pub async fn identify(&self, metadata: &MetadataMap) -> Result<Caller, ApiError> {
        let token = bearer_token(metadata)?;
        let WhoAmIResponse {
            account_id,
            name,
            kind,
            scopes,
            owner_account_id,
            ..
        } = self.whoami(token).await.map_err(|s| auth_error(&s))?;
        let account_id: i64 = account_id
            .parse()
            .map_err(|_| ApiError::unauthenticated("unknown account"))?;
        Ok(Caller {
            account_id,
            owner: owner_account_id.parse().unwrap_or(account_id),
            name,
            kind: AccountKind::try_from(kind).unwrap_or(AccountKind::Unspecified),
            scopes,
        })
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, HashMap<[u8; 32], (WhoAmIResponse, Instant)>> {
        self.whoami.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The house bots, oldest first: the bot accounts the operator marked
    /// as the service's own (SetHouseBot). Any other bot account belongs
    /// to someone else and is never seated without its own ticket.
    #[tracing::instrument(skip_all)]
    pub async fn bots(&self) -> Result<Vec<HouseBot>, Status> {
        let request = ListAccountsRequest {
            kind: AccountKind::Bot.into(),
            limit: MAX_BOTS,
            house_bots_only: true,
        };
        let listed = self
            .as_operator(request, |r| {
                let mut client = AccountServiceClient::new(self.channel.clone());
                async move { client.list_accounts(r).await }
            })
            .await?
            .into_inner();
        Ok(listed
            .accounts
            .iter()
            .filter_map(|a| {
                let account_id = a.account_id.parse().ok()?;
                let owner = a.owner_account_id.parse().unwrap_or(account_id);
                Some(HouseBot { account_id, owner })
            })
            .collect())
    }

    /// Whether the game service has an account `id` (asked as the
    /// operator).
    #[tracing::instrument(skip(self))]
    pub async fn account_exists(&self, id: i64) -> Result<bool, Status> {
        let request = GetAccountRequest {
            account_id: id.to_string(),
        };
        let answer = self
            .as_operator(request, |r| {
                let mut client = AdminServiceClient::new(self.channel.clone());
                async move { client.get_account(r).await }
            })
            .await;
        match answer {
            Ok(_) => Ok(true),
            Err(status) if status.code() == Code::NotFound => Ok(false),
            Err(status) => Err(status),
        }
    }

    /// Conservative ratings of `accounts` under `rules`, in order. Any
    /// failure (the rating service may not be deployed yet) gives every
    /// account the starting conservative rating, 0, with a warning: a
    /// missing rating never stops matching.
    #[tracing::instrument(skip_all, fields(accounts = accounts.len()))]
    pub async fn ratings(&self, accounts: &[i64], rules: &Rules) -> Vec<f64> {
        let request = GetRatingsRequest {
            account_ids: accounts.iter().map(ToString::to_string).collect(),
            rules: Some(rules.clone()),
        };
        let reply = self
            .as_operator(request, |r| {
                let mut client = RatingServiceClient::new(self.channel.clone());
                async move { client.get_ratings(r).await }
            })
            .await;
        let by_account: HashMap<String, f64> = match reply {
            Ok(reply) => reply
                .into_inner()
                .ratings
                .into_iter()
                .map(|r| (r.account_id, r.conservative))
                .collect(),
            Err(status) => {
                tracing::warn!(code = ?status.code(), message = status.message(), "no ratings; using the starting rating");
                HashMap::new()
            }
        };
        accounts
            .iter()
            .map(|a| by_account.get(&a.to_string()).copied().unwrap_or(0.0))
            .collect()
    }

    /// `account`'s conservative rating under `rules` and its rated games
    /// there, or the game service's error.
    #[tracing::instrument(skip(self, rules))]
    pub async fn rating_record(&self, account: i64, rules: &Rules) -> Result<(f64, u32), Status> {
        let request = GetRatingsRequest {
            account_ids: vec![account.to_string()],
            rules: Some(rules.clone()),
        };
        let reply = self
            .as_operator(request, |r| {
                let mut client = RatingServiceClient::new(self.channel.clone());
                async move { client.get_ratings(r).await }
            })
            .await?
            .into_inner();
        Ok(reply
            .ratings
            .first()
            .map_or((0.0, 0), |r| (r.conservative, r.games)))
    }

    /// `account`'s recent peak conservative rating under `rules`: the
    /// highest of its current one and those after its last `games` rated
    /// games, so a player who just lost a few games cannot slip under a
    /// rating limit. `current` if the history cannot be read.
    #[tracing::instrument(skip(self, rules))]
    pub async fn recent_peak(&self, account: i64, rules: &Rules, current: f64, games: u32) -> f64 {
        let request = GetRatingHistoryRequest {
            account_id: Some(account.to_string()),
            rules: Some(rules.clone()),
            limit: games,
        };
        let reply = self
            .as_operator(request, |r| {
                let mut client = RatingServiceClient::new(self.channel.clone());
                async move { client.get_rating_history(r).await }
            })
            .await;
        match reply {
            Ok(history) => history
                .into_inner()
                .changes
                .iter()
                .filter_map(|c| c.after.as_ref().map(|r| r.conservative))
                .fold(current, f64::max),
            Err(status) => {
                tracing::warn!(code = ?status.code(), message = status.message(), "no rating history; judging on the current rating");
                current
            }
        }
    }

    /// Creates the game as the operator; `request_id` makes a repeat return
    /// the first game. Returns the game id.
    #[tracing::instrument(skip_all, fields(request_id = %request.request_id))]
    pub async fn create_game(&self, request: CreateGameRequest) -> Result<String, Status> {
        let created = self
            .as_operator(request, |r| {
                let mut client = GameServiceClient::new(self.channel.clone());
                async move { client.create_game(r).await }
            })
            .await?
            .into_inner();
        Ok(created.game_id)
    }

    /// A game's spectator view, as the operator: its state and, once it is
    /// over, its result.
    #[tracing::instrument(skip(self))]
    pub async fn spectate(&self, game_id: &str) -> Result<View, Status> {
        let request = GetViewRequest {
            game_id: game_id.to_owned(),
            spectator: true,
            ..Default::default()
        };
        let view = self
            .as_operator(request, |r| {
                let mut client = GameServiceClient::new(self.channel.clone());
                async move { client.get_view(r).await }
            })
            .await?
            .into_inner();
        Ok(view)
    }
}

/// The game service's answer to WhoAmI, as the caller should see it.
pub fn auth_error(status: &Status) -> ApiError {
    match status.code() {
        Code::Unauthenticated | Code::PermissionDenied => {
            // Why the token is refused, where a client can act on it.
            let reason = match status.get_details_error_info().map(|info| info.reason) {
                Some(r) if r == "token_expired" => "token_expired",
                Some(r) if r == "token_revoked" => "token_revoked",
                Some(r) if r == "account_disabled" => "account_disabled",
                _ => "unauthenticated",
            };
            ApiError::new(ErrorCode::Unauthenticated, reason, status.message())
        }
        Code::Unavailable | Code::DeadlineExceeded | Code::Cancelled => {
            ApiError::unavailable("the game service is unavailable", GAME_RETRY_DELAY)
        }
        _ => ApiError::internal("whoami failed", status),
    }
}

/// How long to wait before seating again a table the game service refused
/// because an owner's bots played their day's games against bots
/// (`bot_games_exceeded`, docs/limits.md); `None` for any other answer.
/// At least a second, whatever the hint says.
pub fn bot_games_wait(status: &Status) -> Option<Duration> {
    let info = status.get_details_error_info()?;
    if status.code() != Code::ResourceExhausted || info.reason != "bot_games_exceeded" {
        return None;
    }
    let hinted = status
        .get_details_retry_info()
        .and_then(|r| r.retry_delay)
        .or_else(|| {
            let ms = info.metadata.get("retry_after_ms")?.parse().ok()?;
            Some(Duration::from_millis(ms))
        })
        .unwrap_or(Duration::from_secs(60));
    Some(hinted.max(Duration::from_secs(1)))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use skit_api::ApiError;
    use tonic::Status;

    use super::bot_games_wait;

    #[test]
    fn a_bot_games_refusal_says_how_long_to_wait_and_nothing_else_does() {
        let capped = Status::from(ApiError::bot_games_exceeded(
            "7",
            2,
            Duration::from_secs(90),
        ));
        assert_eq!(bot_games_wait(&capped), Some(Duration::from_secs(90)));
        let soon = Status::from(ApiError::bot_games_exceeded(
            "7",
            2,
            Duration::from_millis(5),
        ));
        assert_eq!(bot_games_wait(&soon), Some(Duration::from_secs(1)));
        let quota = Status::from(ApiError::quota_exceeded("open_games", 20, "full"));
        assert_eq!(bot_games_wait(&quota), None);
        assert_eq!(bot_games_wait(&Status::internal("boom")), None);
    }
}
