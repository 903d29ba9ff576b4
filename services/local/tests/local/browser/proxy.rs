//! A TCP proxy in front of the game service that the test can cut: every
//! open connection closed at once (as a restarting server or a dropped
//! network does), then new ones refused until it is opened again.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub struct Proxy {
    pub addr: SocketAddr,
    open: watch::Sender<bool>,
    links: Arc<Mutex<Vec<JoinHandle<()>>>>,
    _accept: JoinHandle<()>,
}

impl Proxy {
    /// Listens on `addr`, forwarding to `upstream`.
    pub async fn start_on(addr: SocketAddr, upstream: SocketAddr) -> Proxy {
        let listener = TcpListener::bind(addr).await.expect("bind the proxy");
        let addr = listener.local_addr().expect("addr");
        let (open, is_open) = watch::channel(true);
        let links: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::default();
        let tasks = links.clone();
        let accept = tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if !*is_open.borrow() {
                    drop(client); // refused while cut
                    continue;
                }
                let link = tokio::spawn(async move {
                    if let Ok(mut server) = TcpStream::connect(upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
                let mut tasks = tasks.lock().expect("links");
                tasks.retain(|t| !t.is_finished());
                tasks.push(link);
            }
        });
        Proxy {
            addr,
            open,
            links,
            _accept: accept,
        }
    }

    /// Drops every connection and refuses new ones until [`Proxy::reopen`].
    pub fn cut(&self) {
        let _ = self.open.send(false);
        for link in self.links.lock().expect("links").drain(..) {
            link.abort();
        }
    }

    pub fn reopen(&self) {
        let _ = self.open.send(true);
    }
}
