//! Who a call comes from, as the limits count it: the client's address
//! (the connection's peer, or, behind a trusted proxy, the address the
//! proxies forwarded) and, for a call with a bearer token, a hash of the
//! token: the token itself is never kept.

use std::net::{IpAddr, SocketAddr};

use axum::http::{HeaderMap, header};
use sha2::{Digest, Sha256};

use super::TrustedProxies;

/// The connection's peer, put on every request by [`crate::serve_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeerAddr(pub SocketAddr);

/// Whom a limit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    Address(IpAddr),
    /// The SHA-256 of the `authorization` header.
    Credential([u8; 32]),
}

/// The key of the credential a request carries, if any: the hash of its
/// bearer token, however the scheme is spelled, so one token is one key.
pub fn credential(headers: &HeaderMap) -> Option<Key> {
    let value = headers.get(header::AUTHORIZATION)?.as_bytes();
    let token = match value.iter().position(|&b| b == b' ') {
        Some(space) => value[space + 1..].trim_ascii(),
        None => value,
    };
    Some(hashed(token))
}

/// The key a bearer `token` has: how an exempt credential (the
/// operator's) is recognised without keeping it.
pub fn credential_of_token(token: &str) -> Key {
    hashed(token.as_bytes())
}

fn hashed(token: &[u8]) -> Key {
    Key::Credential(Sha256::digest(token).into())
}

/// The client's address: the peer, unless the peer is a trusted proxy;
/// then `X-Forwarded-For` is read from the right, past every trusted
/// proxy, to the first address no trusted proxy vouches for. An entry
/// that is not an address stops the walk at the last trusted hop's word.
pub fn address(peer: IpAddr, headers: &HeaderMap, trusted: &TrustedProxies) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let forwarded: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .collect();
    let mut client = peer;
    for hop in forwarded.iter().rev() {
        if !trusted.contains(&client) {
            break;
        }
        match hop.parse::<IpAddr>() {
            Ok(ip) => client = ip,
            Err(_) => break,
        }
    }
    client
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn forwarded(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", value.parse().unwrap());
        headers
    }

    #[test]
    fn forwarded_for_counts_only_from_a_trusted_proxy() {
        let proxy: IpAddr = "10.0.0.2".parse().unwrap();
        let trusted = TrustedProxies::parse("10.0.0.2").unwrap();
        let stranger: IpAddr = "203.0.113.9".parse().unwrap();
        let headers = forwarded("198.51.100.7");

        assert_eq!(address(stranger, &headers, &trusted), stranger);
        assert_eq!(
            address(proxy, &headers, &trusted),
            "198.51.100.7".parse::<IpAddr>().unwrap()
        );
    }

    #[test]
    fn a_forged_entry_left_of_the_real_client_is_ignored() {
        let proxies = TrustedProxies::parse("10.0.0.2, 10.0.0.3").unwrap();
        let headers = forwarded("1.2.3.4, 198.51.100.7, 10.0.0.3");

        let client = address("10.0.0.2".parse().unwrap(), &headers, &proxies);

        assert_eq!(client, "198.51.100.7".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn a_proxy_in_a_trusted_network_is_believed() {
        let proxies = TrustedProxies::parse("10.89.0.0/24").unwrap();
        let headers = forwarded("198.51.100.7");

        let client = address("10.89.0.5".parse().unwrap(), &headers, &proxies);

        assert_eq!(client, "198.51.100.7".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn the_token_is_hashed_and_keyed_alike_either_way() {
        let mut headers = HeaderMap::new();
        headers.insert(header::AUTHORIZATION, "Bearer s3cret".parse().unwrap());
        let key = credential(&headers).unwrap();
        headers.insert(header::AUTHORIZATION, "bearer  s3cret".parse().unwrap());

        assert_eq!(credential(&headers), Some(key));
        assert_eq!(key, credential_of_token("s3cret"));
        assert!(!format!("{key:?}").contains("s3cret"));
    }
}
