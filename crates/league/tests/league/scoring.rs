//! Placement points and results, given / when / then.

use skit_league::{PlayerId, Points, ResultError, Table, TableResult};

fn table(ids: &[u64]) -> Table {
    Table::new(ids.iter().copied().map(PlayerId).collect())
}

fn points(result: &TableResult) -> Vec<Points> {
    (0..result.seats().len())
        .map(|s| result.points(s))
        .collect()
}

fn p(n: i64, d: i64) -> Points {
    Points::new(n, d)
}

#[test]
fn a_three_seat_table_played_out_scores_two_one_nothing() {
    // Given a 3-seat table whose seat 2 was left holding cards
    let result = TableResult::new(table(&[1, 2, 3]), vec![1, 2, 3], Some(2)).expect("valid");
    // Then first scores 2, second 1 and the skitgubbe 0
    assert_eq!(points(&result), [p(2, 1), p(1, 1), p(0, 1)]);
}

#[test]
fn five_seats_score_in_halves_and_the_total_matches_any_table_size() {
    // Given a 5-seat table finished in seat order
    let result =
        TableResult::new(table(&[1, 2, 3, 4, 5]), vec![1, 2, 3, 4, 5], Some(4)).expect("valid");
    // Then the points step down by 2 / (n - 1)
    assert_eq!(
        points(&result),
        [p(2, 1), p(3, 2), p(1, 1), p(1, 2), p(0, 1)]
    );
    // And every table gives out n points: one a player on average
    for n in 2..=6u64 {
        let ids: Vec<u64> = (1..=n).collect();
        let places: Vec<usize> = (1..=n as usize).collect();
        let r = TableResult::new(table(&ids), places, Some(n as usize - 1)).expect("valid");
        assert_eq!(
            points(&r).into_iter().sum::<Points>(),
            Points::from(n as i64)
        );
    }
}

#[test]
fn players_safe_together_share_the_points_of_the_places_they_cover() {
    // Given two of four seats safe together, then third, then the skitgubbe
    let result = TableResult::new(table(&[1, 2, 3, 4]), vec![1, 1, 3, 4], Some(3)).expect("valid");
    // Then the two share 2 and 4/3, and the rest is as placed
    assert_eq!(points(&result), [p(5, 3), p(5, 3), p(2, 3), p(0, 1)]);
}

#[test]
fn a_game_drawn_by_the_action_limit_splits_the_places_still_in() {
    // Given a 3-seat game drawn by the limit after seat 0 went out first
    let result = TableResult::new(table(&[1, 2, 3]), vec![1, 2, 2], None).expect("valid");
    // Then the two still in share second and third: 1/2 each
    assert_eq!(points(&result), [p(2, 1), p(1, 2), p(1, 2)]);
}

#[test]
fn places_that_are_not_competition_ranks_are_refused_naming_the_seat() {
    // When seat 1 is given place 3 with only one seat ahead of it
    let error = TableResult::new(table(&[1, 2, 3]), vec![1, 3, 3], None).expect_err("1, 3, 3");
    // Then the error names seat 1 and its place
    assert_eq!(error, ResultError::Place { seat: 1, place: 3 });
}

#[test]
fn a_skitgubbe_sharing_the_last_place_is_refused() {
    let error =
        TableResult::new(table(&[1, 2, 3]), vec![1, 2, 2], Some(1)).expect_err("shared last");
    assert_eq!(error, ResultError::Loser(1));
}

#[test]
fn tables_outside_two_to_six_seats_and_players_seated_twice_are_refused() {
    let seven: Vec<u64> = (1..=7).collect();
    let places: Vec<usize> = (1..=7).collect();
    assert_eq!(
        TableResult::new(table(&seven), places, None),
        Err(ResultError::Seats(7))
    );
    assert_eq!(
        TableResult::new(table(&[1, 1, 2]), vec![1, 2, 3], Some(2)),
        Err(ResultError::Duplicate(PlayerId(1)))
    );
    assert_eq!(
        TableResult::new(table(&[1, 2, 3]), vec![1, 2], None),
        Err(ResultError::PlaceCount {
            seats: 3,
            places: 2
        })
    );
}
