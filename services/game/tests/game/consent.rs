//! Nobody is seated without their consent: a player creating a game seats
//! only themselves and the others join the open seats; only the operator
//! (the matchmaker, for players who queued) seats other accounts.

use serde_json::json;
use skit_proto::v1::{CreateGameRequest, JoinGameRequest, SeatSpec};
use skit_testkit::TestDb;
use skit_testkit::*;
use tonic::Code;

on_both_databases!(a_player_seats_only_themselves);

/// The refusal of a player naming another account at `field`.
fn needs_consent(field: &'static str) -> Expected {
    Expected {
        field: Some(field),
        ..Expected::new(Code::PermissionDenied, "seat_requires_consent")
    }
}

async fn a_player_seats_only_themselves(db: &TestDb) {
    // Arrange
    let app = spawn_game(db).await;
    let (ann, bo, cy) = (
        app.guest("ann").await,
        app.guest("bo").await,
        app.guest("cy").await,
    );
    let mut games = app.games().await;
    let seat = |player: Option<&Player>| SeatSpec {
        account_id: player.map(|p| p.id.clone()),
    };

    // Act: ann names bo over gRPC, cy over REST, and an unknown account
    let forced = games
        .create_game(authed(
            skitgubbe_for(&[ann.clone(), bo.clone()]),
            &ann.token,
        ))
        .await
        .expect_err("a player seating another account");
    let over_rest = app
        .http()
        .call(
            "POST",
            "/v1/games",
            Some(&ann.token),
            Some(json!({
                "rules": {"preset": "skitgubbe"}, "players": 3,
                "seats": [{}, {}, {"accountId": cy.id}],
            })),
        )
        .await;
    let unknown = CreateGameRequest {
        seats: vec![
            seat(Some(&ann)),
            SeatSpec {
                account_id: Some("999999".into()),
            },
        ],
        ..skitgubbe_for(&[ann.clone(), bo.clone()])
    };
    let unknown = games
        .create_game(authed(unknown, &ann.token))
        .await
        .expect_err("a player seating an account that does not exist");
    let refused_left_nothing = (app.games_of(&bo).await, app.games_of(&cy).await);

    // Act: ann seats herself and bo joins; the operator seats both
    let own = CreateGameRequest {
        seats: vec![seat(None), seat(Some(&ann))],
        ..skitgubbe_for(&[ann.clone(), bo.clone()])
    };
    let own = games
        .create_game(authed(own, &ann.token))
        .await
        .expect("a player seating only themselves")
        .into_inner();
    let join = JoinGameRequest {
        game_id: own.game_id.clone(),
        seat: None,
    };
    let joined = games
        .join_game(authed(join, &bo.token))
        .await
        .expect("bo joins")
        .into_inner();
    let by_operator = games
        .create_game(authed(
            skitgubbe_for(&[ann.clone(), bo.clone()]),
            OPERATOR_TOKEN,
        ))
        .await
        .expect("the operator seats others")
        .into_inner();

    // Assert
    needs_consent("seats[1].account_id").grpc(&forced);
    needs_consent("seats[2].account_id").rest(&over_rest);
    // The same refusal whether or not the account exists.
    needs_consent("seats[1].account_id").grpc(&unknown);
    assert_eq!(refused_left_nothing, (0, 0), "nothing was created");
    assert_eq!(own.seats[0].account_id, None, "seat 0 left open");
    assert_eq!(own.seats[1].account_id.as_deref(), Some(ann.id.as_str()));
    assert_eq!(joined.seat, 0, "bo took the open seat");
    let seated: Vec<Option<&str>> = by_operator
        .seats
        .iter()
        .map(|s| s.account_id.as_deref())
        .collect();
    assert_eq!(seated, [Some(ann.id.as_str()), Some(bo.id.as_str())]);
    assert_eq!(app.games_of(&bo).await, 2);
    drop(games);
    app.stop().await;
}
