//! Provisioning: creating bot accounts with the operator token, marking
//! them as house bots (the only bots the matchmaker seats to fill a table)
//! and keeping their tokens in the accounts file, so a restart plays the
//! same accounts.

use std::path::Path;

use anyhow::Context;
use skit_api::{Client, Secret};
use skit_proto::v1::{AccountKind, CreateAccountRequest, SetHouseBotRequest};

use crate::accounts::{AccountsFile, BotAccount};

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
/// house bot (again each time: a mark that failed, or an account made
/// before house bots existed, is marked now). The file is saved after each
/// creation, so a failure part way loses no token. Returns the whole file.
#[tracing::instrument(skip_all, fields(count = want.count, strategy = %want.strategy))]
pub async fn provision(
    server: &str,
    operator: &Secret,
    path: &Path,
    want: &Provision,
) -> anyhow::Result<AccountsFile> {
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
    let mut client = Client::connect(server, operator.clone())
        .await
        .with_context(|| format!("cannot reach {server}"))?;
    for n in have + 1..=want.count {
        let name = format!("{}-{}-{n}", want.prefix, want.strategy);
        let reply = client
            .accounts
            .create_account(CreateAccountRequest {
                name: name.clone(),
                kind: AccountKind::Bot as i32,
                // The operator's own bots: nobody else runs them.
                owner_account_id: String::new(),
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
    let ours = file.accounts.iter().filter(|a| a.strategy == want.strategy);
    for account in ours {
        let Some(id) = &account.account_id else {
            continue;
        };
        client
            .accounts
            .set_house_bot(SetHouseBotRequest {
                account_id: id.clone(),
                house_bot: true,
            })
            .await
            .with_context(|| format!("cannot mark {} a house bot", account.name))?;
    }
    Ok(file)
}
