//! `skit admin`: the operator's commands over AdminService (gRPC, as
//! `skit play` talks to the game service): find and show accounts,
//! disable, ban or enable one, mark house bots, void a game, list and
//! revoke an account's credentials, reset a person's password, read the
//! audit log. Each prints a human-readable answer, or with `--json` the
//! API's answer as JSON (the protobuf JSON mapping).

mod show;

use std::process::ExitCode;

use anyhow::Context;
use clap::{Args as ClapArgs, Subcommand, ValueEnum};
use serde::Serialize;
use skit_api::{Bearer, Secret};
use skit_proto::v1::admin_service_client::AdminServiceClient;
use skit_proto::v1::{
    AccountKind, AccountStatus, AdminSetHouseBotRequest, FindAccountsRequest, GetAccountRequest,
    ListAuditLogRequest, ListCredentialsRequest, ResetPasswordRequest, RevokeCredentialRequest,
    SetAccountStatusRequest, VoidGameRequest,
};
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;

type Admin = AdminServiceClient<InterceptedService<Channel, Bearer>>;

#[derive(clap::Args)]
pub struct Args {
    /// The game service.
    #[arg(long, default_value = "http://127.0.0.1:50051", env = "SKIT_GAME_URL")]
    game_url: String,
    /// The operator's token (the service's SKIT_OPERATOR_TOKEN).
    #[arg(long, env = "SKIT_OPERATOR_TOKEN", hide_env_values = true)]
    token: String,
    /// Print the service's answer as JSON instead of text.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Find accounts, or show one.
    #[command(subcommand)]
    Accounts(Accounts),
    /// Disable an account: its credentials are refused and the clock plays
    /// its seats.
    Disable(StatusArgs),
    /// Ban an account (as disable, meant for good).
    Ban(StatusArgs),
    /// Enable a disabled or banned account again.
    Enable { account_id: String },
    /// Mark a bot account as a house bot (--off: no longer one).
    HouseBot {
        account_id: String,
        #[arg(long)]
        off: bool,
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// End a game that is not over as void: no result, unrated.
    Void {
        game_id: String,
        #[arg(long)]
        reason: String,
    },
    /// Give a person's account a new password and sign it out everywhere:
    /// without --password the service picks one and it is printed once.
    ResetPassword {
        account_id: String,
        /// The new password (8 to 128 characters).
        #[arg(long, env = "SKIT_NEW_PASSWORD", hide_env_values = true)]
        password: Option<String>,
        #[arg(long)]
        reason: String,
    },
    /// The audit log, newest first.
    Audit(AuditArgs),
    /// An account's credentials (never their secrets), or revoke one.
    #[command(subcommand)]
    Credentials(Credentials),
}

#[derive(Subcommand)]
enum Credentials {
    /// Every credential of the account, live or not.
    List { account_id: String },
    /// Revoke one live credential of the account.
    Revoke {
        account_id: String,
        credential_id: String,
        #[arg(long)]
        reason: String,
    },
}

#[derive(Subcommand)]
enum Accounts {
    /// Accounts matching every filter given, by ascending id.
    Find(FindArgs),
    /// One account, with its status and games.
    Show { account_id: String },
}

#[derive(ClapArgs)]
struct StatusArgs {
    account_id: String,
    #[arg(long)]
    reason: String,
}

#[derive(ClapArgs)]
struct FindArgs {
    /// The name, ignoring case.
    #[arg(long)]
    name: Option<String>,
    /// Names starting with --name.
    #[arg(long, requires = "name")]
    prefix: bool,
    #[arg(long)]
    kind: Option<Kind>,
    #[arg(long)]
    status: Option<Status>,
    #[arg(long, default_value_t = 0)]
    page_size: u32,
    /// The next_page_token a previous page printed.
    #[arg(long, default_value = "")]
    page_token: String,
}

#[derive(ClapArgs)]
struct AuditArgs {
    #[arg(long, default_value = "")]
    operator: String,
    #[arg(long, default_value = "")]
    action: String,
    /// Only actions on this account.
    #[arg(long, default_value = "")]
    account: String,
    /// Only actions on this game.
    #[arg(long, default_value = "")]
    game: String,
    #[arg(long, default_value_t = 0)]
    page_size: u32,
    #[arg(long, default_value = "")]
    page_token: String,
}

#[derive(Clone, Copy, ValueEnum)]
enum Kind {
    Guest,
    Player,
    Bot,
    Operator,
}

#[derive(Clone, Copy, ValueEnum)]
enum Status {
    Active,
    Disabled,
    Banned,
}

impl Kind {
    fn api(self) -> AccountKind {
        match self {
            Self::Guest => AccountKind::Guest,
            Self::Player => AccountKind::Player,
            Self::Bot => AccountKind::Bot,
            Self::Operator => AccountKind::Operator,
        }
    }
}

impl Status {
    fn api(self) -> AccountStatus {
        match self {
            Self::Active => AccountStatus::Active,
            Self::Disabled => AccountStatus::Disabled,
            Self::Banned => AccountStatus::Banned,
        }
    }
}

pub fn run(args: &Args) -> ExitCode {
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(command(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn connect(args: &Args) -> anyhow::Result<Admin> {
    let channel = crate::connect::channel(&args.game_url, "").await?;
    let bearer = Bearer::new(&Secret::new(args.token.clone()))
        .context("the token cannot be sent (printable ASCII only)")?;
    Ok(AdminServiceClient::with_interceptor(channel, bearer))
}

/// The service's refusal, as the operator should read it.
fn refused(status: tonic::Status) -> anyhow::Error {
    anyhow::anyhow!("{} ({:?})", status.message(), status.code())
}

async fn command(args: &Args) -> anyhow::Result<()> {
    let mut admin = connect(args).await?;
    let json = args.json;
    match &args.command {
        Command::Accounts(Accounts::Find(find)) => {
            let request = FindAccountsRequest {
                name: find.name.clone().unwrap_or_default(),
                name_prefix: find.prefix,
                kind: find.kind.map_or(0, |k| k.api() as i32),
                status: find.status.map_or(0, |s| s.api() as i32),
                page_size: find.page_size,
                page_token: find.page_token.clone(),
                ..Default::default()
            };
            let found = admin.find_accounts(request).await.map_err(refused)?;
            print(json, found.get_ref(), show::accounts)
        }
        Command::Accounts(Accounts::Show { account_id }) => {
            let request = GetAccountRequest {
                account_id: account_id.clone(),
            };
            let account = admin.get_account(request).await.map_err(refused)?;
            print(json, account.get_ref(), show::account)
        }
        Command::Disable(status) => {
            set_status(&mut admin, json, status, AccountStatus::Disabled).await
        }
        Command::Ban(status) => set_status(&mut admin, json, status, AccountStatus::Banned).await,
        Command::Enable { account_id } => {
            let enable = StatusArgs {
                account_id: account_id.clone(),
                reason: String::new(),
            };
            set_status(&mut admin, json, &enable, AccountStatus::Active).await
        }
        Command::HouseBot {
            account_id,
            off,
            reason,
        } => {
            let request = AdminSetHouseBotRequest {
                account_id: account_id.clone(),
                house_bot: !off,
                reason: reason.clone(),
            };
            let account = admin.set_house_bot(request).await.map_err(refused)?;
            print(json, account.get_ref(), show::account)
        }
        Command::Void { game_id, reason } => {
            let request = VoidGameRequest {
                game_id: game_id.clone(),
                reason: reason.clone(),
            };
            let voided = admin.void_game(request).await.map_err(refused)?;
            print(json, voided.get_ref(), show::voided)
        }
        Command::ResetPassword {
            account_id,
            password,
            reason,
        } => {
            let request = ResetPasswordRequest {
                account_id: account_id.clone(),
                new_password: password.clone(),
                reason: reason.clone(),
            };
            let reset = admin.reset_password(request).await.map_err(refused)?;
            print(json, reset.get_ref(), show::password_reset)
        }
        Command::Audit(audit) => {
            let request = ListAuditLogRequest {
                operator_id: audit.operator.clone(),
                action: audit.action.clone(),
                target_account_id: audit.account.clone(),
                target_game_id: audit.game.clone(),
                page_size: audit.page_size,
                page_token: audit.page_token.clone(),
            };
            let log = admin.list_audit_log(request).await.map_err(refused)?;
            print(json, log.get_ref(), show::audit_log)
        }
        Command::Credentials(Credentials::List { account_id }) => {
            let request = ListCredentialsRequest {
                account_id: account_id.clone(),
            };
            let listed = admin.list_credentials(request).await.map_err(refused)?;
            print(json, listed.get_ref(), show::credentials)
        }
        Command::Credentials(Credentials::Revoke {
            account_id,
            credential_id,
            reason,
        }) => {
            let request = RevokeCredentialRequest {
                account_id: account_id.clone(),
                credential_id: credential_id.clone(),
                reason: reason.clone(),
            };
            let revoked = admin.revoke_credential(request).await.map_err(refused)?;
            print(json, revoked.get_ref(), show::credential)
        }
    }
}

async fn set_status(
    admin: &mut Admin,
    json: bool,
    args: &StatusArgs,
    status: AccountStatus,
) -> anyhow::Result<()> {
    let request = SetAccountStatusRequest {
        account_id: args.account_id.clone(),
        status: status as i32,
        reason: args.reason.clone(),
    };
    let account = admin.set_account_status(request).await.map_err(refused)?;
    print(json, account.get_ref(), show::account)
}

/// `message` as JSON, or as `text` renders it.
fn print<T: Serialize>(json: bool, message: &T, text: fn(&T) -> String) -> anyhow::Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(message)?);
    } else {
        print!("{}", text(message));
    }
    Ok(())
}
