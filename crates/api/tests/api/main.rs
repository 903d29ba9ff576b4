//! The API glue's integration tests, one binary: views converted back into
//! the engine's, checked against real games played through the service.

mod view_roundtrip;
