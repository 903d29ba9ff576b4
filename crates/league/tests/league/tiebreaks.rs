//! Standings and each tiebreak on a small event worked by hand.
//!
//! Six players at 3-seat tables, two rounds (places in seat order, the
//! last seat the skitgubbe):
//!   round 1: [1, 2, 3] and [4, 5, 6]
//!   round 2: [4, 1, 6] and [2, 3, 5]
//! Scores: 4 has 4, 1 and 2 have 3, 3 and 5 have 1, 6 has 0.

use skit_league::{
    Entrant, PlayerId, Points, Scoring, Seed, Standing, StandingsError, Table, TableResult,
    Tiebreak, standings,
};

fn event() -> Vec<TableResult> {
    [[1, 2, 3], [4, 5, 6], [4, 1, 6], [2, 3, 5]]
        .into_iter()
        .map(|ids| {
            let table = Table::new(ids.into_iter().map(PlayerId).collect());
            TableResult::new(table, vec![1, 2, 3], Some(2)).expect("valid")
        })
        .collect()
}

fn entrants() -> Vec<Entrant> {
    [
        (1, 1600),
        (2, 1500),
        (3, 1400),
        (4, 1700),
        (5, 1300),
        (6, 1200),
    ]
    .into_iter()
    .map(|(id, rating)| Entrant {
        player: PlayerId(id),
        rating,
    })
    .collect()
}

fn ranked(chain: Vec<Tiebreak>, seed: u64) -> Vec<Standing> {
    let scoring = Scoring {
        chain,
        spread: 200,
        seed: Seed(seed),
    };
    standings(&entrants(), &event(), &scoring).expect("standings")
}

fn order(standings: &[Standing]) -> Vec<u64> {
    standings.iter().map(|s| s.player.0).collect()
}

fn value_of(standings: &[Standing], player: u64) -> Vec<Points> {
    standings
        .iter()
        .find(|s| s.player.0 == player)
        .expect("listed")
        .tiebreaks
        .clone()
}

#[test]
fn scores_order_the_standings_and_totals_are_kept() {
    let table = ranked(vec![Tiebreak::HeadToHead], 1);
    let scores: Vec<Points> = table.iter().map(|s| s.score).collect();
    let i = Points::from_integer;
    assert_eq!(scores, [i(4), i(3), i(3), i(1), i(1), i(0)]);
    assert_eq!(table[0].player, PlayerId(4));
    assert_eq!(
        (table[0].games, table[0].firsts, table[0].skitgubbes),
        (2, 2, 0)
    );
    assert_eq!(table[5].skitgubbes, 2);
    assert_eq!(
        table.iter().map(|s| s.rank).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
}

#[test]
fn head_to_head_counts_only_meetings_among_the_tied() {
    // 1 beat 2 at their one table; 3 beat 5 at theirs
    let table = ranked(vec![Tiebreak::HeadToHead], 1);
    assert_eq!(order(&table), [4, 1, 2, 3, 5, 6]);
    assert_eq!(value_of(&table, 1), [Points::from_integer(1)]);
    assert_eq!(value_of(&table, 2), [Points::from_integer(-1)]);
}

#[test]
fn opponents_average_is_the_mean_score_over_every_opponent_met() {
    // 1 met 2 (3), 3 (1), 4 (4), 6 (0): 2; 2 met 1 (3), 3 twice (1), 5 (1): 3/2
    let table = ranked(vec![Tiebreak::OpponentsAverage], 1);
    assert_eq!(value_of(&table, 1), [Points::from_integer(2)]);
    assert_eq!(value_of(&table, 2), [Points::new(3, 2)]);
    assert_eq!(order(&table)[1..3], [1, 2]);
}

#[test]
fn sonneborn_berger_weighs_each_opponent_beaten_by_their_score() {
    // 1: (3 + 1) / 2 at the first table, nothing for 4, 6 scored 0: 2.
    // 2: 1 / 2 at the first (only 3 beaten), (1 + 1) / 2 at the second: 3/2.
    let table = ranked(vec![Tiebreak::SonnebornBerger], 1);
    assert_eq!(value_of(&table, 1), [Points::from_integer(2)]);
    assert_eq!(value_of(&table, 2), [Points::new(3, 2)]);
    // 3 beat 5 (score 1) once: 1/2; 5 beat 6 (0): 0
    assert_eq!(value_of(&table, 3), [Points::new(1, 2)]);
    assert_eq!(value_of(&table, 5), [Points::from_integer(0)]);
}

#[test]
fn performance_is_the_opponents_rating_plus_or_minus_the_spread() {
    // 1: 1700, 1600, 1500, 1400 -> 1550; 2: 1400, 1600, 1600, 1500 -> 1525
    let table = ranked(vec![Tiebreak::Performance], 1);
    assert_eq!(value_of(&table, 1), [Points::from_integer(1550)]);
    assert_eq!(value_of(&table, 2), [Points::from_integer(1525)]);
}

#[test]
fn a_tie_no_chosen_tiebreak_settles_falls_to_the_seeded_lot() {
    // Given 1 and 2 level on firsts (one each) and skitgubbes (none)
    let chain = vec![Tiebreak::Firsts, Tiebreak::FewestSkitgubbe];
    // When ranked under many seeds
    let seconds: Vec<u64> = (0..40)
        .map(|seed| order(&ranked(chain.clone(), seed))[1])
        .collect();
    // Then each seed's order follows its lot, and both orders occur
    for (seed, &second) in seconds.iter().enumerate() {
        let lot = |p| Seed(seed as u64).lot(PlayerId(p));
        let expected = if lot(1) > lot(2) { 1 } else { 2 };
        assert_eq!(second, expected, "seed {seed}");
    }
    assert!(seconds.contains(&1) && seconds.contains(&2));
    // And the same seed gives the same standings
    assert_eq!(ranked(chain.clone(), 7), ranked(chain, 7));
}

#[test]
fn the_chain_applies_in_the_operators_order() {
    // Firsts leaves 3 and 5 level (none each); head-to-head then puts 3,
    // who placed ahead of 5 at their one table, first.
    let table = ranked(vec![Tiebreak::Firsts, Tiebreak::HeadToHead], 1);
    assert_eq!(order(&table)[3..5], [3, 5]);
    assert_eq!(
        value_of(&table, 3),
        [Points::from_integer(0), Points::from_integer(1)]
    );
}

#[test]
fn players_outside_the_field_and_repeated_tiebreaks_are_refused() {
    let scoring = Scoring {
        chain: vec![Tiebreak::Firsts, Tiebreak::Firsts],
        spread: 0,
        seed: Seed(0),
    };
    assert_eq!(
        standings(&entrants(), &event(), &scoring),
        Err(StandingsError::RepeatedTiebreak(Tiebreak::Firsts))
    );
    let scoring = Scoring {
        chain: vec![],
        spread: 0,
        seed: Seed(0),
    };
    assert_eq!(
        standings(&entrants()[1..], &event(), &scoring),
        Err(StandingsError::NotAnEntrant(PlayerId(1)))
    );
}

#[test]
fn a_player_without_games_scores_nothing_and_performs_at_their_rating() {
    let mut field = entrants();
    field.push(Entrant {
        player: PlayerId(7),
        rating: 1450,
    });
    let scoring = Scoring {
        chain: vec![Tiebreak::Performance],
        spread: 200,
        seed: Seed(0),
    };
    let table = standings(&field, &event(), &scoring).expect("standings");
    let seven = table.iter().find(|s| s.player.0 == 7).expect("listed");
    assert_eq!((seven.score, seven.games), (Points::from_integer(0), 0));
    assert_eq!(seven.tiebreaks, [Points::from_integer(1450)]);
}
