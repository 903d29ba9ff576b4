//! `skit-load turns`: one account seated in many games, and how fast
//! ListGames finds its turns: the first page of my-turn games, repeated,
//! and a walk over every page, checked against each game's own view. Run
//! at several sizes, it shows whether the answer costs the number of the
//! account's games or only the page.

use std::time::{Duration, Instant};

use skit_api::authed;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::{GetViewRequest, ListGamesRequest};
use tonic::transport::Channel;

use crate::target::{Seats, Service, TargetArgs, create_games};

#[derive(clap::Args, Debug)]
pub struct TurnsArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// The numbers of games, one account seated in each set.
    #[arg(long, value_delimiter = ',', default_value = "10,1000,10000")]
    pub sizes: Vec<u64>,
    /// First-page calls timed per size.
    #[arg(long, default_value_t = 200)]
    pub polls: usize,
    /// Creations under way at once.
    #[arg(long, default_value_t = 64)]
    pub concurrency: usize,
}

pub async fn run(args: &TurnsArgs) -> anyhow::Result<bool> {
    let pool = u32::try_from(args.concurrency).unwrap_or(64).max(10);
    let service = Service::start(&args.target, pool).await?;
    let channels = service.channels(args.target.connections()).await?;
    let mut ok = true;
    println!("turns: one account in N games (3 seats, skitgubbe); ListGames my_turn_only");
    println!("| games | turns listed | by the views | first page p50 | p99 | every page |");
    println!("|---|---|---|---|---|---|");
    for (i, &size) in args.sizes.iter().enumerate() {
        let mut seats = Seats::new();
        for p in 0..3 {
            seats.push(service.guest(&format!("turns-{i}-{p}")).await?);
        }
        let (games, errors) =
            create_games(&channels, &seats, "skitgubbe", size, args.concurrency).await;
        if errors > 0 {
            anyhow::bail!("{errors} of {size} games could not be created");
        }
        let games: Vec<String> = games.into_iter().map(|(id, _)| id).collect();
        let mut client = GameServiceClient::new(channels[0].clone());
        let token = &seats[0].1;
        let mut first = Vec::with_capacity(args.polls);
        for _ in 0..args.polls {
            let started = Instant::now();
            let request = ListGamesRequest {
                my_turn_only: true,
                page_size: 100,
                ..Default::default()
            };
            client.list_games(authed(request, token)?).await?;
            first.push(started.elapsed());
        }
        let started = Instant::now();
        let listed = every_page(&mut client, token).await?;
        let walk = started.elapsed();
        let expected = turns_by_view(&channels, token, &games).await?;
        first.sort_unstable();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "| {size} | {listed} | {expected} | {:.2} ms | {:.2} ms | {:.1} ms |",
            ms(percentile(&first, 0.50)),
            ms(percentile(&first, 0.99)),
            ms(walk)
        );
        ok &= listed == expected;
    }
    drop(channels);
    service.stop().await?;
    Ok(ok)
}

/// The `q` quantile of sorted `times`.
fn percentile(times: &[Duration], q: f64) -> Duration {
    let last = times.len().saturating_sub(1);
    times
        .get((last as f64 * q).round() as usize)
        .copied()
        .unwrap_or_default()
}

/// How many games every page of the caller's turns lists.
async fn every_page(client: &mut GameServiceClient<Channel>, token: &str) -> anyhow::Result<u64> {
    let (mut listed, mut page_token) = (0, String::new());
    loop {
        let request = ListGamesRequest {
            my_turn_only: true,
            page_size: 1000,
            page_token,
            ..Default::default()
        };
        let page = client
            .list_games(authed(request, token)?)
            .await?
            .into_inner();
        listed += page.games.len() as u64;
        if page.next_page_token.is_empty() {
            return Ok(listed);
        }
        page_token = page.next_page_token;
    }
}

/// How many of `games` seat 0 may act in, by each game's view.
async fn turns_by_view(channels: &[Channel], token: &str, games: &[String]) -> anyhow::Result<u64> {
    let mut turns = 0;
    for chunk in games.chunks(64) {
        let mut tasks = tokio::task::JoinSet::new();
        for (i, game) in chunk.iter().enumerate() {
            let mut client = GameServiceClient::new(channels[i % channels.len()].clone());
            let request = authed(
                GetViewRequest {
                    game_id: game.clone(),
                    seat: Some(0),
                    ..Default::default()
                },
                token,
            )?;
            tasks.spawn(async move { client.get_view(request).await });
        }
        for view in tasks.join_all().await {
            turns += u64::from(!view?.into_inner().legal_actions.is_empty());
        }
    }
    Ok(turns)
}
