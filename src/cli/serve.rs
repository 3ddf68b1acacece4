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

mod guard;
mod listen;
mod live;
mod request;
mod steps;

use anyhow::{Context, Result};
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path as UrlPath, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use clap::Args;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use live::{ApiError, Job};
use request::bad;

/// The largest request body taken (an uploaded world file travels in one): 64 KiB.
pub const MAX_BODY: usize = 64 * 1024;

/// The largest grid the page plays.
pub const MAX_SIDE: usize = 64;

/// A finished game is kept this long after its last request, for its view and the agent's
/// game, but holds no slot.
const FINISHED_KEPT: Duration = Duration::from_secs(5 * 60);

/// A game ends this long after it started, however busy it is kept.
const MAX_GAME_AGE: Duration = Duration::from_secs(4 * 60 * 60);

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
    /// At most this many unfinished games from one client address.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=1000))]
    games_per_client: u64,
    /// At most this many open connections in all.
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u64).range(1..=10000))]
    max_connections: u64,
    /// At most this many open connections from one client address.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=10000))]
    connections_per_client: u64,
    /// Also answer requests that name this host (the server answers only for loopback names
    /// and the address it is bound to otherwise); repeat for more names.
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
    /// A game left alone this many minutes ends.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    idle_minutes: u64,
}

/// What the server shares between requests.
struct Server {
    games: Mutex<HashMap<String, Entry>>,
    max_games: usize,
    games_per_client: usize,
    idle: Duration,
    worlds: PathBuf,
    /// The files the page offers, by name: `grid` worlds and cave `map`s.
    files: Vec<(String, &'static str)>,
}

/// One live game: the way to its actor, whose it is, and when it was started and last used.
struct Entry {
    to: std::sync::mpsc::SyncSender<live::Request>,
    client: IpAddr,
    started: Instant,
    used: Instant,
    /// Over: it holds no slot, and is kept only [`FINISHED_KEPT`].
    finished: bool,
}

impl Entry {
    /// True while the game should be kept.
    fn alive(&self, idle: Duration) -> bool {
        let idle = if self.finished {
            idle.min(FINISHED_KEPT)
        } else {
            idle
        };
        self.used.elapsed() < idle && self.started.elapsed() < MAX_GAME_AGE
    }
}

type Shared = Arc<Server>;

pub fn run(args: ServeArgs) -> Result<()> {
    let files = world_files(&args.worlds);
    let server = Arc::new(Server {
        games: Mutex::new(HashMap::new()),
        max_games: args.max_games as usize,
        games_per_client: args.games_per_client as usize,
        idle: Duration::from_secs(60 * args.idle_minutes),
        worlds: args.worlds.clone(),
        files,
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    let caps = listen::ConnectionCaps {
        total: args.max_connections as usize,
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
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(view).delete(end_game))
        .route("/api/games/{id}/act", post(act))
        .route("/api/games/{id}/hint", get(hint))
        .route("/api/games/{id}/watch", get(watch))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such page") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(server)
}

/// Ends the games left idle too long, every little while.
async fn reap(server: Shared) {
    let every = (server.idle / 4).clamp(Duration::from_secs(1), Duration::from_secs(60));
    loop {
        tokio::time::sleep(every).await;
        server.expire();
    }
}

impl Server {
    /// Drops the games idle longer than the limit, finished a while or too old (their actors
    /// then end).
    fn expire(&self) {
        let idle = self.idle;
        if let Ok(mut games) = self.games.lock() {
            games.retain(|_, e| e.alive(idle));
        }
    }

    /// Marks game `id` over: it no longer holds a slot. Finished games beyond the slots'
    /// number are dropped, the least recently used first.
    fn finished(&self, id: &str) {
        let Ok(mut games) = self.games.lock() else {
            return;
        };
        if let Some(e) = games.get_mut(id) {
            e.finished = true;
        }
        let mut over: Vec<(Instant, String)> = games
            .iter()
            .filter(|(_, e)| e.finished)
            .map(|(k, e)| (e.used, k.clone()))
            .collect();
        if over.len() > self.max_games {
            over.sort();
            for (_, k) in &over[..over.len() - self.max_games] {
                games.remove(k);
            }
        }
    }

    /// The way to game `id`'s actor, marking it used.
    fn actor(&self, id: &str) -> Result<std::sync::mpsc::SyncSender<live::Request>, ApiError> {
        let mut games = self.games.lock().map_err(|_| ApiError::internal())?;
        match games.get_mut(id) {
            Some(e) => {
                e.used = Instant::now();
                Ok(e.to.clone())
            }
            None => Err(ApiError::new(
                StatusCode::NOT_FOUND,
                format!(
                    "there is no game {id} (it may have ended after {} idle minutes, or the \
                     server restarted): start a new one",
                    self.idle.as_secs() / 60
                ),
            )),
        }
    }

    /// Asks game `id` for `job`.
    async fn ask(&self, id: &str, job: Job) -> Result<live::Answer, ApiError> {
        let to = self.actor(id)?;
        let acting = matches!(job, Job::Act(..));
        let answer = live::ask(&to, job).await;
        if acting && answer.as_ref().is_ok_and(|v| !v["end"].is_null()) {
            self.finished(id);
        }
        if let Err(e) = &answer {
            if e.status == StatusCode::GONE {
                if let Ok(mut games) = self.games.lock() {
                    games.remove(id);
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
        "limits": {"max_side": MAX_SIDE, "rollouts": request::MAX_PAGE_ROLLOUTS,
                   "max_body": MAX_BODY, "max_games": server.max_games,
                   "games_per_client": server.games_per_client,
                   "idle_minutes": server.idle.as_secs() / 60},
    });
    Json(catalogue)
}

/// Starts a game: `201` with its first view, or why not.
async fn create(
    State(server): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Result<Json<serde_json::Map<String, Value>>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(fields) = body.map_err(rejected)?;
    let req = server.new_game(fields)?;
    let world = match &req.world {
        Some(name) => Some(server.offered(name, "world")?),
        None => None,
    };
    let id = format!("{:016x}", rand::random::<u64>());
    let (to, from) = std::sync::mpsc::sync_channel(live::QUEUE);
    {
        let mut games = server.games.lock().map_err(|_| ApiError::internal())?;
        let idle = server.idle;
        games.retain(|_, e| e.alive(idle));
        let mine = games
            .values()
            .filter(|e| !e.finished && e.client == peer.ip())
            .count();
        if mine >= server.games_per_client {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "you already have {mine} unfinished games here, the most one client may \
                     hold: finish or close one first"
                ),
            ));
        }
        if games.values().filter(|e| !e.finished).count() >= server.max_games {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the server already holds {} games, its most: close a tab, or wait for a \
                     game to end ({} idle minutes end one)",
                    server.max_games,
                    idle.as_secs() / 60
                ),
            ));
        }
        games.insert(
            id.clone(),
            Entry {
                to,
                client: peer.ip(),
                started: Instant::now(),
                used: Instant::now(),
                finished: false,
            },
        );
    }
    let spawn = live::Spawn {
        id: id.clone(),
        // A fresh seed the page's JavaScript numbers hold exactly (below 2^53).
        seed: req
            .seed
            .unwrap_or_else(|| wumpus::rng::fresh_seed() % 1_000_000_000),
        world,
        upload: req.upload,
        requests: from,
    };
    let spec = req.spec;
    let started = tokio::task::spawn_blocking(move || spec.dispatch(spawn, true))
        .await
        .map_err(|_| ApiError::internal());
    let first = match started {
        Ok(Ok(Ok(first))) => first.await.unwrap_or_else(|_| Err(ApiError::internal())),
        Ok(Ok(Err(e))) => Err(e),
        Ok(Err(e)) => Err(bad(e.spelled(wumpus::game_spec::Spelling::Keywords))),
        Err(e) => Err(e),
    };
    match first {
        Ok(view) => Ok((StatusCode::CREATED, Json(view)).into_response()),
        Err(e) => {
            if let Ok(mut games) = server.games.lock() {
                games.remove(&id);
            }
            Err(e)
        }
    }
}

/// An action the player takes, in the player's words (`north`, `move 5`, `shoot 5 6 7`,
/// `toss 2`).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Act {
    action: String,
    /// The step the page believes the game is at: an action from a stale view (another tab
    /// played meanwhile) is refused with 409 rather than played where the page did not mean.
    #[serde(default)]
    step: Option<usize>,
}

async fn act(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
    body: Result<Json<Act>, JsonRejection>,
) -> Result<Json<live::Answer>, ApiError> {
    let Json(req) = body.map_err(rejected)?;
    if req.action.len() > 200 {
        return Err(bad("an action is a few words"));
    }
    server
        .ask(&id, Job::Act(req.action, req.step))
        .await
        .map(Json)
}

async fn view(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<live::Answer>, ApiError> {
    server.ask(&id, Job::View).await.map(Json)
}

async fn hint(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<live::Answer>, ApiError> {
    server.ask(&id, Job::Hint).await.map(Json)
}

async fn watch(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<live::Answer>, ApiError> {
    server.ask(&id, Job::Watch).await.map(Json)
}

/// The longest `grace` a `DELETE` may ask for, in seconds.
const MAX_GRACE: u64 = 30;

/// `DELETE /api/games/{id}?grace=S`: the page closing (or reloading) its tab. The game ends
/// after S seconds (at most [`MAX_GRACE`]) unless it is asked for in the meantime, as a reloaded
/// page asks for its game.
#[derive(Deserialize, Debug)]
struct Grace {
    grace: Option<u64>,
}

async fn end_game(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
    Query(q): Query<Grace>,
) -> Result<StatusCode, ApiError> {
    server.actor(&id)?;
    match q.grace.filter(|&s| s > 0) {
        None => {
            if let Ok(mut games) = server.games.lock() {
                games.remove(&id);
            }
        }
        Some(s) => {
            let asked = Instant::now();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_secs(s.min(MAX_GRACE))).await;
                if let Ok(mut games) = server.games.lock() {
                    if games.get(&id).is_some_and(|e| e.used <= asked) {
                        games.remove(&id);
                    }
                }
            });
        }
    }
    Ok(StatusCode::NO_CONTENT)
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
        if wumpus::grid::parse_world_within(&text, MAX_SIDE).is_ok() {
            files.push((name, "world"));
        } else if wumpus::cave::parse_map(&text).is_ok() {
            files.push((name, "map"));
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
    if std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .is_err()
    {
        eprintln!("wumpus serve: cannot start a browser ({opener}); open {url} yourself");
    }
}
