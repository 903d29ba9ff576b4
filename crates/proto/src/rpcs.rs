//! Every RPC of the API as a name and a call on its service trait, written
//! by the build script from the descriptors: a server that dispatches by
//! the descriptors (the REST transcoder) visits a service once and gets
//! each RPC's request and response types and its call, with no line per
//! RPC written by hand.
//!
//! ```
//! use std::sync::Arc;
//! use skit_proto::rpcs::{StreamCall, UnaryCall, Visitor, visit_matchmaking_service};
//! use skit_proto::v1::matchmaking_service_server::MatchmakingService;
//!
//! struct Names(Vec<&'static str>);
//!
//! impl<S> Visitor<S> for Names {
//!     fn unary<Req, Resp>(&mut self, _: &'static str, rpc: &'static str, _: UnaryCall<S, Req, Resp>)
//!     where Req: skit_proto::rpcs::Request, Resp: skit_proto::rpcs::Response {
//!         self.0.push(rpc);
//!     }
//!     fn server_streaming<Req, Resp>(&mut self, _: &'static str, rpc: &'static str, _: StreamCall<S, Req, Resp>)
//!     where Req: skit_proto::rpcs::Request, Resp: skit_proto::rpcs::Response {
//!         self.0.push(rpc);
//!     }
//! }
//!
//! fn names<M: MatchmakingService>() -> Vec<&'static str> {
//!     let mut names = Names(Vec::new());
//!     visit_matchmaking_service::<M, _>(&mut names);
//!     names.0
//! }
//! ```

use std::sync::Arc;

use tonic::codegen::{BoxFuture, BoxStream};

/// What a request message offers a dispatcher: protobuf, the JSON mapping
/// and a default (an empty body).
pub trait Request:
    prost::Message + Default + serde::de::DeserializeOwned + Send + Sync + 'static
{
}

impl<T> Request for T where
    T: prost::Message + Default + serde::de::DeserializeOwned + Send + Sync + 'static
{
}

/// What a response message offers a dispatcher.
pub trait Response: prost::Message + serde::Serialize + Send + Sync + 'static {}

impl<T> Response for T where T: prost::Message + serde::Serialize + Send + Sync + 'static {}

/// A unary RPC's call on the service `S`.
pub type UnaryCall<S, Req, Resp> =
    fn(Arc<S>, tonic::Request<Req>) -> BoxFuture<tonic::Response<Resp>, tonic::Status>;

/// A server-streaming RPC's call on the service `S`.
pub type StreamCall<S, Req, Resp> =
    fn(Arc<S>, tonic::Request<Req>) -> BoxFuture<tonic::Response<BoxStream<Resp>>, tonic::Status>;

/// Receives each RPC of a service: its full service name, its name and its
/// call.
pub trait Visitor<S> {
    fn unary<Req, Resp>(
        &mut self,
        service: &'static str,
        rpc: &'static str,
        call: UnaryCall<S, Req, Resp>,
    ) where
        Req: Request,
        Resp: Response;

    fn server_streaming<Req, Resp>(
        &mut self,
        service: &'static str,
        rpc: &'static str,
        call: StreamCall<S, Req, Resp>,
    ) where
        Req: Request,
        Resp: Response;
}

include!(concat!(env!("OUT_DIR"), "/rpcs.rs"));
