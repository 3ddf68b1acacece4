//! The live server under a load that stops by itself (`tests/common/load.rs`): slow clients,
//! idle sockets (16 from the user's own address), floods of oversized uploads and 40 clients on
//! 40 loopback addresses asking as fast as they can, all at once, while honest players play. The server must stay up, answer every player correctly, refuse every
//! flood with a 4xx, and stay under a stated memory bound. The players' answer times are
//! printed here and measured against their target in `benches/serve_load.rs` (no timed
//! assertion in a test).

use crate::common;

use common::http::start_server;
use common::load::{run, Load};

/// The server's peak resident memory under the load may not pass this.
const MEMORY_BOUND: u64 = 300 << 20;

#[test]
fn the_server_answers_every_player_under_a_hostile_load() {
    let worlds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("worlds");
    let (server, port) = start_server(&worlds, &[]);
    let report = run(
        &server,
        port,
        Load {
            seconds: 12,
            slow_clients: 2,
            idle_clients: 4,
            sockets_each: 16,
            flooders: 4,
            spread: 40,
            own_sockets: 16,
            players: 8,
            churners: 4,
        },
    );
    eprintln!(
        "{} player requests, {} games finished; p50 {:?}, p99 {:?}, max {:?}; {} floods, {} \
         refused; peak memory {} MiB",
        report.latencies.len(),
        report.games,
        report.quantile(0.5),
        report.quantile(0.99),
        report.quantile(1.0),
        report.floods,
        report.floods_refused,
        report.peak_memory >> 20
    );
    assert!(report.failures.is_empty(), "{:#?}", report.failures);
    assert_eq!(
        report.user_games_ended, 0,
        "fresh keys ended the user's game"
    );
    assert!(report.churned > 0, "the churners started games");
    assert!(report.games > 0, "players finish games");
    assert!(report.floods > 0);
    assert_eq!(report.floods, report.floods_refused, "every flood refused");
    assert!(report.peak_memory > 0, "Linux's /proc");
    assert!(
        report.peak_memory < MEMORY_BOUND,
        "peak memory {} MiB",
        report.peak_memory >> 20
    );
}
