//! Seasons end to end: an operator's season counts the rated games of its
//! ruleset key played within it, on a track of its own that starts again
//! (softly) at each period; other keys' seasons and unrated games are not
//! touched; bad seasons name their field.

use std::time::Duration;

use skit_proto::v1::rating_service_client::RatingServiceClient;
use skit_proto::v1::{
    CreateSeasonRequest, GetSeasonStandingsRequest, ListSeasonsRequest, Rules, Season,
    SeasonStandings,
};
use skit_testkit::{Expected, OPERATOR_TOKEN, TestDb, authed, on_both_databases, spawn_game};
use time::OffsetDateTime;
use tonic::Code;
use tonic::transport::Channel;

use crate::ratings::{accounts, played_game, ratings_client, rules};

on_both_databases!(rated_games_count_toward_their_seasons);

fn at(t: OffsetDateTime) -> skit_proto::Timestamp {
    skit_api::timestamp(t)
}

fn season(name: &str, preset: &str, recurrence: &str) -> CreateSeasonRequest {
    CreateSeasonRequest {
        name: name.into(),
        rules: Some(Rules {
            preset: preset.into(),
            options: None,
        }),
        starts_at: Some(at(OffsetDateTime::now_utc() - Duration::from_secs(3600))),
        ends_at: None,
        recurrence: recurrence.into(),
        time_zone: "Europe/Stockholm".into(),
        request_id: String::new(),
        divisions: None,
    }
}

async fn create(client: &mut RatingServiceClient<Channel>, request: CreateSeasonRequest) -> Season {
    client
        .create_season(authed(request, OPERATOR_TOKEN))
        .await
        .expect("create season")
        .into_inner()
}

async fn standings(
    client: &mut RatingServiceClient<Channel>,
    season: &Season,
    token: &str,
) -> SeasonStandings {
    let request = GetSeasonStandingsRequest {
        season_id: season.season_id.clone(),
        ..Default::default()
    };
    client
        .get_season_standings(authed(request, token))
        .await
        .expect("season standings")
        .into_inner()
}

async fn rated_games_count_toward_their_seasons(db: &TestDb) {
    let app = spawn_game(db).await;
    let mut client = ratings_client(&app).await;
    let players = accounts(&app, 3).await;
    let token = players[0].token.clone();
    let monthly = create(&mut client, season("Monthly", "skitgubbe", "0 0 1 * *")).await;
    assert!(
        monthly.current.is_some(),
        "the season is running: {monthly:?}"
    );
    let other = create(&mut client, season("Mas", "mas", "")).await;

    let (_, end) = played_game(&app, &players, rules(None), true, 7).await;
    let result = end.result.expect("over");
    let first = standings(&mut client, &monthly, &token).await;
    assert_eq!(first.rows.len(), 3, "{first:?}");
    for row in &first.rows {
        assert_eq!(row.games, 1);
        assert!(row.provisional, "one game is provisional: {row:?}");
    }
    // Ranked by conservative rating: the game's winner first.
    let winner = result
        .places
        .iter()
        .position(|&p| p == 1)
        .expect("a winner");
    assert_eq!(first.rows[0].account_id, players[winner].id);
    assert!(
        standings(&mut client, &other, &token).await.rows.is_empty(),
        "another key's season"
    );
    // An unrated game counts for no season.
    played_game(&app, &players, rules(None), false, 8).await;
    let still = standings(&mut client, &monthly, &token).await;
    assert!(still.rows.iter().all(|r| r.games == 1));

    // A season starting now: its track starts from each player's lifetime
    // rating with the uncertainty raised, so after the same game its
    // ratings are less certain than the running season's.
    let fresh = create(
        &mut client,
        CreateSeasonRequest {
            starts_at: Some(at(OffsetDateTime::now_utc() - Duration::from_secs(1))),
            ..season("Fresh", "skitgubbe", "")
        },
    )
    .await;
    played_game(&app, &players, rules(None), true, 9).await;
    let running = standings(&mut client, &monthly, &token).await;
    let restarted = standings(&mut client, &fresh, &token).await;
    assert!(running.rows.iter().all(|r| r.games == 2));
    assert!(restarted.rows.iter().all(|r| r.games == 1));
    for row in &restarted.rows {
        let same = running
            .rows
            .iter()
            .find(|r| r.account_id == row.account_id)
            .expect("row");
        assert!(row.sigma > same.sigma, "{row:?} vs {same:?}");
    }
    let listed = client
        .list_seasons(authed(
            ListSeasonsRequest {
                ruleset_key: "skitgubbe".into(),
            },
            &token,
        ))
        .await
        .expect("list")
        .into_inner()
        .seasons;
    assert_eq!(listed.len(), 2);

    // Only the operator creates; bad seasons name their field.
    let refused = client
        .create_season(authed(season("Mine", "skitgubbe", ""), &token))
        .await
        .expect_err("a player cannot create a season");
    assert_eq!(refused.code(), Code::PermissionDenied);
    let now = OffsetDateTime::now_utc();
    let cases = [
        (
            season("Bad cron", "skitgubbe", "every monday"),
            "recurrence",
        ),
        (
            CreateSeasonRequest {
                time_zone: "Mars/Olympus".into(),
                ..season("Bad zone", "skitgubbe", "0 0 * * 1")
            },
            "time_zone",
        ),
        (
            CreateSeasonRequest {
                ends_at: Some(at(now - Duration::from_secs(7200))),
                ..season("Backwards", "skitgubbe", "")
            },
            "ends_at",
        ),
        (
            CreateSeasonRequest {
                starts_at: None,
                ..season("No start", "skitgubbe", "")
            },
            "starts_at",
        ),
        (season("", "skitgubbe", ""), "name"),
    ];
    for (request, field) in cases {
        let refused = client
            .create_season(authed(request, OPERATOR_TOKEN))
            .await
            .expect_err(field);
        Expected::invalid(field).grpc(&refused);
    }
    drop(client);
    app.stop().await;
}
