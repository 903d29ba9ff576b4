//! gRPC (and gRPC-Web) WatchGame from a [`SharedWatch`]: each view's
//! protobuf bytes, made once per shared view, are copied into every
//! stream as they are instead of encoding the message per stream.

use std::{convert::Infallible, sync::Arc};

use axum::extract::Request;
use futures_util::future::BoxFuture;
use prost::bytes::BufMut;
use skit_proto::v1::{View, WatchGameRequest};
use tonic::{
    Status,
    codec::{BufferSettings, Codec, DecodeBuf, Decoder, EncodeBuf, Encoder},
    server::{Grpc, ServerStreamingService},
    service::Routes,
};
use tonic_prost::ProstCodec;

use crate::shared::{Shared, SharedViews, SharedWatch};

/// The method's path, as the generated server routes it.
const WATCH_GAME: &str = "/skitgubbe.v1.GameService/WatchGame";

/// `routes` with WatchGame answered by `watch` (the generated server keeps
/// every other GameService method).
pub fn with_shared_watch(routes: Routes, watch: Arc<dyn SharedWatch>) -> Routes {
    let service = tower::service_fn(move |request: Request| {
        let watch = watch.clone();
        async move {
            let mut grpc = Grpc::new(SharedCodec);
            Ok::<_, Infallible>(grpc.server_streaming(Method(watch), request).await)
        }
    });
    Routes::from(routes.into_axum_router().route_service(WATCH_GAME, service))
}

struct Method(Arc<dyn SharedWatch>);

impl ServerStreamingService<WatchGameRequest> for Method {
    type Response = Arc<Shared<View>>;
    type ResponseStream = SharedViews;
    type Future = BoxFuture<'static, Result<tonic::Response<SharedViews>, Status>>;

    fn call(&mut self, request: tonic::Request<WatchGameRequest>) -> Self::Future {
        let watch = self.0.clone();
        Box::pin(async move { watch.watch_shared(request).await.map(tonic::Response::new) })
    }
}

/// Decodes requests as prost does; encodes a shared view by copying its
/// bytes.
struct SharedCodec;

impl Codec for SharedCodec {
    type Encode = Arc<Shared<View>>;
    type Decode = WatchGameRequest;
    type Encoder = SharedEncoder;
    type Decoder = RequestDecoder;

    fn encoder(&mut self) -> SharedEncoder {
        SharedEncoder
    }

    fn decoder(&mut self) -> RequestDecoder {
        RequestDecoder(ProstCodec::<View, WatchGameRequest>::default().decoder())
    }
}

struct SharedEncoder;

/// Each stream's encode buffer, which it keeps while it is open: room for
/// one view as a move makes it (about 1 KB; a longer one grows it), not
/// tonic's 8 KiB default, which 10,000 open streams would hold as 80 MB.
const STREAM_BUFFER: usize = 2 * 1024;
/// tonic's own: how much a stream encodes before it lets others write.
const YIELD_THRESHOLD: usize = 32 * 1024;

impl Encoder for SharedEncoder {
    type Item = Arc<Shared<View>>;
    type Error = Status;

    fn encode(&mut self, item: Self::Item, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put_slice(&item.proto());
        Ok(())
    }

    fn buffer_settings(&self) -> BufferSettings {
        BufferSettings::new(STREAM_BUFFER, YIELD_THRESHOLD)
    }
}

struct RequestDecoder(<ProstCodec<View, WatchGameRequest> as Codec>::Decoder);

impl Decoder for RequestDecoder {
    type Item = WatchGameRequest;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<WatchGameRequest>, Status> {
        self.0.decode(src)
    }
}
