//! `skit-load watch`: one game watched by many spectators at once, over
//! gRPC WatchGame, Server-Sent Events and GetView long polls, while other
//! games are played.
//! Prints how long each move took to reach every watcher (from the move
//! sent, so its commit included), how many encodings each move cost the
//! service, and the other games' latencies without and with the watchers.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use skit_api::authed;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::{GetViewRequest, Phase, SubmitMoveRequest};
use tokio::sync::watch;

use crate::delivery::{Delivery, Kind, Move, quantiles};
use crate::lean::LeanClient;
use crate::memory::rss;
use crate::target::{Seats, Service, TargetArgs, create_game};
use crate::traffic::{self, Traffic};
use crate::watchers;

#[derive(clap::Args, Debug)]
pub struct WatchArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// Spectators of the watched game, in all.
    #[arg(long, default_value_t = 10_000)]
    pub streams: usize,
    /// How many of them watch over Server-Sent Events (each its own
    /// HTTP/1.1 connection); the others over gRPC.
    #[arg(long, default_value_t = 5_000)]
    pub sse: usize,
    /// gRPC streams (and long polls) per HTTP/2 connection.
    #[arg(long, default_value_t = 100)]
    pub streams_per_connection: usize,
    /// Spectators that long-poll GetView instead, besides the streams.
    #[arg(long, default_value_t = 0)]
    pub long_polls: usize,
    /// Moves played in the watched game (fewer if it ends first).
    #[arg(long, default_value_t = 30)]
    pub moves: usize,
    /// Pause between two moves of the watched game.
    #[arg(long, default_value_t = 300)]
    pub move_interval_ms: u64,
    /// Other games played at once, before and while the game is watched.
    #[arg(long, default_value_t = 4)]
    pub other_games: usize,
    /// How long the other games play alone first.
    #[arg(long, default_value_t = 5.0)]
    pub baseline_seconds: f64,
}

pub async fn run(args: &WatchArgs) -> anyhow::Result<bool> {
    let sse = args.sse.min(args.streams);
    let grpc = args.streams - sse;
    raise_open_files(
        (grpc + args.long_polls) / args.streams_per_connection.max(1) + 2 * sse + 1024,
    );
    let service = Service::start(&args.target, 16).await?;
    let mut seats = Seats::new();
    for p in 0..3 {
        seats.push(service.guest(&format!("watch-{p}")).await?);
    }
    let channels = service.channels(args.target.connections()).await?;
    let mut player = GameServiceClient::new(channels[0].clone());
    let (game_id, _) = create_game(&mut player, &seats, "skitgubbe").await?;

    let baseline = other_traffic(&channels, &seats, args).await;

    // The spectators: gRPC streams spread over connections, SSE each alone.
    let (opened, mut opens) = tokio::sync::mpsc::unbounded_channel();
    let (last, last_rx) = watch::channel(u64::MAX);
    // In-process with --spawn; with --url, the service's if its pid is given.
    let service_rss = || match args.target.spawn {
        true => rss(None),
        false => args.target.service_pid.and_then(|pid| rss(Some(pid))),
    };
    let rss_before = service_rss();
    let started = Instant::now();
    let per_connection = args.streams_per_connection.max(1);
    let grpc_channels = service.channels(grpc.div_ceil(per_connection)).await?;
    let poll_channels = service
        .channels(args.long_polls.div_ceil(per_connection))
        .await?;
    let addr = service.url.trim_start_matches("http://").parse()?;
    let mut streams = tokio::task::JoinSet::new();
    let watchers = args.streams + args.long_polls;
    for i in 0..watchers {
        let (game, token, opened, last) = (
            game_id.clone(),
            seats[0].1.clone(),
            opened.clone(),
            last_rx.clone(),
        );
        // The first `grpc` streams over shared connections, then SSE, then
        // the long polls over shared connections.
        if i < grpc {
            let channel = grpc_channels[i / per_connection].clone();
            streams.spawn(async move {
                let received = watchers::grpc(channel, game, token, opened, last).await;
                received.map(|r| (Kind::Grpc, r)).map_err(|s| s.to_string())
            });
        } else if i < args.streams {
            streams.spawn(async move {
                let received = watchers::sse(addr, game, token, opened, last).await;
                received.map(|r| (Kind::Sse, r)).map_err(|e| e.to_string())
            });
        } else {
            let channel = poll_channels[(i - args.streams) / per_connection].clone();
            streams.spawn(async move {
                let received = watchers::long_poll(channel, game, token, opened, last).await;
                received
                    .map(|r| (Kind::LongPoll, r))
                    .map_err(|s| s.to_string())
            });
        }
    }
    drop(opened);
    let mut open = 0;
    while open < watchers {
        match tokio::time::timeout(Duration::from_secs(120), opens.recv()).await {
            Ok(Some(())) => open += 1,
            _ => break,
        }
    }
    let rss_after = service_rss();
    println!(
        "watch: {open} of {watchers} spectators open ({grpc} gRPC streams over {} connections, {sse} SSE, {} long polls over {} connections) after {:.1} s",
        grpc.div_ceil(per_connection),
        args.long_polls,
        args.long_polls.div_ceil(per_connection),
        started.elapsed().as_secs_f64()
    );
    if let (Some(before), Some(after)) = (rss_before, rss_after) {
        println!(
            "  memory: {:.0} bytes per open stream ({})",
            after.saturating_sub(before) as f64 / open.max(1) as f64,
            if args.target.spawn {
                "tool and service in one process, both ends of each connection"
            } else {
                "the service"
            }
        );
    }

    let encodings_before = skit_gateway::shared::encodings();
    let stop = Arc::new(AtomicBool::new(false));
    let during = {
        let (channels, seats, stop) = (channels.clone(), seats.clone(), stop.clone());
        let games = args.other_games;
        tokio::spawn(async move { traffic::run(&channels, &seats, games, stop, 2).await })
    };
    let moves = play(&channels, &game_id, &seats, args).await?;
    stop.store(true, Ordering::Relaxed);
    let during = during.await?;
    let encodings_after = skit_gateway::shared::encodings();

    // Every watcher should reach the last version; those that do not
    // within 30 s are told to stop.
    let final_version = moves.last().map_or(0, |m| m.version);
    last.send_replace(final_version);
    let stopper = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_secs(30)).await;
        last.send_replace(0);
    });
    let mut results = Vec::new();
    let mut errors = baseline.errors + during.errors;
    for result in streams.join_all().await {
        match result {
            Ok(received) => results.push(received),
            Err(error) => {
                errors += 1;
                if errors < 10 {
                    eprintln!("stream error: {error}");
                }
            }
        }
    }
    stopper.abort();

    let delivery = Delivery::of(&moves, &results);
    println!(
        "  {} moves of the watched game, one every {} ms; {} deliveries",
        moves.len(),
        args.move_interval_ms,
        delivery.all.len()
    );
    for (name, h) in [
        ("all", &delivery.all),
        ("gRPC", &delivery.grpc),
        ("SSE", &delivery.sse),
        ("long poll", &delivery.long_poll),
    ] {
        if h.is_empty() {
            continue;
        }
        println!(
            "  move sent to view received, {name:>9} (ms): {}",
            quantiles(h)
        );
    }
    println!(
        "  spectators that received every move: {} of {watchers}; errors: {errors}",
        delivery.complete
    );
    if args.target.spawn {
        let per_move = |a: u64, b: u64| (b - a) as f64 / moves.len().max(1) as f64;
        println!(
            "  encodings per move (all spectators): protobuf {:.2}, JSON {:.2}",
            per_move(encodings_before.0, encodings_after.0),
            per_move(encodings_before.1, encodings_after.1)
        );
    }
    print_traffic("other games alone      ", &baseline);
    print_traffic("other games, watched on", &during);
    drop((player, channels, grpc_channels, poll_channels));
    service.stop().await?;
    Ok(errors == 0 && delivery.complete == watchers)
}

/// The other games alone, for the baseline's time.
async fn other_traffic(
    channels: &[tonic::transport::Channel],
    seats: &Seats,
    args: &WatchArgs,
) -> Traffic {
    let stop = Arc::new(AtomicBool::new(false));
    let timer = {
        let (stop, secs) = (stop.clone(), args.baseline_seconds);
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs_f64(secs)).await;
            stop.store(true, Ordering::Relaxed);
        })
    };
    let traffic = traffic::run(channels, seats, args.other_games, stop, 1).await;
    timer.abort();
    traffic
}

/// Plays the watched game: each move by a random legal action of the seat
/// to act, `--move-interval-ms` apart.
async fn play(
    channels: &[tonic::transport::Channel],
    game_id: &str,
    seats: &Seats,
    args: &WatchArgs,
) -> anyhow::Result<Vec<Move>> {
    let mut lean = LeanClient::new(channels[0].clone());
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut moves = Vec::new();
    let mut version = 0;
    'moves: for m in 0..args.moves {
        tokio::time::sleep(Duration::from_millis(args.move_interval_ms)).await;
        for (seat, (_, token)) in seats.iter().enumerate() {
            let req = GetViewRequest {
                game_id: game_id.into(),
                seat: Some(seat as u32),
                history_after: Some(version),
                ..Default::default()
            };
            let view = lean.get_view(authed(req, token)?).await?;
            version = view.version;
            if view.phase == Phase::Over as i32 {
                break 'moves;
            }
            let Some(action) = view.legal_actions.choose(&mut rng).cloned() else {
                continue;
            };
            let req = SubmitMoveRequest {
                game_id: game_id.into(),
                seat: seat as u32,
                move_id: format!("w{m}"),
                expected_version: version,
                action: Some(action),
            };
            let sent = Instant::now();
            version = lean.submit_move(authed(req, token)?).await?.version;
            moves.push(Move { version, sent });
            continue 'moves;
        }
        anyhow::bail!("nobody may act in the watched game");
    }
    Ok(moves)
}

fn print_traffic(name: &str, t: &Traffic) {
    let ms = |h: &Histogram<u64>, q: f64| h.value_at_quantile(q) as f64 / 1000.0;
    let (s, v) = (&t.latencies.submit, &t.latencies.view);
    println!(
        "  {name}: {:.0} moves/s; SubmitMove p50 {:.2} p99 {:.2} ms; GetView p50 {:.2} p99 {:.2} ms; errors {}",
        t.moves as f64 / t.elapsed.as_secs_f64().max(1e-9),
        ms(s, 0.5),
        ms(s, 0.99),
        ms(v, 0.5),
        ms(v, 0.99),
        t.errors
    );
}

/// A spawned service holds both ends of every connection: make sure the
/// soft open-files limit allows `wanted`.
fn raise_open_files(wanted: usize) {
    let wanted = (wanted as u64).max(4096);
    match rlimit::increase_nofile_limit(wanted) {
        Ok(limit) if limit < wanted => eprintln!("open files limited to {limit}"),
        Ok(_) => {}
        Err(e) => eprintln!("cannot raise the open files limit: {e}"),
    }
}
