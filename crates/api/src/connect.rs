//! A connection to the game service that sends the caller's bearer token
//! with every call.

use skit_proto::v1::account_service_client::AccountServiceClient;
use skit_proto::v1::game_service_client::GameServiceClient;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::{Channel, Endpoint};

use crate::{Bearer, Secret};

/// `GameService` calls as one account.
pub type GameClient = GameServiceClient<InterceptedService<Channel, Bearer>>;
/// `AccountService` calls as one account.
pub type AccountClient = AccountServiceClient<InterceptedService<Channel, Bearer>>;

/// Both services over one channel, as one account. Cheap to clone: clones
/// share the connection.
#[derive(Debug, Clone)]
pub struct Client {
    pub games: GameClient,
    pub accounts: AccountClient,
}

/// Why a client could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("the server address {0:?} is not a URL")]
    Url(String),
    #[error("the token cannot be sent as a header (printable ASCII only)")]
    Token,
    #[error(transparent)]
    Transport(#[from] tonic::transport::Error),
}

impl Client {
    /// Connects now; fails if the service cannot be reached.
    pub async fn connect(url: &str, token: Secret) -> Result<Client, ConnectError> {
        let channel = endpoint(url)?.connect().await?;
        Client::with_channel(channel, &token)
    }

    /// Connects on first use and reconnects after a failure: calls made while
    /// the service is down fail with `UNAVAILABLE` and may be retried.
    pub fn lazy(url: &str, token: Secret) -> Result<Client, ConnectError> {
        Client::with_channel(endpoint(url)?.connect_lazy(), &token)
    }

    /// A client on an existing channel (several accounts may share one).
    pub fn with_channel(channel: Channel, token: &Secret) -> Result<Client, ConnectError> {
        let bearer = Bearer::new(token).map_err(|_| ConnectError::Token)?;
        Ok(Client {
            games: GameServiceClient::with_interceptor(channel.clone(), bearer.clone()),
            accounts: AccountServiceClient::with_interceptor(channel, bearer),
        })
    }
}

/// An endpoint for `url` (`http://host:port`).
pub fn endpoint(url: &str) -> Result<Endpoint, ConnectError> {
    Endpoint::from_shared(url.to_owned())
        .map(|e| e.tcp_nodelay(true))
        .map_err(|_| ConnectError::Url(url.to_owned()))
}
