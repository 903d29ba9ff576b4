//! The `skitgubbe.v1` API, generated from the `.proto` files in `proto/` at
//! the workspace root: prost messages, tonic clients and servers, and serde
//! impls that follow the protobuf JSON mapping (lowerCamelCase names on
//! output, original names accepted on input, enums as strings, 64-bit
//! integers as strings).
//!
//! ```
//! use skit_proto::v1::{Action, PlayAction, action::Kind};
//!
//! let play = Action { kind: Some(Kind::Play(PlayAction { cards: vec!["7C".into()] })) };
//! let json = serde_json::to_string(&play).unwrap();
//! assert_eq!(json, r#"{"play":{"cards":["7C"]}}"#);
//! ```

/// Package `skitgubbe.v1`: messages, `game_service_{client,server}` and
/// `account_service_{client,server}`.
#[allow(
    missing_docs,
    missing_debug_implementations,
    clippy::all,
    clippy::pedantic,
    clippy::unwrap_used
)]
pub mod v1 {
    include!(concat!(env!("OUT_DIR"), "/skitgubbe.v1.rs"));
    include!(concat!(env!("OUT_DIR"), "/skitgubbe.v1.serde.rs"));
}

pub mod rpcs;
mod timestamp;

pub use timestamp::Timestamp;

/// The encoded `google.protobuf.FileDescriptorSet` of `skitgubbe.v1` and its
/// imports, for `tonic-reflection` (`register_encoded_file_descriptor_set`).
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/skitgubbe_descriptor.bin"));
