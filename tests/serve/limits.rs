//! The live server treats every request as hostile: each test here sends what a careful
//! attacker on this machine would and checks what the server refuses, and that it keeps
//! serving everyone else. Each runs the real `wumpus serve` on a free loopback port; clients
//! on other loopback addresses (`127.0.0.2`, ...) and other keys stand for other programs and
//! other browsers.

use crate::common;

use common::http::{connect_from, issued_key, peak_memory, request, start_server, Reply};
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
fn an_unknown_field_is_refused_naming_every_field_a_new_game_takes() {
    let (_server, port) = start_server(&worlds(), &[]);
    let long = "x".repeat(10_000);
    let reply = create(port, 1, &json!({"rules": "grid", long.as_str(): 1}));
    assert_eq!(reply.status, 400, "{}", reply.text);
    let error = reply.body["error"].as_str().unwrap();
    assert!(error.len() < 1024, "{error}");
    assert!(error.starts_with("there is no field 'xxxx"), "{error}");
    let taken = error.split_once("a new game takes ").unwrap().1;
    let taken: Vec<&str> = taken.split(", ").collect();
    for field in [
        "seed",
        "world",
        "upload",
        "upload_name",
        "rules",
        "pit_prob",
        "map",
    ] {
        assert!(taken.contains(&field), "{field} missing: {error}");
    }
    assert!(!taken.contains(&"kb"), "{error}");
}

#[test]
fn the_optimal_agent_plays_only_grids_it_solves_in_a_second() {
    let (_server, port) = start_server(&worlds(), &[]);
    for rules in ["grid", "aima"] {
        let reply = create(
            port,
            1,
            &json!({"rules": rules, "agent": "optimal", "size": "4x4", "seed": 1}),
        );
        assert_eq!(reply.status, 400, "{}", reply.text);
        assert!(
            reply.body["error"]
                .as_str()
                .unwrap()
                .contains("at most 12 cells (4x4 has 16)"),
            "{}",
            reply.text
        );
        let small = json!({"rules": rules, "agent": "optimal", "size": "3x4", "seed": 1});
        assert_eq!(create(port, 1, &small).status, 201);
    }
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

/// A request with the browser key `key` (`""`: none).
fn as_browser(
    port: u16,
    key: &str,
    method: &str,
    path: &str,
    body: Option<&serde_json::Value>,
) -> Reply {
    let body = body.map(|b| b.to_string());
    request(
        from(1),
        port,
        method,
        path,
        &[("X-Wumpus-Key", key)],
        body.as_deref(),
    )
    .expect("an answer")
}

#[test]
fn games_are_shared_fairly_among_browsers_and_a_finished_game_frees_its_slot() {
    let (_server, port) = start_server(
        &worlds(),
        &[
            "--max-games",
            "3",
            "--games-per-browser",
            "2",
            "--played-seconds",
            "2",
        ],
    );
    let game = json!({"rules": "grid", "seed": 1});
    let keys = [issued_key(port), issued_key(port), issued_key(port)];
    let (hog, other, third) = (keys[0].as_str(), keys[1].as_str(), keys[2].as_str());
    let first = as_browser(port, hog, "POST", "/api/games", Some(&game));
    assert_eq!(first.status, 201, "{}", first.text);
    assert_eq!(first.body["key"], hog);
    // A key the server did not issue is not used: the game gets a fresh one.
    let made_up = as_browser(
        port,
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "POST",
        "/api/games",
        Some(&game),
    );
    assert_ne!(made_up.body["key"], "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    let made_up_key = made_up.body["key"].as_str().unwrap().to_string();
    let made_up_id = made_up.body["id"].as_str().unwrap().to_string();
    as_browser(
        port,
        &made_up_key,
        "DELETE",
        &format!("/api/games/{made_up_id}"),
        None,
    );
    assert_eq!(
        as_browser(port, hog, "POST", "/api/games", Some(&game)).status,
        201
    );
    let over = as_browser(port, hog, "POST", "/api/games", Some(&game));
    assert_eq!(over.status, 429, "one browser's own budget: {}", over.text);
    // From any number of loopback addresses, one browser is one browser; another plays.
    assert_eq!(
        as_browser(port, other, "POST", "/api/games", Some(&game)).status,
        201
    );
    // Full, every game played just now: no new browser ends one, however many keys it takes.
    for _ in 0..20 {
        let fresh = issued_key(port);
        let refused = as_browser(port, &fresh, "POST", "/api/games", Some(&game));
        assert_eq!(refused.status, 503, "{}", refused.text);
    }
    // Left alone past the time a game counts as played: a third browser takes the place of
    // the least recently used game of the one holding most, which is told why it is gone.
    std::thread::sleep(std::time::Duration::from_millis(2500));
    let mine = as_browser(port, third, "POST", "/api/games", Some(&game));
    assert_eq!(mine.status, 201, "{}", mine.text);
    let id = first.body["id"].as_str().unwrap();
    let gone = as_browser(port, hog, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(gone.status, 404);
    assert!(gone.text.contains("its share"), "{}", gone.text);
    // One game each: a browser that holds its share waits, and is told how a game ends.
    let waits = as_browser(port, other, "POST", "/api/games", Some(&game));
    assert_eq!(waits.status, 503, "{}", waits.text);
    assert!(waits.text.contains("Your games"), "{}", waits.text);
    // Climbing out at the start ends a game: its slot is free, its view still answers.
    let id = mine.body["id"].as_str().unwrap();
    let climb = as_browser(
        port,
        third,
        "POST",
        &format!("/api/games/{id}/act"),
        Some(&json!({"action": "climb"})),
    );
    assert!(!climb.body["end"].is_null(), "{}", climb.text);
    let again = as_browser(port, third, "POST", "/api/games", Some(&game));
    assert_eq!(again.status, 201, "the finished game's slot");
    let view = as_browser(port, third, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(view.status, 200);
    assert!(!view.body["end"].is_null());
    let list = as_browser(port, third, "GET", "/api/games", None);
    assert_eq!(
        list.body["games"].as_array().unwrap().len(),
        2,
        "{}",
        list.text
    );
}

#[test]
fn a_game_belongs_to_the_browser_that_made_it_and_its_id_is_nowhere_to_be_read() {
    let (server, port) = start_server(&worlds(), &[]);
    // A first game without a key: the server hands one out.
    let made = as_browser(
        port,
        "",
        "POST",
        "/api/games",
        Some(&json!({"rules": "cave"})),
    );
    assert_eq!(made.status, 201, "{}", made.text);
    let key = made.body["key"].as_str().unwrap().to_string();
    let id = made.body["id"].as_str().unwrap().to_string();
    assert_eq!((key.len(), id.len()), (32, 32));
    let stranger = issued_key(port);
    let stranger = stranger.as_str();
    let made_up = "0000000000000000000000000000000f";
    for (method, path, body) in [
        ("GET", format!("/api/games/{id}"), None),
        ("GET", format!("/api/games/{id}/hint"), None),
        ("GET", format!("/api/games/{id}/watch"), None),
        (
            "POST",
            format!("/api/games/{id}/act"),
            Some(json!({"action": "move 1"})),
        ),
        ("DELETE", format!("/api/games/{id}"), None),
    ] {
        for who in ["", stranger, made_up] {
            let r = as_browser(port, who, method, &path, body.as_ref());
            assert_eq!(r.status, 404, "{method} {path} by {who:?}: {}", r.text);
        }
    }
    assert_eq!(
        as_browser(port, &key, "GET", &format!("/api/games/{id}"), None).status,
        200
    );
    let theirs = as_browser(port, stranger, "GET", "/api/games", None);
    assert_eq!(theirs.body["games"], json!([]));
    let mine = as_browser(port, &key, "GET", "/api/games", None);
    assert_eq!(mine.body["games"][0]["id"], id.as_str());
    // Nothing of the id in the server's thread names, which any local user can read.
    let pid = server.0.id();
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).unwrap() {
        let comm = std::fs::read_to_string(task.unwrap().path().join("comm")).unwrap();
        assert!(!id.contains(comm.trim()) || comm.trim().len() < 4, "{comm}");
        assert!(!comm.contains(&id[..6]), "a thread named {comm:?}");
    }
}

#[test]
fn requests_for_games_that_are_not_there_are_rate_limited() {
    let (_server, port) = start_server(&worlds(), &[]);
    let mut statuses = Vec::new();
    for i in 0..120u32 {
        let r = as_browser(port, "", "GET", &format!("/api/games/{i:032x}"), None);
        statuses.push(r.status);
    }
    assert!(statuses[..10].iter().all(|&s| s == 404), "{statuses:?}");
    assert!(statuses.contains(&429), "guessing is slowed: {statuses:?}");
}

#[test]
fn a_world_file_swapped_after_the_server_started_is_read_within_the_page_limit() {
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small.txt");
    std::fs::write(&small, "WUMPUS 1 1\nGOLD 2 2\n").unwrap();
    let (server, port) = start_server(dir.path(), &[]);
    // Offered at the start; rewritten as a huge board before a game asks for it.
    std::fs::write(&small, "SIZE 4096 4096\nWUMPUS 4095 4095\nGOLD 4095 4094\n").unwrap();
    let started = Instant::now();
    let reply = create(port, 1, &json!({"rules": "grid", "world": "small.txt"}));
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert!(reply.text.contains("64x64"), "{}", reply.text);
    assert!(started.elapsed() < Duration::from_secs(5));
    let peak = peak_memory(&server).expect("Linux's /proc");
    assert!(peak < 400 << 20, "peak memory {} MiB", peak >> 20);
    // The server still plays.
    std::fs::write(&small, "WUMPUS 1 1\nGOLD 2 2\n").unwrap();
    let ok = create(port, 1, &json!({"rules": "grid", "world": "small.txt"}));
    assert_eq!(ok.status, 201, "{}", ok.text);
}

#[test]
fn a_body_announced_over_the_limit_is_refused_before_continue() {
    let (_server, port) = start_server(&worlds(), &[]);
    let mut stream = connect_from(from(1), port).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let head = format!(
        "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: \
         application/json\r\nContent-Length: 10000000\r\nExpect: 100-continue\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).unwrap();
    let mut answer = [0u8; 512];
    let n = stream.read(&mut answer).unwrap();
    let text = String::from_utf8_lossy(&answer[..n]);
    assert!(text.starts_with("HTTP/1.1 413"), "{text}");
    assert!(!text.contains("100 Continue"), "{text}");
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
fn sockets_held_from_any_loopback_address_never_keep_the_page_waiting() {
    let (_server, port) = start_server(&worlds(), &["--max-connections", "8"]);
    // Every connection the server allows, held from eight addresses, some dribbling a head.
    let mut held: Vec<_> = (0..8)
        .map(|i| {
            let mut s = connect_from(from(10 + i), port).unwrap();
            if i % 2 == 0 {
                let _ = s.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            }
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    // The user's page, from 127.0.0.1, is answered at once, again and again.
    for _ in 0..20 {
        let started = Instant::now();
        let r = request(from(1), port, "GET", "/api/catalogue", &[], None).unwrap();
        assert_eq!(r.status, 200);
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{:?}",
            started.elapsed()
        );
        // The holder reconnects as fast as it can.
        held.push(connect_from(from(20), port).unwrap());
    }
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
