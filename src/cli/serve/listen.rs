//! The live server's connections: accepts them, admits each only while the server and its
//! client are under their connection caps, and serves HTTP/1.1 on it with hyper under time
//! limits (the request head, the idle time between requests, the connection's whole life).
//!
//! It must never let one client hold every connection, nor let a connection that sends
//! nothing, or sends slowly, live on: every socket it accepts ends within
//! [`CONNECTION_LIFETIME`], and one whose head does not arrive within [`HEADER_TIMEOUT`] at once.

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::Request;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tower::ServiceExt;

/// A request's head must arrive within this time, and a kept-alive connection that sends no
/// next request within it is closed.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// A connection ends after this long whatever it does (a browser opens a new one).
pub const CONNECTION_LIFETIME: Duration = Duration::from_secs(120);

/// The most bytes hyper buffers of a request head (hyper's smallest allowed is 8 KiB).
pub const MAX_HEAD: usize = 16 * 1024;

/// The server's caps on open connections.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionCaps {
    /// Open at once, in all.
    pub total: usize,
    /// Open at once from one address.
    pub per_client: usize,
}

/// The connections open now, in all and by client address.
#[derive(Default)]
struct Open {
    total: usize,
    by_client: HashMap<IpAddr, usize>,
}

/// A connection's place under the caps, given back when it is dropped.
struct Admitted {
    open: Arc<Mutex<Open>>,
    client: IpAddr,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        if let Ok(mut open) = self.open.lock() {
            open.total = open.total.saturating_sub(1);
            if let Some(n) = open.by_client.get_mut(&self.client) {
                *n -= 1;
                if *n == 0 {
                    open.by_client.remove(&self.client);
                }
            }
        }
    }
}

/// Takes a place for a connection from `client`, or `None` when a cap is reached.
fn admit(open: &Arc<Mutex<Open>>, caps: ConnectionCaps, client: IpAddr) -> Option<Admitted> {
    let mut guard = open.lock().ok()?;
    let mine = guard.by_client.get(&client).copied().unwrap_or(0);
    if guard.total >= caps.total || mine >= caps.per_client {
        return None;
    }
    guard.total += 1;
    *guard.by_client.entry(client).or_insert(0) += 1;
    Some(Admitted {
        open: open.clone(),
        client,
    })
}

/// Serves `app` on `listener` until `stop` completes, then lets open requests finish (a few
/// seconds at most).
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    caps: ConnectionCaps,
    stop: impl Future<Output = ()>,
) {
    let open = Arc::new(Mutex::new(Open::default()));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .max_buf_size(MAX_HEAD);
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stop => break,
        };
        let (stream, peer) = match accepted {
            Ok(pair) => pair,
            Err(_) => {
                // Out of file descriptors, most likely: wait for some to close.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Some(place) = admit(&open, caps, peer.ip()) else {
            // Over a cap: closed at once, before any byte is read.
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let service = app
            .clone()
            .map_request(move |mut request: Request<Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                request
            });
        let connection = graceful.watch(http.serve_connection(
            TokioIo::new(stream),
            hyper_util::service::TowerToHyperService::new(service),
        ));
        tokio::spawn(async move {
            let _ = tokio::time::timeout(CONNECTION_LIFETIME, connection).await;
            drop(place);
        });
    }
    let _ = tokio::time::timeout(Duration::from_secs(5), graceful.shutdown()).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_hold_per_client_and_in_all_and_free_on_drop() {
        let open = Arc::new(Mutex::new(Open::default()));
        let caps = ConnectionCaps {
            total: 3,
            per_client: 2,
        };
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let first = admit(&open, caps, a).expect("room");
        let _second = admit(&open, caps, a).expect("room");
        assert!(admit(&open, caps, a).is_none(), "a's own cap");
        let _third = admit(&open, caps, b).expect("b has its own");
        assert!(admit(&open, caps, b).is_none(), "the total cap");
        drop(first);
        assert!(
            admit(&open, caps, a).is_some(),
            "a closed one is given back"
        );
    }
}
