//! The game service, reached only through its public gRPC API with bearer
//! tokens: who a caller is (WhoAmI with their token, cached briefly), the
//! house bots and ratings (as the operator), and creating games.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use skit_api::{Secret, authed};
use skit_proto::v1::account_service_client::AccountServiceClient;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::rating_service_client::RatingServiceClient;
use skit_proto::v1::{
    AccountKind, CreateGameRequest, GetRatingsRequest, ListAccountsRequest, Rules, WhoAmIRequest,
    WhoAmIResponse,
};
use tonic::Status;
use tonic::transport::{Channel, Endpoint};

/// How long a token's WhoAmI answer is trusted: short, so that with the
/// game service's own bound (its cache follows the revocation feed) a
/// revoked token is refused here within a second too.
const WHOAMI_TTL: Duration = Duration::from_millis(200);
/// Entries kept before the cache is swept of expired ones.
const WHOAMI_SWEEP_AT: usize = 10_000;
/// The most house bots asked for.
const MAX_BOTS: u32 = 1000;

/// Callers' WhoAmI answers by token hash, with when they were asked.
type WhoAmICache = HashMap<[u8; 32], (WhoAmIResponse, Instant)>;

/// A client of the game service. Cheap to clone.
#[derive(Debug, Clone)]
pub struct GameClient {
    channel: Channel,
    operator: Secret,
    /// sha256 of a token → the answer and when it was fetched.
    whoami: Arc<Mutex<WhoAmICache>>,
}

impl GameClient {
    /// Connects lazily: the game service may start after the matchmaker.
    pub fn new(url: &str, operator: Secret) -> anyhow::Result<Self> {
        let channel = Endpoint::from_shared(url.to_owned())?
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(30))
            .connect_lazy();
        Ok(Self {
            channel,
            operator,
            whoami: Arc::default(),
        })
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

    fn cache(&self) -> std::sync::MutexGuard<'_, HashMap<[u8; 32], (WhoAmIResponse, Instant)>> {
        self.whoami.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The house bots, oldest first: the bot accounts the operator marked
    /// as the service's own (SetHouseBot). Any other bot account belongs
    /// to someone else and is never seated without its own ticket.
    #[tracing::instrument(skip_all)]
    pub async fn bots(&self) -> Result<Vec<i64>, Status> {
        let request = ListAccountsRequest {
            kind: AccountKind::Bot.into(),
            limit: MAX_BOTS,
            house_bots_only: true,
        };
        let listed = AccountServiceClient::new(self.channel.clone())
            .list_accounts(authed(request, self.operator.expose())?)
            .await?
            .into_inner();
        Ok(listed
            .accounts
            .iter()
            .filter_map(|a| a.account_id.parse().ok())
            .collect())
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
        let reply = match authed(request, self.operator.expose()) {
            Ok(request) => {
                RatingServiceClient::new(self.channel.clone())
                    .get_ratings(request)
                    .await
            }
            Err(refused) => Err(Status::from(refused)),
        };
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

    /// Creates the game as the operator; `request_id` makes a repeat return
    /// the first game. Returns the game id.
    #[tracing::instrument(skip_all, fields(request_id = %request.request_id))]
    pub async fn create_game(&self, request: CreateGameRequest) -> Result<String, Status> {
        let created = GameServiceClient::new(self.channel.clone())
            .create_game(authed(request, self.operator.expose())?)
            .await?
            .into_inner();
        Ok(created.game_id)
    }
}
