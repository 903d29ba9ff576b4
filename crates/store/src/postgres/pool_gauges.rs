//! The connection pools' use as gauges, for the operator's dashboard and
//! the connection budget (docs/operations.md, "Connections"):
//! `skit_db_pool_connections{pool, state}` (busy or idle) and
//! `skit_db_pool_max_connections{pool}`, every few seconds while the store
//! lives. `pool` is `queries` (the main pool) or `notices`.

use std::time::Duration;

use sqlx::postgres::PgPool;
use tokio::task::JoinHandle;

/// How often the gauges are set.
const EVERY: Duration = Duration::from_secs(5);

pub(crate) const CONNECTIONS: &str = "skit_db_pool_connections";
pub(crate) const MAX_CONNECTIONS: &str = "skit_db_pool_max_connections";

/// The task setting the gauges; aborted when dropped, so a dropped store
/// does not keep its pools open.
#[derive(Debug)]
pub(crate) struct PoolGauges(JoinHandle<()>);

impl Drop for PoolGauges {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Starts setting the gauges of `pools` (each with its name).
pub(crate) fn start(pools: [(&'static str, PgPool); 2]) -> PoolGauges {
    PoolGauges(tokio::spawn(async move {
        let mut tick = tokio::time::interval(EVERY);
        loop {
            tick.tick().await;
            for (name, pool) in &pools {
                if pool.is_closed() {
                    return;
                }
                let size = pool.size();
                let idle = u32::try_from(pool.num_idle()).unwrap_or(size).min(size);
                metrics::gauge!(CONNECTIONS, "pool" => *name, "state" => "busy")
                    .set(f64::from(size - idle));
                metrics::gauge!(CONNECTIONS, "pool" => *name, "state" => "idle")
                    .set(f64::from(idle));
                metrics::gauge!(MAX_CONNECTIONS, "pool" => *name)
                    .set(f64::from(pool.options().get_max_connections()));
            }
        }
    }))
}
