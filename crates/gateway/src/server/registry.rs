//! The open connections, for the caps on how many there are: in all and
//! per peer address. When a cap is reached the new connection is not
//! simply refused, since an attacker and honest clients may share an
//! address: an idle connection makes room for it, first the oldest that
//! has never sent a complete request, then the longest idle one. Only when
//! every connection has a call in flight is the new one refused.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
    time::Duration,
};

use tokio::{sync::Notify, time::Instant};

use crate::limits::TrustedProxies;

/// The gauge of open connections.
pub const OPEN: &str = "skit_connections_open";

/// What one connection is doing.
#[derive(Debug)]
pub(crate) struct Activity {
    accepted: Instant,
    in_flight: AtomicUsize,
    /// Whether a complete request has arrived on it.
    served: AtomicBool,
    /// When a call last started or finished (or the connection opened).
    last: Mutex<Instant>,
    evicted: AtomicBool,
    changed: Notify,
}

/// Why a connection should close.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Closing {
    /// Made room for a new connection.
    Evicted,
    /// No call for the idle timeout.
    Idle,
}

/// A call in flight on a connection; finished when dropped.
#[derive(Debug)]
pub(crate) struct Busy(Arc<Activity>);

impl Activity {
    fn new() -> Arc<Self> {
        let now = Instant::now();
        Arc::new(Self {
            accepted: now,
            in_flight: AtomicUsize::new(0),
            served: AtomicBool::new(false),
            last: Mutex::new(now),
            evicted: AtomicBool::new(false),
            changed: Notify::new(),
        })
    }

    /// A call starts; it lasts until the returned [`Busy`] is dropped.
    pub(crate) fn begin(self: &Arc<Self>) -> Busy {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        self.served.store(true, Ordering::SeqCst);
        self.touch();
        Busy(self.clone())
    }

    pub(crate) fn served(&self) -> bool {
        self.served.load(Ordering::SeqCst)
    }

    fn idle(&self) -> bool {
        self.in_flight.load(Ordering::SeqCst) == 0
    }

    fn last(&self) -> Instant {
        *self.last.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn touch(&self) {
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.changed.notify_waiters();
    }

    /// Resolves when the connection should close: evicted, or no call in
    /// flight for `idle`.
    pub(crate) async fn closing(&self, idle: Duration) -> Closing {
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            if self.evicted.load(Ordering::SeqCst) {
                return Closing::Evicted;
            }
            if !self.idle() {
                changed.await;
                continue;
            }
            let deadline = self.last() + idle;
            if Instant::now() >= deadline {
                return Closing::Idle;
            }
            tokio::select! {
                () = tokio::time::sleep_until(deadline) => {}
                () = changed => {}
            }
        }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
        self.0.touch();
    }
}

/// The table of open connections.
#[derive(Debug)]
pub(crate) struct Registry {
    max_total: usize,
    max_per_address: usize,
    /// Peers the per-address cap does not apply to (trusted proxies).
    uncapped: TrustedProxies,
    table: Mutex<Table>,
}

#[derive(Debug, Default)]
struct Table {
    next_id: u64,
    open: HashMap<u64, (IpAddr, Arc<Activity>)>,
    per_address: HashMap<IpAddr, usize>,
}

/// A connection's place in the table; left when dropped.
#[derive(Debug)]
pub(crate) struct Slot {
    registry: Arc<Registry>,
    id: u64,
    pub activity: Arc<Activity>,
}

/// Whether admitting a connection closed another.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Admitted {
    Freely(Slot),
    Evicting(Slot),
}

impl Registry {
    pub(crate) fn new(
        max_total: usize,
        max_per_address: usize,
        uncapped: TrustedProxies,
    ) -> Arc<Self> {
        Arc::new(Self {
            max_total: max_total.max(1),
            max_per_address: max_per_address.max(1),
            uncapped,
            table: Mutex::new(Table::default()),
        })
    }

    /// A place for a connection from `address`, making room under the caps
    /// if needed; `None` if every connection in the way is busy.
    pub(crate) fn admit(self: &Arc<Self>, address: IpAddr) -> Option<Admitted> {
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        let mut evicted = false;
        let capped = !self.uncapped.contains(&address);
        if capped && table.per_address.get(&address).copied().unwrap_or(0) >= self.max_per_address {
            let victim = table.victim(|ip| ip == address)?;
            table.evict(victim);
            evicted = true;
        }
        if table.open.len() >= self.max_total {
            let victim = table.victim(|_| true)?;
            table.evict(victim);
            evicted = true;
        }
        let id = table.next_id;
        table.next_id += 1;
        let activity = Activity::new();
        table.open.insert(id, (address, activity.clone()));
        *table.per_address.entry(address).or_insert(0) += 1;
        metrics::gauge!(OPEN).set(table.open.len() as f64);
        let slot = Slot {
            registry: self.clone(),
            id,
            activity,
        };
        Some(match evicted {
            true => Admitted::Evicting(slot),
            false => Admitted::Freely(slot),
        })
    }
}

impl Table {
    /// The connection to close for room among those from addresses
    /// `from` accepts: the oldest that never sent a complete request, else
    /// the longest idle; never one with a call in flight.
    fn victim(&self, from: impl Fn(IpAddr) -> bool) -> Option<u64> {
        let idle = self
            .open
            .iter()
            .filter(|(_, (ip, activity))| from(*ip) && activity.idle());
        idle.min_by_key(|(_, (_, activity))| {
            let served = activity.served();
            let since = match served {
                false => activity.accepted,
                true => activity.last(),
            };
            (served, since)
        })
        .map(|(id, _)| *id)
    }

    fn evict(&mut self, id: u64) {
        if let Some((_, activity)) = self.leave(id) {
            activity.evicted.store(true, Ordering::SeqCst);
            activity.changed.notify_waiters();
        }
    }

    fn leave(&mut self, id: u64) -> Option<(IpAddr, Arc<Activity>)> {
        let (address, activity) = self.open.remove(&id)?;
        if let Some(count) = self.per_address.get_mut(&address) {
            *count -= 1;
            if *count == 0 {
                self.per_address.remove(&address);
            }
        }
        Some((address, activity))
    }
}

impl PartialEq for Slot {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for Slot {}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut table = self
            .registry
            .table
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        table.leave(self.id);
        metrics::gauge!(OPEN).set(table.open.len() as f64);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn slot(admitted: Option<Admitted>) -> Slot {
        match admitted.unwrap() {
            Admitted::Freely(slot) | Admitted::Evicting(slot) => slot,
        }
    }

    #[tokio::test]
    async fn a_full_address_closes_its_oldest_silent_connection_not_a_busy_one() {
        let registry = Registry::new(100, 3, TrustedProxies::default());
        let here: IpAddr = "192.0.2.1".parse().unwrap();
        let busy = slot(registry.admit(here));
        let _call = busy.activity.begin();
        let oldest_silent = slot(registry.admit(here));
        let newer_silent = slot(registry.admit(here));

        let admitted = registry.admit(here);

        assert!(matches!(admitted, Some(Admitted::Evicting(_))));
        let closing = oldest_silent
            .activity
            .closing(Duration::from_secs(60))
            .await;
        assert_eq!(closing, Closing::Evicted);
        assert!(!newer_silent.activity.evicted.load(Ordering::SeqCst));
        assert!(!busy.activity.evicted.load(Ordering::SeqCst));
    }

    #[tokio::test]
    async fn with_every_connection_busy_a_new_one_is_refused_and_others_unaffected() {
        let registry = Registry::new(2, 2, TrustedProxies::default());
        let here: IpAddr = "192.0.2.1".parse().unwrap();
        let there: IpAddr = "192.0.2.2".parse().unwrap();
        let first = slot(registry.admit(here));
        let second = slot(registry.admit(here));
        let _calls = (first.activity.begin(), second.activity.begin());

        assert!(registry.admit(here).is_none());
        assert!(registry.admit(there).is_none());
        drop(first);
        assert!(registry.admit(there).is_some());
    }

    #[tokio::test(start_paused = true)]
    async fn a_connection_without_calls_closes_after_the_idle_timeout() {
        let registry = Registry::new(10, 10, TrustedProxies::default());
        let connection = slot(registry.admit("192.0.2.1".parse().unwrap()));
        let call = connection.activity.begin();

        let waiting = connection.activity.closing(Duration::from_secs(5));
        tokio::pin!(waiting);
        let during_call = tokio::time::timeout(Duration::from_secs(60), waiting.as_mut()).await;
        assert!(during_call.is_err(), "closed with a call in flight");
        drop(call);

        assert_eq!(waiting.await, Closing::Idle);
    }
}
