//! The live server's answer times under a hostile load (`tests/common/load.rs`): slow clients,
//! idle sockets (16 of them from the user's own address), floods of oversized uploads and 40
//! clients on 40 loopback addresses asking as fast as they can, all at once, while eight
//! players play (the first on 127.0.0.1, as the user's page is). Prints the players' answer times (target: p99 under 100 ms) and the
//! server's peak memory. `cargo bench --bench serve_load` (release build; about 30 seconds).

#[path = "../tests/common/mod.rs"]
mod common;

use common::http::start_server;
use common::load::{run, Load};

fn main() {
    let worlds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("worlds");
    let (server, port) = start_server(&worlds, &[]);
    let load = Load {
        seconds: 30,
        slow_clients: 2,
        idle_clients: 4,
        sockets_each: 16,
        flooders: 4,
        spread: 40,
        own_sockets: 16,
        players: 8,
    };
    let report = run(&server, port, load);
    println!("load: {load:?}");
    println!(
        "players: {} requests, {} games, {} failed",
        report.latencies.len(),
        report.games,
        report.failures.len()
    );
    for (name, q) in [("p50", 0.5), ("p95", 0.95), ("p99", 0.99), ("max", 1.0)] {
        println!(
            "  {name} {:>8.2} ms",
            report.quantile(q).as_secs_f64() * 1e3
        );
    }
    println!(
        "floods: {} sent, {} refused with a 4xx",
        report.floods, report.floods_refused
    );
    println!("peak memory: {} MiB", report.peak_memory >> 20);
    let p99 = report.quantile(0.99).as_secs_f64() * 1e3;
    println!(
        "target p99 under 100 ms: {}",
        if p99 < 100.0 && report.failures.is_empty() {
            "met"
        } else {
            "NOT met"
        }
    );
}
