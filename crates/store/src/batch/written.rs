//! What one guarded insert wrote, as the keys it returned: the events
//! themselves are the requests', so they need not travel back.

use time::OffsetDateTime;

use crate::append::Append;
use crate::{Error, GameId, StoredEvent, rows};

pub(super) struct Written {
    /// The rows' keys, sorted.
    keys: Vec<(GameId, u64)>,
    /// The time every row was stamped with.
    at: OffsetDateTime,
}

impl Written {
    /// From the `(game_id, seq)` rows the insert returned.
    pub(super) fn from_rows(rows: Vec<(String, i64)>, at: OffsetDateTime) -> Result<Self, Error> {
        let mut keys = rows
            .into_iter()
            .map(|(game_id, seq)| Ok((rows::parse_game_id(&game_id)?, rows::seq_from_db(seq)?)))
            .collect::<Result<Vec<_>, Error>>()?;
        keys.sort_unstable();
        Ok(Self { keys, at })
    }

    /// How many of the rows of request `r` were written.
    pub(super) fn count(&self, r: &Append<'_>) -> usize {
        let end = r.expected_seq.saturating_add(r.events.len() as u64);
        let from = self
            .keys
            .partition_point(|k| *k < (r.game_id, r.expected_seq));
        let to = self.keys.partition_point(|k| *k < (r.game_id, end));
        to - from
    }

    /// Request `r`'s events as stored (call once [`Written::count`] says
    /// all were written).
    pub(super) fn events(&self, r: &Append<'_>) -> Vec<StoredEvent> {
        (r.expected_seq..)
            .zip(r.events)
            .map(|(seq, e)| StoredEvent {
                game_id: r.game_id,
                seq,
                kind: e.kind.clone(),
                payload: e.payload.clone(),
                move_id: e.move_id.clone(),
                created_at: self.at,
            })
            .collect()
    }

    /// The requests `which` of `round` that were written, each with its
    /// events; a request the guard filtered out is absent. A request
    /// written in part means the guard is broken.
    pub(super) fn answers(
        &self,
        round: &[Append<'_>],
        which: &[usize],
    ) -> Result<Vec<(usize, Vec<StoredEvent>)>, Error> {
        let mut answers = Vec::new();
        for &i in which {
            match self.count(&round[i]) {
                0 => {}
                n if n == round[i].events.len() => answers.push((i, self.events(&round[i]))),
                _ => {
                    return Err(Error::Corrupt(format!(
                        "append to {} partly written",
                        round[i].game_id
                    )));
                }
            }
        }
        Ok(answers)
    }
}
