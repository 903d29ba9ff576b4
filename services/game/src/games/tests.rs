//! The cache after missed append notices: a cached game that another
//! instance moved on, with no notice heard, reads the log on its next use
//! once notices are known to be missed.

use skit_api::Secret;
use skit_proto::v1::game_service_server::GameService;
use skit_proto::v1::{CreateGameRequest, Rules};
use skit_store::{GameId, Store};
use tonic::Request;

use crate::config::Config;
use crate::game_service::GameApi;
use crate::operator::ensure_operator;
use crate::state::AppState;

const TOKEN: &str = "operator-token-for-the-cache-test";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_missed_notices_a_cached_game_reads_the_log_on_its_next_use() {
    // Given a game cached on this instance
    let dir = tempfile::tempdir().expect("a temp dir");
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("cache.db").display()
    );
    let store = Store::connect(&url).await.expect("the database");
    ensure_operator(&store, &Secret::new(TOKEN), std::time::Duration::ZERO)
        .await
        .expect("the operator");
    let state = AppState::new(store.clone(), &Config::default(), None);
    let api = GameApi::new(state.clone());
    let mut create = Request::new(CreateGameRequest {
        rules: Some(Rules {
            preset: "skitgubbe".into(),
            options: None,
        }),
        players: 2,
        ..Default::default()
    });
    let bearer = format!("Bearer {TOKEN}").parse().expect("a header value");
    create.metadata_mut().insert("authorization", bearer);
    let created = api.create_game(create).await.expect("a game").into_inner();
    let id: GameId = created.game_id.parse().expect("a game id");
    let games = &state.games;

    // and a move appended by another instance, whose notice never came
    let (before, events) = {
        let live = games.lock(id).await.expect("the game");
        let seat = live.game.to_act().iter().next().expect("a seat to act");
        let legal = live.game.legal_moves_for(seat);
        let first = legal.first().expect("a legal move");
        let events = live
            .plan_move(seat, first.kind, "elsewhere")
            .expect("a move");
        (live.version, events)
    };
    store
        .append(id, before + 1, &events)
        .await
        .expect("the other instance's append");
    let unheard = games.lock(id).await.expect("the game").version;

    // When notices are known to have been missed
    games.notices_missed().await;

    // Then the next use reads the log
    let after = games.lock(id).await.expect("the game").version;
    assert_eq!(unheard, before, "no notice, no read: the cached copy");
    assert!(after > before, "read the log: {after} after {before}");
    drop(api);
    state.stop_background().await;
    store.shutdown().await;
}
