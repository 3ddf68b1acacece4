//! `wumpus serve`: a local web server for the live page, where a person plays any rule set in
//! the browser, asks for hints, clicks places to see why they are proven, and watches the agent
//! play the same world step by step. The page and its drawing are embedded in the binary
//! (`web/`, shared with `trace --html`); nothing is loaded from the network.
//!
//! Each game is an actor on its own thread ([`live`]): it holds the session and the hint agent
//! (agents are not `Send`) and answers requests that the HTTP handlers send it over a channel.
//! Games are bounded in number, in all and by client, end when left idle, and a request that
//! fails (an unknown game, a malformed action, an oversized upload) gets a 4xx answer with a
//! message and harms no other game. Every request is treated as hostile: [`guard`] refuses a
//! foreign `Host` or `Origin` and bounds its time, [`listen`] bounds connections and their
//! time, and every limit on a game (its grid's size, a map's rooms) holds whether the game
//! comes from the form, a file of the worlds folder or an upload. The HTTP API and its limits
//! are described in `docs/live-page.md`.

mod answer;
mod game_routes;
mod games;
mod guard;
mod listen;
mod live;
mod request;

use anyhow::{Context, Result};
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use clap::Args;
use serde_json::{json, Value};

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use game_routes::{act, end_game, events, hint, view, watch};
pub use live::{ApiError, Job};
use request::bad;

/// The largest request body taken (an uploaded world file travels in one): 64 KiB.
pub const MAX_BODY: usize = 64 * 1024;

/// The largest grid the page plays.
pub const MAX_SIDE: usize = 64;

/// The most cells of a grid the page's optimal agent plays (3x4: its solve takes about a
/// second and 71 MB, on the games' thread).
pub const MAX_OPTIMAL_CELLS: usize = 12;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on (the default takes connections from this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// The port to listen on; 0 picks any free port (the address is printed).
    #[arg(long, default_value_t = 8017)]
    port: u16,
    /// Open the page in the default web browser.
    #[arg(long)]
    open: bool,
    /// The folder whose world, map and hazard files the page offers.
    #[arg(long, value_name = "DIR", default_value = "worlds")]
    worlds: PathBuf,
    /// At most this many unfinished games at once (a new one is refused while all are in use).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=1000))]
    max_games: u64,
    /// At most this many unfinished games for one browser (the games are shared evenly among
    /// the browsers playing when the server is full).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=1000))]
    games_per_browser: u64,
    /// At most this many open connections in all; when all are open, a new one takes the
    /// place of an idle one (the server raises its open-file limit to fit, where it may).
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u64).range(1..=10000))]
    max_connections: u64,
    /// At most this many open connections from one address other than this machine's own
    /// (every local program shares the loopback addresses, so they count in all only).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=10000))]
    connections_per_client: u64,
    /// Also answer requests that name this host (the server answers only for loopback names
    /// and the address it is bound to otherwise); repeat for more names.
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
    /// A game left alone this many minutes ends.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    idle_minutes: u64,
    /// A game asked for within this many seconds counts as being played: another browser's
    /// new game never takes its place (the tests shorten it).
    #[arg(long, default_value_t = 600, hide = true, value_parser = clap::value_parser!(u64).range(1..))]
    played_seconds: u64,
    /// The most actions a game of the page takes (the tests lower it).
    #[arg(long, default_value_t = live::MAX_ACTIONS as u64, hide = true, value_parser = clap::value_parser!(u64).range(1..=live::MAX_ACTIONS as u64))]
    max_actions: u64,
}

/// Heavy work at once (the optimal agent's solves, the agent's whole game for Watch): more
/// would starve every other game's thread of the two cores.
pub const HEAVY_AT_ONCE: usize = 2;

/// Heavy requests that wait their turn at most; beyond, a clear 503.
pub const HEAVY_QUEUE: usize = 8;

/// Games of the optimal agent at once, in all: each holds its solved game in memory (71 MB
/// for a 3x4 grid).
pub const MAX_OPTIMAL_GAMES: usize = 4;

/// The server's budget of heavy work: a few at once, a short queue, and a 503 beyond it.
pub struct Heavy {
    permits: tokio::sync::Semaphore,
    waiting: std::sync::atomic::AtomicUsize,
}

impl Heavy {
    fn new() -> Heavy {
        Heavy {
            permits: tokio::sync::Semaphore::new(HEAVY_AT_ONCE),
            waiting: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// Runs `work` in its turn, or says the server is too busy for it to wait.
    pub async fn run<T>(
        &self,
        work: impl std::future::Future<Output = Result<T, ApiError>>,
    ) -> Result<T, ApiError> {
        use std::sync::atomic::Ordering;
        if self.waiting.fetch_add(1, Ordering::AcqRel) >= HEAVY_QUEUE {
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the server is busy with heavy work ({HEAVY_AT_ONCE} at once, \
                     {HEAVY_QUEUE} waiting): try again in a few seconds"
                ),
            ));
        }
        let permit = self.permits.acquire().await;
        self.waiting.fetch_sub(1, Ordering::AcqRel);
        let _permit = permit.map_err(|e| ApiError::logged("the heavy work's budget", &e))?;
        work.await
    }
}

/// What the server shares between requests.
struct Server {
    games: Mutex<games::Games>,
    heavy: Heavy,
    /// The most actions a game takes.
    max_actions: usize,
    worlds: PathBuf,
    /// The files the page offers, by name: grid `world`s and cave `map`s.
    files: Vec<(String, &'static str)>,
}

type Shared = Arc<Server>;

pub fn run(args: ServeArgs) -> Result<()> {
    let files = world_files(&args.worlds);
    let server = Arc::new(Server {
        games: Mutex::new({
            let mut games = games::Games::new(
                args.max_games as usize,
                args.games_per_browser as usize,
                Duration::from_secs(60 * args.idle_minutes),
            );
            games.max_heavy = MAX_OPTIMAL_GAMES;
            games.played = Duration::from_secs(args.played_seconds);
            games
        }),
        heavy: Heavy::new(),
        max_actions: args.max_actions as usize,
        worlds: args.worlds.clone(),
        files,
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    let caps = listen::ConnectionCaps {
        total: listen::fit_open_files(args.max_connections as usize),
        per_client: args.connections_per_client as usize,
    };
    runtime.block_on(serve(
        server,
        SocketAddr::new(args.bind, args.port),
        args.open,
        caps,
        args.allow_host,
    ))
}

async fn serve(
    server: Shared,
    addr: SocketAddr,
    open: bool,
    caps: listen::ConnectionCaps,
    allow_host: Vec<String>,
) -> Result<()> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| super::bad_input(anyhow::anyhow!("cannot listen on {addr}: {e}")))?;
    let bound = listener.local_addr()?;
    let hosts = Arc::new(guard::Hosts::new(bound.ip(), bound.port(), &allow_host));
    let url = format!("http://{bound}/");
    super::out(format!(
        "wumpus serve: the live page is at {url} (Ctrl-C stops the server)\n"
    ))?;
    if open {
        open_browser(&url);
    }
    let reaper = tokio::spawn(reap(server.clone()));
    let app = router(server).layer(axum::middleware::from_fn_with_state(hosts, guard::guard));
    listen::serve(listener, app, caps, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await;
    reaper.abort();
    super::out("wumpus serve: stopped.\n")
}

/// The routes of the page and its API.
fn router(server: Shared) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/api/catalogue", get(catalogue))
        .route("/api/key", post(new_key))
        .route("/api/games", post(create).get(list))
        .route("/api/games/{id}", get(view).delete(end_game))
        .route("/api/games/{id}/act", post(act))
        .route("/api/games/{id}/hint", get(hint))
        .route("/api/games/{id}/watch", get(watch))
        .route("/api/games/{id}/events", get(events))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such page") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(server)
}

/// Ends the games left idle too long, every little while.
async fn reap(server: Shared) {
    let idle = server.games.lock().map(|g| g.idle).unwrap_or_default();
    let every = (idle / 4).clamp(Duration::from_secs(1), Duration::from_secs(60));
    loop {
        tokio::time::sleep(every).await;
        server.expire();
    }
}

/// The browser's key a request carries (`X-Wumpus-Key`), if it carries one of the right shape.
fn key_of(headers: &HeaderMap) -> Option<String> {
    headers
        .get("x-wumpus-key")
        .and_then(|v| v.to_str().ok())
        .filter(|k| games::is_secret(k))
        .map(str::to_ascii_lowercase)
}

impl Server {
    /// Drops the games idle longer than the limit, finished a while or too old (their actors
    /// then end).
    fn expire(&self) {
        if let Ok(mut games) = self.games.lock() {
            games.expire();
        }
    }

    /// The way to game `id`'s actor, if it is `key`'s, marking it used.
    fn actor(
        &self,
        id: &str,
        key: Option<&str>,
    ) -> Result<std::sync::mpsc::SyncSender<live::Request>, ApiError> {
        let mut games = self.games.lock().map_err(|_| ApiError::internal())?;
        Ok(games.get(id, key)?.to.clone())
    }

    /// Asks game `id` (of `key`) for `job`; an action's answer is pushed to every tab that
    /// shows the game.
    async fn ask(&self, id: &str, key: Option<&str>, job: Job) -> Result<live::Answer, ApiError> {
        let to = self.actor(id, key)?;
        let acting = matches!(job, Job::Act(..));
        let answer = live::ask(&to, job).await;
        if let (true, Ok(v)) = (acting, &answer) {
            if let Ok(mut games) = self.games.lock() {
                if let Ok(entry) = games.get(id, key) {
                    let _ = entry.events.send(v.clone());
                }
                if !v.value["end"].is_null() {
                    games.finished(id);
                }
            }
        }
        if let Err(e) = &answer {
            if e.status == StatusCode::GONE {
                if let Ok(mut games) = self.games.lock() {
                    games.remove(id, "it stopped after an internal error");
                }
            }
        }
        answer
    }
}

async fn page() -> Response {
    // Only the page's own scripts run: each carries this answer's nonce.
    let nonce = format!("{:032x}", rand::random::<u128>());
    let html = super::html::page_with_drawing(include_str!("web/live.html"))
        .replacen("/*LIVE_JS*/", include_str!("web/live.js"), 1)
        .replace("<script>", &format!("<script nonce=\"{nonce}\">"));
    (
        [
            (header::CACHE_CONTROL, "no-store".to_string()),
            (header::CONTENT_SECURITY_POLICY, guard::page_policy(&nonce)),
        ],
        Html(html),
    )
        .into_response()
}

/// What the page offers: the library's catalogue of rule sets, options and agents, and this
/// door's own part: the files of the worlds folder by kind, what it refuses and its limits.
async fn catalogue(State(server): State<Shared>) -> Json<Value> {
    let files = |kind: &str| -> Vec<&str> {
        server
            .files
            .iter()
            .filter(|(_, k)| *k == kind)
            .map(|(n, _)| n.as_str())
            .collect()
    };
    let mut catalogue = serde_json::to_value(wumpus::game_spec::catalogue()).unwrap_or_default();
    catalogue["door"] = json!({
        "files": {"world": files("world"), "map": files("map")},
        "refused": ["kb"],
        "limits": {"max_side": MAX_SIDE, "max_optimal_cells": MAX_OPTIMAL_CELLS, "rollouts": request::MAX_PAGE_ROLLOUTS,
                   "max_body": MAX_BODY},
    });
    Json(catalogue)
}

/// `POST /api/key`: a fresh key for a new browser, known until the server stops (the page
/// gets one with its first game too).
async fn new_key(State(server): State<Shared>) -> Result<Json<Value>, ApiError> {
    let mut games = server.games.lock().map_err(|_| ApiError::internal())?;
    Ok(Json(json!({ "key": games.issue() })))
}

/// Starts a game: `201` with its first view and the browser's key (the one the request
/// carried, or a fresh one the page keeps), or why not.
async fn create(
    State(server): State<Shared>,
    headers: HeaderMap,
    body: Result<Json<serde_json::Map<String, Value>>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(fields) = body.map_err(rejected)?;
    let req = server.new_game(fields)?;
    let world = match &req.world {
        Some(name) => Some(server.offered(name, "world")?),
        None => None,
    };
    let heavy = req.spec.agent_kind() == wumpus::game_spec::AgentKind::Optimal;
    let id = games::fresh_secret();
    let (to, from) = std::sync::mpsc::sync_channel(live::QUEUE);
    let key = {
        let mut games = server.games.lock().map_err(|_| ApiError::internal())?;
        // The key the request carries if this run issued it; a fresh one otherwise.
        let key = match games.known(key_of(&headers).as_deref()) {
            Some(k) => k.to_string(),
            None => games.issue(),
        };
        games.admit(&key, heavy)?;
        games.insert(id.clone(), &key, to, heavy);
        key
    };
    let spawn = live::Spawn {
        id: id.clone(),
        max_actions: server.max_actions,
        // A fresh seed the page's JavaScript numbers hold exactly (below 2^53).
        seed: req
            .seed
            .unwrap_or_else(|| wumpus::game_spec::fresh_seed() % 1_000_000_000),
        world,
        upload: req.upload,
        requests: from,
    };
    let spec = req.spec;
    let folder = format!("{}/", server.worlds.display());
    let start = async move {
        let started = tokio::task::spawn_blocking(move || spec.dispatch(spawn, true))
            .await
            .map_err(|e| ApiError::logged("a game's start", &e));
        match started {
            Ok(Ok(Ok(first))) => first
                .await
                .unwrap_or_else(|e| Err(ApiError::logged("a game's first view", &e))),
            Ok(Ok(Err(e))) => Err(e),
            // A file of the worlds folder is named by its name, not where the folder is.
            Ok(Err(e)) => Err(bad(e
                .spelled(wumpus::game_spec::Spelling::Form)
                .replace(&folder, ""))),
            Err(e) => Err(e),
        }
    };
    // The optimal agent solves its game as the game starts: heavy work, taken in turn.
    let first = if heavy {
        server.heavy.run(start).await
    } else {
        start.await
    };
    let mut games = server.games.lock().map_err(|_| ApiError::internal())?;
    match first {
        Ok(view) => {
            if let Ok(entry) = games.get(&id, Some(&key)) {
                entry.title = view.value["start"]["title"]
                    .as_str()
                    .unwrap_or("")
                    .to_string();
            }
            let mut view = view.value.clone();
            view["key"] = json!(key);
            Ok((StatusCode::CREATED, Json(view)).into_response())
        }
        Err(e) => {
            games.remove(&id, "it could not start");
            Err(e)
        }
    }
}

/// `GET /api/games`: the games of the browser whose key the request carries, most recently
/// used first, so that a full server is never a dead end.
async fn list(State(server): State<Shared>, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let mut games = server.games.lock().map_err(|_| ApiError::internal())?;
    let Some(key) = games.known(key_of(&headers).as_deref()).map(str::to_string) else {
        return Ok(Json(json!({"games": []})));
    };
    let mine: Vec<Value> = games
        .of(&key)
        .into_iter()
        .map(|(id, title, finished, idle)| {
            json!({"id": id, "title": title, "finished": finished, "idle_seconds": idle})
        })
        .collect();
    Ok(Json(json!({
        "games": mine,
        "most": games.per_key,
    })))
}

/// A malformed or oversized body: its 4xx, with axum's reason.
fn rejected(e: JsonRejection) -> ApiError {
    ApiError::new(e.status(), format!("bad request: {}", e.body_text()))
}

/// The files of `dir` the page offers: grid worlds of sizes the page plays and cave maps (the
/// others, and anything that is not a regular file, are left out).
fn world_files(dir: &std::path::Path) -> Vec<(String, &'static str)> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return files;
    };
    for entry in entries.flatten() {
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            continue;
        };
        let Ok(text) = wumpus::files::read_text(&entry.path()) else {
            continue;
        };
        if let Some(kind) = wumpus::run::world::offered_kind(&text, MAX_SIDE) {
            files.push((name, kind));
        }
    }
    files.sort();
    files
}

/// Starts the user's browser on `url`, or says how to open it.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let cannot = move |url: &str| {
        eprintln!("wumpus serve: cannot start a browser ({opener}); open {url} yourself");
    };
    let child = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    match child {
        Err(_) => cannot(url),
        // The opener starts and fails when it finds no browser (xdg-open with none set up):
        // its status is waited for beside the server.
        Ok(mut child) => {
            let url = url.to_string();
            std::thread::spawn(move || {
                if !child.wait().is_ok_and(|status| status.success()) {
                    cannot(&url);
                }
            });
        }
    }
}
