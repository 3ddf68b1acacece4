//! The live server under test: `wumpus serve` started on a free loopback port, and a small
//! HTTP/1.1 client over a raw socket. The hardening tests need exactly the bytes they mean (a
//! foreign `Host`, a head sent a byte at a time, a connection from another loopback address),
//! which a client crate would tidy up; the browser test reaches chromedriver through the
//! `fantoccini` crate.
#![allow(dead_code)] // Shared by the server's test files, each of which uses a part.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A child process killed when the test ends, however it ends.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `wumpus serve --port 0` with the worlds folder `worlds` and `extra` flags; the server and
/// the port it printed.
pub fn start_server(worlds: &std::path::Path, extra: &[&str]) -> (Killed, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wumpus"))
        .args(["serve", "--port", "0", "--worlds"])
        .arg(worlds)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("wumpus serve starts");
    let stdout = child.stdout.take().unwrap();
    let server = Killed(child);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the server prints its address");
    let port = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://127.0.0.1:"))
        .and_then(|w| w.trim_end_matches('/').parse().ok())
        .unwrap_or_else(|| panic!("an address in {line:?}"));
    (server, port)
}

/// A connection to the server at `port` from the loopback address `from`.
pub fn connect_from(from: IpAddr, port: u16) -> std::io::Result<TcpStream> {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    socket.bind(&SocketAddr::new(from, 0).into())?;
    socket.connect(&SocketAddr::new("127.0.0.1".parse().unwrap(), port).into())?;
    Ok(socket.into())
}

/// An answer: its status, its head (lower case) and its body parsed as JSON (`Null` when empty
/// or not JSON).
pub struct Reply {
    pub status: u16,
    pub head: String,
    pub body: Value,
    pub text: String,
}

/// The key the tests' requests to the server on `port` carry unless they give their own: one
/// browser, its key issued by that server (`POST /api/key`) on first use.
pub fn test_key(port: u16) -> String {
    static KEYS: std::sync::Mutex<Vec<(u16, String)>> = std::sync::Mutex::new(Vec::new());
    let mut keys = KEYS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, k)) = keys.iter().find(|(p, _)| *p == port) {
        return k.clone();
    }
    let key = issued_key(port);
    keys.push((port, key.clone()));
    key
}

/// A fresh key issued by the server on `port`: a new browser.
pub fn issued_key(port: u16) -> String {
    let reply = request(
        "127.0.0.1".parse().unwrap(),
        port,
        "POST",
        "/api/key",
        &[("X-Wumpus-Key", "")],
        Some("{}"),
    )
    .expect("a key");
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.body["key"].as_str().expect("a key").to_string()
}

/// One request with `Connection: close` from `from`, with `headers` (a `Host` naming the
/// server, and the browser's key [`test_key`], are added unless given; an empty key value
/// sends none) and `body`.
pub fn request(
    from: IpAddr,
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Result<Reply, String> {
    let mut stream = connect_from(from, port).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .map_err(|e| e.to_string())?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    // The live server's API only (the same helper speaks to chromedriver).
    if path.starts_with("/api/")
        && !headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("x-wumpus-key"))
    {
        head.push_str(&format!("X-Wumpus-Key: {}\r\n", test_key(port)));
    }
    for (name, value) in headers.iter().filter(|(_, v)| !v.is_empty()) {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    let body = body.unwrap_or("");
    head.push_str(&format!(
        "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    ));
    stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body.as_bytes()))
        .map_err(|e| e.to_string())?;
    read_reply(&mut stream)
}

/// Reads one answer: the head, then exactly the body (a server may keep the connection open).
pub fn read_reply(stream: &mut TcpStream) -> Result<Reply, String> {
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    let split = loop {
        if let Some(at) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("the connection closed before the head".into());
        }
        raw.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok());
    let chunked = head.contains("transfer-encoding: chunked");
    loop {
        let body = &raw[split + 4..];
        let complete = match length {
            Some(n) => body.len() >= n,
            None if chunked => body.ends_with(b"0\r\n\r\n"),
            None => false,
        };
        if complete {
            break;
        }
        let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
    }
    let rest = String::from_utf8_lossy(&raw[split + 4..]).to_string();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("no status")?;
    let text = if chunked { dechunk(&rest) } else { rest };
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    Ok(Reply {
        status,
        head,
        body,
        text,
    })
}

/// One request from 127.0.0.1 with a JSON body: the status and the JSON answer.
pub fn http(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<(u16, Value), String> {
    let body = body.map(Value::to_string);
    let reply = request(
        "127.0.0.1".parse().unwrap(),
        port,
        method,
        path,
        &[],
        body.as_deref(),
    )?;
    if reply.body.is_null() && !reply.text.trim().is_empty() {
        return Err(format!("not JSON: {}", reply.text));
    }
    Ok((reply.status, reply.body))
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || tail.len() < n {
            break;
        }
        out.push_str(&tail[..n]);
        rest = tail[n..].trim_start_matches("\r\n");
    }
    out
}

/// The server's peak resident memory so far, in bytes (Linux's `VmHWM`).
pub fn peak_memory(server: &Killed) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.0.id())).ok()?;
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}
