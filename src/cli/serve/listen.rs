//! The live server's connections: accepts them within a budget, and serves HTTP/1.1 on each
//! with hyper under time limits (the request head, the idle time between requests, the
//! connection's whole life).
//!
//! Every local program may use any loopback address, so on loopback an address says nothing of
//! who is asking: there the connections share one budget, and when it is full a new one takes
//! the place of a connection not in the middle of a request (an idle keep-alive, or one still
//! dribbling its head), of the address holding the most, the oldest of them. Sockets held open, from however many
//! addresses, can then never keep the user's own page from being answered. A client on another
//! address (a server bound to a public address) is also held to its own cap.
//!
//! It must never let a connection that sends nothing, or sends slowly, live on: every socket
//! it accepts ends within [`CONNECTION_LIFETIME`], and one whose head does not arrive within
//! [`HEADER_TIMEOUT`] at once.

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::Request;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;
use tower::ServiceExt;

/// A request's head must arrive within this time, and a kept-alive connection that sends no
/// next request within it is closed.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// A connection ends after this long whatever it does (a browser opens a new one).
pub const CONNECTION_LIFETIME: Duration = Duration::from_secs(120);

/// A connection opened, or active (a request begun or answered), less than this long ago is
/// closed to make room only when every other one is as recent: its request's head may be on
/// its way, or its answer still being written.
const RECENT: Duration = Duration::from_millis(1000);

/// The most bytes hyper buffers of a request head (hyper's smallest allowed is 8 KiB).
pub const MAX_HEAD: usize = 16 * 1024;

/// A connection's count of requests in progress, handed to a handler that answers with a
/// stream (the events of a game): it holds [`Streaming::hold`] for as long as the stream runs,
/// so that a connection streaming its answer counts as busy, never as idle, and is never
/// closed to make room.
#[derive(Clone, Debug)]
pub struct Streaming(Arc<AtomicUsize>);

impl Streaming {
    /// Marks the connection busy until the guard is dropped.
    pub fn hold(&self) -> StreamingGuard {
        self.0.fetch_add(1, Ordering::Relaxed);
        StreamingGuard(self.0.clone())
    }
}

/// The connection stays busy while this lives.
pub struct StreamingGuard(Arc<AtomicUsize>);

impl Drop for StreamingGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The server's caps on open connections.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionCaps {
    /// Open at once, in all.
    pub total: usize,
    /// Open at once from one address that is not a loopback one.
    pub per_client: usize,
}

/// One open connection, as the budget sees it.
struct Conn {
    client: IpAddr,
    opened: Instant,
    /// Requests in progress on it.
    busy: Arc<AtomicUsize>,
    /// When a request last began or was answered on it, in milliseconds since `opened`
    /// (`u64::MAX`: never).
    active: Arc<AtomicU64>,
    /// Closes it, when it must make room.
    close: Option<oneshot::Sender<()>>,
}

/// The connections open now.
#[derive(Default)]
struct Open {
    next: u64,
    conns: HashMap<u64, Conn>,
    by_client: HashMap<IpAddr, usize>,
}

impl Open {
    fn forget(&mut self, id: u64) {
        if let Some(c) = self.conns.remove(&id) {
            if let Some(n) = self.by_client.get_mut(&c.client) {
                *n -= 1;
                if *n == 0 {
                    self.by_client.remove(&c.client);
                }
            }
        }
    }
}

/// A connection's place in the budget, given back when it is dropped.
struct Admitted {
    open: Arc<Mutex<Open>>,
    id: u64,
    busy: Arc<AtomicUsize>,
    active: Arc<AtomicU64>,
    opened: Instant,
    closed: oneshot::Receiver<()>,
}

impl Admitted {
    /// A request began or was answered now.
    fn touch(active: &AtomicU64, opened: Instant) {
        active.store(opened.elapsed().as_millis() as u64, Ordering::Relaxed);
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        if let Ok(mut open) = self.open.lock() {
            open.forget(self.id);
        }
    }
}

/// Takes a place for a connection from `client`, closing another to make room when the
/// budget is full; `None` when `client` (not on loopback) is over its own cap.
fn admit(open: &Arc<Mutex<Open>>, caps: ConnectionCaps, client: IpAddr) -> Option<Admitted> {
    let mut guard = open.lock().ok()?;
    let mine = guard.by_client.get(&client).copied().unwrap_or(0);
    if !client.is_loopback() && mine >= caps.per_client {
        return None;
    }
    if guard.conns.len() >= caps.total {
        // The victim: not in a request if any is not, not recently opened or active if any is
        // not, of the address holding the most, the one quiet longest.
        let by_client = &guard.by_client;
        let victim = guard
            .conns
            .iter()
            .min_by_key(|(_, c)| {
                let active = c.active.load(Ordering::Relaxed);
                let quiet_since = if active == u64::MAX {
                    c.opened
                } else {
                    c.opened + Duration::from_millis(active)
                };
                (
                    c.busy.load(Ordering::Relaxed) > 0,
                    quiet_since.elapsed() < RECENT,
                    std::cmp::Reverse(by_client.get(&c.client).copied().unwrap_or(0)),
                    quiet_since,
                )
            })
            .map(|(&id, _)| id)?;
        if let Some(close) = guard.conns.get_mut(&victim).and_then(|c| c.close.take()) {
            let _ = close.send(());
        }
        guard.forget(victim);
    }
    let id = guard.next;
    guard.next += 1;
    let busy = Arc::new(AtomicUsize::new(0));
    let active = Arc::new(AtomicU64::new(u64::MAX));
    let opened = Instant::now();
    let (close, closed) = oneshot::channel();
    guard.conns.insert(
        id,
        Conn {
            client,
            opened,
            busy: busy.clone(),
            active: active.clone(),
            close: Some(close),
        },
    );
    *guard.by_client.entry(client).or_insert(0) += 1;
    Some(Admitted {
        open: open.clone(),
        id,
        busy,
        active,
        opened,
        closed,
    })
}

/// The connection cap `wanted`, within this process's open-file limit: the soft limit is raised
/// towards the hard one to fit the connections and a margin for files and the runtime; where it
/// cannot be, the cap shrinks to fit.
pub fn fit_open_files(wanted: usize) -> usize {
    const MARGIN: u64 = 64;
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` writes the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return wanted;
    }
    let need = wanted as u64 + MARGIN;
    if limit.rlim_cur < need {
        let raised = libc::rlimit {
            rlim_cur: need.min(limit.rlim_max),
            rlim_max: limit.rlim_max,
        };
        // SAFETY: `setrlimit` reads the struct it is given.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            limit.rlim_cur = raised.rlim_cur;
        }
    }
    (limit.rlim_cur.saturating_sub(MARGIN) as usize).clamp(1, wanted)
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
        let Some(mut place) = admit(&open, caps, peer.ip()) else {
            // Over its own cap: closed at once, before any byte is read.
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let (started, finished) = (place.busy.clone(), place.busy.clone());
        let streaming = Streaming(place.busy.clone());
        let (began, answered) = (place.active.clone(), place.active.clone());
        let opened = place.opened;
        let service = app
            .clone()
            .map_request(move |mut request: Request<Incoming>| {
                started.fetch_add(1, Ordering::Relaxed);
                Admitted::touch(&began, opened);
                request.extensions_mut().insert(ConnectInfo(peer));
                request.extensions_mut().insert(streaming.clone());
                request
            })
            .map_response(move |response| {
                finished.fetch_sub(1, Ordering::Relaxed);
                Admitted::touch(&answered, opened);
                response
            });
        let connection = graceful.watch(http.serve_connection(
            TokioIo::new(stream),
            hyper_util::service::TowerToHyperService::new(service),
        ));
        tokio::spawn(async move {
            tokio::select! {
                _ = tokio::time::timeout(CONNECTION_LIFETIME, connection) => {}
                // Closed to make room: dropping the connection closes the socket.
                _ = &mut place.closed => {}
            }
            drop(place);
        });
    }
    let _ = tokio::time::timeout(Duration::from_secs(5), graceful.shutdown()).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_budget_makes_room_by_closing_the_oldest_idle_connection() {
        let open = Arc::new(Mutex::new(Open::default()));
        let caps = ConnectionCaps {
            total: 3,
            per_client: 1,
        };
        let local = |n: u8| IpAddr::from([127, 0, 0, n]);
        let mut first = admit(&open, caps, local(1)).expect("room");
        let second = admit(&open, caps, local(1)).expect("loopback has no cap of its own");
        second.busy.fetch_add(1, Ordering::Relaxed);
        let _third = admit(&open, caps, local(2)).expect("room");
        // Full: the oldest idle connection (the first) is closed for the fourth.
        let _fourth = admit(&open, caps, local(3)).expect("room made");
        assert!(
            first.closed.try_recv().is_ok(),
            "the oldest idle one is told to close"
        );
        assert_eq!(open.lock().unwrap().conns.len(), 3);
        // Another address than this machine's keeps its own cap.
        let far: IpAddr = "192.0.2.7".parse().unwrap();
        let _one = admit(&open, caps, far).expect("room made");
        assert!(admit(&open, caps, far).is_none(), "its own cap");
        drop(second);
        assert!(open.lock().unwrap().conns.len() <= 3);
    }
}
