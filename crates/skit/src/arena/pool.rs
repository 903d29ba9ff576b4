//! Independent arena jobs spread over threads. Each job is numbered and
//! seeded by its number, so results do not depend on the thread count.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `f(0..n)` on `threads` threads, results in job order.
pub fn map<T: Send>(
    n: usize,
    threads: usize,
    f: impl Fn(usize) -> anyhow::Result<T> + Sync,
) -> anyhow::Result<Vec<T>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.clamp(1, n.max(1)))
            .map(|_| {
                scope.spawn(|| -> anyhow::Result<()> {
                    loop {
                        let job = next.fetch_add(1, Ordering::Relaxed);
                        if job >= n {
                            return Ok(());
                        }
                        let result = f(job)?;
                        results
                            .lock()
                            .map_err(|_| anyhow::anyhow!("a worker panicked"))?[job] = Some(result);
                    }
                })
            })
            .collect();
        workers.into_iter().try_for_each(|w| {
            w.join()
                .unwrap_or_else(|_| Err(anyhow::anyhow!("a worker panicked")))
        })
    })?;
    results
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a worker panicked"))?
        .into_iter()
        .map(|r| r.ok_or_else(|| anyhow::anyhow!("a job did not finish")))
        .collect()
}

/// The thread count asked for, else one per core.
pub fn threads(asked: Option<usize>) -> usize {
    asked
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}
