//! `skit admin`'s answers as text for people: one account per line in a
//! listing, one field per line for a single account.

use std::fmt::Write;

use skit_proto::v1::{
    AccountKind, AccountStatus, AdminAccount, AdminCredential, AuditEntry, FindAccountsResponse,
    ListAuditLogResponse, ListCredentialsResponse, ResetPasswordResponse, VoidGameResponse,
};

fn kind(account: &AdminAccount) -> &'static str {
    match account.kind() {
        AccountKind::Guest => "guest",
        AccountKind::Player => "player",
        AccountKind::Bot => "bot",
        AccountKind::Operator => "operator",
        AccountKind::Unspecified => "?",
    }
}

fn status(account: &AdminAccount) -> &'static str {
    match account.status() {
        AccountStatus::Active => "active",
        AccountStatus::Disabled => "disabled",
        AccountStatus::Banned => "banned",
        AccountStatus::Unspecified => "?",
    }
}

/// A timestamp as RFC 3339, as the JSON mapping writes it.
fn time<T: serde::Serialize>(at: Option<&T>) -> String {
    at.and_then(|t| serde_json::to_value(t).ok())
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| "-".into())
}

fn next_page(out: &mut String, token: &str) {
    if !token.is_empty() {
        let _ = writeln!(out, "more: --page-token {token}");
    }
}

pub fn accounts(found: &FindAccountsResponse) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>8}  {:<24} {:<8} {:<8} house bot",
        "id", "name", "kind", "status"
    );
    for a in &found.accounts {
        let _ = writeln!(
            out,
            "{:>8}  {:<24} {:<8} {:<8} {}",
            a.account_id,
            a.name,
            kind(a),
            status(a),
            if a.house_bot { "yes" } else { "no" }
        );
    }
    if found.accounts.is_empty() {
        out.push_str("no accounts match\n");
    }
    next_page(&mut out, &found.next_page_token);
    out
}

pub fn account(a: &AdminAccount) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "account   {}", a.account_id);
    let _ = writeln!(out, "name      {}", a.name);
    let _ = writeln!(out, "kind      {}", kind(a));
    match a.status_reason.as_str() {
        "" => {
            let _ = writeln!(out, "status    {}", status(a));
        }
        reason => {
            let _ = writeln!(out, "status    {} ({reason})", status(a));
        }
    }
    let _ = writeln!(out, "house bot {}", if a.house_bot { "yes" } else { "no" });
    let _ = writeln!(out, "created   {}", time(a.created_at.as_ref()));
    let _ = writeln!(out, "games     {} ({} running)", a.games, a.running_games);
    out
}

pub fn password_reset(r: &ResetPasswordResponse) -> String {
    let mut out = r.account.as_ref().map(account).unwrap_or_default();
    out.push_str("every credential of the account is revoked\n");
    if !r.generated_password.is_empty() {
        let _ = writeln!(out, "new password {}", r.generated_password);
    }
    out
}

pub fn voided(v: &VoidGameResponse) -> String {
    format!("game {} voided at version {}\n", v.game_id, v.version)
}

fn target(e: &AuditEntry) -> String {
    match (&e.target_account_id, &e.target_game_id) {
        (Some(account), _) => format!("account {account}"),
        (None, Some(game)) => format!("game {game}"),
        (None, None) => "-".into(),
    }
}

pub fn audit_log(log: &ListAuditLogResponse) -> String {
    let mut out = String::new();
    for e in &log.entries {
        let details = e
            .details
            .as_ref()
            .and_then(|d| serde_json::to_string(d).ok())
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "#{} {} operator {} {} {} reason={:?} {details}",
            e.id,
            time(e.at.as_ref()),
            e.operator_id,
            e.action,
            target(e),
            e.reason
        );
    }
    if log.entries.is_empty() {
        out.push_str("no entries\n");
    }
    next_page(&mut out, &log.next_page_token);
    out
}

/// One credential, one line: what it is and whether it is live.
pub fn credential(c: &AdminCredential) -> String {
    let state = match (&c.revoked_at, &c.revoked_reason) {
        (Some(at), reason) => format!(
            "revoked {} ({})",
            time(Some(at)),
            reason.as_deref().unwrap_or("-")
        ),
        (None, _) => match &c.expires_at {
            Some(at) => format!("live, expires {}", time(Some(at))),
            None => "live".into(),
        },
    };
    let label = c
        .label
        .as_deref()
        .map(|l| format!(" label={l:?}"))
        .unwrap_or_default();
    let scopes = match c.scopes.is_empty() {
        true => String::new(),
        false => format!(" scopes={}", c.scopes.join(",")),
    };
    format!(
        "#{} {} created {} {state}{label}{scopes}\n",
        c.credential_id,
        c.kind,
        time(c.created_at.as_ref())
    )
}

pub fn credentials(listed: &ListCredentialsResponse) -> String {
    let mut out: String = listed.credentials.iter().map(credential).collect();
    if listed.credentials.is_empty() {
        out.push_str("no credentials\n");
    }
    out
}
