//! The live server's games, each belonging to the browser that made it: the table of games
//! by id, each with its owner's key, and the one budget of games shared among the browsers
//! (keys) that hold them.
//!
//! A key is a secret the server issues a browser with its first game (the page keeps it in its
//! origin's storage and sends it as `X-Wumpus-Key`); every read, watch, act and delete must
//! carry the key of the game's owner. Only keys this run of the server issued are known: a key
//! from before a restart, or one made up, opens nothing (a program that read a key while the
//! server was down cannot use it afterwards). Ids and keys are 128 random bits, and neither is
//! ever put in a thread name, a log line or an error of another browser. A request for a game
//! that is not there, or is not the caller's, is answered alike (404), and such misses are
//! rate-limited for each key, and apart for requests that carry none (a foreign page's
//! `<img>` cannot spend a browser's allowance).
//!
//! Loopback addresses say nothing of who is asking (any local program may use any 127.x
//! address), and keys cost nothing, so the budget counts keys but never lets a new one end a
//! game somebody plays: a browser holds at most its own cap of games, and a new browser finding
//! the server full takes the place only of a game nobody is playing (no tab listens to it, no
//! request for [`Games::played`]) of the browser holding the most, while that one holds more than an
//! even share; otherwise it is told the server is full.

use super::live::{self, ApiError};
use axum::http::StatusCode;
use std::collections::HashMap;
use std::sync::mpsc::SyncSender;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// Changes of one game, pushed to each tab that shows it: an action's answer.
pub type Events = broadcast::Sender<live::Answer>;

/// What became of a game a closed tab showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unused {
    /// It is no more (ended now, or before).
    Gone,
    /// A reload or another tab asked for it since.
    Used,
    /// A tab still listens to its events.
    Listened,
}

/// A finished game is kept this long after its last request, for its view and the agent's
/// game, but holds no slot.
pub const FINISHED_KEPT: Duration = Duration::from_secs(5 * 60);

/// A game ends this long after it started, however busy it is kept.
pub const MAX_GAME_AGE: Duration = Duration::from_secs(4 * 60 * 60);

/// Misses (a game not there, or not the caller's) the server answers a second, in all.
const MISSES_PER_SECOND: f64 = 20.0;

/// Misses answered at once before the rate applies.
const MISS_BURST: f64 = 40.0;

/// Games whose end is remembered, to tell their owner why they are gone.
const ENDED_KEPT: usize = 256;

/// A game used this recently, or listened to by a tab, is being played: no other browser's new
/// game ever takes its place (the default of [`Games::played`]).
pub const PLAYED: Duration = Duration::from_secs(10 * 60);

/// Keys remembered at most; beyond, the least recently used key holding no game is forgotten.
const MAX_KEYS: usize = 4096;

/// A key's unfinished games, and of them the least recently used one nobody plays (when it
/// was last used, and its id).
type Held<'a> = (usize, Option<(Instant, &'a str)>);

/// What the server knows of a key it issued.
struct KeyState {
    used: Instant,
    /// The key's misses' token bucket: tokens, and when it was last filled.
    misses: (f64, Instant),
}

/// Takes a token from a bucket filled at [`MISSES_PER_SECOND`] up to [`MISS_BURST`]; false
/// when it is empty.
fn take_token(bucket: &mut (f64, Instant)) -> bool {
    let (tokens, at) = *bucket;
    let tokens = (tokens + at.elapsed().as_secs_f64() * MISSES_PER_SECOND).min(MISS_BURST);
    let ok = tokens >= 1.0;
    *bucket = (if ok { tokens - 1.0 } else { tokens }, Instant::now());
    ok
}

/// A browser's key, or a game's id: 128 random bits as 32 lower-case hex digits.
pub fn fresh_secret() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// True when `text` has the shape of a key: 32 hex digits.
pub fn is_secret(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Compares two secrets in time that does not depend on where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// One live game.
pub struct Entry {
    /// The way to its actor.
    pub to: SyncSender<live::Request>,
    /// Its changes, to every tab listening (their number is how many tabs show it).
    pub events: Events,
    /// Its owner's key.
    owner: String,
    /// What it is, for the owner's list.
    pub title: String,
    started: Instant,
    used: Instant,
    /// Over: it holds no slot, and is kept only [`FINISHED_KEPT`].
    pub finished: bool,
    /// Heavy: its agent holds a solved game (the optimal agent), counted against the server's
    /// own cap of such games.
    pub heavy: bool,
}

impl Entry {
    /// True while somebody plays it: a tab listens, or it was asked for within `played`.
    fn played(&self, played: Duration) -> bool {
        self.events.receiver_count() > 0 || self.used.elapsed() < played
    }
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

/// The games, their budget, and the misses' rate.
pub struct Games {
    by_id: HashMap<String, Entry>,
    /// Why recent games ended, by id, oldest first (for their owners' next request).
    ended: std::collections::VecDeque<(String, &'static str)>,
    /// Unfinished games at most, in all.
    pub max: usize,
    /// Unfinished games at most, for one key.
    pub per_key: usize,
    /// A game left alone this long ends.
    pub idle: Duration,
    /// The keys this run issued.
    keys: HashMap<String, KeyState>,
    /// The token bucket of misses carrying no known key.
    keyless_misses: (f64, Instant),
    /// Unfinished heavy games at most, in all.
    pub max_heavy: usize,
    /// A game asked for within this long is being played.
    pub played: Duration,
}

impl Games {
    /// An empty table.
    pub fn new(max: usize, per_key: usize, idle: Duration) -> Games {
        Games {
            by_id: HashMap::new(),
            ended: Default::default(),
            max,
            per_key,
            idle,
            keys: HashMap::new(),
            keyless_misses: (MISS_BURST, Instant::now()),
            max_heavy: usize::MAX,
            played: PLAYED,
        }
    }

    /// A fresh key for a browser, known from now until the server stops.
    pub fn issue(&mut self) -> String {
        if self.keys.len() >= MAX_KEYS {
            let holding: std::collections::HashSet<&str> =
                self.by_id.values().map(|e| e.owner.as_str()).collect();
            let oldest = self
                .keys
                .iter()
                .filter(|(k, _)| !holding.contains(k.as_str()))
                .min_by_key(|(_, s)| s.used)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                self.keys.remove(&k);
            }
        }
        let key = fresh_secret();
        self.keys.insert(
            key.clone(),
            KeyState {
                used: Instant::now(),
                misses: (MISS_BURST, Instant::now()),
            },
        );
        key
    }

    /// `key`, if this run issued it (marked used).
    pub fn known<'a>(&mut self, key: Option<&'a str>) -> Option<&'a str> {
        let key = key?;
        let state = self.keys.get_mut(key)?;
        state.used = Instant::now();
        Some(key)
    }

    fn remember(&mut self, id: String, why: &'static str) {
        if self.ended.len() >= ENDED_KEPT {
            self.ended.pop_front();
        }
        self.ended.push_back((id, why));
    }

    /// Ends the games idle too long, finished a while, or too old.
    pub fn expire(&mut self) {
        let idle = self.idle;
        let gone: Vec<String> = self
            .by_id
            .iter()
            .filter(|(_, e)| !e.alive(idle))
            .map(|(id, _)| id.clone())
            .collect();
        for id in gone {
            self.by_id.remove(&id);
            self.remember(id, "it was left idle");
        }
    }

    fn unfinished(&self, key: Option<&str>) -> usize {
        self.by_id
            .values()
            .filter(|e| !e.finished && key.is_none_or(|k| same_secret(&e.owner, k)))
            .count()
    }

    /// Makes room for a new game of `key` (heavy: with the optimal agent), or says why there
    /// is none. A key over its own budget is refused, as is a heavy game beyond the server's
    /// cap of them. When the server is full, a key holding less than an even share of the
    /// games (among the keys holding games, itself counted) takes the place of the least
    /// recently used game nobody plays of the key holding the most; otherwise it waits.
    pub fn admit(&mut self, key: &str, heavy: bool) -> Result<(), ApiError> {
        self.expire();
        let heavy_now = self
            .by_id
            .values()
            .filter(|e| e.heavy && !e.finished)
            .count();
        if heavy && heavy_now >= self.max_heavy {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the server already holds {heavy_now} games of the optimal agent, its most at \
                     once (each holds its solved game in memory): end one, or play another agent"
                ),
            ));
        }
        let mine = self.unfinished(Some(key));
        if mine >= self.per_key {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "this browser already has {mine} unfinished games here, the most one \
                     browser may hold: end one under \"Your games\" first"
                ),
            ));
        }
        if self.unfinished(None) < self.max {
            return Ok(());
        }
        // Each other key's games, and of them the least recently used one nobody plays.
        let mut held: HashMap<&str, Held<'_>> = HashMap::new();
        for (id, e) in self.by_id.iter().filter(|(_, e)| !e.finished) {
            if same_secret(&e.owner, key) {
                continue;
            }
            let slot = held.entry(&e.owner).or_insert((0, None));
            slot.0 += 1;
            if !e.played(self.played) && slot.1.is_none_or(|(used, _)| e.used < used) {
                slot.1 = Some((e.used, id));
            }
        }
        let owners = held.len() + 1;
        let share = self.max.div_ceil(owners);
        let most = held
            .values()
            .filter_map(|(n, idle)| idle.map(|(used, id)| (*n, used, id)))
            .max_by_key(|(n, used, _)| (*n, std::cmp::Reverse(*used)))
            .filter(|(n, _, _)| *n > share);
        match most {
            Some((_, _, id)) if mine < share => {
                let id = id.to_string();
                self.by_id.remove(&id);
                self.remember(
                    id,
                    "the server was full and this browser held more games than its share",
                );
                Ok(())
            }
            _ => Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the server already holds {} games, its most, being played: end one of \
                     yours under \"Your games\" ({mine} here), or wait for a game to end ({} \
                     idle minutes end one)",
                    self.max,
                    self.idle.as_secs() / 60
                ),
            )),
        }
    }

    /// Adds game `id` of `key` (heavy: counted against the cap of heavy games).
    pub fn insert(&mut self, id: String, key: &str, to: SyncSender<live::Request>, heavy: bool) {
        self.by_id.insert(
            id,
            Entry {
                to,
                events: broadcast::channel(32).0,
                owner: key.to_string(),
                title: String::new(),
                started: Instant::now(),
                used: Instant::now(),
                finished: false,
                heavy,
            },
        );
    }

    /// Forgets game `id` (it could not start, or its owner ended it).
    pub fn remove(&mut self, id: &str, why: &'static str) {
        if self.by_id.remove(id).is_some() {
            self.remember(id.to_string(), why);
        }
    }

    /// Game `id`, if it is `key`'s, marked used; a miss is counted against the rate.
    pub fn get(&mut self, id: &str, key: Option<&str>) -> Result<&mut Entry, ApiError> {
        let key = self.known(key);
        let owned =
            key.is_some_and(|k| self.by_id.get(id).is_some_and(|e| same_secret(&e.owner, k)));
        if !owned {
            return Err(self.miss(id, key));
        }
        let e = self.by_id.get_mut(id).expect("checked above");
        e.used = Instant::now();
        Ok(e)
    }

    /// The answer to a request of `key` (known, or none) for a game that is not there or not
    /// the caller's: 404 (429 once the key's misses come faster than the rate).
    fn miss(&mut self, id: &str, key: Option<&str>) -> ApiError {
        let bucket = match key.and_then(|k| self.keys.get_mut(k)) {
            Some(state) => &mut state.misses,
            None => &mut self.keyless_misses,
        };
        if !take_token(bucket) {
            return ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too many requests for games that are not here: slow down",
            );
        }
        let why = self
            .ended
            .iter()
            .rev()
            .find(|(gone, _)| gone == id)
            .map(|(_, why)| *why);
        let shown: String = id
            .chars()
            .take(40)
            .filter(char::is_ascii_alphanumeric)
            .collect();
        ApiError::new(
            StatusCode::NOT_FOUND,
            match why {
                Some(why) => format!("game {shown} has ended: {why}; start a new one"),
                None => format!(
                    "there is no game {shown} for this browser (a game belongs to the browser \
                     that started it; it may have ended after {} idle minutes, or the server \
                     restarted): start a new one",
                    self.idle.as_secs() / 60
                ),
            },
        )
    }

    /// Forgets game `id` unless it was used after `since` or a tab still listens to it (a tab
    /// closed: the game ends unless a reload or another tab of the browser shows it).
    pub fn remove_unused_since(&mut self, id: &str, since: Instant) -> Unused {
        let Some(entry) = self.by_id.get(id) else {
            return Unused::Gone;
        };
        if entry.used > since {
            Unused::Used
        } else if entry.events.receiver_count() > 0 {
            Unused::Listened
        } else {
            self.remove(id, "its tab was closed");
            Unused::Gone
        }
    }

    /// Marks game `id` over: it no longer holds a slot. Finished games beyond the slots'
    /// number are dropped, the least recently used first.
    pub fn finished(&mut self, id: &str) {
        if let Some(e) = self.by_id.get_mut(id) {
            e.finished = true;
        }
        let mut over: Vec<(Instant, String)> = self
            .by_id
            .iter()
            .filter(|(_, e)| e.finished)
            .map(|(k, e)| (e.used, k.clone()))
            .collect();
        if over.len() > self.max {
            over.sort();
            for (_, k) in &over[..over.len() - self.max] {
                self.by_id.remove(k);
            }
        }
    }

    /// `key`'s games, most recently used first: id, title, finished, seconds since last used.
    pub fn of(&self, key: &str) -> Vec<(String, String, bool, u64)> {
        let mut mine: Vec<(&String, &Entry)> = self
            .by_id
            .iter()
            .filter(|(_, e)| same_secret(&e.owner, key))
            .collect();
        mine.sort_by_key(|(_, e)| std::cmp::Reverse(e.used));
        mine.into_iter()
            .map(|(id, e)| {
                (
                    id.clone(),
                    e.title.clone(),
                    e.finished,
                    e.used.elapsed().as_secs(),
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(games: &mut Games, key: &str) -> Result<String, ApiError> {
        games.admit(key, false)?;
        let id = fresh_secret();
        let (to, _) = std::sync::mpsc::sync_channel(1);
        games.insert(id.clone(), key, to, false);
        Ok(id)
    }

    /// Makes game `id` look left alone for longer than [`PLAYED`].
    fn leave(games: &mut Games, id: &str) {
        let played = games.played;
        let e = games.by_id.get_mut(id).unwrap();
        e.used = Instant::now() - played - Duration::from_secs(1);
    }

    #[test]
    fn a_game_is_only_its_owners_and_only_issued_keys_open_games() {
        let mut games = Games::new(4, 2, Duration::from_secs(60));
        let (a, b) = (games.issue(), games.issue());
        let id = game(&mut games, &a).unwrap();
        // A key the server did not issue (one from before a restart) opens nothing.
        let mut restarted = Games::new(4, 2, Duration::from_secs(60));
        let (to, _) = std::sync::mpsc::sync_channel(1);
        restarted.insert(id.clone(), &a, to, false);
        assert_eq!(restarted.get(&id, Some(&a)).err().unwrap().status, 404);
        games.remove(&id, "test");
        let id = game(&mut games, &a).unwrap();
        assert!(games.get(&id, Some(&a)).is_ok());
        assert_eq!(games.get(&id, Some(&b)).err().unwrap().status, 404);
        assert_eq!(games.get(&id, None).err().unwrap().status, 404);
        assert_eq!(games.of(&a).len(), 1);
        assert!(games.of(&b).is_empty());
    }

    #[test]
    fn a_full_server_makes_room_only_from_games_nobody_plays() {
        let mut games = Games::new(4, 4, Duration::from_secs(3600)); // left alone, not idle
        let (hog, player, newcomer) = (games.issue(), games.issue(), games.issue());
        let hogs: Vec<String> = (0..3).map(|_| game(&mut games, &hog).unwrap()).collect();
        let mine = game(&mut games, &player).unwrap();
        // Full, and every game was used just now: a new key ends nobody's game.
        assert_eq!(game(&mut games, &newcomer).err().unwrap().status, 503);
        // A burst of fresh keys never ends the player's game, even left alone a while.
        leave(&mut games, &mine);
        for _ in 0..50 {
            let fresh = games.issue();
            assert_eq!(game(&mut games, &fresh).err().unwrap().status, 503);
        }
        assert!(games.get(&mine, Some(&player)).is_ok());
        // The hog's games left alone: a new browser takes the least recently used of them.
        leave(&mut games, &hogs[0]);
        leave(&mut games, &hogs[1]);
        game(&mut games, &newcomer).unwrap();
        assert_eq!(games.of(&hog).len(), 2);
        let err = games.get(&hogs[0], Some(&hog)).err().unwrap();
        assert!(
            err.message.contains("held more games than its share"),
            "{}",
            err.message
        );
    }

    #[test]
    fn heavy_games_have_a_cap_of_their_own() {
        let mut games = Games::new(8, 8, Duration::from_secs(60));
        games.max_heavy = 1;
        let key = games.issue();
        games.admit(&key, true).unwrap();
        let (to, _) = std::sync::mpsc::sync_channel(1);
        games.insert(fresh_secret(), &key, to, true);
        assert_eq!(games.admit(&key, true).err().unwrap().status, 503);
        assert!(games.admit(&key, false).is_ok());
    }

    #[test]
    fn misses_are_rate_limited_for_each_key_apart() {
        let mut games = Games::new(4, 2, Duration::from_secs(60));
        let mine = games.issue();
        let mut statuses = |key: Option<&str>| -> Vec<u16> {
            (0..200)
                .map(|_| {
                    games
                        .get(&fresh_secret(), key)
                        .err()
                        .unwrap()
                        .status
                        .as_u16()
                })
                .collect()
        };
        let keyless = statuses(None);
        assert!(keyless.iter().take(40).all(|&s| s == 404));
        assert!(keyless.contains(&429));
        // A foreign page's requests, which carry no key, spend none of a browser's allowance.
        assert!(statuses(Some(&mine)).iter().take(40).all(|&s| s == 404));
    }
}
