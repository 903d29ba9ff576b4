//! Deciding a round's requests from what the log holds, before writing:
//! the same checks, in the same order, as a single append's.

use std::collections::HashMap;

use crate::append::Append;
use crate::{Error, GameId, StoredEvent, rows};

/// What the log holds for a round's games: each game's last seq (absent:
/// no such game) and the stored events carrying the requests' move ids.
#[derive(Debug, Default)]
pub(super) struct Seen {
    pub last: HashMap<GameId, u64>,
    pub moves: HashMap<(GameId, String), StoredEvent>,
}

/// `Ok` for a request to write, else its answer. A request is checked for
/// form, then for a move id already stored (so a retry is recognised even
/// if the log moved on), then for its expected seq.
pub(super) fn decide(request: &Append<'_>, seen: &Seen) -> Result<(), Error> {
    rows::validate_append(request.events)?;
    for move_id in request.events.iter().filter_map(|e| e.move_id.as_ref()) {
        if let Some(event) = seen.moves.get(&(request.game_id, move_id.clone())) {
            return Err(Error::DuplicateMove {
                event: Box::new(event.clone()),
            });
        }
    }
    let last = seen.last.get(&request.game_id).copied();
    rows::check_expected(request.game_id, last, request.expected_seq)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use serde_json::json;
    use time::OffsetDateTime;

    use super::*;
    use crate::NewEvent;

    fn request(game_id: GameId, expected_seq: u64, move_id: Option<&str>) -> Append<'static> {
        let event = NewEvent::new("played", json!({}));
        let event = match move_id {
            Some(id) => event.with_move_id(id),
            None => event,
        };
        Append {
            game_id,
            expected_seq,
            events: Box::leak(Box::new([event])),
            to_act: None,
        }
    }

    #[test]
    fn each_request_gets_its_own_answer() {
        let (a, b, c) = (
            GameId(uuid::Uuid::from_u128(1)),
            GameId(uuid::Uuid::from_u128(2)),
            GameId(uuid::Uuid::from_u128(3)),
        );
        let stored = StoredEvent {
            game_id: b,
            seq: 4,
            kind: "played".into(),
            payload: json!({}),
            move_id: Some("m".into()),
            created_at: OffsetDateTime::UNIX_EPOCH,
        };
        let seen = Seen {
            last: HashMap::from([(a, 3), (b, 7)]),
            moves: HashMap::from([((b, "m".to_owned()), stored.clone())]),
        };

        assert!(decide(&request(a, 4, Some("m")), &seen).is_ok());
        assert!(matches!(
            decide(&request(a, 3, None), &seen),
            Err(Error::Conflict { current_version: 3 })
        ));
        // The move id wins over the stale seq.
        match decide(&request(b, 2, Some("m")), &seen) {
            Err(Error::DuplicateMove { event }) => assert_eq!(*event, stored),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            decide(&request(c, 1, None), &seen),
            Err(Error::GameNotFound(g)) if g == c
        ));
        let empty = Append {
            events: &[],
            ..request(a, 4, None)
        };
        assert!(matches!(decide(&empty, &seen), Err(Error::Invalid(_))));
    }
}
