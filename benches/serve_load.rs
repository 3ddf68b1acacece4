//! The live server's answer times under a hostile load (`tests/common/load.rs`): slow clients,
//! one client holding 300 idle sockets, 16 more from the user's own address, floods of
//! oversized uploads, 50 clients on 50 loopback addresses asking as fast as they can, and 8
//! clients taking a fresh key for every game they start, all at once, while eight players
//! play (the first on 127.0.0.1, as the user's page is). Prints the user's and the players'
//! answer times (target: the user's p99 under 100 ms), whether any of the user's games was
//! ended for another browser's (target: none), and the server's peak memory. `cargo bench
//! --bench serve_load` (release build; about 30 seconds).

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
        idle_clients: 1,
        sockets_each: 300,
        flooders: 4,
        spread: 50,
        own_sockets: 16,
        players: 8,
        churners: 8,
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
    for (name, q) in [("p50", 0.5), ("p99", 0.99), ("max", 1.0)] {
        println!(
            "  the user's {name} {:>8.2} ms",
            report.user_quantile(q).as_secs_f64() * 1e3
        );
    }
    println!(
        "churners: {} games started, {} refused; players refused a new game (server full): {}",
        report.churned, report.churn_refused, report.full
    );
    println!(
        "the user's games ended for another's: {}",
        report.user_games_ended
    );
    let p99 = report.user_quantile(0.99).as_secs_f64() * 1e3;
    println!(
        "target: the user's p99 under 100 ms and none of its games ended: {}",
        if p99 < 100.0 && report.failures.is_empty() && report.user_games_ended == 0 {
            "met"
        } else {
            "NOT met"
        }
    );
}
