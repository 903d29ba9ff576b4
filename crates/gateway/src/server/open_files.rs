//! The process's open-files limit: every connection is a file, so the
//! soft limit (often 1024) would stop the server from accepting long
//! before memory does. Raised to the hard limit once, at start.

use std::sync::OnceLock;

/// Files the server keeps for itself beyond its connections: the
/// database pool, logs, the listener.
const RESERVE: u64 = 256;

static RAISED: OnceLock<Option<u64>> = OnceLock::new();

/// Raises the soft limit to the hard one (once per process) and logs
/// both; the soft limit now, if known.
pub(crate) fn raise() -> Option<u64> {
    *RAISED.get_or_init(|| match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(soft) => {
            let hard = rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(soft, |(_, hard)| hard);
            tracing::info!(soft, hard, "open files limit");
            Some(soft)
        }
        Err(error) => {
            tracing::warn!(%error, "cannot read or raise the open files limit");
            None
        }
    })
}

/// `configured` connections, lowered to what `open_files` leaves room for.
pub(crate) fn fit(configured: usize, open_files: Option<u64>) -> usize {
    let Some(open_files) = open_files else {
        return configured;
    };
    let room = usize::try_from(open_files.saturating_sub(RESERVE)).unwrap_or(usize::MAX);
    configured.min(room).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_leave_room_for_the_servers_own_files() {
        assert_eq!(fit(10_000, Some(1024)), 768);
        assert_eq!(fit(500, Some(1024)), 500);
        assert_eq!(fit(500, None), 500);
    }
}
