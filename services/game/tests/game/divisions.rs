//! Divisions end to end: a daily season with two tiers that began two days
//! ago. Its first two periods' results are written through the store (a
//! test cannot wait a day), then the service turns each period when first
//! asked: the first seeded by lifetime rating, each next one promoting,
//! relegating and dropping by the rules; a new player enters the bottom
//! tier with a rated game played now; a player steps down and takes it
//! back; bad requests name their field. Over gRPC, and the two routes over
//! REST.

use std::time::Duration;

use serde_json::json;
use skit_proto::v1::rating_service_client::RatingServiceClient;
use skit_proto::v1::{
    CreateGameRequest, CreateSeasonRequest, Division, DivisionArrival, DivisionZone, Divisions,
    GetDivisionRequest, Season, StepDownRequest,
};
use skit_store::{AccountId, GameId, Placed, Rating, SeasonTrack, Skill, Store};
use skit_testkit::{
    Expected, GameService, OPERATOR_TOKEN, Player, TestDb, authed, on_both_databases,
    skitgubbe_for, spawn_game,
};
use time::OffsetDateTime;
use tonic::Code;
use tonic::transport::Channel;

use crate::ratings::{accounts, played_game, ratings_client, rules};

on_both_databases!(divisions_turn_promote_relegate_and_take_new_players);

fn at(t: OffsetDateTime) -> skit_proto::Timestamp {
    skit_api::timestamp(t)
}

fn id(player: &Player) -> AccountId {
    AccountId(player.id.parse().expect("account id"))
}

/// Stores a game's rating update as the service would, with a plain model
/// (the winner gains most), into `tracks`: `order` lists the players first
/// to last.
async fn rate(store: &Store, app: &GameService, order: &[&Player], tracks: &[SeasonTrack]) {
    let seated: Vec<Player> = order.iter().map(|&p| p.clone()).collect();
    let game = app
        .games()
        .await
        .create_game(authed(
            CreateGameRequest {
                rated: false,
                ..skitgubbe_for(&seated)
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("create")
        .into_inner()
        .game_id;
    let placed: Vec<Placed> = (1u32..)
        .zip(order)
        .map(|(place, p)| Placed {
            account_id: id(p),
            place,
        })
        .collect();
    let model = |before: &[Rating]| {
        (0u32..)
            .zip(before)
            .map(|(i, r)| Skill {
                mu: r.skill.mu + 3.0 - f64::from(i) * 2.0,
                sigma: r.skill.sigma * 0.9,
            })
            .collect()
    };
    let start = Skill {
        mu: 25.0,
        sigma: 25.0 / 3.0,
    };
    let reset = |s: Skill| Skill {
        mu: s.mu,
        sigma: 6.0,
    };
    store
        .apply_ratings_in_seasons(
            GameId(game.parse().expect("game id")),
            "skitgubbe",
            &placed,
            start,
            tracks,
            &reset,
            model,
        )
        .await
        .expect("apply")
        .expect("first time");
}

async fn division(
    client: &mut RatingServiceClient<Channel>,
    request: GetDivisionRequest,
    token: &str,
) -> Result<Division, tonic::Status> {
    client
        .get_division(authed(request, token))
        .await
        .map(tonic::Response::into_inner)
}

/// Each row's account with its zone and arrival.
fn rows(d: &Division) -> Vec<(String, DivisionZone, DivisionArrival)> {
    d.rows
        .iter()
        .map(|r| (r.account_id.clone(), r.zone(), r.arrival()))
        .collect()
}

async fn divisions_turn_promote_relegate_and_take_new_players(db: &TestDb) {
    let app = spawn_game(db).await;
    let mut client = ratings_client(&app).await;
    let p = accounts(&app, 6).await;
    // Once the service has migrated the database.
    let store = db.connect().await.expect("store");
    let request = |account: &Player, when: Option<OffsetDateTime>| GetDivisionRequest {
        season_id: String::new(),
        account_id: Some(account.id.clone()),
        at: when.map(at),
        ..Default::default()
    };

    // Lifetime ratings before the season's periods are played: p0 > p1.
    rate(&store, &app, &[&p[0], &p[1]], &[]).await;

    let now = OffsetDateTime::now_utc();
    let today = now.replace_time(time::Time::MIDNIGHT);
    let (day1, day2) = (
        today - time::Duration::days(2),
        today - time::Duration::days(1),
    );
    let daily = |name: &str, starts_at| CreateSeasonRequest {
        name: name.into(),
        rules: Some(rules(None)),
        starts_at: Some(at(starts_at)),
        recurrence: "0 0 * * *".into(),
        time_zone: "UTC".into(),
        divisions: Some(Divisions {
            tiers: 2,
            cohort_size: 3,
            promote_percent: 34,
            relegate_percent: 34,
            min_games: 1,
        }),
        ..Default::default()
    };
    let season: Season = client
        .create_season(authed(daily("Daily", day1), OPERATOR_TOKEN))
        .await
        .expect("create season")
        .into_inner();
    let sid = season.season_id.clone();
    let divisions = season.divisions.expect("divisions shown");
    assert_eq!((divisions.tiers, divisions.cohort_size), (2, 3));
    let track = |start| SeasonTrack {
        season_id: sid.clone(),
        period_start: start,
    };
    // Day one: p2 wins, p3 second, p0 third; p1 does not play.
    rate(&store, &app, &[&p[2], &p[3], &p[0]], &[track(day1)]).await;
    // Day two: p0, p1, p2; p3 does not play.
    rate(&store, &app, &[&p[0], &p[1], &p[2]], &[track(day2)]).await;

    let ask = |account: &Player, when| GetDivisionRequest {
        season_id: sid.clone(),
        ..request(account, when)
    };
    let token = p[0].token.clone();
    // Asked today, the service turns every period since the start. No
    // rating changed before day one, so nobody was seeded; day one's
    // players entered the bottom tier, and its winner, p2, went up. On day
    // two p0 won the bottom tier and went up; p3 did not play and left.
    let today_top = division(&mut client, ask(&p[0], None), &token)
        .await
        .expect("today");
    assert_eq!(today_top.tier, 1);
    assert_eq!(
        rows(&today_top),
        [
            // Nobody has played today: both stand to go down.
            (
                p[0].id.clone(),
                DivisionZone::Relegation,
                DivisionArrival::Promoted
            ),
            (
                p[2].id.clone(),
                DivisionZone::Relegation,
                DivisionArrival::Stayed
            ),
        ]
    );
    assert!(today_top.rows.iter().all(|r| !r.active), "{today_top:?}");
    let out = division(&mut client, ask(&p[3], None), &token)
        .await
        .expect_err("p3 left");
    assert_eq!(out.code(), Code::NotFound, "{out:?}");
    assert!(out.message().contains("no place"), "{out:?}");

    // The past periods as they stood.
    let first = division(
        &mut client,
        ask(&p[2], Some(day1 + Duration::from_secs(3600))),
        &token,
    )
    .await
    .expect("day one");
    assert_eq!(first.tier, 2);
    assert_eq!(
        rows(&first),
        [
            (
                p[2].id.clone(),
                DivisionZone::Promotion,
                DivisionArrival::Entered
            ),
            (
                p[0].id.clone(),
                DivisionZone::Stay,
                DivisionArrival::Entered
            ),
            (
                p[3].id.clone(),
                DivisionZone::Stay,
                DivisionArrival::Entered
            ),
        ]
    );
    let second = division(
        &mut client,
        ask(&p[1], Some(day2 + Duration::from_secs(60))),
        &token,
    )
    .await
    .expect("day two");
    assert_eq!(second.tier, 2);
    assert_eq!(
        rows(&second),
        [
            (
                p[0].id.clone(),
                DivisionZone::Promotion,
                DivisionArrival::Stayed
            ),
            (
                p[1].id.clone(),
                DivisionZone::Stay,
                DivisionArrival::Entered
            ),
            // No game on day two: inactive in the bottom tier.
            (p[3].id.clone(), DivisionZone::Out, DivisionArrival::Stayed),
        ]
    );
    assert!(
        !second.rows[2].active && second.rows[0].active,
        "{second:?}"
    );
    let second_top = division(
        &mut client,
        ask(&p[2], Some(day2 + Duration::from_secs(60))),
        &token,
    )
    .await
    .expect("day two, tier 1");
    assert_eq!(
        rows(&second_top),
        [(
            p[2].id.clone(),
            DivisionZone::Stay,
            DivisionArrival::Promoted
        )]
    );

    // A season starting now seeds its first period by lifetime rating as
    // it stood at the start: p0 first, p3 (one game, uncertain) last.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let seeded = client
        .create_season(authed(
            daily("Seeded", OffsetDateTime::now_utc()),
            OPERATOR_TOKEN,
        ))
        .await
        .expect("seeded season")
        .into_inner();
    let ask_seeded = |account: &Player| GetDivisionRequest {
        season_id: seeded.season_id.clone(),
        ..request(account, None)
    };
    let best = division(&mut client, ask_seeded(&p[0]), &token)
        .await
        .expect("p0 seeded");
    let worst = division(&mut client, ask_seeded(&p[3]), &token)
        .await
        .expect("p3 seeded");
    assert_eq!((best.tier, worst.tier), (1, 2));
    assert!(
        best.rows
            .iter()
            .chain(&worst.rows)
            .all(|r| r.arrival() == DivisionArrival::Seeded),
        "{best:?} {worst:?}"
    );
    let unrated = division(&mut client, ask_seeded(&p[4]), &token)
        .await
        .expect_err("p4 has no rating");
    assert_eq!(unrated.code(), Code::NotFound);

    // A rated game now: p3, p4 and p5 enter the bottom tier, p1's cohort
    // first until it holds three.
    played_game(&app, &p[3..6], rules(None), true, 7).await;
    let bottom = division(&mut client, ask(&p[1], None), &token)
        .await
        .expect("p1 today");
    assert_eq!(bottom.tier, 2);
    let tier2: Vec<u32> = bottom
        .cohorts
        .iter()
        .filter(|c| c.tier == 2)
        .map(|c| c.players)
        .collect();
    assert_eq!(tier2, [3, 1], "{:?}", bottom.cohorts);
    for player in &p[3..6] {
        let theirs = division(&mut client, ask(player, None), &token)
            .await
            .expect("entered");
        let row = theirs
            .rows
            .iter()
            .find(|r| r.account_id == player.id)
            .expect("own row");
        assert_eq!((theirs.tier, row.arrival()), (2, DivisionArrival::Entered));
        assert_eq!(row.games, 1);
    }
    // A cohort by number.
    let named = division(
        &mut client,
        GetDivisionRequest {
            season_id: sid.clone(),
            tier: 1,
            cohort: 1,
            ..Default::default()
        },
        &p[4].token,
    )
    .await
    .expect("tier 1 cohort 1");
    assert_eq!(named.rows.len(), 2);

    // p0 steps down, then takes it back; p1 has no tier below.
    let step = |season_id: &str, undo| StepDownRequest {
        season_id: season_id.into(),
        undo,
    };
    let stepped = client
        .step_down(authed(step(&sid, false), &p[0].token))
        .await
        .expect("step down")
        .into_inner();
    let own = stepped
        .rows
        .iter()
        .find(|r| r.account_id == p[0].id)
        .expect("row");
    assert!(own.stepping_down && own.zone() == DivisionZone::Relegation);
    let undone = client
        .step_down(authed(step(&sid, true), &p[0].token))
        .await
        .expect("undo")
        .into_inner();
    assert!(undone.rows.iter().all(|r| !r.stepping_down));
    let bottom_step = client
        .step_down(authed(step(&sid, false), &p[1].token))
        .await
        .expect_err("no tier below");
    assert_eq!(bottom_step.code(), Code::FailedPrecondition);
    assert!(
        bottom_step.message().contains("bottom tier"),
        "{bottom_step:?}"
    );

    // Bad requests name their field.
    let bad = [
        (
            GetDivisionRequest {
                tier: 3,
                cohort: 1,
                ..ask(&p[0], None)
            },
            "account_id",
        ),
        (
            GetDivisionRequest {
                season_id: sid.clone(),
                tier: 3,
                cohort: 1,
                ..Default::default()
            },
            "tier",
        ),
        (
            GetDivisionRequest {
                season_id: sid.clone(),
                tier: 1,
                ..Default::default()
            },
            "cohort",
        ),
        (ask(&p[0], Some(now + time::Duration::days(1))), "at"),
        (
            GetDivisionRequest {
                season_id: "no-uuid".into(),
                ..Default::default()
            },
            "season_id",
        ),
    ];
    for (request, field) in bad {
        let refused = division(&mut client, request, &token)
            .await
            .expect_err(field);
        Expected::invalid(field).grpc(&refused);
    }
    let bad_seasons = [
        (
            Divisions {
                tiers: 1,
                ..Default::default()
            },
            "divisions.tiers",
        ),
        (
            Divisions {
                tiers: 3,
                cohort_size: 1,
                ..Default::default()
            },
            "divisions.cohort_size",
        ),
        (
            Divisions {
                tiers: 3,
                promote_percent: 60,
                relegate_percent: 60,
                ..Default::default()
            },
            "divisions.relegate_percent",
        ),
    ];
    let once = client
        .create_season(authed(
            CreateSeasonRequest {
                recurrence: String::new(),
                ..daily("Once", now)
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect_err("divisions without a recurrence");
    Expected::invalid("recurrence").grpc(&once);
    for (divisions, field) in bad_seasons {
        let refused = client
            .create_season(authed(
                CreateSeasonRequest {
                    name: "Bad".into(),
                    rules: Some(rules(None)),
                    starts_at: Some(at(now)),
                    divisions: Some(divisions),
                    ..Default::default()
                },
                OPERATOR_TOKEN,
            ))
            .await
            .expect_err(field);
        Expected::invalid(field).grpc(&refused);
    }
    // A season without divisions has none to show.
    let plain = client
        .create_season(authed(
            CreateSeasonRequest {
                name: "Plain".into(),
                rules: Some(rules(None)),
                starts_at: Some(at(day1)),
                ..Default::default()
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("plain season")
        .into_inner();
    let none = division(
        &mut client,
        GetDivisionRequest {
            season_id: plain.season_id.clone(),
            ..Default::default()
        },
        &token,
    )
    .await
    .expect_err("no divisions");
    assert_eq!(none.code(), Code::FailedPrecondition);

    // REST: the caller's cohort, and a step down.
    let http = app.http();
    let (status, body) = http
        .call(
            "GET",
            &format!("/v1/seasons/{sid}/division"),
            Some(&p[2].token),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["tier"], json!(1), "{body}");
    assert_eq!(body["rows"][1]["accountId"], json!(p[2].id), "{body}");
    assert_eq!(
        body["rows"][1]["zone"],
        json!("DIVISION_ZONE_RELEGATION"),
        "{body}"
    );
    assert_eq!(
        body["rows"][1]["arrival"],
        json!("DIVISION_ARRIVAL_STAYED"),
        "{body}"
    );
    let (status, body) = http
        .call(
            "POST",
            &format!("/v1/seasons/{sid}/step-down"),
            Some(&p[2].token),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["rows"][1]["steppingDown"], json!(true), "{body}");
    let (status, body) = http
        .call(
            "GET",
            &format!("/v1/seasons/{sid}/division?tier=9&cohort=1"),
            Some(&p[2].token),
            None,
        )
        .await;
    Expected::invalid("tier").rest(&(status, body));

    drop(client);
    drop(store);
    app.stop().await;
}
