//! The API glue that servers and Rust clients of the Skitgubbe services share.
//!
//! - [`Client`]: a tonic channel to the service with `authorization: Bearer
//!   <token>` on every call ([`Bearer`]), for `GameService` and
//!   `AccountService` alike.
//! - [`bearer_token`], [`bearer_value`], [`bearer_header`] and [`authed`]:
//!   that header read by servers and written by clients, one form for all.
//! - [`Secret`]: a token that does not print.
//! - [`engine_view`]: an API [`View`](skit_proto::v1::View) turned back into
//!   the engine's per-seat [`skit_engine::View`], so the strategies of
//!   `skit-bots` (and anything else written against the engine) can read it.
//! - [`world_message`] and [`engine_world`]: sampled worlds in both forms.
//! - [`action_message`] and [`move_kind`]: actions in both forms; servers
//!   read submitted moves and clients read legal actions with the same
//!   function, so both refuse the same actions for the same reasons.
//! - [`rules`] and [`rules_message`]: rulesets in both forms.
//! - [`timestamp`]: instants as protobuf timestamps.
//! - [`ApiError`]: the one error type of every service, mapped once to a
//!   gRPC status with `google.rpc` details and once to an HTTP status and
//!   JSON body ([`ErrorBody`]).
//! - [`request_id()`]: the one check of a client's idempotency key.
//! - [`text`]: request text checked before it is stored: no NUL anywhere,
//!   and names trimmed, length-limited and free of control and
//!   bidirectional formatting characters.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use skit_api::{Client, Secret, engine_view};
//! use skit_proto::v1::GetViewRequest;
//!
//! let mut client = Client::connect("http://127.0.0.1:50051", Secret::new("skt_...")).await?;
//! let view = client
//!     .games
//!     .get_view(GetViewRequest { game_id: "8c62...".into(), seat: Some(0), ..Default::default() })
//!     .await?
//!     .into_inner();
//! let view = engine_view(&view)?;
//! println!("{:?}", view.legal);
//! # Ok(()) }
//! ```

mod action;
mod bearer;
mod connect;
mod convert_error;
pub mod error;
mod history;
mod request_id;
mod rules;
mod secret;
#[cfg(feature = "store")]
mod store_error;
mod table;
pub mod text;
mod timestamp;
mod view;
mod world;

pub use action::{action_message, move_kind};
pub use bearer::{Bearer, BearerError, authed, bearer_header, bearer_token, bearer_value};
pub use connect::{AccountClient, Client, ConnectError, GameClient, endpoint};
pub use convert_error::ConvertError;
pub use error::{ApiError, ErrorBody, ErrorCode};
pub use request_id::{REQUEST_ID_MAX_CHARS, request_id};
pub use rules::{rules, rules_message};
pub use secret::{OPERATOR_TOKEN_MIN_CHARS, Secret, ShortOperatorToken};
#[cfg(feature = "store")]
pub use store_error::{account_disabled, store_error};
pub use timestamp::timestamp;
pub use view::engine_view;
pub use world::{engine_world, world_message};
