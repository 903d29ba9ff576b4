//! An account as a client holds it, and requests sent as that account.

use skit_proto::v1::CreateGuestRequest;
use skit_proto::v1::account_service_client::AccountServiceClient;
use tonic::Request;

/// An account and its bearer token.
#[derive(Debug, Clone)]
pub struct Player {
    pub id: String,
    pub token: String,
}

/// `message` with `authorization: Bearer <token>`.
pub fn authed<T>(message: T, token: &str) -> Request<T> {
    skit_api::authed(message, token).unwrap_or_else(|e| panic!("{token:?}: {e}"))
}

/// A new guest account at the service at `url`, signed up as a client
/// would (for a service this kit did not start, such as a child process).
pub async fn guest_at(url: &str, name: &str) -> Player {
    let reply = AccountServiceClient::connect(url.to_owned())
        .await
        .unwrap_or_else(|e| panic!("connect to {url}: {e}"))
        .create_guest(CreateGuestRequest {
            name: Some(name.into()),
            request_id: String::new(),
        })
        .await
        .unwrap_or_else(|e| panic!("guest {name}: {e}"))
        .into_inner();
    Player {
        id: reply.account_id,
        token: reply.token,
    }
}
