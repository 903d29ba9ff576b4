//! A rating limit is judged on the recent peak: a player whose rating
//! just dropped below a tournament's maximum still may not enter it; and a
//! tournament may ask for a number of rated games played.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use skit_proto::v1::rating_service_client::RatingServiceClient;
use skit_proto::v1::{
    AccountKind, Conditions, CreateGameRequest, GetRatingHistoryRequest, GetRatingsRequest,
};
use skit_testkit::{OPERATOR_TOKEN, Player, TestDb, authed, play_out, skitgubbe_for, spawn_game};

use crate::helpers::*;

/// (current, peak over the rated history) conservative ratings.
async fn current_and_peak(
    ratings: &mut RatingServiceClient<tonic::transport::Channel>,
    p: &Player,
) -> (f64, f64) {
    let current = ratings
        .get_ratings(authed(
            GetRatingsRequest {
                account_ids: vec![p.id.clone()],
                rules: skitgubbe_for(&[]).rules,
            },
            &p.token,
        ))
        .await
        .expect("ratings")
        .into_inner()
        .ratings[0]
        .conservative;
    let history = ratings
        .get_rating_history(authed(GetRatingHistoryRequest::default(), &p.token))
        .await
        .expect("history")
        .into_inner()
        .changes;
    let peak = history
        .iter()
        .filter_map(|c| c.after.as_ref().map(|r| r.conservative))
        .fold(current, f64::max);
    (current, peak)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rating_limit_is_judged_on_the_recent_peak() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let players = vec![
        game.account("ann", AccountKind::Player).await,
        game.account("bo", AccountKind::Player).await,
    ];
    let mut ratings = RatingServiceClient::connect(game.url())
        .await
        .expect("ratings");
    let mut games = game.games().await;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    // Rated games until someone's rating is below their recent peak.
    let mut dropped = None;
    for _ in 0..30 {
        let request = CreateGameRequest {
            rated: true,
            ..skitgubbe_for(&players)
        };
        let id = games
            .create_game(authed(request, OPERATOR_TOKEN))
            .await
            .expect("create")
            .into_inner()
            .game_id;
        play_out(&mut games, &id, &players, &mut rng, &mut |_, _| {}).await;
        for p in &players {
            let (current, peak) = current_and_peak(&mut ratings, p).await;
            if peak > current + 0.5 {
                dropped = Some((p.clone(), current, peak));
            }
        }
        if dropped.is_some() {
            break;
        }
    }
    let (player, current, peak) = dropped.expect("a rating dropped below its peak");
    // Between the two: the current rating alone would be let in.
    let t = leagues
        .create(skit_proto::v1::CreateTournamentRequest {
            conditions: Some(Conditions {
                max_rating: Some((current + peak) / 2.0),
                ..Default::default()
            }),
            ..swiss("Below the peak", 3, 2)
        })
        .await;
    let refused = leagues.refused_entry(&player, &t.tournament_id).await;
    assert_eq!(condition(&refused), "max_rating");
    assert!(
        refused.message().contains("recent peak"),
        "{}",
        refused.message()
    );
    // Rated games played: enough for one tournament, not for another.
    let needs = |n: u32| skit_proto::v1::CreateTournamentRequest {
        conditions: Some(Conditions {
            min_rated_games: n,
            ..Default::default()
        }),
        ..swiss(&format!("{n} games"), 3, 2)
    };
    let veterans = leagues.create(needs(1000)).await;
    let refused = leagues
        .refused_entry(&player, &veterans.tournament_id)
        .await;
    assert_eq!(condition(&refused), "min_rated_games");
    let regulars = leagues.create(needs(1)).await;
    leagues.enter(&player, &regulars).await;
    drop(games);
    drop(ratings);
    leagues.stop().await;
    game.stop().await;
}
