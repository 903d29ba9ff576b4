//! Reflection clients for tests (feature `testing`): what grpcurl (v1) and
//! Python's grpcio-reflection (v1alpha) see of a port.

use std::time::Duration;

use tonic::transport::Channel;
use tonic_reflection::pb::{v1, v1alpha};

/// The services `ListServices` names at `url` over v1 and over v1alpha,
/// each sorted. Retries the connection for a few seconds while the server
/// starts.
///
/// # Panics
/// If the server cannot be reached or either call fails.
pub async fn list_services(url: &str) -> (Vec<String>, Vec<String>) {
    let channel = connect(url).await;
    (list_v1(channel.clone()).await, list_v1alpha(channel).await)
}

/// Whether v1alpha reflection at `url` describes `symbol` (the file that
/// defines it), as a client does after listing.
///
/// # Panics
/// If the server cannot be reached or the call fails outright.
pub async fn v1alpha_describes(url: &str, symbol: &str) -> bool {
    use v1alpha::server_reflection_request::MessageRequest;
    use v1alpha::server_reflection_response::MessageResponse;
    let request = v1alpha::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::FileContainingSymbol(symbol.to_owned())),
    };
    let mut client =
        v1alpha::server_reflection_client::ServerReflectionClient::new(connect(url).await);
    let mut answers = client
        .server_reflection_info(futures_util::stream::iter([request]))
        .await
        .unwrap_or_else(|e| panic!("v1alpha reflection: {e}"))
        .into_inner();
    let answer = answers
        .message()
        .await
        .unwrap_or_else(|e| panic!("v1alpha reflection answer: {e}"));
    matches!(
        answer.and_then(|a| a.message_response),
        Some(MessageResponse::FileDescriptorResponse(files)) if !files.file_descriptor_proto.is_empty()
    )
}

async fn list_v1(channel: Channel) -> Vec<String> {
    use v1::server_reflection_request::MessageRequest;
    use v1::server_reflection_response::MessageResponse;
    let request = v1::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut client = v1::server_reflection_client::ServerReflectionClient::new(channel);
    let mut answers = client
        .server_reflection_info(futures_util::stream::iter([request]))
        .await
        .unwrap_or_else(|e| panic!("v1 reflection: {e}"))
        .into_inner();
    let answer = answers
        .message()
        .await
        .unwrap_or_else(|e| panic!("v1 ListServices: {e}"));
    match answer.and_then(|a| a.message_response) {
        Some(MessageResponse::ListServicesResponse(list)) => {
            sorted(list.service.into_iter().map(|s| s.name))
        }
        other => panic!("v1 ListServices answered {other:?}"),
    }
}

async fn list_v1alpha(channel: Channel) -> Vec<String> {
    use v1alpha::server_reflection_request::MessageRequest;
    use v1alpha::server_reflection_response::MessageResponse;
    let request = v1alpha::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut client = v1alpha::server_reflection_client::ServerReflectionClient::new(channel);
    let mut answers = client
        .server_reflection_info(futures_util::stream::iter([request]))
        .await
        .unwrap_or_else(|e| panic!("v1alpha reflection: {e}"))
        .into_inner();
    let answer = answers
        .message()
        .await
        .unwrap_or_else(|e| panic!("v1alpha ListServices: {e}"));
    match answer.and_then(|a| a.message_response) {
        Some(MessageResponse::ListServicesResponse(list)) => {
            sorted(list.service.into_iter().map(|s| s.name))
        }
        other => panic!("v1alpha ListServices answered {other:?}"),
    }
}

fn sorted(names: impl Iterator<Item = String>) -> Vec<String> {
    let mut names: Vec<String> = names.collect();
    names.sort();
    names
}

async fn connect(url: &str) -> Channel {
    let endpoint = Channel::from_shared(url.to_owned()).expect("a valid URL");
    for _ in 0..250 {
        if let Ok(channel) = endpoint.connect().await {
            return channel;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("cannot reach {url}");
}
