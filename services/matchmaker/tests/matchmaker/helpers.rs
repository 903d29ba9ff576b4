//! Tickets as a client makes and follows them.

use std::time::Duration;

use skit_proto::v1::{
    EnqueueRequest, GameSummary, GetTicketRequest, ListGamesRequest, Rules, Ticket, TicketState,
};
use skit_testkit::{GameService, Matchmaker, Player, authed};

pub fn rules(preset: &str) -> Option<Rules> {
    Some(Rules {
        preset: preset.into(),
        options: None,
    })
}

pub fn enqueue_request(preset: &str, counts: &[u32], allow_bots: bool) -> EnqueueRequest {
    EnqueueRequest {
        rules: rules(preset),
        player_counts: counts.to_vec(),
        allow_bots,
    }
}

pub async fn enqueue(mm: &Matchmaker, player: &Player, req: EnqueueRequest) -> Ticket {
    mm.client()
        .await
        .enqueue(authed(req, &player.token))
        .await
        .expect("enqueue")
        .into_inner()
}

/// Long-polls the ticket until it is no longer queued or `within` passes.
pub async fn settled(
    mm: &Matchmaker,
    player: &Player,
    ticket: &Ticket,
    within: Duration,
) -> Ticket {
    let mut client = mm.client().await;
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let now = client
            .get_ticket(authed(
                GetTicketRequest {
                    ticket_id: ticket.ticket_id.clone(),
                    wait_ms: 1000,
                },
                &player.token,
            ))
            .await
            .expect("get ticket")
            .into_inner();
        if now.state != TicketState::Queued as i32 || tokio::time::Instant::now() >= deadline {
            return now;
        }
    }
}

/// The games the player sits in.
pub async fn games_of(game: &GameService, player: &Player) -> Vec<GameSummary> {
    game.games()
        .await
        .list_games(authed(
            ListGamesRequest {
                include_over: true,
                ..Default::default()
            },
            &player.token,
        ))
        .await
        .expect("list games")
        .into_inner()
        .games
}
