//! A service task started in the test's process, and how to stop it.

use std::future::Future;
use std::net::SocketAddr;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A listener on a free port of 127.0.0.1, bound before the service starts
/// so its address is known up front and no two tests race for a port.
pub(crate) async fn bind() -> (TcpListener, SocketAddr) {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("bind 127.0.0.1:0: {e}"));
    let addr = listener
        .local_addr()
        .unwrap_or_else(|e| panic!("the bound address: {e}"));
    (listener, addr)
}

/// A running service.
#[derive(Debug)]
pub(crate) struct Running {
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<anyhow::Result<()>>,
}

impl Running {
    /// Runs `serve(shutdown)` in the background until [`Running::stop`].
    pub(crate) fn start<F>(serve: impl FnOnce(Shutdown) -> F) -> Running
    where
        F: Future<Output = anyhow::Result<()>> + Send + 'static,
    {
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(serve(Shutdown(stopped)));
        Running {
            stop: Some(stop),
            task,
        }
    }

    /// Stops the service and waits until it has; panics if it failed.
    /// Drop its clients first: open calls delay the stop.
    pub(crate) async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            // Gone only if the service already ended; the join says how.
            let _ = stop.send(());
        }
        match self.task.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => panic!("the service failed: {e:#}"),
            Err(e) => panic!("the service task: {e}"),
        }
    }
}

/// Resolves when the service is told to stop (or its [`Running`] is dropped).
#[derive(Debug)]
pub(crate) struct Shutdown(oneshot::Receiver<()>);

impl Shutdown {
    pub(crate) async fn wait(self) {
        // A dropped sender stops the service too.
        drop(self.0.await);
    }
}
