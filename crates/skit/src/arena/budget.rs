//! The search budget flags every arena mode shares.

use std::time::Duration;

use skit_bots::Budget;

#[derive(clap::Args, Clone, Debug)]
pub struct BudgetArgs {
    /// CPU time per decision of the searching bots, in milliseconds of the
    /// deciding thread's CPU time (0: no limit but --playouts).
    #[arg(long, default_value_t = skit_bots::DECISION_TIME.as_millis() as u64)]
    pub decision_ms: u64,
    /// Searches: most playouts per decision.
    #[arg(long, default_value_t = Budget::default().playouts)]
    pub playouts: usize,
    /// Searches: most sampled states per decision.
    #[arg(long, default_value_t = Budget::default().determinizations)]
    pub determinizations: usize,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
}

impl BudgetArgs {
    pub fn budget(&self) -> Budget {
        Budget {
            time: (self.decision_ms > 0).then_some(Duration::from_millis(self.decision_ms)),
            playouts: self.playouts,
            determinizations: self.determinizations,
            ..Budget::default()
        }
    }

    /// "20 ms CPU a decision (at most 100000 playouts x 24 states)".
    pub fn describe(&self) -> String {
        let limit = match self.decision_ms {
            0 => "no time limit".to_string(),
            ms => format!("{ms} ms CPU a decision"),
        };
        format!(
            "{limit} (at most {} playouts x {} states)",
            self.playouts, self.determinizations
        )
    }
}
