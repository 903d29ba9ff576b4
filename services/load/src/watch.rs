//! `skit-load watch`: many WatchGame streams on one instance (spectators,
//! spread over a few games and HTTP/2 connections) while the games are
//! played at a steady pace; checks each stream received a view at every
//! version a move was acknowledged at.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use skit_api::authed;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::{GetViewRequest, Phase, SubmitMoveRequest, WatchGameRequest};
use tokio::sync::Mutex;

use crate::target::{Seats, Service, TargetArgs, create_game};

#[derive(clap::Args, Debug)]
pub struct WatchArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// WatchGame streams held open at once.
    #[arg(long, default_value_t = 10_000)]
    pub streams: usize,
    /// Games the streams watch (streams are spread evenly).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Moves played in each game (fewer if it ends first).
    #[arg(long, default_value_t = 20)]
    pub moves: usize,
    /// Pause between two moves of one game.
    #[arg(long, default_value_t = 200)]
    pub move_interval_ms: u64,
    /// Streams per HTTP/2 connection.
    #[arg(long, default_value_t = 100)]
    pub streams_per_connection: usize,
}

pub async fn run(args: &WatchArgs) -> anyhow::Result<bool> {
    raise_open_files(args.streams);
    let service = Service::start(&args.target, 16).await?;
    let seats: Seats = vec![service.guest("w0").await?, service.guest("w1").await?];
    let channels = service
        .channels(args.streams.div_ceil(args.streams_per_connection.max(1)))
        .await?;
    let mut player = GameServiceClient::new(channels[0].clone());
    let mut games = Vec::new();
    for _ in 0..args.games.max(1) {
        games.push(create_game(&mut player, &seats, "skitgubbe").await?.0);
    }
    // Per game: the versions moves were acknowledged at, and the last.
    let acked: Arc<Vec<Mutex<Vec<u64>>>> =
        Arc::new(games.iter().map(|_| Mutex::new(Vec::new())).collect());
    let finals: Arc<Vec<AtomicU64>> =
        Arc::new(games.iter().map(|_| AtomicU64::new(u64::MAX)).collect());

    let opened = Arc::new(AtomicU64::new(0));
    let mut streams = tokio::task::JoinSet::new();
    for i in 0..args.streams {
        let g = i % games.len();
        let mut client = GameServiceClient::new(
            channels[i / args.streams_per_connection.max(1) % channels.len()].clone(),
        );
        let (game_id, token, finals, opened) = (
            games[g].clone(),
            seats[0].1.clone(),
            finals.clone(),
            opened.clone(),
        );
        streams.spawn(async move {
            let req = WatchGameRequest {
                game_id,
                spectator: true,
                ..Default::default()
            };
            let mut stream = client.watch_game(authed(req, &token)?).await?.into_inner();
            opened.fetch_add(1, Ordering::Relaxed);
            let mut seen = BTreeSet::new();
            loop {
                let last = finals[g].load(Ordering::Relaxed);
                if seen.last().is_some_and(|&v| v >= last) {
                    break;
                }
                match tokio::time::timeout(Duration::from_millis(200), stream.message()).await {
                    Ok(Ok(Some(view))) => {
                        seen.insert(view.version);
                    }
                    Ok(Ok(None)) => break,
                    Ok(Err(status)) => return Err(status),
                    Err(_) => {}
                }
            }
            Ok::<_, tonic::Status>((g, seen))
        });
    }
    let wait = Instant::now();
    while (opened.load(Ordering::Relaxed) as usize) < args.streams
        && wait.elapsed() < Duration::from_secs(120)
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let open = opened.load(Ordering::Relaxed);
    println!(
        "watch: {open} of {} streams open after {:.1} s",
        args.streams,
        wait.elapsed().as_secs_f64()
    );

    let started = Instant::now();
    let mut players = tokio::task::JoinSet::new();
    for (g, game_id) in games.iter().enumerate() {
        let mut client = GameServiceClient::new(channels[g % channels.len()].clone());
        let (game_id, seats, acked, finals) = (
            game_id.clone(),
            seats.clone(),
            acked.clone(),
            finals.clone(),
        );
        let (moves, interval) = (args.moves, Duration::from_millis(args.move_interval_ms));
        players.spawn(async move {
            let mut rng = ChaCha8Rng::seed_from_u64(g as u64);
            let mut version = 0;
            for m in 0..moves {
                let mut chosen = None;
                for (seat, (_, token)) in seats.iter().enumerate() {
                    let req = GetViewRequest {
                        game_id: game_id.clone(),
                        seat: Some(seat as u32),
                        history_after: Some(version),
                        ..Default::default()
                    };
                    let view = client.get_view(authed(req, token)?).await?.into_inner();
                    version = view.version;
                    if view.phase == Phase::Over as i32 {
                        break;
                    }
                    if let Some(action) = view.legal_actions.choose(&mut rng) {
                        chosen = Some((seat, action.clone(), token.clone()));
                        break;
                    }
                }
                let Some((seat, action, token)) = chosen else {
                    break;
                };
                let req = SubmitMoveRequest {
                    game_id: game_id.clone(),
                    seat: seat as u32,
                    move_id: format!("w{m}"),
                    expected_version: version,
                    action: Some(action),
                };
                version = client
                    .submit_move(authed(req, &token)?)
                    .await?
                    .into_inner()
                    .version;
                acked[g].lock().await.push(version);
                tokio::time::sleep(interval).await;
            }
            finals[g].store(version, Ordering::Relaxed);
            Ok::<_, tonic::Status>(())
        });
    }
    let mut errors = 0u64;
    for result in players.join_all().await {
        if let Err(status) = result {
            errors += 1;
            eprintln!("player error: {} {}", status.code(), status.message());
        }
    }
    let played = started.elapsed();
    let moves: usize = {
        let mut n = 0;
        for a in acked.iter() {
            n += a.lock().await.len();
        }
        n
    };
    let (mut complete, mut views) = (0usize, 0usize);
    for result in streams.join_all().await {
        match result {
            Ok((g, seen)) => {
                views += seen.len();
                let acked = acked[g].lock().await;
                if acked.iter().all(|v| seen.contains(v)) {
                    complete += 1;
                }
            }
            Err(status) => {
                errors += 1;
                if errors < 10 {
                    eprintln!("stream error: {} {}", status.code(), status.message());
                }
            }
        }
    }
    println!(
        "  {} moves in {} games over {:.1} s; {} views delivered ({:.0}/s)",
        moves,
        games.len(),
        played.as_secs_f64(),
        views,
        views as f64 / played.as_secs_f64().max(1e-9)
    );
    println!(
        "  streams that received a view at every acknowledged version: {complete} of {}; errors: {errors}",
        args.streams
    );
    drop(player);
    drop(channels);
    service.stop().await?;
    Ok(errors == 0 && complete == args.streams)
}

/// Each stream is an HTTP/2 stream, not a socket, but a spawned service
/// holds both ends of every connection: make sure the soft limit allows.
fn raise_open_files(streams: usize) {
    let wanted = (streams as u64 / 10).max(4096);
    match rlimit::increase_nofile_limit(wanted) {
        Ok(limit) if limit < wanted => eprintln!("open files limited to {limit}"),
        Ok(_) => {}
        Err(e) => eprintln!("cannot raise the open files limit: {e}"),
    }
}
