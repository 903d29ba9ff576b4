//! Enqueue: the request is checked in full (its text as storable, rules by
//! the engine, every player count against the preset) before anything is
//! stored, and the caller's rating under the ruleset is looked up once,
//! here. A request id makes a resend return the first ticket, whatever
//! became of it, so a player whose answer was lost is never queued (and
//! seated) twice.

use skit_api::ApiError;
use skit_engine::Ruleset;
use skit_proto::v1::{AccountKind, EnqueueRequest, Rules, Ticket};
use skit_store::{AccountId, Enqueued, NewTicket};

use super::{Caller, MatchmakingApi};
use crate::convert;
use crate::error::store_error;

/// The acceptable player counts, ascending and without repeats; every one
/// checked against the ruleset (empty: every count the ruleset allows).
pub(crate) fn player_counts(rules: &Ruleset, counts: &[u32]) -> Result<Vec<u32>, ApiError> {
    if counts.is_empty() {
        let (lo, hi) = rules.preset.players();
        let all: Vec<u32> = (lo..=hi)
            .filter(|&n| rules.check_players(n).is_ok())
            .map(u32::from)
            .collect();
        return Ok(all);
    }
    let mut checked = Vec::with_capacity(counts.len());
    for (i, &count) in counts.iter().enumerate() {
        let field = format!("player_counts[{i}]");
        let players =
            u8::try_from(count).map_err(|_| ApiError::invalid(&field, "too many players"))?;
        rules
            .check_players(players)
            .map_err(|e| ApiError::invalid(&field, e.to_string()))?;
        checked.push(count);
    }
    checked.sort_unstable();
    checked.dedup();
    Ok(checked)
}

impl MatchmakingApi {
    /// The hourly ticket quota `caller` is held to: none for the operator.
    fn tickets_quota(&self, caller: &Caller) -> Option<u64> {
        self.tickets_per_hour
            .filter(|_| caller.kind != AccountKind::Operator)
    }

    #[tracing::instrument(skip_all, fields(account = caller.account_id, ticket_id))]
    pub(super) async fn enqueue_ticket(
        &self,
        caller: Caller,
        req: EnqueueRequest,
    ) -> Result<Ticket, ApiError> {
        let request_id = skit_api::request_id(&req.request_id, "request_id")?;
        let rules_message = req.rules.clone().unwrap_or_else(|| Rules {
            preset: "skitgubbe".into(),
            options: None,
        });
        // Stored as given, so its text must be storable.
        let stored_rules = convert::rules_to_store(&rules_message);
        skit_api::text::stored_json("rules", &stored_rules)?;
        let ruleset = skit_api::rules(Some(&rules_message))?;
        let counts = player_counts(&ruleset, &req.player_counts)?;
        let rating = self
            .game
            .ratings(&[caller.account_id], &rules_message)
            .await
            .first()
            .copied()
            .unwrap_or(0.0);
        let new = NewTicket {
            account_id: AccountId(caller.account_id),
            guest: caller.kind == AccountKind::Guest,
            rules: stored_rules,
            ruleset_key: ruleset.key(),
            player_counts: counts,
            allow_bots: req.allow_bots,
            rating,
            request_id: request_id.map(str::to_owned),
        };
        // Counted and stored in one transaction under the account's quota
        // lock, so the quota holds across concurrent calls and matchmakers.
        let quota = self.tickets_quota(&caller);
        let enqueued = self.store.enqueue_within(new.clone(), quota).await;
        match enqueued.map_err(quota_error)? {
            Enqueued::New(ticket) => {
                crate::metrics::ticket_enqueued();
                tracing::Span::current().record("ticket_id", tracing::field::display(ticket.id));
                self.changes.bump();
                self.wake.notify_one();
                Ok(convert::ticket(&ticket))
            }
            Enqueued::AlreadyQueued(queued) => Err(ApiError::failed_precondition(format!(
                "you already have a queued ticket: {}",
                queued.id
            ))),
            Enqueued::Requested(first) => {
                // The same rules are the same ruleset key (the resolved
                // ruleset), however the options were written.
                if (&first.ruleset_key, &first.player_counts, first.allow_bots)
                    != (&new.ruleset_key, &new.player_counts, new.allow_bots)
                {
                    return Err(ApiError::request_id_reused(
                        "request_id",
                        format!(
                            "request_id was used for ticket {} with other rules, player \
                             counts or allow_bots",
                            first.id
                        ),
                    ));
                }
                tracing::info!(ticket_id = %first.id, "repeated Enqueue answered with the first ticket");
                Ok(convert::ticket(&first))
            }
        }
    }
}

/// A store error as the client sees it; the quota's refusal says how many
/// tickets the account enqueued.
fn quota_error(e: skit_store::Error) -> ApiError {
    let skit_store::Error::QuotaExceeded { quota, limit, held } = e else {
        return store_error(e);
    };
    ApiError::quota_exceeded(
        quota,
        limit,
        format!("you enqueued {held} tickets in the last hour, the most allowed"),
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn rules(name: &str) -> Ruleset {
        Ruleset::from_json(&serde_json::json!(name)).unwrap()
    }

    #[test]
    fn counts_are_checked_sorted_and_deduplicated() {
        assert_eq!(player_counts(&rules("mas"), &[4, 2, 4]).unwrap(), [2, 4]);
        assert_eq!(player_counts(&rules("mas"), &[]).unwrap(), [2, 3, 4]);
    }

    #[test]
    fn a_count_outside_the_preset_is_named() {
        let err = player_counts(&rules("mas"), &[2, 5]).unwrap_err();
        assert!(err.to_string().starts_with("player_counts[1]: "), "{err}");
        let err = player_counts(&rules("mas"), &[300]).unwrap_err();
        assert!(err.to_string().starts_with("player_counts[0]: "), "{err}");
    }
}
