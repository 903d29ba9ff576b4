//! Which class of limit a call falls in, told the same way for gRPC,
//! gRPC-Web (by the method's path, `/skitgubbe.v1.GameService/SubmitMove`)
//! and REST (by the route tables, [`crate::routes`]), so a client cannot
//! dodge a limit by changing protocol. Each RPC's class is its
//! `(skitgubbe.v1.call).limit` option in the protos, and how many calls of
//! that class it counts as its `cost` (one unless it says more).

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::LazyLock;

use axum::http::Method;
use prost_reflect::{DescriptorPool, MethodDescriptor};

use crate::descriptors;
use crate::routes::{self, LEAGUE_ROUTES, MATCHMAKING_ROUTES, ROUTES, RouteSpec};

/// A class of calls with a rate limit of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// New accounts: limited per client address, always.
    Signup,
    /// Signing in: limited per client address, always.
    Login,
    Moves,
    Reads,
    /// Creates, joins, enqueues and any other write.
    Creates,
    /// Opening streams (WatchGame, WatchTicket, WatchTournament).
    Streams,
}

impl Class {
    pub const ALL: [Class; 6] = [
        Class::Signup,
        Class::Login,
        Class::Moves,
        Class::Reads,
        Class::Creates,
        Class::Streams,
    ];

    /// The name clients see (`class` in a refusal's metadata) and the
    /// metrics label.
    pub fn name(self) -> &'static str {
        match self {
            Class::Signup => "signup",
            Class::Login => "login",
            Class::Moves => "moves",
            Class::Reads => "reads",
            Class::Creates => "creates",
            Class::Streams => "streams",
        }
    }

    /// The configuration field that sets its rate.
    pub(crate) fn field(self) -> &'static str {
        match self {
            Class::Signup => "limit_signup",
            Class::Login => "limit_login",
            Class::Moves => "limit_moves",
            Class::Reads => "limit_reads",
            Class::Creates => "limit_creates",
            Class::Streams => "limit_streams",
        }
    }

    /// Whether it is counted per client address even with a credential:
    /// calls that make or open accounts, where a credential proves nothing.
    pub fn per_address(self) -> bool {
        matches!(self, Class::Signup | Class::Login)
    }
}

/// A call as the limits see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call {
    pub class: Class,
    /// Whether it may stay open a long time (a stream or a long poll), so
    /// it counts against the caps on open streams.
    pub holds: bool,
    /// How many calls of its class it counts as.
    pub cost: NonZeroU32,
}

/// Every RPC of the API's services by full service name and method name,
/// read from the descriptors once.
static CALLS: LazyLock<HashMap<(String, String), Call>> = LazyLock::new(|| {
    let pool = descriptors::pool();
    pool.services()
        .flat_map(|service| service.methods().collect::<Vec<_>>())
        .filter(|method| {
            method
                .parent_service()
                .package_name()
                .starts_with("skitgubbe.")
        })
        .map(|method| {
            let key = (
                method.parent_service().full_name().to_owned(),
                method.name().to_owned(),
            );
            (key, declared(&pool, &method))
        })
        .collect()
});

/// The call `method` declares in `(skitgubbe.v1.call)`: its `limit` and
/// `long_poll`; a stream holds. An RPC that declares no class is a write.
fn declared(pool: &DescriptorPool, method: &MethodDescriptor) -> Call {
    let number = routes::call_option(pool, method)
        .and_then(|call| call.get_field_by_name("limit")?.as_enum_number())
        .unwrap_or(0);
    let name = pool
        .get_enum_by_name("skitgubbe.v1.LimitClass")
        .and_then(|e| e.get_value(number))
        .map(|v| v.name().to_owned())
        .unwrap_or_default();
    let class = match name.strip_prefix("LIMIT_CLASS_").unwrap_or_default() {
        "SIGNUP" => Class::Signup,
        "LOGIN" => Class::Login,
        "MOVES" => Class::Moves,
        "READS" => Class::Reads,
        "STREAMS" => Class::Streams,
        _ => Class::Creates,
    };
    let long_poll = routes::call_flag(pool, method, "long_poll");
    let cost = routes::call_option(pool, method)
        .and_then(|call| call.get_field_by_name("cost")?.as_u32())
        .and_then(NonZeroU32::new)
        .unwrap_or(NonZeroU32::MIN);
    Call {
        class,
        holds: class == Class::Streams || method.is_server_streaming() || long_poll,
        cost,
    }
}

/// The call the RPC `rpc` of `service` (full name) is. One the API does
/// not have is a write, so a new one is limited from the start.
pub fn of_rpc(service: &str, rpc: &str) -> Call {
    CALLS
        .get(&(service.to_owned(), rpc.to_owned()))
        .copied()
        .unwrap_or(Call {
            class: Class::Creates,
            holds: false,
            cost: NonZeroU32::MIN,
        })
}

/// The call a request is, or `None` for what no limit covers (health,
/// reflection, metrics, the OpenAPI document, unknown paths, preflights).
pub fn of_request(method: &Method, path: &str, grpc: bool) -> Option<Call> {
    if grpc {
        let (service, rpc) = path.strip_prefix('/')?.split_once('/')?;
        return service
            .starts_with("skitgubbe.")
            .then(|| of_rpc(service, rpc));
    }
    ROUTES
        .iter()
        .chain(MATCHMAKING_ROUTES)
        .chain(LEAGUE_ROUTES)
        .find(|route| route.method == method.as_str() && matches(route, path))
        .map(|route| of_rpc(route.service, route.rpc))
}

/// Whether `path` fits the route's template (`{name}` is one segment).
fn matches(route: &RouteSpec, path: &str) -> bool {
    let mut template = route.path.split('/');
    let mut segments = path.split('/');
    loop {
        match (template.next(), segments.next()) {
            (None, None) => return true,
            (Some(t), Some(s)) if t.starts_with('{') => {
                if s.is_empty() {
                    return false;
                }
            }
            (Some(t), Some(s)) if t == s => {}
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routes::{RATING_SERVICE, Shape};

    #[test]
    fn grpc_and_rest_class_a_call_alike() {
        let post = Method::POST;
        let get = Method::GET;
        let moves = of_request(&post, "/skitgubbe.v1.GameService/SubmitMove", true);
        assert_eq!(moves, of_request(&post, "/v1/games/g1/moves", false));
        assert_eq!(moves.map(|c| c.class), Some(Class::Moves));
        let signup = of_request(&post, "/v1/accounts/guest", false).map(|c| c.class);
        assert_eq!(signup, Some(Class::Signup));
        let watch = of_request(&get, "/v1/games/g1/watch", false);
        assert_eq!(watch, Some(of_rpc(routes::GAME_SERVICE, "WatchGame")));
        assert!(watch.is_some_and(|c| c.holds));
        let ticket = of_request(&get, "/v1/tickets/t1", false);
        assert_eq!(
            ticket.map(|c| (c.class, c.holds)),
            Some((Class::Reads, true))
        );
        let enqueue = of_request(&post, "/skitgubbe.v1.MatchmakingService/Enqueue", true);
        assert_eq!(enqueue.map(|c| c.class), Some(Class::Creates));
        let who = of_request(&get, "/v1/accounts/me", false).map(|c| c.class);
        assert_eq!(who, Some(Class::Reads));
        assert_eq!(moves.map(|c| c.cost.get()), Some(1));
    }

    #[test]
    fn sampled_worlds_are_reads_that_cost_more_over_either_protocol() {
        let rest = of_request(&Method::GET, "/v1/games/g1/worlds", false);
        let grpc = of_request(
            &Method::POST,
            "/skitgubbe.v1.GameService/SampleWorlds",
            true,
        );

        assert_eq!(rest, grpc);
        let call = rest.expect("a classed call");
        assert_eq!(
            (call.class, call.holds, call.cost.get()),
            (Class::Reads, false, 32)
        );
    }

    #[test]
    fn league_routes_are_reads_creates_and_streams_by_method() {
        let (get, post) = (Method::GET, Method::POST);
        for route in LEAGUE_ROUTES {
            let path = route.path.replace("{tournament_id}", "t1");
            let method = if route.method == "GET" {
                get.clone()
            } else {
                post.clone()
            };
            let rest = of_request(&method, &path, false);
            let grpc = format!("/{}/{}", route.service, route.rpc);
            assert_eq!(rest, of_request(&post, &grpc, true), "{path}");
            let expected = match (route.method, route.shape) {
                (_, Shape::EventStream) => (Class::Streams, true),
                ("GET", _) => (Class::Reads, false),
                _ => (Class::Creates, false),
            };
            assert_eq!(rest.map(|c| (c.class, c.holds)), Some(expected), "{path}");
        }
    }

    #[test]
    fn rating_routes_are_reads_and_creates_by_method() {
        let (get, post) = (Method::GET, Method::POST);
        let ratings = ROUTES.iter().filter(|r| r.service == RATING_SERVICE);
        let mut seasons = 0;
        for route in ratings {
            let path = route.path.replace("{season_id}", "s1");
            let method = if route.method == "GET" {
                get.clone()
            } else {
                post.clone()
            };
            let rest = of_request(&method, &path, false);
            let grpc = format!("/{}/{}", route.service, route.rpc);
            assert_eq!(rest, of_request(&post, &grpc, true), "{path}");
            let expected = if route.method == "GET" {
                Class::Reads
            } else {
                Class::Creates
            };
            assert_eq!(
                rest.map(|c| (c.class, c.holds)),
                Some((expected, false)),
                "{path}"
            );
            seasons += usize::from(route.path.starts_with("/v1/seasons"));
        }
        assert_eq!(seasons, 5);
    }

    #[test]
    fn what_no_limit_covers_is_not_classed() {
        let get = Method::GET;
        assert_eq!(of_request(&get, "/metrics", false), None);
        assert_eq!(of_request(&get, "/v1/games/g1/moves", false), None);
        assert_eq!(of_request(&get, "/v1/games//view", false), None);
        let health = "/grpc.health.v1.Health/Check";
        assert_eq!(of_request(&Method::POST, health, true), None);
    }
}
