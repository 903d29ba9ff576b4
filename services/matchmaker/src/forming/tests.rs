//! The table-forming rules, each on made-up tickets at a fixed time.

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use skit_store::TicketId;
use time::OffsetDateTime;
use time::macros::datetime;

use super::*;

const NOW: OffsetDateTime = datetime!(2026-01-01 12:00 UTC);

fn settings() -> Settings {
    Settings {
        window_base: 5.0,
        window_per_second: 1.0,
        bot_fill_wait: Duration::from_secs(30),
    }
}

/// A ticket for `account` that has waited `secs` seconds.
fn ticket(account: i64, counts: &[u32], rating: f64, secs: i64) -> Waiting {
    Waiting {
        id: TicketId(uuid::Uuid::from_u128(account as u128 * 1000 + secs as u128)),
        account,
        owner: account,
        ruleset_key: "skitgubbe".into(),
        counts: counts.to_vec(),
        usual: 3,
        allow_bots: false,
        rating,
        enqueued_at: NOW - time::Duration::seconds(secs),
        guest: false,
    }
}

fn with_bots(mut t: Waiting) -> Waiting {
    t.allow_bots = true;
    t
}

fn bots(ratings: &[(i64, f64)]) -> BTreeMap<String, Vec<Bot>> {
    let list = ratings
        .iter()
        .map(|&(account, rating)| Bot {
            account,
            owner: account,
            rating,
        })
        .collect();
    BTreeMap::from([("skitgubbe".to_owned(), list)])
}

fn run(tickets: &[Waiting], bots: &BTreeMap<String, Vec<Bot>>) -> Vec<Table> {
    form(
        tickets,
        bots,
        NOW,
        &settings(),
        &mut ChaCha8Rng::seed_from_u64(7),
    )
}

fn accounts(table: &Table) -> Vec<i64> {
    let mut a: Vec<i64> = table.seats.iter().map(Seat::account).collect();
    a.sort_unstable();
    a
}

#[test]
fn compatible_tickets_share_a_table() {
    let tables = run(
        &[ticket(1, &[2], 0.0, 10), ticket(2, &[2, 3], 0.0, 5)],
        &bots(&[]),
    );

    assert_eq!(tables.len(), 1);
    assert_eq!(accounts(&tables[0]), [1, 2]);
    assert!(tables[0].rated);
    assert_eq!(tables[0].bots(), 0);
}

#[test]
fn the_largest_count_everyone_accepts_wins() {
    let tickets = [
        ticket(1, &[2, 3, 4], 0.0, 10),
        ticket(2, &[3, 4], 0.0, 9),
        ticket(3, &[2, 3], 0.0, 8),
        ticket(4, &[2, 3, 4], 0.0, 7),
    ];

    let tables = run(&tickets, &bots(&[]));

    // Ticket 3 refuses four seats, so three players is the most.
    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0].seats.len(), 3);
    assert!(accounts(&tables[0]).contains(&1), "the oldest is seated");
}

#[test]
fn a_full_table_of_four_when_all_accept_four() {
    let tickets = [
        ticket(1, &[2, 3, 4], 0.0, 10),
        ticket(2, &[3, 4], 0.0, 9),
        ticket(3, &[2, 4], 0.0, 8),
        ticket(4, &[4], 0.0, 7),
    ];

    let tables = run(&tickets, &bots(&[]));

    assert_eq!(tables.len(), 1);
    assert_eq!(accounts(&tables[0]), [1, 2, 3, 4]);
}

#[test]
fn different_rulesets_and_disjoint_counts_never_meet() {
    let mut mas = ticket(2, &[2], 0.0, 10);
    mas.ruleset_key = "mas".into();
    let tickets = [ticket(1, &[2], 0.0, 10), mas, ticket(3, &[3], 0.0, 10)];

    assert!(run(&tickets, &bots(&[])).is_empty());
}

#[test]
fn guests_never_sit_with_rated_tickets() {
    let mut guest = ticket(2, &[2], 0.0, 10);
    guest.guest = true;
    let mut other_guest = ticket(3, &[2], 0.0, 5);
    other_guest.guest = true;

    let tables = run(&[ticket(1, &[2], 0.0, 10), guest.clone()], &bots(&[]));
    assert!(tables.is_empty());

    let tables = run(&[ticket(1, &[2], 0.0, 10), guest, other_guest], &bots(&[]));
    assert_eq!(tables.len(), 1);
    assert_eq!(accounts(&tables[0]), [2, 3]);
    assert!(!tables[0].rated, "guest tables are unrated");
}

#[test]
fn the_rating_window_widens_with_waiting() {
    // Ratings 20 apart: the window is 5 + 1 per second, so it takes the
    // longest waiter 15 s to reach the other.
    let fresh = [ticket(1, &[2], 0.0, 14), ticket(2, &[2], 20.0, 0)];
    assert!(run(&fresh, &bots(&[])).is_empty());

    let waited = [ticket(1, &[2], 0.0, 15), ticket(2, &[2], 20.0, 1)];
    assert_eq!(run(&waited, &bots(&[])).len(), 1);
}

#[test]
fn closest_ratings_are_preferred() {
    let tickets = [
        ticket(1, &[2], 10.0, 20),
        ticket(2, &[2], 0.0, 19),
        ticket(3, &[2], 11.0, 1),
    ];

    let tables = run(&tickets, &bots(&[]));

    assert_eq!(accounts(&tables[0]), [1, 3], "10 sits with 11, not 0");
}

#[test]
fn one_account_never_twice_at_a_table() {
    let mut second = ticket(1, &[2], 0.0, 5);
    second.id = TicketId(uuid::Uuid::from_u128(99));

    assert!(run(&[ticket(1, &[2], 0.0, 10), second], &bots(&[])).is_empty());
}

#[test]
fn one_owner_never_twice_at_a_table() {
    // Account 2 is a bot run by account 1; account 3 is someone else.
    let mut own_bot = ticket(2, &[2], 0.0, 9);
    own_bot.owner = 1;
    let tickets = [ticket(1, &[2], 0.0, 10), own_bot.clone()];
    assert!(run(&tickets, &bots(&[])).is_empty());

    let tickets = [ticket(1, &[2], 0.0, 10), own_bot, ticket(3, &[2], 0.0, 1)];
    let tables = run(&tickets, &bots(&[]));
    assert_eq!(tables.len(), 1);
    assert_eq!(accounts(&tables[0]), [1, 3]);

    // Bots filling seats: not the owner's own, and one per owner.
    let mut board = bots(&[(100, 0.0), (101, 0.0), (102, 5.0), (103, 9.0)]);
    for bot in board.values_mut().flatten() {
        bot.owner = match bot.account {
            100 => 1,
            101 | 102 => 50,
            _ => bot.account,
        };
    }
    let tables = run(&[with_bots(ticket(1, &[3], 0.0, 40))], &board);
    assert_eq!(tables.len(), 1);
    assert_eq!(accounts(&tables[0]), [1, 101, 103]);
}

#[test]
fn bots_fill_after_the_wait_when_everyone_allows_them() {
    let board = bots(&[(100, 30.0), (101, 1.0), (102, 2.0)]);
    let early = [with_bots(ticket(1, &[3], 0.0, 29))];
    assert!(run(&early, &board).is_empty(), "not before the wait");

    let late = [with_bots(ticket(1, &[3], 0.0, 30))];
    let tables = run(&late, &board);

    assert_eq!(tables.len(), 1);
    assert_eq!(
        accounts(&tables[0]),
        [1, 101, 102],
        "the closest-rated bots"
    );
    assert_eq!(tables[0].bots(), 2);
}

#[test]
fn bots_fill_the_fewest_seats_with_the_most_players() {
    let board = bots(&[(100, 0.0), (101, 0.0), (102, 0.0)]);
    let tickets = [
        with_bots(ticket(1, &[2, 3, 4], 0.0, 40)),
        with_bots(ticket(2, &[3, 4], 0.0, 1)),
    ];

    let tables = run(&tickets, &board);

    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0].seats.len(), 3, "two players and one bot");
    assert_eq!(tables[0].bots(), 1);
}

#[test]
fn a_lone_ticket_for_any_size_gets_the_usual_table() {
    let board = bots(&[(100, 0.0), (101, 0.0), (102, 0.0), (103, 0.0)]);
    let tickets = [with_bots(ticket(1, &[2, 3, 4, 5], 0.0, 40))];

    let tables = run(&tickets, &board);

    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0].seats.len(), 3, "the usual three, not two");
}

#[test]
fn without_the_usual_size_the_nearest_table_is_filled() {
    let board = bots(&[(100, 0.0), (101, 0.0), (102, 0.0)]);

    let either_side = run(&[with_bots(ticket(1, &[2, 4], 0.0, 40))], &board);
    let above = run(&[with_bots(ticket(1, &[4, 5], 0.0, 40))], &board);

    assert_eq!(either_side[0].seats.len(), 2, "2 and 4 are as near");
    assert_eq!(above[0].seats.len(), 4);
}

#[test]
fn no_bots_when_a_ticket_refuses_them() {
    let board = bots(&[(100, 0.0), (101, 0.0)]);
    let tickets = [
        with_bots(ticket(1, &[3], 0.0, 60)),
        ticket(2, &[3], 0.0, 60),
    ];

    let tables = run(&tickets, &board);

    // Ticket 1 gets bots without ticket 2; ticket 2 waits for players.
    assert_eq!(tables.len(), 1);
    assert_eq!(accounts(&tables[0]), [1, 100, 101]);
}

#[test]
fn not_enough_bots_means_waiting() {
    let tickets = [with_bots(ticket(1, &[4], 0.0, 60))];

    assert!(run(&tickets, &bots(&[(100, 0.0), (101, 0.0)])).is_empty());
}

#[test]
fn every_ticket_in_at_most_one_table() {
    let tickets: Vec<Waiting> = (0..40)
        .map(|i| with_bots(ticket(i, &[2, 3, 4], (i % 7) as f64, 100 - i)))
        .collect();
    let board = bots(&[(1000, 0.0), (1001, 3.0)]);

    let tables = run(&tickets, &board);

    let mut seen = HashSet::new();
    for table in &tables {
        assert!(table.tickets().all(|t| seen.insert(t)), "a ticket twice");
        let accounts: HashSet<i64> = table.seats.iter().map(Seat::account).collect();
        assert_eq!(
            accounts.len(),
            table.seats.len(),
            "an account twice at a table"
        );
    }
    assert_eq!(seen.len(), 40, "everyone seated: all allow bots and waited");
}

#[test]
fn seat_order_is_shuffled() {
    let tickets: Vec<Waiting> = (1..=4).map(|i| ticket(i, &[4], 0.0, 10 - i)).collect();
    let orders: HashSet<Vec<i64>> = (0..20)
        .map(|seed| {
            form(
                &tickets,
                &bots(&[]),
                NOW,
                &settings(),
                &mut ChaCha8Rng::seed_from_u64(seed),
            )[0]
            .seats
            .iter()
            .map(Seat::account)
            .collect()
        })
        .collect();

    assert!(orders.len() > 1, "the oldest does not always sit first");
}
