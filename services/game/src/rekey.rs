//! Registered names stored under an older name rule get the keys of the
//! current one ([`names::NAME_RULE`]) when the service starts, so that a
//! name folds and is found the same way whenever it was registered. An
//! account whose new key or skeleton another account already holds keeps
//! its old key, by which it still signs in (`people::login`).

use skit_store::{Rekeyed, Store};

use crate::names;

/// How many names are read at a time.
const BATCH: u32 = 500;

/// Recomputes every registered name stored under an older rule; returns
/// how many got new keys and how many kept their old one.
pub async fn rekey_names(store: &Store) -> Result<(u64, u64), skit_store::Error> {
    let (mut rekeyed, mut kept) = (0, 0);
    loop {
        let batch = store.names_before_rule(names::NAME_RULE, BATCH).await?;
        if batch.is_empty() {
            break;
        }
        for (id, name) in batch {
            let key = names::key(&name);
            let skeleton = names::skeleton(&name);
            match store
                .rekey_name(id, &key, &skeleton, names::NAME_RULE)
                .await?
            {
                Rekeyed::Rekeyed => rekeyed += 1,
                Rekeyed::Kept => {
                    tracing::warn!(account = %id, "a registered name keeps its old key: \
                        another account holds its new key or one that looks like it");
                    kept += 1;
                }
            }
        }
    }
    if rekeyed + kept > 0 {
        tracing::info!(
            rekeyed,
            kept,
            rule = names::NAME_RULE,
            "registered names rekeyed"
        );
    }
    Ok((rekeyed, kept))
}
