//! Messages that many streams send alike (one game version's spectator
//! view to every spectator): each is encoded once, for gRPC on first use
//! and for JSON on first use, and every stream writes the same bytes.
//!
//! A service whose WatchGame hands out [`Shared`] views implements
//! [`SharedWatch`]; [`crate::with_shared_watch`] routes gRPC and gRPC-Web
//! WatchGame calls to it, and the REST router's Server-Sent Events use it
//! when the router carries it (`Extension<Arc<dyn SharedWatch>>`).

use std::{
    pin::Pin,
    sync::{
        Arc, OnceLock,
        atomic::{AtomicU64, Ordering},
    },
};

use futures_util::Stream;
use prost::{Message, bytes::Bytes};
use serde::Serialize;
use skit_proto::v1::{View, WatchGameRequest};
use tonic::{Request, Status};

use crate::json;

/// Encodings made by every [`Shared`] in the process, for benchmarks and
/// tests: (gRPC, JSON).
static ENCODINGS: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];

/// How many protobuf and JSON encodings [`Shared`] messages have made.
pub fn encodings() -> (u64, u64) {
    (
        ENCODINGS[0].load(Ordering::Relaxed),
        ENCODINGS[1].load(Ordering::Relaxed),
    )
}

/// A message with its encodings, each made at most once.
#[derive(Debug)]
pub struct Shared<T> {
    message: T,
    proto: OnceLock<Bytes>,
    json: OnceLock<Result<Bytes, String>>,
}

impl<T: Message + Serialize> Shared<T> {
    pub fn new(message: T) -> Arc<Self> {
        Arc::new(Self {
            message,
            proto: OnceLock::new(),
            json: OnceLock::new(),
        })
    }

    pub fn message(&self) -> &T {
        &self.message
    }

    /// The protobuf encoding (without gRPC's length prefix).
    pub fn proto(&self) -> Bytes {
        self.proto
            .get_or_init(|| {
                ENCODINGS[0].fetch_add(1, Ordering::Relaxed);
                Bytes::from(self.message.encode_to_vec())
            })
            .clone()
    }

    /// The JSON the REST face writes for it; an error names what could not
    /// be written.
    pub fn json(&self) -> Result<Bytes, String> {
        self.json
            .get_or_init(|| {
                ENCODINGS[1].fetch_add(1, Ordering::Relaxed);
                json::to_vec(&self.message)
                    .map(Bytes::from)
                    .map_err(|e| e.to_string())
            })
            .clone()
    }
}

/// A stream of shared views.
pub type SharedViews = Pin<Box<dyn Stream<Item = Result<Arc<Shared<View>>, Status>> + Send>>;

/// WatchGame answered with shared views: the same stream the
/// service's `watch_game` gives, each view encoded once however many
/// watch it.
#[tonic::async_trait]
pub trait SharedWatch: Send + Sync + 'static {
    async fn watch_shared(&self, request: Request<WatchGameRequest>)
    -> Result<SharedViews, Status>;
}
