//! The shuffles' integration tests, one binary: the pinned test vectors,
//! and verification of honest and tampered games.

mod vectors;
mod verify;
