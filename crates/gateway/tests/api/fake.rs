//! A fake GameService, AccountService and RatingService (and AdminService,
//! `fake_admin.rs`): canned answers, a bearer check,
//! every request recorded as protobuf JSON, and chosen failures: a game id
//! `err-<code>` fails with that gRPC code, `err-details` with BadRequest
//! details, `err-stale` and `err-outage` with the shared error core's
//! stale-version and unavailable errors; the view of `slow` takes seconds;
//! a long poll for the caller's turns (`myTurnOnly` with `waitMs` of a
//! second or more) finds none.

use std::{pin::Pin, sync::Mutex};

use serde::Serialize;
use serde_json::{Value, json};
use skit_api::ApiError;
use skit_proto::v1::{
    AccountKind, AccountSummary, CreateAccountRequest, CreateAccountResponse, CreateGameRequest,
    CreateGameResponse, CreateGuestRequest, CreateGuestResponse, GameSummary, GetHistoryRequest,
    GetHistoryResponse, GetViewRequest, JoinGameRequest, JoinGameResponse, ListAccountsRequest,
    ListAccountsResponse, ListGamesRequest, ListGamesResponse, Phase, ResignRequest,
    ResignResponse, Rules, SampleWorldsRequest, SampleWorldsResponse, SetHouseBotRequest,
    SetLanguageRequest, SubmitMoveRequest, SubmitMoveResponse, View, WatchGameRequest,
    WhoAmIRequest, WhoAmIResponse, account_service_server::AccountService,
    game_service_server::GameService,
};
use skit_proto::v1::{
    AuthenticateDeviceRequest, LinkDeviceRequest, LinkDeviceResponse, LoginRequest,
    RegisterRequest, SignInResponse, UpgradeGuestRequest,
};
use skit_proto::v1::{
    CreateApiKeyRequest, CreateApiKeyResponse, ListApiKeysRequest, ListApiKeysResponse,
    ListSessionsRequest, ListSessionsResponse, LogoutRequest, LogoutResponse, RefreshRequest,
    RevokeApiKeyRequest, RevokeApiKeyResponse, RevokeSessionRequest, RevokeSessionResponse,
    RotateApiKeyRequest, Session,
};
use skit_proto::v1::{
    CreateSeasonRequest, Division, DivisionArrival, DivisionStanding, DivisionZone,
    GetDivisionRequest, GetSeasonStandingsRequest, ListSeasonsRequest, ListSeasonsResponse, Season,
    SeasonStanding, SeasonStandings, StepDownRequest,
};
use skit_proto::v1::{ExportGamesRequest, ExportPage, ExportRecord, ExportedGame, export_record};
use skit_proto::v1::{
    GetLeaderboardRequest, GetLeaderboardResponse, GetRatingHistoryRequest,
    GetRatingHistoryResponse, GetRatingsRequest, GetRatingsResponse, LeaderboardEntry, Rating,
    RatingChange, rating_service_server::RatingService,
};
use tokio_stream::Stream;
use tonic::{Code, Request, Response, Status};
use tonic_types::{ErrorDetails, StatusExt};

pub const TOKEN: &str = "good-token";

#[derive(Debug, Default)]
pub struct Fake {
    calls: Mutex<Vec<(&'static str, Value)>>,
    /// The caller's language (SetLanguage), as WhoAmI answers it.
    language: Mutex<String>,
}

impl Fake {
    /// The last request `rpc` received, as protobuf JSON.
    /// How many calls of `rpc` reached the service.
    pub fn calls(&self, rpc: &str) -> usize {
        let calls = self.calls.lock().unwrap();
        calls.iter().filter(|(name, _)| *name == rpc).count()
    }

    pub fn last(&self, rpc: &str) -> Option<Value> {
        let calls = self.calls.lock().unwrap();
        calls
            .iter()
            .rev()
            .find(|(name, _)| *name == rpc)
            .map(|(_, v)| v.clone())
    }

    pub fn accept<T: Serialize>(
        &self,
        rpc: &'static str,
        request: &Request<T>,
    ) -> Result<(), Status> {
        if skit_api::bearer_token(request.metadata()) != Ok(TOKEN) {
            return Err(Status::unauthenticated("missing or unknown bearer token"));
        }
        self.record(rpc, request.get_ref());
        Ok(())
    }

    fn record<T: Serialize>(&self, rpc: &'static str, message: &T) {
        let json = serde_json::to_value(message).unwrap();
        self.calls.lock().unwrap().push((rpc, json));
    }
}

/// The failure a game id asks for, if any.
fn failure(game_id: &str) -> Result<(), Status> {
    let Some(code) = game_id.strip_prefix("err-") else {
        return Ok(());
    };
    if code == "details" {
        let mut details = ErrorDetails::new();
        details.add_bad_request_violation("action.play.cards", "7C is not in your hand");
        return Err(Status::with_error_details(
            Code::InvalidArgument,
            "illegal action",
            details,
        ));
    }
    if code == "stale" {
        return Err(ApiError::stale(3, 5).into());
    }
    if code == "outage" {
        let delay = std::time::Duration::from_millis(1500);
        return Err(ApiError::unavailable("the database is away", delay).into());
    }
    let code: i32 = code.parse().unwrap();
    Err(Status::new(Code::from(code), format!("failure {code}")))
}

pub fn view(game_id: &str, version: u64) -> View {
    View {
        game_id: game_id.to_owned(),
        version,
        phase: Phase::One.into(),
        awaits_shuffle: false,
        // Struct numbers are doubles, as a service's resolved options are.
        rules: Some(Rules {
            preset: "mattis".into(),
            options: Some(serde_json::from_value(json!({"phase2.min": 2.0})).unwrap()),
        }),
        players: 3,
        hand: vec!["7C".into(), "TS".into()],
        ..Default::default()
    }
}

type ViewStream = Pin<Box<dyn Stream<Item = Result<View, Status>> + Send>>;
type ExportStream = Pin<Box<dyn Stream<Item = Result<ExportRecord, Status>> + Send>>;

#[tonic::async_trait]
impl GameService for Fake {
    async fn create_game(
        &self,
        request: Request<CreateGameRequest>,
    ) -> Result<Response<CreateGameResponse>, Status> {
        self.accept("CreateGame", &request)?;
        Ok(Response::new(CreateGameResponse {
            game_id: "g1".into(),
            dealer: request.get_ref().dealer.unwrap_or(0),
            shuffle_commitment: "ab".repeat(32),
            version: 1 << 40,
            ..Default::default()
        }))
    }

    async fn join_game(
        &self,
        request: Request<JoinGameRequest>,
    ) -> Result<Response<JoinGameResponse>, Status> {
        self.accept("JoinGame", &request)?;
        failure(&request.get_ref().game_id)?;
        let game_id = request.get_ref().game_id.clone();
        Ok(Response::new(JoinGameResponse {
            seat: request.get_ref().seat.unwrap_or(1),
            view: Some(view(&game_id, 2)),
        }))
    }

    async fn submit_move(
        &self,
        request: Request<SubmitMoveRequest>,
    ) -> Result<Response<SubmitMoveResponse>, Status> {
        self.accept("SubmitMove", &request)?;
        failure(&request.get_ref().game_id)?;
        let next = request.get_ref().expected_version + 1;
        Ok(Response::new(SubmitMoveResponse {
            version: next,
            view: Some(view(&request.get_ref().game_id, next)),
        }))
    }

    async fn resign(
        &self,
        request: Request<ResignRequest>,
    ) -> Result<Response<ResignResponse>, Status> {
        self.accept("Resign", &request)?;
        failure(&request.get_ref().game_id)?;
        Ok(Response::new(ResignResponse {
            version: 1,
            view: Some(view(&request.get_ref().game_id, 1)),
        }))
    }

    async fn get_view(&self, request: Request<GetViewRequest>) -> Result<Response<View>, Status> {
        self.accept("GetView", &request)?;
        if request.get_ref().game_id == "slow" {
            tokio::time::sleep(std::time::Duration::from_secs(5)).await;
        }
        failure(&request.get_ref().game_id)?;
        let version = request.get_ref().wait_for_version_after.unwrap_or(0) + 1;
        Ok(Response::new(view(&request.get_ref().game_id, version)))
    }

    type WatchGameStream = ViewStream;

    async fn watch_game(
        &self,
        request: Request<WatchGameRequest>,
    ) -> Result<Response<Self::WatchGameStream>, Status> {
        self.accept("WatchGame", &request)?;
        let game_id = request.get_ref().game_id.clone();
        let from = request.get_ref().from_version.unwrap_or(0);
        let mut items: Vec<Result<View, Status>> =
            (1..=3).map(|i| Ok(view(&game_id, from + i))).collect();
        if game_id == "err-stream" {
            items.truncate(1);
            items.push(Err(Status::not_found("game vanished")));
            items.push(Ok(view(&game_id, 99)));
        } else if game_id == "endless" {
            // One view, then open until the client goes.
            items.truncate(1);
            let open =
                tokio_stream::StreamExt::chain(tokio_stream::iter(items), tokio_stream::pending());
            return Ok(Response::new(Box::pin(open)));
        } else {
            failure(&game_id)?;
        }
        Ok(Response::new(Box::pin(tokio_stream::iter(items))))
    }

    type ExportGamesStream = ExportStream;

    /// Two games and the page's end; `tournamentId` `err-<code>` fails at
    /// once, and `err-stream` after the first game.
    async fn export_games(
        &self,
        request: Request<ExportGamesRequest>,
    ) -> Result<Response<Self::ExportGamesStream>, Status> {
        self.accept("ExportGames", &request)?;
        let tournament = request.get_ref().tournament_id.clone();
        let game = |id: &str| ExportRecord {
            record: Some(export_record::Record::Game(ExportedGame {
                game_id: id.into(),
                players: 3,
                actions: vec![r#"{"seat":0,"play":["7C"]}"#.into()],
                ..Default::default()
            })),
        };
        let page = ExportRecord {
            record: Some(export_record::Record::Page(ExportPage {
                games: 2,
                next_page_token: "after-g2".into(),
            })),
        };
        let mut items = vec![Ok(game("g1")), Ok(game("g2")), Ok(page)];
        if tournament == "err-stream" {
            items.truncate(1);
            items.push(Err(Status::not_found("game vanished")));
            items.push(Ok(game("g3")));
        } else {
            failure(&tournament)?;
        }
        Ok(Response::new(Box::pin(tokio_stream::iter(items))))
    }

    async fn list_games(
        &self,
        request: Request<ListGamesRequest>,
    ) -> Result<Response<ListGamesResponse>, Status> {
        self.accept("ListGames", &request)?;
        if request.get_ref().my_turn_only && request.get_ref().wait_ms >= 1000 {
            return Ok(Response::new(ListGamesResponse::default()));
        }
        let summary = GameSummary {
            game_id: "g1".into(),
            preset: "skitgubbe".into(),
            my_turn: true,
            my_seats_to_act: vec![0],
            ..Default::default()
        };
        Ok(Response::new(ListGamesResponse {
            games: vec![summary],
            next_page_token: String::new(),
        }))
    }

    async fn get_history(
        &self,
        request: Request<GetHistoryRequest>,
    ) -> Result<Response<GetHistoryResponse>, Status> {
        self.accept("GetHistory", &request)?;
        failure(&request.get_ref().game_id)?;
        Ok(Response::new(GetHistoryResponse {
            game_id: request.get_ref().game_id.clone(),
            players: 3,
            complete: false,
            ..Default::default()
        }))
    }

    async fn sample_worlds(
        &self,
        request: Request<SampleWorldsRequest>,
    ) -> Result<Response<SampleWorldsResponse>, Status> {
        self.accept("SampleWorlds", &request)?;
        failure(&request.get_ref().game_id)?;
        Ok(Response::new(SampleWorldsResponse {
            game_id: request.get_ref().game_id.clone(),
            seat: request.get_ref().seat,
            ..Default::default()
        }))
    }
}

#[tonic::async_trait]
impl AccountService for Fake {
    async fn create_guest(
        &self,
        request: Request<CreateGuestRequest>,
    ) -> Result<Response<CreateGuestResponse>, Status> {
        // No token needed here.
        self.record("CreateGuest", request.get_ref());
        Ok(Response::new(CreateGuestResponse {
            account_id: "acc-1".into(),
            name: request
                .into_inner()
                .name
                .unwrap_or_else(|| "Guest 1".into()),
            token: TOKEN.into(),
            session: None,
        }))
    }

    async fn create_account(
        &self,
        request: Request<CreateAccountRequest>,
    ) -> Result<Response<CreateAccountResponse>, Status> {
        self.accept("CreateAccount", &request)?;
        if request.get_ref().kind() == AccountKind::Operator {
            return Err(Status::permission_denied("operators are not created here"));
        }
        Ok(Response::new(CreateAccountResponse {
            account_id: "acc-2".into(),
            token: "t2".into(),
            session: None,
            api_key: None,
        }))
    }

    async fn who_am_i(
        &self,
        request: Request<WhoAmIRequest>,
    ) -> Result<Response<WhoAmIResponse>, Status> {
        self.accept("WhoAmI", &request)?;
        Ok(Response::new(WhoAmIResponse {
            account_id: "acc-1".into(),
            name: "Ada".into(),
            kind: AccountKind::Player.into(),
            scopes: vec!["play".into(), "read".into()],
            owner_account_id: String::new(),
            language: self.language.lock().unwrap().clone(),
        }))
    }

    async fn set_language(
        &self,
        request: Request<SetLanguageRequest>,
    ) -> Result<Response<WhoAmIResponse>, Status> {
        self.accept("SetLanguage", &request)?;
        request
            .get_ref()
            .language
            .clone_into(&mut self.language.lock().unwrap());
        let metadata = request.metadata().clone();
        self.who_am_i(Request::from_parts(
            metadata,
            Default::default(),
            WhoAmIRequest {},
        ))
        .await
    }

    async fn list_accounts(
        &self,
        request: Request<ListAccountsRequest>,
    ) -> Result<Response<ListAccountsResponse>, Status> {
        self.accept("ListAccounts", &request)?;
        let kind = request.get_ref().kind();
        Ok(Response::new(ListAccountsResponse {
            accounts: vec![AccountSummary {
                account_id: "acc-3".into(),
                name: "Robot".into(),
                kind: kind.into(),
                house_bot: request.get_ref().house_bots_only,
                owner_account_id: String::new(),
            }],
        }))
    }

    async fn set_house_bot(
        &self,
        request: Request<SetHouseBotRequest>,
    ) -> Result<Response<AccountSummary>, Status> {
        self.accept("SetHouseBot", &request)?;
        let request = request.into_inner();
        Ok(Response::new(AccountSummary {
            account_id: request.account_id,
            name: "Robot".into(),
            kind: AccountKind::Bot.into(),
            house_bot: request.house_bot,
            owner_account_id: String::new(),
        }))
    }

    async fn refresh(&self, request: Request<RefreshRequest>) -> Result<Response<Session>, Status> {
        // No bearer token: the refresh token is the credential.
        self.record("Refresh", request.get_ref());
        Ok(Response::new(Session {
            account_id: "acc-1".into(),
            access_token: TOKEN.into(),
            ..Default::default()
        }))
    }

    async fn logout(
        &self,
        request: Request<LogoutRequest>,
    ) -> Result<Response<LogoutResponse>, Status> {
        self.accept("Logout", &request)?;
        Ok(Response::new(LogoutResponse {}))
    }

    async fn list_sessions(
        &self,
        request: Request<ListSessionsRequest>,
    ) -> Result<Response<ListSessionsResponse>, Status> {
        self.accept("ListSessions", &request)?;
        Ok(Response::new(ListSessionsResponse::default()))
    }

    async fn revoke_session(
        &self,
        request: Request<RevokeSessionRequest>,
    ) -> Result<Response<RevokeSessionResponse>, Status> {
        self.accept("RevokeSession", &request)?;
        Ok(Response::new(RevokeSessionResponse {}))
    }

    async fn create_api_key(
        &self,
        request: Request<CreateApiKeyRequest>,
    ) -> Result<Response<CreateApiKeyResponse>, Status> {
        self.accept("CreateApiKey", &request)?;
        Ok(Response::new(CreateApiKeyResponse::default()))
    }

    async fn list_api_keys(
        &self,
        request: Request<ListApiKeysRequest>,
    ) -> Result<Response<ListApiKeysResponse>, Status> {
        self.accept("ListApiKeys", &request)?;
        Ok(Response::new(ListApiKeysResponse::default()))
    }

    async fn rotate_api_key(
        &self,
        request: Request<RotateApiKeyRequest>,
    ) -> Result<Response<CreateApiKeyResponse>, Status> {
        self.accept("RotateApiKey", &request)?;
        Ok(Response::new(CreateApiKeyResponse::default()))
    }

    async fn revoke_api_key(
        &self,
        request: Request<RevokeApiKeyRequest>,
    ) -> Result<Response<RevokeApiKeyResponse>, Status> {
        self.accept("RevokeApiKey", &request)?;
        Ok(Response::new(RevokeApiKeyResponse {}))
    }

    async fn register(
        &self,
        request: Request<RegisterRequest>,
    ) -> Result<Response<SignInResponse>, Status> {
        // No bearer token: the name and password are the credential.
        self.record("Register", request.get_ref());
        Ok(Response::new(SignInResponse::default()))
    }

    async fn login(
        &self,
        request: Request<LoginRequest>,
    ) -> Result<Response<SignInResponse>, Status> {
        self.record("Login", request.get_ref());
        Ok(Response::new(SignInResponse::default()))
    }

    async fn upgrade_guest(
        &self,
        request: Request<UpgradeGuestRequest>,
    ) -> Result<Response<AccountSummary>, Status> {
        self.accept("UpgradeGuest", &request)?;
        Ok(Response::new(AccountSummary::default()))
    }

    async fn authenticate_device(
        &self,
        request: Request<AuthenticateDeviceRequest>,
    ) -> Result<Response<SignInResponse>, Status> {
        self.record("AuthenticateDevice", request.get_ref());
        Ok(Response::new(SignInResponse::default()))
    }

    async fn link_device(
        &self,
        request: Request<LinkDeviceRequest>,
    ) -> Result<Response<LinkDeviceResponse>, Status> {
        self.accept("LinkDevice", &request)?;
        Ok(Response::new(LinkDeviceResponse {}))
    }
}

/// A rating as the fake answers it: the key from the request's preset.
fn rating(account_id: &str, preset: &str) -> Rating {
    Rating {
        account_id: account_id.into(),
        ruleset_key: preset.into(),
        mu: 27.5,
        sigma: 7.5,
        conservative: 5.0,
        games: 1,
    }
}

#[tonic::async_trait]
impl RatingService for Fake {
    async fn get_ratings(
        &self,
        request: Request<GetRatingsRequest>,
    ) -> Result<Response<GetRatingsResponse>, Status> {
        self.accept("GetRatings", &request)?;
        let preset = request
            .get_ref()
            .rules
            .as_ref()
            .map_or("skitgubbe".to_owned(), |r| r.preset.clone());
        let ratings = request
            .get_ref()
            .account_ids
            .iter()
            .map(|id| rating(id, &preset))
            .collect();
        Ok(Response::new(GetRatingsResponse { ratings }))
    }

    async fn get_rating_history(
        &self,
        request: Request<GetRatingHistoryRequest>,
    ) -> Result<Response<GetRatingHistoryResponse>, Status> {
        self.accept("GetRatingHistory", &request)?;
        let account = request.get_ref().account_id.clone().unwrap_or_default();
        failure(&account)?;
        Ok(Response::new(GetRatingHistoryResponse {
            changes: vec![RatingChange {
                game_id: "g1".into(),
                ruleset_key: "skitgubbe".into(),
                place: 1,
                before: Some(rating(&account, "skitgubbe")),
                after: Some(rating(&account, "skitgubbe")),
                time: None,
            }],
        }))
    }

    async fn get_leaderboard(
        &self,
        request: Request<GetLeaderboardRequest>,
    ) -> Result<Response<GetLeaderboardResponse>, Status> {
        self.accept("GetLeaderboard", &request)?;
        Ok(Response::new(GetLeaderboardResponse {
            entries: vec![LeaderboardEntry {
                rank: 1,
                name: "Ada".into(),
                is_bot: false,
                rating: Some(rating("acc-1", "skitgubbe")),
            }],
        }))
    }

    async fn create_season(
        &self,
        request: Request<CreateSeasonRequest>,
    ) -> Result<Response<Season>, Status> {
        self.accept("CreateSeason", &request)?;
        let request = request.into_inner();
        Ok(Response::new(Season {
            name: request.name,
            recurrence: request.recurrence,
            time_zone: request.time_zone,
            ..season("s1")
        }))
    }

    async fn list_seasons(
        &self,
        request: Request<ListSeasonsRequest>,
    ) -> Result<Response<ListSeasonsResponse>, Status> {
        self.accept("ListSeasons", &request)?;
        Ok(Response::new(ListSeasonsResponse {
            seasons: vec![season("s1")],
        }))
    }

    async fn get_season_standings(
        &self,
        request: Request<GetSeasonStandingsRequest>,
    ) -> Result<Response<SeasonStandings>, Status> {
        self.accept("GetSeasonStandings", &request)?;
        let season_id = request.get_ref().season_id.clone();
        failure(&season_id)?;
        Ok(Response::new(SeasonStandings {
            season: Some(season(&season_id)),
            period: None,
            rows: vec![SeasonStanding {
                rank: 1,
                account_id: "7".into(),
                mu: 27.5,
                sigma: 7.5,
                conservative: 5.0,
                games: 1,
                provisional: true,
                name: "ann".into(),
                is_bot: false,
            }],
        }))
    }

    async fn get_division(
        &self,
        request: Request<GetDivisionRequest>,
    ) -> Result<Response<Division>, Status> {
        self.accept("GetDivision", &request)?;
        let request = request.into_inner();
        failure(&request.season_id)?;
        Ok(Response::new(division(
            &request.season_id,
            request.tier.max(1),
            false,
        )))
    }

    async fn step_down(
        &self,
        request: Request<StepDownRequest>,
    ) -> Result<Response<Division>, Status> {
        self.accept("StepDown", &request)?;
        let request = request.into_inner();
        failure(&request.season_id)?;
        Ok(Response::new(division(
            &request.season_id,
            1,
            !request.undo,
        )))
    }
}

/// A cohort of one as the fake answers it.
fn division(season_id: &str, tier: u32, stepping_down: bool) -> Division {
    Division {
        season: Some(season(season_id)),
        tier,
        cohort: 1,
        rows: vec![DivisionStanding {
            rank: 1,
            account_id: "7".into(),
            name: "ann".into(),
            zone: DivisionZone::Stay.into(),
            arrival: DivisionArrival::Entered.into(),
            stepping_down,
            ..DivisionStanding::default()
        }],
        ..Division::default()
    }
}

/// A season as the fake answers it.
fn season(season_id: &str) -> Season {
    Season {
        season_id: season_id.into(),
        name: "Spring".into(),
        ruleset_key: "skitgubbe".into(),
        time_zone: "UTC".into(),
        ..Season::default()
    }
}
