//! Provisioning: creating bot accounts with the operator token, marking
//! them as house bots (the only bots the matchmaker seats to fill a table)
//! and keeping their tokens in the accounts file, so a restart plays the
//! same accounts. Every call is retried with backoff while it fails for a
//! passing reason (the service not up yet, a balancer's 503 or its HTML
//! error page): a worker started beside the service waits for it.

use std::collections::HashSet;
use std::path::Path;

use anyhow::Context;
use skit_api::{Client, Secret};
use skit_proto::v1::{AccountKind, CreateAccountRequest, ListAccountsRequest, SetHouseBotRequest};

use crate::accounts::{AccountsFile, BotAccount};
use crate::retry::{patiently, retried};

/// The most house bots one listing returns (the service's cap).
const HOUSE_BOTS_PAGE: u32 = 1000;

/// What to provision.
#[derive(Debug, Clone)]
pub struct Provision {
    /// How many accounts of `strategy` the file should hold.
    pub count: usize,
    pub strategy: String,
    /// Names are `<prefix>-<strategy>-<n>`.
    pub prefix: String,
}

/// Makes the file at `path` hold at least `want.count` accounts playing
/// `want.strategy`, creating the missing ones (kind BOT) with the operator
/// token, and marks every account of `want.strategy` in the file as a
/// house bot that is not one already (a mark that failed, or an account
/// made before house bots existed, is marked now; one already marked is
/// left alone, so a restart writes nothing to the audit log). The file is
/// saved after each creation, so a failure part way loses no token. Calls
/// that fail for a passing reason are retried with backoff, without end:
/// run it against a stop signal. Returns the whole file.
#[tracing::instrument(skip_all, fields(count = want.count, strategy = %want.strategy))]
pub async fn provision(
    server: &str,
    operator: &Secret,
    path: &Path,
    want: &Provision,
) -> anyhow::Result<AccountsFile> {
    if let Some(reason) = skit_bots::refused_as_player(&want.strategy) {
        anyhow::bail!("strategy: {reason}");
    }
    anyhow::ensure!(
        skit_bots::NAMES.contains(&want.strategy.as_str()),
        "strategy: {:?} is not one of {}",
        want.strategy,
        skit_bots::NAMES.join(", ")
    );
    let mut file = AccountsFile::load(path)?;
    let have = file
        .accounts
        .iter()
        .filter(|a| a.strategy == want.strategy)
        .count();
    let client =
        Client::lazy(server, operator.clone()).with_context(|| format!("cannot reach {server}"))?;
    for n in have + 1..=want.count {
        let name = format!("{}-{}-{n}", want.prefix, want.strategy);
        let request = CreateAccountRequest {
            name: name.clone(),
            kind: AccountKind::Bot as i32,
            // The operator's own bots: nobody else runs them.
            owner_account_id: String::new(),
        };
        let reply = retried("CreateAccount", patiently(), || {
            let mut accounts = client.accounts.clone();
            let request = request.clone();
            async move { accounts.create_account(request).await }
        })
        .await
        .with_context(|| format!("cannot create the bot account {name}"))?
        .into_inner();
        tracing::info!(%name, account_id = %reply.account_id, "created a bot account");
        file.accounts.push(BotAccount {
            name,
            token: Secret::new(reply.token),
            strategy: want.strategy.clone(),
            account_id: Some(reply.account_id),
        });
        file.save(path)?;
    }
    let marked = house_bots(&client).await?;
    let ours = file.accounts.iter().filter(|a| a.strategy == want.strategy);
    for account in ours {
        let Some(id) = &account.account_id else {
            continue;
        };
        if marked.contains(id) {
            continue;
        }
        let request = SetHouseBotRequest {
            account_id: id.clone(),
            house_bot: true,
        };
        retried("SetHouseBot", patiently(), || {
            let mut accounts = client.accounts.clone();
            let request = request.clone();
            async move { accounts.set_house_bot(request).await }
        })
        .await
        .with_context(|| format!("cannot mark {} a house bot", account.name))?;
        tracing::info!(name = %account.name, "marked a house bot");
    }
    Ok(file)
}

/// The ids of the accounts marked house bots now.
async fn house_bots(client: &Client) -> anyhow::Result<HashSet<String>> {
    let request = ListAccountsRequest {
        kind: AccountKind::Bot as i32,
        limit: HOUSE_BOTS_PAGE,
        house_bots_only: true,
    };
    let reply = retried("ListAccounts", patiently(), || {
        let mut accounts = client.accounts.clone();
        async move { accounts.list_accounts(request).await }
    })
    .await
    .context("cannot list the house bots")?
    .into_inner();
    Ok(reply.accounts.into_iter().map(|a| a.account_id).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_omniscient_bot_is_never_provisioned() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("bots.json");
        let want = Provision {
            count: 1,
            strategy: "omniscient".into(),
            prefix: "house".into(),
        };
        // Refused before any call: the server address is never dialled.
        let err = provision("http://127.0.0.1:9", &Secret::new("op"), &path, &want)
            .await
            .expect_err("omniscient is refused");
        assert!(err.to_string().contains("sees every hand"), "{err}");
        assert!(!path.exists(), "a refused provisioning writes nothing");
    }
}
