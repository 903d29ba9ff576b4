//! The flow of `skit play`: sign in (a guest unless a token is given),
//! queue with the matchmaker, then show the table and play the person's
//! choices until the game is over. Input arrives as lines on a channel, so
//! a test can type for the person.

use std::io::Write;
use std::time::SystemTime;

use anyhow::{Context, bail};
use skit_proto::v1::account_service_client::AccountServiceClient;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::matchmaking_service_client::MatchmakingServiceClient;
use skit_proto::v1::{
    CreateGuestRequest, EnqueueRequest, GetTicketRequest, GetViewRequest, Phase, Rules,
    SubmitMoveRequest, TicketState, View,
};
use tokio::sync::mpsc;
use tonic::transport::Channel;
use tonic::{Code, Request};

use super::render::{action_label, render};

/// How long one long poll waits for the game or the ticket to change.
const WAIT_MS: u32 = 20_000;

/// A request with the bearer token.
fn authed<T>(message: T, token: &str) -> anyhow::Result<Request<T>> {
    let mut request = Request::new(message);
    let value = format!("Bearer {token}")
        .parse()
        .context("the token is not valid header text")?;
    request.metadata_mut().insert("authorization", value);
    Ok(request)
}

/// Creates a guest account; returns its token.
pub async fn guest(channel: Channel, name: Option<String>) -> anyhow::Result<String> {
    let reply = AccountServiceClient::new(channel)
        .create_guest(CreateGuestRequest { name })
        .await
        .context("cannot create a guest account")?
        .into_inner();
    Ok(reply.token)
}

/// Queues with the matchmaker and waits for a table: the game and seat.
pub async fn queue(
    channel: Channel,
    token: &str,
    rules: Rules,
    player_counts: Vec<u32>,
    out: &mut (dyn Write + Send),
) -> anyhow::Result<(String, u32)> {
    let mut client = MatchmakingServiceClient::new(channel);
    let ticket = client
        .enqueue(authed(
            EnqueueRequest {
                rules: Some(rules),
                player_counts,
                allow_bots: true,
            },
            token,
        )?)
        .await
        .context("the matchmaker refused the ticket")?
        .into_inner();
    writeln!(
        out,
        "Queued (ticket {}); waiting for a table...",
        ticket.ticket_id
    )?;
    loop {
        let ticket = client
            .get_ticket(authed(
                GetTicketRequest {
                    ticket_id: ticket.ticket_id.clone(),
                    wait_ms: WAIT_MS,
                },
                token,
            )?)
            .await
            .context("cannot read the ticket")?
            .into_inner();
        match (ticket.state(), ticket.game_id, ticket.seat) {
            (TicketState::Matched, Some(game), Some(seat)) => return Ok((game, seat)),
            (TicketState::Cancelled, ..) => bail!("the ticket was cancelled"),
            _ => {}
        }
    }
}

/// What the person typed, read against the legal actions.
#[derive(Debug, PartialEq, Eq)]
pub enum Choice {
    /// The index of a legal action.
    Action(usize),
    Quit,
    /// Not understood; the text says why.
    Unclear(String),
}

pub fn parse_choice(line: &str, legal: usize) -> Choice {
    let line = line.trim();
    if matches!(line, "q" | "quit") {
        return Choice::Quit;
    }
    match line.parse::<usize>() {
        Ok(n) if (1..=legal).contains(&n) => Choice::Action(n - 1),
        _ => Choice::Unclear(format!(
            "type a number from 1 to {legal}, or q to leave the table"
        )),
    }
}

/// Plays `seat` of `game` with the person's choices until the game is over
/// (the final view) or the person quits (`None`).
pub async fn play_game(
    channel: Channel,
    token: &str,
    game_id: &str,
    seat: u32,
    input: &mut mpsc::Receiver<String>,
    out: &mut (dyn Write + Send),
) -> anyhow::Result<Option<View>> {
    let mut client = GameServiceClient::new(channel);
    let mut wait_after = None;
    loop {
        let view = client
            .get_view(authed(
                GetViewRequest {
                    game_id: game_id.to_owned(),
                    seat: Some(seat),
                    wait_for_version_after: wait_after,
                    timeout_ms: WAIT_MS,
                    ..GetViewRequest::default()
                },
                token,
            )?)
            .await
            .context("cannot read the game")?
            .into_inner();
        if wait_after == Some(view.version) {
            continue; // the long poll ran out with nothing new
        }
        write!(out, "\n{}", render(&view, SystemTime::now()))?;
        if view.phase() == Phase::Over {
            return Ok(Some(view));
        }
        wait_after = Some(view.version);
        if view.legal_actions.is_empty() {
            continue;
        }
        let index = loop {
            write!(out, "> ")?;
            out.flush()?;
            let Some(line) = input.recv().await else {
                return Ok(None);
            };
            match parse_choice(&line, view.legal_actions.len()) {
                Choice::Action(i) => break i,
                Choice::Quit => return Ok(None),
                Choice::Unclear(why) => writeln!(out, "{why}")?,
            }
        };
        let action = view.legal_actions[index].clone();
        let request = SubmitMoveRequest {
            game_id: game_id.to_owned(),
            seat,
            move_id: format!("play-{seat}-{}", view.version),
            expected_version: view.version,
            action: Some(action.clone()),
        };
        match client.submit_move(authed(request, token)?).await {
            Ok(_) => {
                writeln!(out, "You: {}", action_label(&action))?;
                // Show the table after the move at once.
                wait_after = None;
            }
            Err(status) if status.code() == Code::Aborted => {
                writeln!(out, "The table changed before your move; look again.")?;
                wait_after = None;
            }
            Err(status)
                if matches!(
                    status.code(),
                    Code::FailedPrecondition | Code::InvalidArgument
                ) =>
            {
                writeln!(out, "Refused: {}", status.message())?;
                wait_after = None;
            }
            Err(status) => return Err(status).context("the move could not be sent"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_pick_actions_and_anything_else_explains() {
        assert_eq!(parse_choice(" 2\n", 3), Choice::Action(1));
        assert_eq!(parse_choice("q", 3), Choice::Quit);
        assert!(matches!(parse_choice("4", 3), Choice::Unclear(why) if why.contains("1 to 3")));
        assert!(matches!(parse_choice("play", 3), Choice::Unclear(_)));
    }
}
