//! Knockout stages and staged events.

use skit_league::{
    History, PlanError, PlayerId, Seed, Stage, Table, TableResult, advancing, plan, snake,
};

use crate::field;

#[test]
fn the_top_q_of_each_table_advance_ties_at_the_cut_by_standing() {
    // Given two tables: the first with a shared second place
    let a = TableResult::new(Table::new(field(3)), vec![1, 2, 2], None).expect("valid");
    let b = TableResult::new(
        Table::new(vec![PlayerId(4), PlayerId(5), PlayerId(6)]),
        vec![2, 1, 3],
        Some(2),
    )
    .expect("valid");
    // When two advance from each, with 3 ahead of 2 in the standings
    let order = [6, 5, 4, 3, 2, 1].map(PlayerId);
    let next = advancing(&[a, b], 2, &order);
    // Then 1 and 3 (level with 2 but higher) go on, and 5 and 4
    assert_eq!(next, [1, 3, 5, 4].map(PlayerId));
}

#[test]
fn snake_seating_spreads_the_strongest_over_the_tables() {
    let tables = snake(&field(9), 3, &History::new(), Seed(1), 1).expect("9 at 3");
    let mut ids: Vec<Vec<u64>> = tables
        .iter()
        .map(|t| {
            let mut ids: Vec<u64> = t.seats.iter().map(|p| p.0).collect();
            ids.sort();
            ids
        })
        .collect();
    ids.sort();
    assert_eq!(ids, [vec![1, 6, 7], vec![2, 5, 8], vec![3, 4, 9]]);
}

#[test]
fn a_staged_event_is_checked_stage_by_stage() {
    // 27 at 3 seats: 3 Swiss rounds, the top 9, a knockout of 1 per table, a final of 3
    let stages = [
        Stage::Swiss { rounds: 3 },
        Stage::Cut { top: 9 },
        Stage::Knockout { advance: 1 },
        Stage::FinalTable,
    ];
    let planned = plan(27, 3, &stages).expect("a plan");
    let fields: Vec<usize> = planned.iter().map(|p| p.players).collect();
    assert_eq!(fields, [27, 27, 9, 3]);
    assert_eq!(planned[2].tables, [3, 3, 3]);
    // A knockout that leaves 6 cannot end at one 3-seat table
    let stages = [Stage::Knockout { advance: 2 }, Stage::FinalTable];
    assert!(matches!(
        plan(9, 3, &stages),
        Err(PlanError::Final { players: 6, .. })
    ));
    // Advancing everyone is no knockout
    let stages = [Stage::Knockout { advance: 3 }, Stage::FinalTable];
    assert!(matches!(
        plan(9, 3, &stages),
        Err(PlanError::Advance {
            advance: 3,
            smallest: 3,
            ..
        })
    ));
    assert_eq!(
        plan(9, 3, &[Stage::Swiss { rounds: 2 }]),
        Err(PlanError::NoFinal)
    );
    let error = plan(7, 6, &[Stage::Swiss { rounds: 1 }, Stage::FinalTable]).expect_err("7 at 6");
    assert!(matches!(error, PlanError::Split { stage: 1, .. }));
}
