//! The API types' integration tests, one binary: the descriptor set that
//! reflection serves, and the protobuf JSON mapping REST clients rely on.

mod descriptor;
mod json_mapping;
