//! The flow of `skit play`: sign in (a guest unless a token is given),
//! queue with the matchmaker, then show the table and play the person's
//! choices until the game is over. Input arrives as lines on a channel, so
//! a test can type for the person.

use crate::lang::tr;
use std::io::Write;
use std::time::{Duration, SystemTime};

use anyhow::{Context, bail};
use skit_api::authed;
use skit_proto::v1::account_service_client::AccountServiceClient;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::matchmaking_service_client::MatchmakingServiceClient;
use skit_proto::v1::{
    CreateGuestRequest, EnqueueRequest, GetTicketRequest, GetViewRequest, Phase, Rules,
    SubmitMoveRequest, TicketState, View,
};
use tokio::sync::mpsc;
use tokio::time::MissedTickBehavior;
use tonic::Code;
use tonic::transport::Channel;

use super::moves::{action_label, listing_order};
use super::narrate::narrate;
use super::render::{prompt, render};
use super::text::width;

/// How long one long poll waits for the game or the ticket to change.
const WAIT_MS: u32 = 20_000;

/// Creates a guest account; returns its token.
pub async fn guest(channel: Channel, name: Option<String>) -> anyhow::Result<String> {
    let reply = AccountServiceClient::new(channel)
        .create_guest(CreateGuestRequest {
            name,
            request_id: String::new(),
        })
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
                request_id: String::new(),
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

/// Where `play_game` reads the game: one seat's view, long-polled.
struct Table {
    client: GameServiceClient<Channel>,
    token: String,
    game_id: String,
    seat: u32,
}

impl Table {
    /// The view, once its version is past `after` (at once without); its
    /// history only past `shown` (the view last shown), all of it at first.
    async fn view(&mut self, after: Option<u64>, shown: Option<u64>) -> anyhow::Result<View> {
        let request = GetViewRequest {
            game_id: self.game_id.clone(),
            seat: Some(self.seat),
            wait_for_version_after: after,
            timeout_ms: WAIT_MS,
            history_after: shown,
            ..GetViewRequest::default()
        };
        let view = self
            .client
            .get_view(authed(request, &self.token)?)
            .await
            .context("cannot read the game")?
            .into_inner();
        Ok(view)
    }

    /// The next view after `version`, however many long polls that takes.
    async fn changed(mut self, version: u64) -> anyhow::Result<View> {
        loop {
            let view = self.view(Some(version), Some(version)).await?;
            if view.version != version {
                return Ok(view);
            }
        }
    }

    fn clone_for_polling(&self) -> Table {
        Table {
            client: self.client.clone(),
            token: self.token.clone(),
            game_id: self.game_id.clone(),
            seat: self.seat,
        }
    }
}

/// Where the rules of the view's preset are told in short: a section of
/// docs/how-to-play.md, named by the preset.
pub fn how_to_play(view: &View) -> String {
    let preset = view
        .rules
        .as_ref()
        .map(|r| r.preset.as_str())
        .filter(|p| !p.is_empty())
        .unwrap_or("skitgubbe");
    format!("How to play {preset}, in short: docs/how-to-play.md#{preset}")
}

/// Plays `seat` of `game` with the person's choices until the game is over
/// (the final view) or the person quits (`None`). With `live_clock` (a
/// terminal), the prompt's clock counts down in place every second.
pub async fn play_game(
    channel: Channel,
    token: &str,
    game_id: &str,
    seat: u32,
    input: &mut mpsc::Receiver<String>,
    out: &mut (dyn Write + Send),
    live_clock: bool,
) -> anyhow::Result<Option<View>> {
    let mut table = Table {
        client: GameServiceClient::new(channel),
        token: token.to_owned(),
        game_id: game_id.to_owned(),
        seat,
    };
    let width = width();
    let mut shown: Option<View> = None;
    let mut wait_after = None;
    let mut arrived: Option<View> = None;
    loop {
        let view = match arrived.take() {
            Some(view) => view,
            None => {
                table
                    .view(wait_after, shown.as_ref().map(|v| v.version))
                    .await?
            }
        };
        if wait_after == Some(view.version) {
            continue; // the long poll ran out with nothing new
        }
        if shown.is_none() {
            writeln!(out, "{}", how_to_play(&view))?;
        }
        writeln!(out)?;
        for line in narrate(shown.as_ref(), &view) {
            writeln!(out, "  . {line}")?;
        }
        write!(out, "{}", render(&view, SystemTime::now(), width))?;
        if view.phase() == Phase::Over {
            return Ok(Some(view));
        }
        wait_after = Some(view.version);
        shown = Some(view.clone());
        if view.legal_actions.is_empty() {
            continue;
        }
        let order = listing_order(&view);
        // Meanwhile the game may move on without the person: their clock
        // runs out and the service moves for them.
        let changed = table.clone_for_polling().changed(view.version);
        tokio::pin!(changed);
        let mut ticker = tokio::time::interval(Duration::from_secs(1));
        ticker.set_missed_tick_behavior(MissedTickBehavior::Skip);
        write!(out, "{}", prompt(&view, SystemTime::now()))?;
        out.flush()?;
        let index = loop {
            tokio::select! {
                line = input.recv() => {
                    let Some(line) = line else { return Ok(None) };
                    match parse_choice(&line, order.len()) {
                        Choice::Action(n) => break Some(order[n]),
                        Choice::Quit => return Ok(None),
                        Choice::Unclear(why) => {
                            writeln!(out, "{why}")?;
                            write!(out, "{}", prompt(&view, SystemTime::now()))?;
                            out.flush()?;
                        }
                    }
                }
                _ = ticker.tick(), if live_clock => {
                    // Back to the line's start, clear it, the prompt again.
                    write!(out, "\r\x1b[K{}", prompt(&view, SystemTime::now()))?;
                    out.flush()?;
                }
                next = &mut changed => {
                    writeln!(out)?;
                    arrived = Some(next?);
                    break None;
                }
            }
        };
        let Some(index) = index else { continue };
        let action = view.legal_actions[index].clone();
        let request = SubmitMoveRequest {
            game_id: game_id.to_owned(),
            seat,
            move_id: format!("play-{seat}-{}", view.version),
            expected_version: view.version,
            action: Some(action.clone()),
        };
        match table.client.submit_move(authed(request, token)?).await {
            Ok(_) => {
                writeln!(
                    out,
                    "{}",
                    tr("skit-you", &[("move", &action_label(&action))])
                )?;
                // Show the table after the move at once.
                wait_after = None;
            }
            Err(status) if status.code() == Code::Aborted => {
                writeln!(out, "{}", tr("skit-table-changed", &[]))?;
                wait_after = None;
            }
            Err(status)
                if matches!(
                    status.code(),
                    Code::FailedPrecondition | Code::InvalidArgument
                ) =>
            {
                writeln!(out, "{}", tr("skit-refused", &[("why", status.message())]))?;
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
