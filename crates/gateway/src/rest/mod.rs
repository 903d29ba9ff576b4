//! The REST/JSON face: one route per RPC, as its `google.api.http`
//! annotation declares it (see [`crate::routes::ROUTES`],
//! [`crate::routes::MATCHMAKING_ROUTES`] and
//! [`crate::routes::LEAGUE_ROUTES`]), served by one transcoder
//! ([`transcode`]) over the generated service traits, so it mounts beside
//! any implementation of them.

mod credentials_first;
mod localize;
mod ndjson;
mod transcode;
mod watch;

use std::{sync::Arc, time::Duration};

use axum::{
    Json, Router,
    http::StatusCode,
    middleware,
    response::{IntoResponse, Response},
    routing::get,
};
use skit_api::{ApiError, ErrorCode};
use skit_proto::rpcs::{
    visit_account_service, visit_admin_service, visit_game_service, visit_league_service,
    visit_matchmaking_service, visit_rating_service,
};
use skit_proto::v1::{
    account_service_server::AccountService, admin_service_server::AdminService,
    game_service_server::GameService, league_service_server::LeagueService,
    matchmaking_service_server::MatchmakingService, rating_service_server::RatingService,
};
use tower_http::{limit::RequestBodyLimitLayer, timeout::TimeoutLayer, trace::TraceLayer};

use crate::{
    authenticate::{Authenticate, WhoAmI},
    descriptors,
    error::{NO_SUCH_ROUTE, RestError, fill_empty_error},
    metrics, openapi,
    query::QueryDecoder,
    routes::{LEAGUE_ROUTES, MATCHMAKING_ROUTES, ROUTES, Routes},
};
use credentials_first::{Gate, credentials_first};
use localize::localize_errors;
use transcode::Transcoder;

/// Limits on the REST routes.
#[derive(Debug, Clone)]
pub struct RestConfig {
    /// Largest accepted request body; a move or a ruleset is far smaller.
    pub body_limit: usize,
    /// How long a request may take to answer (its headers, for a stream).
    /// Above the services' caps on long polls, so a long poll answers
    /// with its current view rather than a timeout.
    pub timeout: Duration,
    /// Whether to serve `/metrics` (and install the Prometheus recorder).
    pub metrics: bool,
}

impl Default for RestConfig {
    fn default() -> Self {
        Self {
            body_limit: 64 * 1024,
            timeout: Duration::from_secs(90),
            metrics: true,
        }
    }
}

/// The REST routes, `/openapi.json` and `/metrics`, with the default
/// [`RestConfig`].
pub fn router<G: GameService, A: AccountService, R: RatingService, D: AdminService>(
    game: Arc<G>,
    accounts: Arc<A>,
    ratings: Arc<R>,
    admin: Arc<D>,
) -> Router {
    router_with(game, accounts, ratings, admin, &RestConfig::default())
}

/// [`router`] with explicit limits.
pub fn router_with<G: GameService, A: AccountService, R: RatingService, D: AdminService>(
    game: Arc<G>,
    accounts: Arc<A>,
    ratings: Arc<R>,
    admin: Arc<D>,
    config: &RestConfig,
) -> Router {
    let pool = descriptors::pool();
    let queries = Arc::new(QueryDecoder::new(pool.clone()));
    let document = openapi::document(&pool, &ROUTES, "Skitgubbe as a service");
    let auth = Arc::new(WhoAmI(accounts.clone()));
    let api = Transcoder::routes(game, queries.clone(), visit_game_service::<G, _>)
        .merge(Transcoder::routes(
            accounts,
            queries.clone(),
            visit_account_service::<A, _>,
        ))
        .merge(Transcoder::routes(
            ratings,
            queries.clone(),
            visit_rating_service::<R, _>,
        ))
        .merge(Transcoder::routes(
            admin,
            queries,
            visit_admin_service::<D, _>,
        ));
    with_document_and_limits(api, ROUTES, auth, document, config)
}

/// The matchmaker's REST routes, `/openapi.json` and `/metrics`. `auth`
/// checks the credentials of a request whose content is refused before
/// the service sees it, so bad credentials are answered first (401).
pub fn matchmaking_router<M: MatchmakingService>(
    service: Arc<M>,
    auth: Arc<dyn Authenticate>,
    config: &RestConfig,
) -> Router {
    let pool = descriptors::pool();
    let queries = Arc::new(QueryDecoder::new(pool.clone()));
    let document = openapi::document(
        &pool,
        &MATCHMAKING_ROUTES,
        "Skitgubbe as a service: matchmaking",
    );
    let api = Transcoder::routes(service, queries, visit_matchmaking_service::<M, _>);
    with_document_and_limits(api, MATCHMAKING_ROUTES, auth, document, config)
}

/// The tournament service's REST routes, `/openapi.json` and `/metrics`.
/// `auth` checks the credentials of a request whose content is refused
/// before the service sees it, so bad credentials are answered first (401).
pub fn league_router<L: LeagueService>(
    service: Arc<L>,
    auth: Arc<dyn Authenticate>,
    config: &RestConfig,
) -> Router {
    let pool = descriptors::pool();
    let queries = Arc::new(QueryDecoder::new(pool.clone()));
    let document = openapi::document(&pool, &LEAGUE_ROUTES, "Skitgubbe as a service: leagues");
    let api = Transcoder::routes(service, queries, visit_league_service::<L, _>);
    with_document_and_limits(api, LEAGUE_ROUTES, auth, document, config)
}

/// `api` (serving `routes`) with credentials checked before content,
/// `/openapi.json`, the limits, error bodies, tracing, the metrics layer,
/// and `/metrics` when the config asks for it.
fn with_document_and_limits(
    api: Router,
    routes: Routes,
    auth: Arc<dyn Authenticate>,
    document: Result<serde_json::Value, String>,
    config: &RestConfig,
) -> Router {
    let document = Arc::new(document);
    let gate = Gate {
        routes,
        auth: auth.clone(),
    };
    let api = api
        .route_layer(middleware::from_fn_with_state(gate, credentials_first))
        .route(
            "/openapi.json",
            get(move || serve_document(document.clone())),
        )
        .fallback(|| async {
            RestError::from(ApiError::new(
                ErrorCode::NotFound,
                NO_SUCH_ROUTE,
                "no such route",
            ))
        })
        .layer(RequestBodyLimitLayer::new(config.body_limit))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::GATEWAY_TIMEOUT,
            config.timeout,
        ))
        .layer(middleware::map_response(fill_empty_error))
        .layer(middleware::from_fn_with_state(auth, localize_errors))
        .layer(TraceLayer::new_for_http());

    let api = if config.metrics {
        // Now, not at the first scrape: until a recorder is installed the
        // facade drops every count.
        if let Err(problem) = metrics::install() {
            tracing::warn!(%problem, "prometheus recorder not installed");
        }
        api.merge(metrics::routes())
    } else {
        api
    };
    api.layer(metrics::layer())
}

async fn serve_document(document: Arc<Result<serde_json::Value, String>>) -> Response {
    match document.as_ref() {
        Ok(document) => Json(document).into_response(),
        Err(problem) => RestError::from(ApiError::invariant(problem)).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routes::{
        ACCOUNT_SERVICE, ADMIN_SERVICE, GAME_SERVICE, LEAGUE_SERVICE, MATCHMAKING_SERVICE,
        RATING_SERVICE,
    };

    /// Every RPC of a service with a port of its own is served once, and
    /// its table's document builds from the descriptors.
    #[test]
    fn every_rpc_of_a_separate_service_has_one_documented_route() {
        let pool = descriptors::pool();
        for (service, routes) in [
            (MATCHMAKING_SERVICE, MATCHMAKING_ROUTES),
            (LEAGUE_SERVICE, LEAGUE_ROUTES),
        ] {
            let Some(descriptor) = pool.get_service_by_name(service) else {
                panic!("{service} not in the descriptors");
            };
            for method in descriptor.methods() {
                let served = routes.iter().filter(|r| r.rpc == method.name()).count();
                assert_eq!(served, 1, "{service}.{}", method.name());
            }
            assert_eq!(routes.len(), descriptor.methods().len(), "{service}");
            assert!(
                routes
                    .iter()
                    .all(|r| r.service == service && r.authenticated)
            );
            if let Err(problem) = openapi::document(&pool, &routes, service) {
                panic!("{service}: {problem}");
            }
        }
    }

    /// Every RPC of the services the game service serves (RatingService's
    /// seasons included) has exactly one route in [`ROUTES`], and the
    /// table holds nothing else.
    #[test]
    fn every_rpc_of_the_game_services_has_one_route() {
        let pool = descriptors::pool();
        let services = [GAME_SERVICE, ACCOUNT_SERVICE, RATING_SERVICE, ADMIN_SERVICE];
        let mut rpcs = 0;
        for service in services {
            let Some(descriptor) = pool.get_service_by_name(service) else {
                panic!("{service} not in the descriptors");
            };
            for method in descriptor.methods() {
                let served = ROUTES
                    .iter()
                    .filter(|r| r.service == service && r.rpc == method.name())
                    .count();
                assert_eq!(served, 1, "{service}.{}", method.name());
            }
            rpcs += descriptor.methods().len();
        }
        assert_eq!(ROUTES.len(), rpcs);
        assert!(ROUTES.iter().all(|r| services.contains(&r.service)));
        for rpc in ["CreateSeason", "ListSeasons", "GetSeasonStandings"] {
            let route = ROUTES.iter().find(|r| r.rpc == rpc);
            assert!(
                route.is_some_and(|r| r.service == RATING_SERVICE && r.authenticated),
                "{rpc}"
            );
        }
        if let Err(problem) = openapi::document(&pool, &ROUTES, "Skitgubbe as a service") {
            panic!("{problem}");
        }
    }
}
