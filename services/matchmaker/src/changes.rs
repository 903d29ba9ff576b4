//! In-process notice that some ticket changed, so long polls and watches
//! wake at once for this instance's own changes (another instance's are
//! found by re-reading the ticket on a short timer).

use tokio::sync::watch;

#[derive(Debug, Clone)]
pub struct Changes {
    generation: watch::Sender<u64>,
}

impl Default for Changes {
    fn default() -> Self {
        Self {
            generation: watch::Sender::new(0),
        }
    }
}

impl Changes {
    /// Some ticket changed.
    pub fn bump(&self) {
        self.generation.send_modify(|g| *g = g.wrapping_add(1));
    }

    /// Sees every bump after this call.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.generation.subscribe()
    }
}
