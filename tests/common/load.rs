//! A load on the live server that stops by itself, loopback only: slow clients trickling their
//! heads, idle sockets (some held from the user's own address, 127.0.0.1), clients flooding
//! oversized uploads and bodies, clients spread over many loopback addresses asking as fast as
//! they can, all at once, while a few honest players play games and time every answer (the
//! first of them on 127.0.0.1, as the user's page is). Shared by `tests/serve/load.rs` (which
//! checks that every player is answered, correctly, within a memory bound) and
//! `benches/serve_load.rs` (which reports the answers' times against p99 under 100 ms).
#![allow(dead_code)]

use super::http::{connect_from, peak_memory, request, Killed};
use serde_json::json;
use std::io::{Read, Write};
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How much of each kind of client a load holds.
#[derive(Clone, Copy, Debug)]
pub struct Load {
    /// How long it runs.
    pub seconds: u64,
    /// Addresses that each hold slow connections, and how many each.
    pub slow_clients: u8,
    /// Addresses that each hold idle connections.
    pub idle_clients: u8,
    /// Connections each slow or idle address holds.
    pub sockets_each: usize,
    /// Clients that post oversized uploads and bodies as fast as they can.
    pub flooders: u8,
    /// Clients, each on its own loopback address, asking for the page and the catalogue as
    /// fast as they can.
    pub spread: u8,
    /// Idle connections held from 127.0.0.1 itself, the user's own address.
    pub own_sockets: usize,
    /// Honest players, each on its own address.
    pub players: u8,
    /// Clients, each on its own address, that take a fresh key for every game they start and
    /// keep asking for the games they hold (keys cost nothing: they must not buy a share).
    pub churners: u8,
}

/// What a load saw.
#[derive(Debug, Default)]
pub struct Report {
    /// The players' answers' times.
    pub latencies: Vec<Duration>,
    /// The players' requests that failed, and why.
    pub failures: Vec<String>,
    /// The user's (the first player's, on 127.0.0.1) answers' times.
    pub user_latencies: Vec<Duration>,
    /// The user's games another browser's game ended.
    pub user_games_ended: usize,
    /// New games the players were refused because the server was full of games being played.
    pub full: usize,
    /// Games the churners started, and how many times they were refused.
    pub churned: usize,
    pub churn_refused: usize,
    /// Games the players finished.
    pub games: usize,
    /// Oversized requests the flooders sent, and how many of them were refused with a 4xx.
    pub floods: usize,
    pub floods_refused: usize,
    /// The server's peak resident memory, in bytes.
    pub peak_memory: u64,
}

impl Report {
    /// The `q` quantile of the players' answer times.
    pub fn quantile(&self, q: f64) -> Duration {
        quantile(&self.latencies, q)
    }

    /// The `q` quantile of the user's answer times.
    pub fn user_quantile(&self, q: f64) -> Duration {
        quantile(&self.user_latencies, q)
    }
}

/// The `q` quantile of `times`.
fn quantile(times: &[Duration], q: f64) -> Duration {
    let mut times = times.to_vec();
    times.sort();
    times
        .get(((times.len() as f64 - 1.0) * q).round() as usize)
        .copied()
        .unwrap_or_default()
}

fn address(block: u8, n: u8) -> IpAddr {
    IpAddr::from([127, 0, block, n + 1])
}

/// Runs `load` against the server at `port` and reports.
pub fn run(server: &Killed, port: u16, load: Load) -> Report {
    let end = Instant::now() + Duration::from_secs(load.seconds);
    let floods = Arc::new(AtomicUsize::new(0));
    let refused = Arc::new(AtomicUsize::new(0));
    let mut nuisances = Vec::new();
    for (block, count, slow) in [(1, load.slow_clients, true), (2, load.idle_clients, false)] {
        for n in 0..count {
            let from = address(block, n);
            for _ in 0..load.sockets_each {
                nuisances.push(std::thread::spawn(move || hold(from, port, slow, end)));
            }
        }
    }
    for _ in 0..load.own_sockets {
        let own = IpAddr::from([127, 0, 0, 1]);
        nuisances.push(std::thread::spawn(move || hold(own, port, false, end)));
    }
    for n in 0..load.spread {
        nuisances.push(std::thread::spawn(move || ask(address(5, n), port, end)));
    }
    let churned = Arc::new(AtomicUsize::new(0));
    let churn_refused = Arc::new(AtomicUsize::new(0));
    for n in 0..load.churners {
        let (churned, churn_refused) = (churned.clone(), churn_refused.clone());
        nuisances.push(std::thread::spawn(move || {
            churn(address(6, n), port, end, &churned, &churn_refused)
        }));
    }
    for n in 0..load.flooders {
        let (floods, refused) = (floods.clone(), refused.clone());
        nuisances.push(std::thread::spawn(move || {
            flood(address(3, n), port, end, &floods, &refused)
        }));
    }
    let report = Arc::new(Mutex::new(Report::default()));
    let players: Vec<_> = (0..load.players)
        .map(|n| {
            let report = report.clone();
            // The first player is the user's page, on the user's own address.
            let from = if n == 0 {
                IpAddr::from([127, 0, 0, 1])
            } else {
                address(4, n)
            };
            std::thread::spawn(move || play(from, port, end, &report))
        })
        .collect();
    for p in players {
        p.join().expect("a player's thread");
    }
    for n in nuisances {
        let _ = n.join();
    }
    let mut report = std::mem::take(&mut *report.lock().unwrap());
    report.floods = floods.load(Ordering::Relaxed);
    report.floods_refused = refused.load(Ordering::Relaxed);
    report.churned = churned.load(Ordering::Relaxed);
    report.churn_refused = churn_refused.load(Ordering::Relaxed);
    report.peak_memory = peak_memory(server).unwrap_or(0);
    report
}

/// Holds a connection open until `end`: sending nothing, or a head one byte every half second;
/// opens another whenever the server closes it.
fn hold(from: IpAddr, port: u16, slow: bool, end: Instant) {
    let head = b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
    while Instant::now() < end {
        let Ok(mut stream) = connect_from(from, port) else {
            std::thread::sleep(Duration::from_millis(200));
            continue;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
        let mut sent = 0;
        let mut buf = [0u8; 64];
        while Instant::now() < end {
            if slow {
                let byte = head.get(sent).copied().unwrap_or(b'a');
                if stream.write_all(&[byte]).is_err() {
                    break;
                }
                sent += 1;
            }
            match stream.read(&mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(_) => break,
            }
        }
    }
}

/// Asks for the page and the catalogue, one after the other, as fast as the server answers.
fn ask(from: IpAddr, port: u16, end: Instant) {
    let mut n = 0;
    while Instant::now() < end {
        let path = if n % 2 == 0 { "/" } else { "/api/catalogue" };
        n += 1;
        if request(from, port, "GET", path, &[], None).is_err() {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Posts an upload of the largest grid there is, then a body over the limit, again and again.
fn flood(from: IpAddr, port: u16, end: Instant, floods: &AtomicUsize, refused: &AtomicUsize) {
    let big = json!({"rules": "grid",
                     "upload": "SIZE 4096 4096\nWUMPUS 4095 4095\nGOLD 4095 4094\n"})
    .to_string();
    let over = json!({"rules": "grid", "upload": "#".repeat(80 * 1024)}).to_string();
    let mut which = 0;
    while Instant::now() < end {
        let body = if which % 2 == 0 { &big } else { &over };
        which += 1;
        floods.fetch_add(1, Ordering::Relaxed);
        if let Ok(reply) = request(from, port, "POST", "/api/games", &[], Some(body)) {
            if (400..500).contains(&reply.status) {
                refused.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

/// Starts a game with a fresh key again and again, and keeps asking for the games it holds.
fn churn(from: IpAddr, port: u16, end: Instant, churned: &AtomicUsize, refused: &AtomicUsize) {
    let mut held: Vec<(String, String)> = Vec::new();
    let body = json!({"rules": "grid", "size": "8x8"}).to_string();
    while Instant::now() < end {
        let key = super::http::issued_key(port);
        let key_header = [("X-Wumpus-Key", key.as_str())];
        match request(from, port, "POST", "/api/games", &key_header, Some(&body)) {
            Ok(r) if r.status == 201 => {
                churned.fetch_add(1, Ordering::Relaxed);
                if let Some(id) = r.body["id"].as_str() {
                    held.push((key.clone(), id.to_string()));
                }
            }
            _ => {
                refused.fetch_add(1, Ordering::Relaxed);
            }
        }
        for (key, id) in &held {
            let _ = request(
                from,
                port,
                "GET",
                &format!("/api/games/{id}"),
                &[("X-Wumpus-Key", key.as_str())],
                None,
            );
        }
        held.truncate(16);
    }
}

/// Plays grid games by hint until `end`, timing every request, with a key of its own.
fn play(from: IpAddr, port: u16, end: Instant, report: &Mutex<Report>) {
    let user = from == IpAddr::from([127, 0, 0, 1]);
    let key = super::http::issued_key(port);
    let mut seed = u64::from(u32::from_be_bytes(match from {
        IpAddr::V4(a) => a.octets(),
        IpAddr::V6(_) => [0; 4],
    }));
    let timed = |method: &str, path: &str, body: Option<String>| {
        let started = Instant::now();
        let reply = request(
            from,
            port,
            method,
            path,
            &[("X-Wumpus-Key", key.as_str())],
            body.as_deref(),
        );
        let took = started.elapsed();
        let mut r = report.lock().unwrap();
        r.latencies.push(took);
        if user {
            r.user_latencies.push(took);
        }
        match reply {
            Ok(reply) if reply.status < 300 => Some(reply.body),
            // Full of games being played: a new game must wait (no game is ended for it).
            Ok(reply) if reply.status == 503 && method == "POST" && path == "/api/games" => {
                r.full += 1;
                None
            }
            Ok(reply) => {
                if user && reply.status == 404 && reply.text.contains("has ended") {
                    r.user_games_ended += 1;
                }
                r.failures
                    .push(format!("{method} {path}: {} {}", reply.status, reply.text));
                None
            }
            Err(e) => {
                r.failures.push(format!("{method} {path}: {e}"));
                None
            }
        }
    };
    while Instant::now() < end {
        seed += 1000;
        let body = json!({"rules": "grid", "size": "8x8", "seed": seed}).to_string();
        let Some(game) = timed("POST", "/api/games", Some(body)) else {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        };
        let id = game["id"].as_str().unwrap_or_default().to_string();
        let mut over = false;
        while !over && Instant::now() < end {
            let Some(hint) = timed("GET", &format!("/api/games/{id}/hint"), None) else {
                break;
            };
            let action = hint["step"]["action"]
                .as_str()
                .unwrap_or("climb")
                .to_string();
            let act = json!({ "action": action }).to_string();
            let Some(done) = timed("POST", &format!("/api/games/{id}/act"), Some(act)) else {
                break;
            };
            over = !done["end"].is_null();
        }
        if over {
            report.lock().unwrap().games += 1;
        }
        let _ = timed("GET", &format!("/api/games/{id}"), None);
        let _ = timed("DELETE", &format!("/api/games/{id}"), None);
    }
}
