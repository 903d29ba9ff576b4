//! What a route answers for a unary RPC.

use serde::Serialize;

use crate::{error::ApiError, json::JsonBody};

/// A service answer as JSON, or its status as an [`ApiError`].
pub(super) fn reply<T: Serialize>(
    result: Result<tonic::Response<T>, tonic::Status>,
) -> Result<JsonBody<T>, ApiError> {
    Ok(JsonBody(result?.into_inner()))
}
