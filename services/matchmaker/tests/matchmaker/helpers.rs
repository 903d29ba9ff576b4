//! Requests the matchmaker tests share.

use skit_proto::v1::{EnqueueRequest, GameSummary, ListGamesRequest, Rules};
use skit_testkit::{GameService, Player, authed};

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
        request_id: String::new(),
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
