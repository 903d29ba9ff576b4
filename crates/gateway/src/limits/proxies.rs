//! The proxies whose `X-Forwarded-For` is believed: addresses and networks
//! (`10.0.0.2`, `10.244.0.0/16`, `fd00::/8`), as `SKIT_TRUSTED_PROXIES`
//! lists them. A network is how a proxy's address is known where it
//! changes: a compose network's subnet, a Kubernetes cluster's pod range.

use std::net::IpAddr;

use ipnet::IpNet;

/// Trusted proxies, by address or network; empty trusts none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// Parses a comma-separated list; an entry that is neither an address
    /// nor a network is returned as the error.
    pub fn parse(list: &str) -> Result<Self, String> {
        list.split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| {
                entry
                    .parse::<IpNet>()
                    .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| entry.to_owned())
            })
            .collect::<Result<_, _>>()
            .map(Self)
    }

    /// Whether `address` is one of them (or in one of their networks).
    pub fn contains(&self, address: &IpAddr) -> bool {
        let address = address.to_canonical();
        self.0.iter().any(|net| net.contains(&address))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn addresses_and_networks_are_trusted_and_nothing_else() {
        let trusted = TrustedProxies::parse(" 10.0.0.2, 10.89.0.0/24 ,fd00::/8").unwrap();

        assert!(trusted.contains(&ip("10.0.0.2")));
        assert!(!trusted.contains(&ip("10.0.0.3")));
        assert!(trusted.contains(&ip("10.89.0.17")));
        assert!(!trusted.contains(&ip("10.89.1.17")));
        assert!(trusted.contains(&ip("fd12::1")));
        // A v4 peer on a dual-stack socket is still that v4 address.
        assert!(trusted.contains(&ip("::ffff:10.89.0.17")));
        assert!(!TrustedProxies::default().contains(&ip("10.0.0.2")));
    }

    #[test]
    fn an_entry_that_is_neither_is_named() {
        assert_eq!(
            TrustedProxies::parse("10.0.0.2, 10.0.0.0/33").unwrap_err(),
            "10.0.0.0/33"
        );
        assert_eq!(TrustedProxies::parse("lb").unwrap_err(), "lb");
    }
}
