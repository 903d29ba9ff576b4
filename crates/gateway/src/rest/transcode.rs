//! The REST face of one service, derived from its descriptors: each RPC's
//! `google.api.http` annotation ([`crate::routes`]) gives the route, and
//! one generic handler per shape serves it. A body route reads the JSON
//! body, a query route the query string ([`QueryDecoder`]); the path's
//! parameters then replace the request's fields of the same name; the
//! answer is the response message as JSON, or, for a server-streaming RPC,
//! Server-Sent Events ([`super::watch`]) or, where the RPC asks for it,
//! NDJSON ([`super::ndjson`]).

use std::sync::Arc;

use axum::{
    Router,
    extract::{FromRequestParts, Path, Request},
    http::{Extensions, HeaderMap},
    response::{
        IntoResponse, Response,
        sse::{KeepAlive, Sse},
    },
    routing::{MethodFilter, on},
};
use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage, FieldDescriptor, Kind, MessageDescriptor};
use skit_api::ApiError;
use skit_proto::rpcs::{self, StreamCall, UnaryCall, Visitor};
use skit_proto::v1::WatchGameRequest;

use super::{ndjson, watch};
use crate::{
    descriptors,
    error::RestError,
    extract::{grpc_request, json_body},
    json::JsonBody,
    query::QueryDecoder,
    routes::{self, RouteSpec, Shape},
    shared::SharedWatch,
};

/// Builds one service's routes as [`Visitor`] of its RPCs.
pub(super) struct Transcoder<S> {
    service: Arc<S>,
    pool: DescriptorPool,
    queries: Arc<QueryDecoder>,
    router: Router,
}

impl<S: Send + Sync + 'static> Transcoder<S> {
    /// The routes of every RPC `visit` hands over, served by `service`.
    pub(super) fn routes(
        service: Arc<S>,
        queries: Arc<QueryDecoder>,
        visit: fn(&mut Self),
    ) -> Router {
        let mut transcoder = Self {
            service,
            pool: descriptors::pool(),
            queries,
            router: Router::new(),
        };
        visit(&mut transcoder);
        transcoder.router
    }

    /// What serving `service`.`rpc` needs, or `None` (logged) for an RPC
    /// that the descriptors do not route.
    fn endpoint<C>(&self, service: &str, rpc: &str, call: C) -> Option<Endpoint<S, C>> {
        let method = self
            .pool
            .get_service_by_name(service)
            .and_then(|s| s.methods().find(|m| m.name() == rpc));
        let Some(method) = method else {
            tracing::error!(service, rpc, "rpc not in the descriptors: no REST route");
            return None;
        };
        let route = match routes::route(&self.pool, &method) {
            Ok(route) => route,
            Err(problem) => {
                tracing::error!(service, rpc, %problem, "no REST route");
                return None;
            }
        };
        let input = method.input();
        let field = |name: String| input.get_field_by_name(&name);
        let resume_from = field(routes::call_text(&self.pool, &method, "resume_from"));
        let output = method.output();
        let event_id =
            output.get_field_by_name(&routes::call_text(&self.pool, &method, "event_id"));
        Some(Endpoint {
            service: self.service.clone(),
            call,
            route,
            input,
            queries: self.queries.clone(),
            resume_from,
            event_id,
            body_matches_path: routes::call_flag(&self.pool, &method, "body_matches_path"),
        })
    }

    fn add<H, T>(&mut self, route: &RouteSpec, handler: H)
    where
        H: axum::handler::Handler<T, ()>,
        T: 'static,
    {
        let filter = if route.method == "GET" {
            MethodFilter::GET
        } else {
            MethodFilter::POST
        };
        let router = std::mem::take(&mut self.router);
        self.router = router.route(route.path, on(filter, handler));
    }
}

impl<S: Send + Sync + 'static> Visitor<S> for Transcoder<S> {
    fn unary<Req, Resp>(
        &mut self,
        service: &'static str,
        rpc: &'static str,
        call: UnaryCall<S, Req, Resp>,
    ) where
        Req: rpcs::Request,
        Resp: rpcs::Response,
    {
        let Some(endpoint) = self.endpoint(service, rpc, call) else {
            return;
        };
        let endpoint = Arc::new(endpoint);
        let route = endpoint.route;
        self.add(&route, move |request: Request| {
            let endpoint = endpoint.clone();
            async move { endpoint.unary(request).await }
        });
    }

    fn server_streaming<Req, Resp>(
        &mut self,
        service: &'static str,
        rpc: &'static str,
        call: StreamCall<S, Req, Resp>,
    ) where
        Req: rpcs::Request,
        Resp: rpcs::Response,
    {
        let Some(endpoint) = self.endpoint(service, rpc, call) else {
            return;
        };
        let endpoint = Arc::new(endpoint);
        let route = endpoint.route;
        self.add(&route, move |request: Request| {
            let endpoint = endpoint.clone();
            async move { endpoint.stream(request).await }
        });
    }
}

/// One RPC's route and call.
struct Endpoint<S, C> {
    service: Arc<S>,
    call: C,
    route: RouteSpec,
    input: MessageDescriptor,
    queries: Arc<QueryDecoder>,
    /// The request field a reconnecting EventSource's `Last-Event-ID` fills.
    resume_from: Option<FieldDescriptor>,
    /// The response field that is each event's `id`.
    event_id: Option<FieldDescriptor>,
    /// A body's value for a path parameter must equal the path's.
    body_matches_path: bool,
}

impl<S, C> Endpoint<S, C> {
    /// The request message (the body or the query, then the path), with
    /// the request's headers and, but for a body route, its extensions.
    async fn message<Req: rpcs::Request>(
        &self,
        request: Request,
    ) -> Result<(HeaderMap, Extensions, Req), Response> {
        let (mut parts, body) = request.into_parts();
        let params = if self.route.path_params().next().is_some() {
            Path::<Vec<(String, String)>>::from_request_parts(&mut parts, &())
                .await
                .map_err(IntoResponse::into_response)?
                .0
        } else {
            Vec::new()
        };
        let headers = parts.headers.clone();
        let (extensions, message): (Extensions, Req) = match self.route.shape {
            Shape::Body => {
                let request = Request::from_parts(parts, body);
                let message = json_body(request, self.input.full_name())
                    .await
                    .map_err(IntoResponse::into_response)?;
                (Extensions::new(), message)
            }
            Shape::Query | Shape::EventStream | Shape::Ndjson => {
                let message = self
                    .queries
                    .decode(self.input.full_name(), parts.uri.query())
                    .map_err(IntoResponse::into_response)?;
                (parts.extensions, message)
            }
        };
        let resume = last_event_id(&headers);
        let message = self
            .complete(message, &params, resume)
            .map_err(IntoResponse::into_response)?;
        Ok((headers, extensions, message))
    }

    /// `message` with the path's parameters in their fields, and the
    /// resume field filled from `Last-Event-ID` where it is unset.
    fn complete<Req: rpcs::Request>(
        &self,
        message: Req,
        params: &[(String, String)],
        last_event_id: Option<u64>,
    ) -> Result<Req, RestError> {
        let resume = self.resume_from.as_ref().zip(last_event_id);
        if params.is_empty() && resume.is_none() {
            return Ok(message);
        }
        let bytes = message.encode_to_vec();
        let mut dynamic =
            DynamicMessage::decode(self.input.clone(), bytes.as_slice()).map_err(invariant)?;
        for (name, value) in params {
            let field = self
                .input
                .get_field_by_name(name)
                .filter(|f| f.kind() == Kind::String && !f.is_list())
                .ok_or_else(|| invariant(format!("path parameter {name} is no string field")))?;
            // Where the RPC says so, a body may repeat the path's id, but one
            // naming another value (or a malformed one) is refused, naming
            // the field, rather than silently replaced.
            if self.body_matches_path
                && let prost_reflect::Value::String(body) = dynamic.get_field(&field).as_ref()
                && !body.is_empty()
                && body != value
            {
                return Err(ApiError::invalid(
                    field.name(),
                    format!("{body:?} in the body does not match {value:?} in the path"),
                )
                .into());
            }
            dynamic.set_field(&field, prost_reflect::Value::String(value.clone()));
        }
        if let Some((field, version)) = resume
            && field.kind() == Kind::Uint64
            && !dynamic.has_field(field)
        {
            dynamic.set_field(field, prost_reflect::Value::U64(version));
        }
        Req::decode(dynamic.encode_to_vec().as_slice()).map_err(invariant)
    }

    /// `message`'s event id, if the route gives events one.
    fn id_of<Resp: rpcs::Response>(&self, message: &Resp) -> Option<String> {
        let field = self.event_id.as_ref()?;
        let bytes = message.encode_to_vec();
        let dynamic = DynamicMessage::decode(field.parent_message().clone(), bytes.as_slice());
        let value = dynamic.ok()?.get_field(field).into_owned();
        match value {
            prost_reflect::Value::U64(n) => Some(n.to_string()),
            prost_reflect::Value::U32(n) => Some(n.to_string()),
            prost_reflect::Value::I64(n) => Some(n.to_string()),
            prost_reflect::Value::I32(n) => Some(n.to_string()),
            prost_reflect::Value::String(text) => Some(text),
            _ => None,
        }
    }
}

impl<S, Req, Resp> Endpoint<S, UnaryCall<S, Req, Resp>>
where
    S: Send + Sync + 'static,
    Req: rpcs::Request,
    Resp: rpcs::Response,
{
    async fn unary(&self, request: Request) -> Response {
        let (headers, _, message) = match self.message::<Req>(request).await {
            Ok(request) => request,
            Err(refused) => return refused,
        };
        let request = grpc_request(&headers, message);
        match (self.call)(self.service.clone(), request).await {
            Ok(response) => JsonBody(response.into_inner()).into_response(),
            Err(status) => RestError::from(status).into_response(),
        }
    }
}

impl<S, Req, Resp> Endpoint<S, StreamCall<S, Req, Resp>>
where
    S: Send + Sync + 'static,
    Req: rpcs::Request,
    Resp: rpcs::Response,
{
    async fn stream(self: Arc<Self>, request: Request) -> Response {
        let (headers, extensions, message) = match self.message::<Req>(request).await {
            Ok(request) => request,
            Err(refused) => return refused,
        };
        let shared = extensions.get::<Arc<dyn SharedWatch>>().cloned();
        if let Some(shared) = shared
            && self.input.full_name() == "skitgubbe.v1.WatchGameRequest"
        {
            // Each view's JSON is written once, whoever watches it.
            let request = match WatchGameRequest::decode(message.encode_to_vec().as_slice()) {
                Ok(request) => grpc_request(&headers, request),
                Err(error) => return invariant(error).into_response(),
            };
            return match shared.watch_shared(request).await {
                Ok(views) => Sse::new(watch::shared_events(views))
                    .keep_alive(KeepAlive::default())
                    .into_response(),
                Err(status) => RestError::from(status).into_response(),
            };
        }
        let request = grpc_request(&headers, message);
        let messages = match (self.call)(self.service.clone(), request).await {
            Ok(response) => response.into_inner(),
            Err(status) => return RestError::from(status).into_response(),
        };
        if self.route.shape == Shape::Ndjson {
            return ndjson::response(messages);
        }
        let endpoint = self.clone();
        let events = watch::events(messages, move |m: &Resp| endpoint.id_of(m));
        Sse::new(events)
            .keep_alive(KeepAlive::default())
            .into_response()
    }
}

/// The id a reconnecting EventSource last saw; one that is not a number is
/// ignored.
fn last_event_id(headers: &HeaderMap) -> Option<u64> {
    headers
        .get("last-event-id")?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

fn invariant(problem: impl std::fmt::Display) -> RestError {
    RestError::from(ApiError::invariant(&problem.to_string()))
}
