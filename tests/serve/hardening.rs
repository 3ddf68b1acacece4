//! The server's fourth pass of hardening, one test an attack: work bounded by the game really
//! dealt (not the form), heavy games capped, a game's actions capped, files of the worlds
//! folder never echoed whole nor named by where the folder is, every `Host` checked.

use crate::common;
use common::http::{issued_key, request, start_server, Reply};
use serde_json::json;
use std::net::IpAddr;
use std::path::Path;
use std::time::{Duration, Instant};

fn worlds() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("worlds")
}

fn post(port: u16, key: &str, path: &str, body: &serde_json::Value) -> Reply {
    request(
        IpAddr::from([127, 0, 0, 1]),
        port,
        "POST",
        path,
        &[("X-Wumpus-Key", key)],
        Some(&body.to_string()),
    )
    .expect("an answer")
}

#[test]
fn the_optimal_agents_limit_is_read_on_the_world_dealt_not_the_form() {
    let (_server, port) = start_server(&worlds(), &[]);
    let key = issued_key(port);
    let four = "SIZE 4 4\nPIT 1 1\nWUMPUS 3 3\nGOLD 0 3\n";
    for body in [
        json!({"rules": "grid", "agent": "optimal", "size": "3x4", "upload": four}),
        json!({"rules": "grid", "agent": "optimal", "size": "3x4", "world": "aima-4x4.txt"}),
        json!({"rules": "aima", "agent": "optimal", "size": "3x4",
               "upload": "SIZE 2 8\nWUMPUS 1 7\nGOLD 0 7\n"}),
    ] {
        let started = Instant::now();
        let r = post(port, &key, "/api/games", &body);
        assert_eq!(r.status, 400, "{body}: {}", r.text);
        assert!(r.text.contains("at most 12 cells"), "{}", r.text);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "refused before a solve"
        );
    }
}

#[test]
fn games_of_the_optimal_agent_are_capped_for_the_whole_server() {
    let (_server, port) = start_server(&worlds(), &[]);
    let game = json!({"rules": "grid", "agent": "optimal", "size": "2x3"});
    let mut made = 0;
    let mut refused = None;
    for _ in 0..8 {
        let r = post(port, &issued_key(port), "/api/games", &game);
        match r.status {
            201 => made += 1,
            _ => {
                refused = Some(r);
                break;
            }
        }
    }
    let refused = refused.expect("a cap");
    assert_eq!(made, 4, "four optimal games at once");
    assert_eq!(refused.status, 503, "{}", refused.text);
    assert!(refused.text.contains("optimal agent"), "{}", refused.text);
    // Other games still start.
    let other = post(
        port,
        &issued_key(port),
        "/api/games",
        &json!({"rules": "grid"}),
    );
    assert_eq!(other.status, 201, "{}", other.text);
}

#[test]
fn a_game_takes_at_most_its_actions() {
    let (_server, port) = start_server(&worlds(), &["--max-actions", "6"]);
    let key = issued_key(port);
    let made = post(
        port,
        &key,
        "/api/games",
        &json!({"rules": "aima", "seed": 3}),
    );
    assert_eq!(made.status, 201, "{}", made.text);
    let id = made.body["id"].as_str().unwrap();
    for turn in 0..6 {
        let r = post(
            port,
            &key,
            &format!("/api/games/{id}/act"),
            &json!({"action": "turn left"}),
        );
        assert_eq!(r.status, 200, "action {turn}: {}", r.text);
    }
    let over = post(
        port,
        &key,
        &format!("/api/games/{id}/act"),
        &json!({"action": "turn left"}),
    );
    assert_eq!(over.status, 409, "{}", over.text);
    assert!(over.text.contains("the most a game"), "{}", over.text);
}

#[test]
fn a_file_of_the_worlds_folder_is_never_echoed_whole_nor_named_by_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("junk.txt");
    std::fs::write(&path, "SIZE 4 4\nGOLD 0 3\nWUMPUS 3 3\n").unwrap();
    let (_server, port) = start_server(dir.path(), &[]);
    // Rewritten after the server listed it: a megabyte of junk on one line.
    std::fs::write(&path, format!("PIT {}\n", "x".repeat(1 << 20))).unwrap();
    let r = post(
        port,
        &issued_key(port),
        "/api/games",
        &json!({"rules": "grid", "world": "junk.txt"}),
    );
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r.text.len() < 2048, "{} bytes answered", r.text.len());
    assert!(r.text.contains("junk.txt"), "{}", r.text);
    let folder = dir.path().display().to_string();
    assert!(!r.text.contains(&folder), "the folder is named: {}", r.text);
}

#[test]
fn every_host_header_is_checked() {
    let (_server, port) = start_server(&worlds(), &[]);
    let own = format!("127.0.0.1:{port}");
    let r = request(
        IpAddr::from([127, 0, 0, 1]),
        port,
        "GET",
        "/api/catalogue",
        &[("Host", own.as_str()), ("Host", "evil.example")],
        None,
    )
    .unwrap();
    assert_eq!(r.status, 403, "{}", r.text);
}

#[test]
fn a_watched_game_is_written_once_and_answered_alike() {
    let (_server, port) = start_server(&worlds(), &[]);
    let key = issued_key(port);
    let made = post(
        port,
        &key,
        "/api/games",
        &json!({"rules": "grid", "size": "16x16", "seed": 4}),
    );
    let id = made.body["id"].as_str().unwrap();
    let watch = || {
        request(
            IpAddr::from([127, 0, 0, 1]),
            port,
            "GET",
            &format!("/api/games/{id}/watch"),
            &[("X-Wumpus-Key", key.as_str())],
            None,
        )
        .unwrap()
    };
    let (first, second) = (watch(), watch());
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(first.text, second.text);
}

#[test]
fn an_event_stream_is_busy_while_it_streams_and_never_closed_to_make_room() {
    use std::io::{Read, Write};
    let (_server, port) = start_server(&worlds(), &["--max-connections", "24"]);
    let key = issued_key(port);
    let made = post(port, &key, "/api/games", &json!({"rules": "grid"}));
    let id = made.body["id"].as_str().unwrap();
    let mut stream = common::http::connect_from(IpAddr::from([127, 0, 0, 1]), port).unwrap();
    write!(
        stream,
        "GET /api/games/{id}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Wumpus-Key: {key}\r\n\r\n"
    )
    .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(3)))
        .unwrap();
    let mut buf = [0u8; 4096];
    let n = stream.read(&mut buf).unwrap();
    assert!(
        String::from_utf8_lossy(&buf[..n]).contains("200"),
        "the stream opens"
    );
    // Idle sockets from many addresses, more than the server holds: the quiet ones make room,
    // never the stream.
    let mut idle = Vec::new();
    for n in 0..120u8 {
        if let Ok(s) = common::http::connect_from(IpAddr::from([127, 0, 9, 1 + n % 30]), port) {
            idle.push(s);
        }
    }
    std::thread::sleep(Duration::from_secs(2));
    for _ in 0..3 {
        // A keep-alive comment every 2 seconds: the stream is still open.
        let n = stream.read(&mut buf).expect("the stream still streams");
        assert!(n > 0, "the stream was closed to make room");
    }
    drop(idle);
}

#[test]
fn a_refusal_names_the_options_as_the_pages_form_labels_them() {
    let (_server, port) = start_server(&worlds(), &[]);
    let key = issued_key(port);
    let r = post(
        port,
        &key,
        "/api/games",
        &json!({"rules": "cave", "variant": "yob"}),
    );
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(
        r.text.contains("use agent random for variant yob") && !r.text.contains("agent='"),
        "{}",
        r.text
    );
}
