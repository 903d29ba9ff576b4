//! Group commit's own figures, read from the service's `/metrics` before
//! and after the run: how many commits, how many appends each held, how
//! long a batch waited to fill and how long its commit took. They say
//! whether the database's flush or the CPU set the pace.

use anyhow::Context;
use http_body_util::BodyExt;
use tonic::transport::Channel;
use tower::ServiceExt;

/// The summaries' running sums and counts, as `/metrics` shows them.
#[derive(Debug, Default, Clone, Copy)]
pub struct Scrape {
    appends: Summary,
    gather: Summary,
    commit: Summary,
}

#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Summary {
    sum: f64,
    count: f64,
}

/// The run's commits: count and means.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Commits {
    pub commits: f64,
    pub appends: f64,
    pub gather_ms: f64,
    pub commit_ms: f64,
}

/// Fetches `/metrics` over the run's own HTTP/2 connection. `None` if the
/// service does not serve it, or (said on stderr) cannot be asked: the
/// figures are extra, and the run's report goes on without them.
pub async fn scrape(channel: &Channel, url: &str) -> Option<Scrape> {
    match fetch(channel, url).await {
        Ok(scrape) => scrape,
        Err(error) => {
            eprintln!("cannot read group commit's figures from {url}/metrics: {error:#}");
            None
        }
    }
}

async fn fetch(channel: &Channel, url: &str) -> anyhow::Result<Option<Scrape>> {
    let url = url.trim_end_matches('/');
    let request = http::Request::get(format!("{url}/metrics"))
        .body(tonic::body::Body::empty())
        .context("a /metrics request")?;
    let response = channel.clone().oneshot(request).await?;
    if !response.status().is_success() {
        return Ok(None);
    }
    let body = response.into_body().collect().await?.to_bytes();
    Ok(Some(parse(&String::from_utf8_lossy(&body))))
}

/// The group-commit summaries out of Prometheus' text format.
fn parse(text: &str) -> Scrape {
    let mut scrape = Scrape::default();
    for line in text.lines().filter(|line| !line.starts_with('#')) {
        let mut fields = line.split_whitespace();
        let (Some(name), Some(value)) = (fields.next(), fields.next()) else {
            continue;
        };
        let Ok(value) = value.parse::<f64>() else {
            continue;
        };
        let Some((metric, field)) = name.rsplit_once('_') else {
            continue;
        };
        let summary = match metric {
            skit_store::metrics::APPENDS => &mut scrape.appends,
            skit_store::metrics::GATHER => &mut scrape.gather,
            skit_store::metrics::COMMIT => &mut scrape.commit,
            _ => continue,
        };
        match field {
            "sum" => summary.sum = value,
            "count" => summary.count = value,
            _ => {}
        }
    }
    scrape
}

/// What happened between two scrapes; `None` without commits between.
pub fn between(before: &Scrape, after: &Scrape) -> Option<Commits> {
    let commits = after.appends.count - before.appends.count;
    if commits <= 0.0 {
        return None;
    }
    let mean = |a: Summary, b: Summary| (b.sum - a.sum) / commits;
    Some(Commits {
        commits,
        appends: mean(before.appends, after.appends),
        gather_ms: mean(before.gather, after.gather) * 1000.0,
        commit_ms: mean(before.commit, after.commit) * 1000.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEFORE: &str = "\
# TYPE skit_group_commit_appends summary
skit_group_commit_appends{quantile=\"0.5\"} 3
skit_group_commit_appends_sum 30
skit_group_commit_appends_count 10
skit_group_commit_gather_seconds_sum 0.01
skit_group_commit_gather_seconds_count 10
skit_group_commit_seconds_sum 0.02
skit_group_commit_seconds_count 10
skit_moves_total 30
";

    const AFTER: &str = "\
skit_group_commit_appends_sum 330
skit_group_commit_appends_count 20
skit_group_commit_gather_seconds_sum 0.03
skit_group_commit_gather_seconds_count 20
skit_group_commit_seconds_sum 0.12
skit_group_commit_seconds_count 20
";

    #[test]
    fn the_run_is_the_difference_of_two_scrapes() {
        let commits = between(&parse(BEFORE), &parse(AFTER)).expect("ten commits");
        assert_eq!(commits.commits, 10.0);
        assert!((commits.appends - 30.0).abs() < 1e-9);
        assert!((commits.gather_ms - 2.0).abs() < 1e-9);
        assert!((commits.commit_ms - 10.0).abs() < 1e-9);
    }

    #[test]
    fn no_commits_no_figures() {
        assert_eq!(between(&parse(AFTER), &parse(AFTER)), None);
        assert_eq!(between(&Scrape::default(), &parse("up 1\n")), None);
    }
}
