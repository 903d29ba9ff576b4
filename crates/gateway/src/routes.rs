//! The REST route tables, one per server: which HTTP method and path serve
//! which RPC, and where the request message comes from. The routers, the
//! OpenAPI documents and the tests all read them, so a route cannot be
//! served undocumented.

/// Where a route's request message comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A JSON body (may be empty) plus the path parameters.
    Body,
    /// The query string plus the path parameters; JSON response.
    Query,
    /// The query string plus the path parameters; a server-streaming RPC
    /// answered as Server-Sent Events, one `data:` JSON message per event.
    EventStream,
}

/// One REST route.
#[derive(Debug, Clone, Copy)]
pub struct RouteSpec {
    /// `GET` or `POST`.
    pub method: &'static str,
    /// The axum (and OpenAPI) path template; `{name}` is the request
    /// field `name` (proto name).
    pub path: &'static str,
    /// The full service name, e.g. `skitgubbe.v1.GameService`.
    pub service: &'static str,
    /// The RPC name, e.g. `SubmitMove`.
    pub rpc: &'static str,
    pub shape: Shape,
    /// Whether the RPC needs a bearer token.
    pub authenticated: bool,
}

impl RouteSpec {
    /// The path parameters, in order (proto field names).
    pub fn path_params(&self) -> impl Iterator<Item = &'static str> {
        self.path
            .split('/')
            .filter_map(|segment| segment.strip_prefix('{')?.strip_suffix('}'))
    }
}

pub const GAME_SERVICE: &str = "skitgubbe.v1.GameService";
pub const ACCOUNT_SERVICE: &str = "skitgubbe.v1.AccountService";
pub const RATING_SERVICE: &str = "skitgubbe.v1.RatingService";
pub const MATCHMAKING_SERVICE: &str = "skitgubbe.v1.MatchmakingService";
pub const ADMIN_SERVICE: &str = "skitgubbe.v1.AdminService";
pub const LEAGUE_SERVICE: &str = "skitgubbe.v1.LeagueService";

const fn route(
    method: &'static str,
    path: &'static str,
    service: &'static str,
    rpc: &'static str,
    shape: Shape,
) -> RouteSpec {
    RouteSpec {
        method,
        path,
        service,
        rpc,
        shape,
        authenticated: true,
    }
}

/// Every REST route of the game service (`skit-game`).
pub const ROUTES: &[RouteSpec] = &[
    route("POST", "/v1/games", GAME_SERVICE, "CreateGame", Shape::Body),
    route(
        "POST",
        "/v1/games/{game_id}/join",
        GAME_SERVICE,
        "JoinGame",
        Shape::Body,
    ),
    route(
        "POST",
        "/v1/games/{game_id}/moves",
        GAME_SERVICE,
        "SubmitMove",
        Shape::Body,
    ),
    route(
        "POST",
        "/v1/games/{game_id}/resign",
        GAME_SERVICE,
        "Resign",
        Shape::Body,
    ),
    route(
        "GET",
        "/v1/games/{game_id}/view",
        GAME_SERVICE,
        "GetView",
        Shape::Query,
    ),
    route(
        "GET",
        "/v1/games/{game_id}/watch",
        GAME_SERVICE,
        "WatchGame",
        Shape::EventStream,
    ),
    route("GET", "/v1/games", GAME_SERVICE, "ListGames", Shape::Query),
    route(
        "GET",
        "/v1/games/{game_id}/history",
        GAME_SERVICE,
        "GetHistory",
        Shape::Query,
    ),
    RouteSpec {
        authenticated: false,
        ..route(
            "POST",
            "/v1/accounts/guest",
            ACCOUNT_SERVICE,
            "CreateGuest",
            Shape::Body,
        )
    },
    route(
        "POST",
        "/v1/accounts",
        ACCOUNT_SERVICE,
        "CreateAccount",
        Shape::Body,
    ),
    route(
        "GET",
        "/v1/accounts/me",
        ACCOUNT_SERVICE,
        "WhoAmI",
        Shape::Query,
    ),
    route(
        "GET",
        "/v1/accounts",
        ACCOUNT_SERVICE,
        "ListAccounts",
        Shape::Query,
    ),
    route(
        "POST",
        "/v1/accounts/{account_id}/house-bot",
        ACCOUNT_SERVICE,
        "SetHouseBot",
        Shape::Body,
    ),
    route(
        "GET",
        "/v1/ratings",
        RATING_SERVICE,
        "GetRatings",
        Shape::Query,
    ),
    route(
        "GET",
        "/v1/ratings/history",
        RATING_SERVICE,
        "GetRatingHistory",
        Shape::Query,
    ),
    route(
        "GET",
        "/v1/leaderboard",
        RATING_SERVICE,
        "GetLeaderboard",
        Shape::Query,
    ),
    route(
        "POST",
        "/v1/seasons",
        RATING_SERVICE,
        "CreateSeason",
        Shape::Body,
    ),
    route(
        "GET",
        "/v1/seasons",
        RATING_SERVICE,
        "ListSeasons",
        Shape::Query,
    ),
    route(
        "GET",
        "/v1/seasons/{season_id}/standings",
        RATING_SERVICE,
        "GetSeasonStandings",
        Shape::Query,
    ),
    route(
        "GET",
        "/v1/seasons/{season_id}/division",
        RATING_SERVICE,
        "GetDivision",
        Shape::Query,
    ),
    route(
        "POST",
        "/v1/seasons/{season_id}/step-down",
        RATING_SERVICE,
        "StepDown",
        Shape::Body,
    ),
    RouteSpec {
        authenticated: false,
        ..route(
            "POST",
            "/v1/accounts/refresh",
            ACCOUNT_SERVICE,
            "Refresh",
            Shape::Body,
        )
    },
    route(
        "POST",
        "/v1/accounts/logout",
        ACCOUNT_SERVICE,
        "Logout",
        Shape::Body,
    ),
    route(
        "GET",
        "/v1/accounts/me/sessions",
        ACCOUNT_SERVICE,
        "ListSessions",
        Shape::Query,
    ),
    route(
        "POST",
        "/v1/accounts/me/sessions/{session_id}/revoke",
        ACCOUNT_SERVICE,
        "RevokeSession",
        Shape::Body,
    ),
    route(
        "POST",
        "/v1/accounts/me/api-keys",
        ACCOUNT_SERVICE,
        "CreateApiKey",
        Shape::Body,
    ),
    route(
        "GET",
        "/v1/accounts/me/api-keys",
        ACCOUNT_SERVICE,
        "ListApiKeys",
        Shape::Query,
    ),
    route(
        "POST",
        "/v1/accounts/me/api-keys/{api_key_id}/rotate",
        ACCOUNT_SERVICE,
        "RotateApiKey",
        Shape::Body,
    ),
    route(
        "POST",
        "/v1/accounts/me/api-keys/{api_key_id}/revoke",
        ACCOUNT_SERVICE,
        "RevokeApiKey",
        Shape::Body,
    ),
    route(
        "GET",
        "/v1/admin/accounts",
        ADMIN_SERVICE,
        "FindAccounts",
        Shape::Query,
    ),
    route(
        "GET",
        "/v1/admin/accounts/{account_id}",
        ADMIN_SERVICE,
        "GetAccount",
        Shape::Query,
    ),
    route(
        "POST",
        "/v1/admin/accounts/{account_id}/status",
        ADMIN_SERVICE,
        "SetAccountStatus",
        Shape::Body,
    ),
    route(
        "POST",
        "/v1/admin/accounts/{account_id}/house-bot",
        ADMIN_SERVICE,
        "SetHouseBot",
        Shape::Body,
    ),
    route(
        "POST",
        "/v1/admin/games/{game_id}/void",
        ADMIN_SERVICE,
        "VoidGame",
        Shape::Body,
    ),
    route(
        "GET",
        "/v1/admin/audit-log",
        ADMIN_SERVICE,
        "ListAuditLog",
        Shape::Query,
    ),
    RouteSpec {
        authenticated: false,
        ..route(
            "POST",
            "/v1/accounts/register",
            ACCOUNT_SERVICE,
            "Register",
            Shape::Body,
        )
    },
    RouteSpec {
        authenticated: false,
        ..route(
            "POST",
            "/v1/accounts/login",
            ACCOUNT_SERVICE,
            "Login",
            Shape::Body,
        )
    },
    route(
        "POST",
        "/v1/accounts/me/upgrade",
        ACCOUNT_SERVICE,
        "UpgradeGuest",
        Shape::Body,
    ),
    RouteSpec {
        authenticated: false,
        ..route(
            "POST",
            "/v1/accounts/device",
            ACCOUNT_SERVICE,
            "AuthenticateDevice",
            Shape::Body,
        )
    },
    route(
        "POST",
        "/v1/accounts/me/devices",
        ACCOUNT_SERVICE,
        "LinkDevice",
        Shape::Body,
    ),
    route(
        "GET",
        "/v1/admin/accounts/{account_id}/credentials",
        ADMIN_SERVICE,
        "ListCredentials",
        Shape::Query,
    ),
    route(
        "POST",
        "/v1/admin/accounts/{account_id}/credentials/{credential_id}/revoke",
        ADMIN_SERVICE,
        "RevokeCredential",
        Shape::Body,
    ),
    route(
        "POST",
        "/v1/admin/accounts/{account_id}/reset-password",
        ADMIN_SERVICE,
        "ResetPassword",
        Shape::Body,
    ),
];

/// Every REST route of the matchmaker (`skit-matchmaker`).
pub const MATCHMAKING_ROUTES: &[RouteSpec] = &[
    route(
        "POST",
        "/v1/tickets",
        MATCHMAKING_SERVICE,
        "Enqueue",
        Shape::Body,
    ),
    route(
        "POST",
        "/v1/tickets/{ticket_id}/cancel",
        MATCHMAKING_SERVICE,
        "CancelTicket",
        Shape::Body,
    ),
    route(
        "GET",
        "/v1/tickets/{ticket_id}",
        MATCHMAKING_SERVICE,
        "GetTicket",
        Shape::Query,
    ),
    route(
        "GET",
        "/v1/tickets/{ticket_id}/watch",
        MATCHMAKING_SERVICE,
        "WatchTicket",
        Shape::EventStream,
    ),
];

/// Every REST route of the tournament service (`skit-leagues`).
pub const LEAGUE_ROUTES: &[RouteSpec] = &[
    route(
        "POST",
        "/v1/tournaments",
        LEAGUE_SERVICE,
        "CreateTournament",
        Shape::Body,
    ),
    route(
        "GET",
        "/v1/tournaments",
        LEAGUE_SERVICE,
        "ListTournaments",
        Shape::Query,
    ),
    route(
        "GET",
        "/v1/tournaments/{tournament_id}",
        LEAGUE_SERVICE,
        "GetTournament",
        Shape::Query,
    ),
    route(
        "POST",
        "/v1/tournaments/{tournament_id}/enter",
        LEAGUE_SERVICE,
        "EnterTournament",
        Shape::Body,
    ),
    route(
        "POST",
        "/v1/tournaments/{tournament_id}/leave",
        LEAGUE_SERVICE,
        "LeaveTournament",
        Shape::Body,
    ),
    route(
        "GET",
        "/v1/tournaments/{tournament_id}/entries",
        LEAGUE_SERVICE,
        "ListEntries",
        Shape::Query,
    ),
    route(
        "GET",
        "/v1/tournaments/{tournament_id}/standings",
        LEAGUE_SERVICE,
        "GetStandings",
        Shape::Query,
    ),
    route(
        "GET",
        "/v1/tournaments/{tournament_id}/tables",
        LEAGUE_SERVICE,
        "ListTables",
        Shape::Query,
    ),
    route(
        "GET",
        "/v1/tournaments/{tournament_id}/watch",
        LEAGUE_SERVICE,
        "WatchTournament",
        Shape::EventStream,
    ),
    route(
        "POST",
        "/v1/tournaments/{tournament_id}/start",
        LEAGUE_SERVICE,
        "StartTournament",
        Shape::Body,
    ),
    route(
        "GET",
        "/v1/tournaments/{tournament_id}/preview",
        LEAGUE_SERVICE,
        "PreviewRound",
        Shape::Query,
    ),
    route(
        "POST",
        "/v1/tournaments/{tournament_id}/seating",
        LEAGUE_SERVICE,
        "ConstrainSeating",
        Shape::Body,
    ),
    route(
        "GET",
        "/v1/tournaments/{tournament_id}/audit",
        LEAGUE_SERVICE,
        "AuditRound",
        Shape::Query,
    ),
    route(
        "POST",
        "/v1/tournaments/{tournament_id}/edit",
        LEAGUE_SERVICE,
        "EditTournament",
        Shape::Body,
    ),
    route(
        "POST",
        "/v1/tournaments/{tournament_id}/pause",
        LEAGUE_SERVICE,
        "PauseTournament",
        Shape::Body,
    ),
    route(
        "POST",
        "/v1/tournaments/{tournament_id}/resume",
        LEAGUE_SERVICE,
        "ResumeTournament",
        Shape::Body,
    ),
    route(
        "POST",
        "/v1/tournaments/{tournament_id}/terminate",
        LEAGUE_SERVICE,
        "TerminateTournament",
        Shape::Body,
    ),
];
