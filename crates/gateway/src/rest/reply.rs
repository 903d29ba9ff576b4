//! What a route answers for a unary RPC.

use serde::Serialize;

use crate::{error::RestError, json::JsonBody};

/// A service answer as JSON, or its status as a [`RestError`].
pub(super) fn reply<T: Serialize>(
    result: Result<tonic::Response<T>, tonic::Status>,
) -> Result<JsonBody<T>, RestError> {
    Ok(JsonBody(result?.into_inner()))
}
