//! The signals that stop a service: SIGTERM (what a container runtime or
//! Kubernetes sends) and SIGINT (Ctrl-C at a terminal).

/// Resolves on the first SIGTERM or SIGINT. Where a signal cannot be
/// watched, says so in the log and waits for the other.
pub async fn stop_signal() {
    let interrupt = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot watch for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terms) => {
                terms.recv().await;
            }
            Err(error) => {
                tracing::error!(%error, "cannot watch for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => tracing::info!("SIGINT: shutting down"),
        () = terminate => tracing::info!("SIGTERM: shutting down"),
    }
}
