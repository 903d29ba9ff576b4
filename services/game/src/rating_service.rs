//! RatingService: ratings, rating history and leaderboards, read from the
//! store. Any signed-in account may read anyone's ratings.

use skit_api::{ApiError, timestamp};
use skit_proto::v1::rating_service_server::RatingService;
use skit_proto::v1::{
    CreateSeasonRequest, Division, GetDivisionRequest, GetLeaderboardRequest,
    GetLeaderboardResponse, GetRatingHistoryRequest, GetRatingHistoryResponse, GetRatingsRequest,
    GetRatingsResponse, GetSeasonStandingsRequest, LeaderboardEntry, ListSeasonsRequest,
    ListSeasonsResponse, Rules, Season, SeasonStandings, StepDownRequest,
};
use skit_store::{AccountId, AccountKind, Rating, Scope};
use tonic::{Request, Response, Status};

use crate::auth::Caller;
use crate::convert::rating_message;
use crate::error::store_error;
use crate::rated::starting;
use crate::state::AppState;

/// Entries answered when a request sets no limit.
const DEFAULT_LIMIT: u32 = 50;
/// The most entries one answer holds.
const MAX_LIMIT: u32 = 500;
/// The most accounts one GetRatings names.
const MAX_ACCOUNTS: usize = 100;

#[derive(Debug, Clone)]
pub struct RatingApi {
    pub(crate) state: AppState,
}

/// The rating key of a requested ruleset, computed as CreateGame does.
pub(crate) fn ruleset_key(rules: Option<&Rules>) -> Result<String, ApiError> {
    Ok(skit_api::rules(rules)?.key())
}

pub(crate) fn limit(requested: u32) -> u32 {
    match requested {
        0 => DEFAULT_LIMIT,
        n => n.min(MAX_LIMIT),
    }
}

impl RatingApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }

    /// An existing account by its id text; `field` names it in errors.
    pub(crate) async fn account(&self, text: &str, field: &str) -> Result<AccountId, ApiError> {
        let id = text
            .parse::<i64>()
            .map_err(|_| ApiError::invalid(field, "not an account id"))?;
        match self
            .state
            .store
            .account(AccountId(id))
            .await
            .map_err(store_error)?
        {
            Some(account) => Ok(account.id),
            None => Err(ApiError::not_found(format!("no account {id}"))),
        }
    }

    #[tracing::instrument(skip_all, fields(account = %caller.account.id))]
    async fn ratings(
        &self,
        caller: Caller,
        req: GetRatingsRequest,
    ) -> Result<GetRatingsResponse, ApiError> {
        if req.account_ids.len() > MAX_ACCOUNTS {
            return Err(ApiError::invalid(
                "account_ids",
                format!("at most {MAX_ACCOUNTS} accounts"),
            ));
        }
        let key = req
            .rules
            .as_ref()
            .map(|r| ruleset_key(Some(r)))
            .transpose()?;
        let mut accounts = Vec::with_capacity(req.account_ids.len().max(1));
        for (i, text) in req.account_ids.iter().enumerate() {
            accounts.push(self.account(text, &format!("account_ids[{i}]")).await?);
        }
        if accounts.is_empty() {
            accounts.push(caller.account.id);
        }
        let mut ratings: Vec<Rating> = Vec::new();
        for id in accounts {
            match &key {
                Some(key) => ratings.push(
                    self.state
                        .store
                        .rating(id, key)
                        .await
                        .map_err(store_error)?
                        .unwrap_or_else(|| starting(id, key)),
                ),
                None => ratings.extend(self.state.store.ratings_of(id).await.map_err(store_error)?),
            }
        }
        Ok(GetRatingsResponse {
            ratings: ratings.iter().map(rating_message).collect(),
        })
    }

    #[tracing::instrument(skip_all, fields(account = %caller.account.id))]
    async fn history(
        &self,
        caller: Caller,
        req: GetRatingHistoryRequest,
    ) -> Result<GetRatingHistoryResponse, ApiError> {
        let key = req
            .rules
            .as_ref()
            .map(|r| ruleset_key(Some(r)))
            .transpose()?;
        let account = match &req.account_id {
            Some(text) => self.account(text, "account_id").await?,
            None => caller.account.id,
        };
        let changes = self
            .state
            .store
            .rating_history(account, key.as_deref(), limit(req.limit))
            .await
            .map_err(store_error)?;
        let rating = |skill, games, key: &str| {
            Some(rating_message(&Rating {
                skill,
                games,
                ..starting(account, key)
            }))
        };
        Ok(GetRatingHistoryResponse {
            changes: changes
                .iter()
                .map(|c| skit_proto::v1::RatingChange {
                    game_id: c.game_id.to_string(),
                    ruleset_key: c.ruleset_key.clone(),
                    place: c.place,
                    before: rating(c.before, c.games_after.saturating_sub(1), &c.ruleset_key),
                    after: rating(c.after, c.games_after, &c.ruleset_key),
                    time: Some(timestamp(c.created_at)),
                })
                .collect(),
        })
    }

    #[tracing::instrument(skip_all)]
    async fn leaderboard(
        &self,
        req: GetLeaderboardRequest,
    ) -> Result<GetLeaderboardResponse, ApiError> {
        let key = ruleset_key(req.rules.as_ref())?;
        let standings = self
            .state
            .store
            .leaderboard(&key, req.min_games, limit(req.limit))
            .await
            .map_err(store_error)?;
        Ok(GetLeaderboardResponse {
            entries: standings
                .iter()
                .enumerate()
                .map(|(i, s)| LeaderboardEntry {
                    rank: i as u32 + 1,
                    name: s.name.clone(),
                    is_bot: s.kind == AccountKind::Bot,
                    rating: Some(rating_message(&s.rating)),
                })
                .collect(),
        })
    }
}

#[tonic::async_trait]
impl RatingService for RatingApi {
    async fn get_ratings(
        &self,
        request: Request<GetRatingsRequest>,
    ) -> Result<Response<GetRatingsResponse>, Status> {
        let caller = self
            .state
            .auth
            .authorize(request.metadata(), Scope::Read)
            .await?;
        Ok(Response::new(
            self.ratings(caller, request.into_inner()).await?,
        ))
    }

    async fn get_rating_history(
        &self,
        request: Request<GetRatingHistoryRequest>,
    ) -> Result<Response<GetRatingHistoryResponse>, Status> {
        let caller = self
            .state
            .auth
            .authorize(request.metadata(), Scope::Read)
            .await?;
        Ok(Response::new(
            self.history(caller, request.into_inner()).await?,
        ))
    }

    async fn get_leaderboard(
        &self,
        request: Request<GetLeaderboardRequest>,
    ) -> Result<Response<GetLeaderboardResponse>, Status> {
        self.state
            .auth
            .authorize(request.metadata(), Scope::Read)
            .await?;
        Ok(Response::new(self.leaderboard(request.into_inner()).await?))
    }

    async fn create_season(
        &self,
        request: Request<CreateSeasonRequest>,
    ) -> Result<Response<Season>, Status> {
        let caller = self
            .state
            .auth
            .authorize(request.metadata(), Scope::Read)
            .await?;
        Ok(Response::new(
            self.create_season(caller, request.into_inner()).await?,
        ))
    }

    async fn list_seasons(
        &self,
        request: Request<ListSeasonsRequest>,
    ) -> Result<Response<ListSeasonsResponse>, Status> {
        self.state
            .auth
            .authorize(request.metadata(), Scope::Read)
            .await?;
        Ok(Response::new(self.seasons(request.into_inner()).await?))
    }

    async fn get_season_standings(
        &self,
        request: Request<GetSeasonStandingsRequest>,
    ) -> Result<Response<SeasonStandings>, Status> {
        self.state
            .auth
            .authorize(request.metadata(), Scope::Read)
            .await?;
        Ok(Response::new(
            self.season_standings(request.into_inner()).await?,
        ))
    }

    async fn get_division(
        &self,
        request: Request<GetDivisionRequest>,
    ) -> Result<Response<Division>, Status> {
        let caller = self
            .state
            .auth
            .authorize(request.metadata(), Scope::Read)
            .await?;
        Ok(Response::new(
            self.division(caller, request.into_inner()).await?,
        ))
    }

    async fn step_down(
        &self,
        request: Request<StepDownRequest>,
    ) -> Result<Response<Division>, Status> {
        let caller = self
            .state
            .auth
            .authorize(request.metadata(), Scope::Play)
            .await?;
        Ok(Response::new(
            self.step_down(caller, request.into_inner()).await?,
        ))
    }
}
