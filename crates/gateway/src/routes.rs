//! The REST routes, one per server, read from the protos: each RPC's
//! `google.api.http` annotation gives its HTTP method, path and body, and
//! its `(skitgubbe.v1.call)` option what the limits and the credential gate
//! need. The routers, the OpenAPI documents, the limits and the tests all
//! read these tables, so a route is declared once, in its `.proto`.

use std::sync::LazyLock;

use prost_reflect::{DescriptorPool, DynamicMessage, MethodDescriptor, Value};

use crate::descriptors;

/// Where a route's request message comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A JSON body (may be empty) plus the path parameters (`body: "*"`).
    Body,
    /// The query string plus the path parameters; JSON response.
    Query,
    /// The query string plus the path parameters; a server-streaming RPC
    /// answered as Server-Sent Events, one `data:` JSON message per event.
    EventStream,
    /// The query string plus the path parameters; a server-streaming RPC
    /// answered as NDJSON, one JSON message per line (`(call).ndjson`).
    Ndjson,
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
    /// Whether the RPC needs a bearer token (not `anonymous`).
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

/// One server's route table: its services' RPCs, in the order the protos
/// declare them.
#[derive(Debug, Clone, Copy)]
pub struct Routes(fn() -> &'static [RouteSpec]);

impl std::ops::Deref for Routes {
    type Target = [RouteSpec];

    fn deref(&self) -> &[RouteSpec] {
        (self.0)()
    }
}

impl IntoIterator for Routes {
    type Item = &'static RouteSpec;
    type IntoIter = std::slice::Iter<'static, RouteSpec>;

    fn into_iter(self) -> Self::IntoIter {
        (self.0)().iter()
    }
}

/// Every REST route of the game service (`skit-game`).
pub static ROUTES: Routes = Routes(game_routes);

/// Every REST route of the matchmaker (`skit-matchmaker`).
pub static MATCHMAKING_ROUTES: Routes = Routes(matchmaking_routes);

/// Every REST route of the tournament service (`skit-leagues`).
pub static LEAGUE_ROUTES: Routes = Routes(league_routes);

fn game_routes() -> &'static [RouteSpec] {
    static TABLE: LazyLock<Vec<RouteSpec>> =
        LazyLock::new(|| table(&[GAME_SERVICE, ACCOUNT_SERVICE, RATING_SERVICE, ADMIN_SERVICE]));
    &TABLE
}

fn matchmaking_routes() -> &'static [RouteSpec] {
    static TABLE: LazyLock<Vec<RouteSpec>> = LazyLock::new(|| table(&[MATCHMAKING_SERVICE]));
    &TABLE
}

fn league_routes() -> &'static [RouteSpec] {
    static TABLE: LazyLock<Vec<RouteSpec>> = LazyLock::new(|| table(&[LEAGUE_SERVICE]));
    &TABLE
}

/// The routes of `services`. An RPC without a usable annotation has no
/// route (a test holds every RPC to one), and is logged.
fn table(services: &[&str]) -> Vec<RouteSpec> {
    let pool = descriptors::pool();
    let mut routes = Vec::new();
    for name in services {
        let Some(service) = pool.get_service_by_name(name) else {
            tracing::error!(service = name, "service not in the descriptors");
            continue;
        };
        for method in service.methods() {
            match route(&pool, &method) {
                Ok(route) => routes.push(route),
                Err(problem) => tracing::error!(rpc = method.full_name(), %problem, "no route"),
            }
        }
    }
    routes
}

/// The route `method`'s annotation declares.
pub(crate) fn route(pool: &DescriptorPool, method: &MethodDescriptor) -> Result<RouteSpec, String> {
    let rule = http_rule(pool, method).ok_or("no google.api.http annotation")?;
    let (verb, path) = ["get", "post"]
        .into_iter()
        .find_map(|verb| {
            let path = rule.get_field_by_name(verb)?;
            let path = path.as_str().filter(|p| !p.is_empty())?.to_owned();
            Some((verb, path))
        })
        .ok_or("the annotation is neither get nor post")?;
    let body = rule
        .get_field_by_name("body")
        .and_then(|b| b.as_str().map(str::to_owned))
        .unwrap_or_default();
    let shape = match (verb, body.as_str(), method.is_server_streaming()) {
        ("get", "", true) if call_flag(pool, method, "ndjson") => Shape::Ndjson,
        ("get", "", true) => Shape::EventStream,
        ("get", "", false) => Shape::Query,
        ("post", "*", false) => Shape::Body,
        _ => return Err(format!("unsupported: {verb} with body {body:?}")),
    };
    Ok(RouteSpec {
        method: if verb == "get" { "GET" } else { "POST" },
        path: leak(path),
        service: leak(method.parent_service().full_name().to_owned()),
        rpc: leak(method.name().to_owned()),
        shape,
        authenticated: !call_flag(pool, method, "anonymous"),
    })
}

/// The method's `google.api.http` rule.
fn http_rule(pool: &DescriptorPool, method: &MethodDescriptor) -> Option<DynamicMessage> {
    let extension = pool.get_extension_by_name("google.api.http")?;
    let options = method.options();
    if !options.has_extension(&extension) {
        return None;
    }
    match options.get_extension(&extension).into_owned() {
        Value::Message(rule) => Some(rule),
        _ => None,
    }
}

/// The method's `(skitgubbe.v1.call)` option, if set.
pub(crate) fn call_option(
    pool: &DescriptorPool,
    method: &MethodDescriptor,
) -> Option<DynamicMessage> {
    let extension = pool.get_extension_by_name("skitgubbe.v1.call")?;
    let options = method.options();
    if !options.has_extension(&extension) {
        return None;
    }
    match options.get_extension(&extension).into_owned() {
        Value::Message(call) => Some(call),
        _ => None,
    }
}

/// A bool field of the method's `(skitgubbe.v1.call)`.
pub(crate) fn call_flag(pool: &DescriptorPool, method: &MethodDescriptor, field: &str) -> bool {
    call_option(pool, method)
        .and_then(|call| call.get_field_by_name(field)?.as_bool())
        .unwrap_or(false)
}

/// A string field of the method's `(skitgubbe.v1.call)`; empty if unset.
pub(crate) fn call_text(pool: &DescriptorPool, method: &MethodDescriptor, field: &str) -> String {
    call_option(pool, method)
        .and_then(|call| call.get_field_by_name(field)?.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Route tables are built once per process, so their text lives as long.
fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A route as one line: method, path, RPC, shape, and `anonymous`.
    fn line(route: &RouteSpec) -> String {
        let service = route.service.trim_start_matches("skitgubbe.v1.");
        let anonymous = if route.authenticated {
            ""
        } else {
            " anonymous"
        };
        format!(
            "{} {} {service}.{} {:?}{anonymous}",
            route.method, route.path, route.rpc, route.shape
        )
    }

    /// The annotations declare exactly the routes clients use: every
    /// method, path, body mapping and credential rule below is part of the
    /// REST contract.
    #[test]
    fn the_annotations_declare_the_rest_contract() {
        for (routes, expected) in [
            (
                ROUTES,
                &[
                    "POST /v1/games GameService.CreateGame Body",
                    "POST /v1/games/{game_id}/join GameService.JoinGame Body",
                    "POST /v1/games/{game_id}/moves GameService.SubmitMove Body",
                    "POST /v1/games/{game_id}/resign GameService.Resign Body",
                    "GET /v1/games/{game_id}/view GameService.GetView Query",
                    "GET /v1/games/{game_id}/watch GameService.WatchGame EventStream",
                    "GET /v1/games GameService.ListGames Query",
                    "GET /v1/games/{game_id}/history GameService.GetHistory Query",
                    "GET /v1/export/games GameService.ExportGames Ndjson",
                    "GET /v1/games/{game_id}/worlds GameService.SampleWorlds Query",
                    "POST /v1/accounts/guest AccountService.CreateGuest Body anonymous",
                    "POST /v1/accounts AccountService.CreateAccount Body",
                    "GET /v1/accounts/me AccountService.WhoAmI Query",
                    "GET /v1/accounts AccountService.ListAccounts Query",
                    "POST /v1/accounts/{account_id}/house-bot AccountService.SetHouseBot Body",
                    "GET /v1/ratings RatingService.GetRatings Query",
                    "GET /v1/ratings/history RatingService.GetRatingHistory Query",
                    "GET /v1/leaderboard RatingService.GetLeaderboard Query",
                    "POST /v1/seasons RatingService.CreateSeason Body",
                    "GET /v1/seasons RatingService.ListSeasons Query",
                    "GET /v1/seasons/{season_id}/standings RatingService.GetSeasonStandings Query",
                    "GET /v1/seasons/{season_id}/division RatingService.GetDivision Query",
                    "POST /v1/seasons/{season_id}/step-down RatingService.StepDown Body",
                    "POST /v1/accounts/refresh AccountService.Refresh Body anonymous",
                    "POST /v1/accounts/logout AccountService.Logout Body",
                    "GET /v1/accounts/me/sessions AccountService.ListSessions Query",
                    "POST /v1/accounts/me/sessions/{session_id}/revoke AccountService.RevokeSession Body",
                    "POST /v1/accounts/me/api-keys AccountService.CreateApiKey Body",
                    "GET /v1/accounts/me/api-keys AccountService.ListApiKeys Query",
                    "POST /v1/accounts/me/api-keys/{api_key_id}/rotate AccountService.RotateApiKey Body",
                    "POST /v1/accounts/me/api-keys/{api_key_id}/revoke AccountService.RevokeApiKey Body",
                    "GET /v1/admin/accounts AdminService.FindAccounts Query",
                    "GET /v1/admin/accounts/{account_id} AdminService.GetAccount Query",
                    "POST /v1/admin/accounts/{account_id}/status AdminService.SetAccountStatus Body",
                    "POST /v1/admin/accounts/{account_id}/house-bot AdminService.SetHouseBot Body",
                    "POST /v1/admin/games/{game_id}/void AdminService.VoidGame Body",
                    "GET /v1/admin/audit-log AdminService.ListAuditLog Query",
                    "POST /v1/accounts/register AccountService.Register Body anonymous",
                    "POST /v1/accounts/login AccountService.Login Body anonymous",
                    "POST /v1/accounts/me/upgrade AccountService.UpgradeGuest Body",
                    "POST /v1/accounts/device AccountService.AuthenticateDevice Body anonymous",
                    "POST /v1/accounts/me/devices AccountService.LinkDevice Body",
                    "POST /v1/accounts/me/language AccountService.SetLanguage Body",
                    "GET /v1/admin/accounts/{account_id}/credentials AdminService.ListCredentials Query",
                    "POST /v1/admin/accounts/{account_id}/credentials/{credential_id}/revoke AdminService.RevokeCredential Body",
                    "POST /v1/admin/accounts/{account_id}/reset-password AdminService.ResetPassword Body",
                ][..],
            ),
            (
                MATCHMAKING_ROUTES,
                &[
                    "POST /v1/tickets MatchmakingService.Enqueue Body",
                    "POST /v1/tickets/{ticket_id}/cancel MatchmakingService.CancelTicket Body",
                    "GET /v1/tickets/{ticket_id} MatchmakingService.GetTicket Query",
                    "GET /v1/tickets/{ticket_id}/watch MatchmakingService.WatchTicket EventStream",
                ][..],
            ),
            (
                LEAGUE_ROUTES,
                &[
                    "POST /v1/tournaments LeagueService.CreateTournament Body",
                    "GET /v1/tournaments LeagueService.ListTournaments Query",
                    "GET /v1/tournaments/{tournament_id} LeagueService.GetTournament Query",
                    "POST /v1/tournaments/{tournament_id}/enter LeagueService.EnterTournament Body",
                    "POST /v1/tournaments/{tournament_id}/leave LeagueService.LeaveTournament Body",
                    "GET /v1/tournaments/{tournament_id}/entries LeagueService.ListEntries Query",
                    "GET /v1/tournaments/{tournament_id}/standings LeagueService.GetStandings Query",
                    "GET /v1/tournaments/{tournament_id}/tables LeagueService.ListTables Query",
                    "GET /v1/tournaments/{tournament_id}/watch LeagueService.WatchTournament EventStream",
                    "POST /v1/tournaments/{tournament_id}/start LeagueService.StartTournament Body",
                    "GET /v1/tournaments/{tournament_id}/preview LeagueService.PreviewRound Query",
                    "POST /v1/tournaments/{tournament_id}/seating LeagueService.ConstrainSeating Body",
                    "GET /v1/tournaments/{tournament_id}/audit LeagueService.AuditRound Query",
                    "POST /v1/tournaments/{tournament_id}/edit LeagueService.EditTournament Body",
                    "POST /v1/tournaments/{tournament_id}/pause LeagueService.PauseTournament Body",
                    "POST /v1/tournaments/{tournament_id}/resume LeagueService.ResumeTournament Body",
                    "POST /v1/tournaments/{tournament_id}/terminate LeagueService.TerminateTournament Body",
                ][..],
            ),
        ] {
            let mut got: Vec<String> = routes.iter().map(line).collect();
            let mut expected: Vec<String> = expected.iter().map(|l| (*l).to_owned()).collect();
            got.sort();
            expected.sort();
            assert_eq!(got, expected);
        }
    }
}
