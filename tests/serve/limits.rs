//! The live server treats every request as hostile: each test here sends what a careful
//! attacker on this machine would (issue 38) and checks what the server refuses, and that it
//! keeps serving everyone else. Each runs the real `wumpus serve` on a free loopback port;
//! clients on other loopback addresses (`127.0.0.2`, ...) stand for other users.

use crate::common;

use common::http::{connect_from, peak_memory, request, start_server, Reply};
use serde_json::json;
use std::io::{Read, Write};
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn worlds() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("worlds")
}

fn from(last: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, last])
}

fn create(port: u16, client: u8, body: &serde_json::Value) -> Reply {
    request(
        from(client),
        port,
        "POST",
        "/api/games",
        &[],
        Some(&body.to_string()),
    )
    .expect("an answer")
}

#[test]
fn an_upload_over_the_page_limit_is_refused_before_anything_is_built() {
    let (server, port) = start_server(&worlds(), &[]);
    let big = json!({"rules": "grid", "upload_name": "big.txt",
                     "upload": "SIZE 4096 4096\nWUMPUS 4095 4095\nGOLD 4095 4094\n"});
    let started = Instant::now();
    let reply = create(port, 1, &big);
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert!(
        reply.body["error"]
            .as_str()
            .unwrap()
            .contains("big.txt:1: a 4096x4096 grid is larger than the 64x64 taken here"),
        "{}",
        reply.text
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    // The most the page plays is played.
    let most = json!({"rules": "aima", "upload": "SIZE 64 64\nWUMPUS 63 63\nGOLD 63 62\n"});
    assert_eq!(create(port, 1, &most).status, 201);
    let peak = peak_memory(&server).expect("Linux's /proc");
    assert!(peak < 400 << 20, "peak memory {} MiB", peak >> 20);
}

#[test]
fn a_world_file_larger_than_the_page_plays_is_not_offered() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("huge.txt"),
        "SIZE 1024 1024\nWUMPUS 1 1\nGOLD 2 2\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("small.txt"), "WUMPUS 1 1\nGOLD 2 2\n").unwrap();
    let (_server, port) = start_server(dir.path(), &[]);
    let options = request(from(1), port, "GET", "/api/catalogue", &[], None).unwrap();
    assert_eq!(options.body["door"]["files"]["world"], json!(["small.txt"]));
    let reply = create(port, 1, &json!({"rules": "grid", "world": "huge.txt"}));
    assert_eq!(reply.status, 400, "{}", reply.text);
}

#[test]
fn a_foreign_host_or_origin_is_refused() {
    let (_server, port) = start_server(&worlds(), &[]);
    let game = json!({"rules": "grid", "seed": 7}).to_string();
    let ask = |method: &str, path: &str, headers: &[(&str, &str)], body: Option<&str>| {
        request(from(1), port, method, path, headers, body).unwrap()
    };
    for headers in [
        &[("Host", "evil.example")][..],
        &[("Host", &*format!("evil.example:{port}"))][..],
        &[("Origin", "http://evil.example")][..],
        &[("Origin", "null")][..],
    ] {
        let reply = ask("POST", "/api/games", headers, Some(&game));
        assert_eq!(reply.status, 403, "{headers:?}: {}", reply.text);
        assert_eq!(ask("GET", "/", headers, None).status, 403, "{headers:?}");
    }
    // The page's own origin, under any loopback name, is served.
    let own = format!("http://localhost:{port}");
    let made = ask(
        "POST",
        "/api/games",
        &[("Host", &format!("localhost:{port}")), ("Origin", &own)],
        Some(&game),
    );
    assert_eq!(made.status, 201, "{}", made.text);
    let id = made.body["id"].as_str().unwrap().to_string();
    // Nothing a foreign page asks of an existing game happens.
    let evil = [("Origin", "http://evil.example")];
    let act = ask(
        "POST",
        &format!("/api/games/{id}/act"),
        &evil,
        Some(r#"{"action":"climb"}"#),
    );
    assert_eq!(act.status, 403);
    assert_eq!(
        ask("DELETE", &format!("/api/games/{id}"), &evil, None).status,
        403
    );
    let view = ask("GET", &format!("/api/games/{id}"), &[], None);
    assert_eq!(view.status, 200);
    assert!(view.body["end"].is_null(), "the game goes on");
}

#[test]
fn one_client_cannot_take_every_game_and_a_finished_game_frees_its_slot() {
    let (_server, port) = start_server(&worlds(), &["--max-games", "3", "--games-per-client", "2"]);
    let game = json!({"rules": "grid", "seed": 1});
    let first = create(port, 1, &game);
    assert_eq!(first.status, 201);
    assert_eq!(create(port, 1, &game).status, 201);
    let third = create(port, 1, &game);
    assert_eq!(third.status, 429, "{}", third.text);
    assert_eq!(create(port, 2, &game).status, 201, "another client plays");
    assert_eq!(create(port, 3, &game).status, 503, "the server is full");
    // Climbing out at the start ends the game: its slot is free, its view still answers.
    let id = first.body["id"].as_str().unwrap();
    let climb = request(
        from(1),
        port,
        "POST",
        &format!("/api/games/{id}/act"),
        &[],
        Some(r#"{"action":"climb"}"#),
    )
    .unwrap();
    assert!(!climb.body["end"].is_null(), "{}", climb.text);
    assert_eq!(
        create(port, 1, &game).status,
        201,
        "the finished game's slot"
    );
    let view = request(from(1), port, "GET", &format!("/api/games/{id}"), &[], None).unwrap();
    assert_eq!(view.status, 200);
    assert!(!view.body["end"].is_null());
}

#[test]
fn idle_and_slow_connections_are_closed() {
    let (_server, port) = start_server(&worlds(), &[]);
    let closed_after = |slow: bool| {
        std::thread::spawn(move || {
            let mut stream = connect_from(from(1), port).unwrap();
            stream
                .set_read_timeout(Some(Duration::from_millis(500)))
                .unwrap();
            let started = Instant::now();
            let head = b"GET /api/catalogue HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
            let mut sent = 0;
            let mut buf = [0u8; 256];
            while started.elapsed() < Duration::from_secs(40) {
                if slow {
                    let byte = head.get(sent).copied().unwrap_or(b'a');
                    if stream.write_all(&[byte]).is_err() {
                        return started.elapsed();
                    }
                    sent += 1;
                }
                match stream.read(&mut buf) {
                    Ok(0) => return started.elapsed(),
                    Ok(_) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                    Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
                    Err(_) => return started.elapsed(),
                }
            }
            started.elapsed()
        })
    };
    let idle = closed_after(false);
    let slow = closed_after(true);
    for (what, t) in [("idle", idle), ("slow", slow)] {
        let t = t.join().unwrap();
        assert!(t < Duration::from_secs(20), "{what}: held {t:?}");
    }
}

#[test]
fn connections_are_capped_per_client() {
    let (_server, port) = start_server(&worlds(), &["--connections-per-client", "3"]);
    let held: Vec<_> = (0..3)
        .map(|_| connect_from(from(5), port).unwrap())
        .collect();
    // The server counts a connection once it has accepted it.
    std::thread::sleep(Duration::from_millis(300));
    let over = request(from(5), port, "GET", "/api/catalogue", &[], None);
    assert!(
        over.is_err(),
        "a fourth connection from one client is closed"
    );
    let other = request(from(6), port, "GET", "/api/catalogue", &[], None).unwrap();
    assert_eq!(other.status, 200, "another client is served");
    drop(held);
    std::thread::sleep(Duration::from_millis(300));
    let again = request(from(5), port, "GET", "/api/catalogue", &[], None).unwrap();
    assert_eq!(again.status, 200, "closed connections are given back");
}

#[test]
fn the_page_runs_only_its_own_scripts_and_never_in_a_frame() {
    let (_server, port) = start_server(&worlds(), &[]);
    let page = request(from(1), port, "GET", "/", &[], None).unwrap();
    assert_eq!(page.status, 200);
    let policy = page
        .head
        .lines()
        .find_map(|l| l.strip_prefix("content-security-policy:"))
        .expect("a content security policy")
        .trim()
        .to_string();
    assert!(policy.contains("default-src 'none'"), "{policy}");
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    let nonce = policy
        .split("'nonce-")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .expect("a script nonce");
    assert_eq!(
        page.text.matches("<script").count(),
        page.text
            .matches(&format!("<script nonce=\"{nonce}\">"))
            .count(),
        "every script carries the nonce"
    );
    assert!(page.head.contains("x-frame-options: deny"));
    assert!(page.head.contains("x-content-type-options: nosniff"));
    let other = request(from(1), port, "GET", "/", &[], None).unwrap();
    assert!(!other.head.contains(nonce), "a fresh nonce each time");
}

#[test]
fn a_fifo_in_the_worlds_folder_does_not_hang_the_server() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("small.txt"), "WUMPUS 1 1\nGOLD 2 2\n").unwrap();
    let fifo = dir.path().join("pipe.txt");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    // start_server waits at most 30 s for the address.
    let (_server, port) = start_server(dir.path(), &[]);
    let options = request(from(1), port, "GET", "/api/catalogue", &[], None).unwrap();
    assert_eq!(options.body["door"]["files"]["world"], json!(["small.txt"]));
}
