//! What a route answers for a unary RPC.

use axum::Json;
use serde::Serialize;

use crate::error::ApiError;

/// A service answer as JSON, or its status as an [`ApiError`].
pub(super) fn reply<T: Serialize>(
    result: Result<tonic::Response<T>, tonic::Status>,
) -> Result<Json<T>, ApiError> {
    Ok(Json(result?.into_inner()))
}
