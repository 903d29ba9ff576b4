//! The caps on open streams and long polls: how many one credential, and
//! one client address, may hold at once. A call holds its place until its
//! answer's body is done (for a stream: until it ends or is dropped).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use super::client::Key;

/// Open holds per key.
#[derive(Debug)]
pub(crate) struct StreamCaps {
    per_credential: usize,
    per_address: usize,
    open: Mutex<HashMap<Key, usize>>,
}

/// A place taken; given back when dropped.
#[derive(Debug)]
pub(crate) struct Held {
    caps: Arc<StreamCaps>,
    keys: Vec<Key>,
}

/// Which cap a refused call hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Full {
    pub scope: &'static str,
    pub limit: usize,
}

impl StreamCaps {
    pub(crate) fn new(per_credential: usize, per_address: usize) -> Arc<Self> {
        Arc::new(Self {
            per_credential,
            per_address,
            open: Mutex::new(HashMap::new()),
        })
    }

    /// A place for each of `keys` (the address, and the credential if
    /// any), or the cap that is full; takes none unless all are free.
    pub(crate) fn hold(self: &Arc<Self>, keys: Vec<Key>) -> Result<Held, Full> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        for key in &keys {
            let full = match key {
                Key::Address(_) => Full {
                    scope: "address",
                    limit: self.per_address,
                },
                Key::Credential(_) => Full {
                    scope: "credential",
                    limit: self.per_credential,
                },
            };
            if open.get(key).copied().unwrap_or(0) >= full.limit {
                return Err(full);
            }
        }
        for key in &keys {
            *open.entry(*key).or_insert(0) += 1;
        }
        Ok(Held {
            caps: self.clone(),
            keys,
        })
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut open = self.caps.open.lock().unwrap_or_else(|e| e.into_inner());
        for key in &self.keys {
            if let Some(count) = open.get_mut(key) {
                *count -= 1;
                if *count == 0 {
                    open.remove(key);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_credential_holds_at_most_its_cap_and_gets_places_back() {
        let caps = StreamCaps::new(2, 10);
        let address = Key::Address("192.0.2.1".parse().unwrap());
        let token = Key::Credential([7; 32]);

        let first = caps.hold(vec![address, token]).unwrap();
        let _second = caps.hold(vec![address, token]).unwrap();
        let third = caps.hold(vec![address, token]).unwrap_err();
        drop(first);

        assert_eq!(third.scope, "credential");
        let _again = caps.hold(vec![address, token]).unwrap();
        // The refused call took no place at the address.
        assert_eq!(caps.open.lock().unwrap()[&address], 2);
    }
}
