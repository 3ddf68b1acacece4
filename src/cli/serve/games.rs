//! The live server's games, each belonging to the browser that made it: the table of games
//! by id, each with its owner's key, and the one budget of games shared among the browsers
//! (keys) that hold them.
//!
//! A key is a secret the server hands a browser with its first game (the page keeps it in its
//! origin's storage and sends it as `X-Wumpus-Key`); every read, watch, act and delete must
//! carry the key of the game's owner. Ids and keys are 128 random bits, and neither is ever
//! put in a thread name, a log line or an error of another browser. A request for a game that
//! is not there, or is not the caller's, is answered alike (404), and such misses are
//! rate-limited for the whole server.
//!
//! Loopback addresses say nothing of who is asking (any local program may use any 127.x
//! address), so the budget counts keys, not addresses: each key holds at most its share, and
//! a new browser finding the server full takes the place of the least recently used game of
//! the browser holding the most, while that one holds more than an even share.

use super::live::{self, ApiError};
use axum::http::StatusCode;
use std::collections::HashMap;
use std::sync::mpsc::SyncSender;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// Changes of one game, pushed to each tab that shows it: an action's answer.
pub type Events = broadcast::Sender<Arc<serde_json::Value>>;

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
    /// The misses' token bucket: tokens, and when it was last filled.
    misses: (f64, Instant),
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
            misses: (MISS_BURST, Instant::now()),
        }
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

    /// Makes room for a new game of `key`, or says why there is none. A key over its own budget
    /// is refused. When the server is full, a key holding less than an even share of the games
    /// (among the keys holding games, itself counted) takes the place of the least recently
    /// used game of the key holding the most; a key holding its share waits.
    pub fn admit(&mut self, key: &str) -> Result<(), ApiError> {
        self.expire();
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
        let mut held: HashMap<&str, (usize, Instant, &str)> = HashMap::new();
        for (id, e) in self.by_id.iter().filter(|(_, e)| !e.finished) {
            if same_secret(&e.owner, key) {
                continue;
            }
            let slot = held.entry(&e.owner).or_insert((0, e.used, id));
            slot.0 += 1;
            if e.used < slot.1 {
                slot.1 = e.used;
                slot.2 = id;
            }
        }
        let owners = held.len() + 1;
        let share = self.max.div_ceil(owners);
        let most = held
            .values()
            .max_by_key(|(n, used, _)| (*n, std::cmp::Reverse(*used)))
            .copied();
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
                    "the server already holds {} games, its most, and this browser holds its \
                     share ({mine}): end one of yours under \"Your games\", or wait for a game \
                     to end ({} idle minutes end one)",
                    self.max,
                    self.idle.as_secs() / 60
                ),
            )),
        }
    }

    /// Adds game `id` of `key`.
    pub fn insert(&mut self, id: String, key: &str, to: SyncSender<live::Request>) {
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
        let owned =
            key.is_some_and(|k| self.by_id.get(id).is_some_and(|e| same_secret(&e.owner, k)));
        if !owned {
            return Err(self.miss(id));
        }
        let e = self.by_id.get_mut(id).expect("checked above");
        e.used = Instant::now();
        Ok(e)
    }

    /// The answer to a request for a game that is not there or not the caller's: 404 (429
    /// once misses come faster than the rate).
    fn miss(&mut self, id: &str) -> ApiError {
        let (tokens, at) = self.misses;
        let tokens = (tokens + at.elapsed().as_secs_f64() * MISSES_PER_SECOND).min(MISS_BURST);
        if tokens < 1.0 {
            self.misses = (tokens, Instant::now());
            return ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too many requests for games that are not here: slow down",
            );
        }
        self.misses = (tokens - 1.0, Instant::now());
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
        games.admit(key)?;
        let id = fresh_secret();
        let (to, _) = std::sync::mpsc::sync_channel(1);
        games.insert(id.clone(), key, to);
        Ok(id)
    }

    #[test]
    fn a_game_is_only_its_owners() {
        let mut games = Games::new(4, 2, Duration::from_secs(60));
        let (a, b) = (fresh_secret(), fresh_secret());
        let id = game(&mut games, &a).unwrap();
        assert!(games.get(&id, Some(&a)).is_ok());
        assert_eq!(games.get(&id, Some(&b)).err().unwrap().status, 404);
        assert_eq!(games.get(&id, None).err().unwrap().status, 404);
        assert_eq!(games.of(&a).len(), 1);
        assert!(games.of(&b).is_empty());
    }

    #[test]
    fn a_full_server_makes_room_for_a_new_browser_from_the_one_holding_most() {
        let mut games = Games::new(4, 4, Duration::from_secs(60));
        let (hog, other, newcomer) = (fresh_secret(), fresh_secret(), fresh_secret());
        let first = game(&mut games, &hog).unwrap();
        for _ in 0..2 {
            game(&mut games, &hog).unwrap();
        }
        game(&mut games, &other).unwrap();
        // Full: the newcomer takes the hog's least recently used game.
        game(&mut games, &newcomer).unwrap();
        assert_eq!(games.of(&hog).len(), 2);
        let err = games.get(&first, Some(&hog)).err().unwrap();
        assert!(
            err.message.contains("held more games than its share"),
            "{}",
            err.message
        );
        // The hog holds 2 of 4 among three browsers, its share: it waits.
        assert_eq!(game(&mut games, &hog).err().unwrap().status, 503);
        // A fourth browser takes one of the hog's two; then everyone holds one, and a browser
        // that holds one waits while a new one still gets in.
        game(&mut games, &fresh_secret()).unwrap();
        assert_eq!(games.of(&hog).len(), 1);
        assert_eq!(game(&mut games, &other).err().unwrap().status, 503);
        game(&mut games, &fresh_secret()).unwrap();
        assert_eq!(games.unfinished(None), 4);
    }

    #[test]
    fn misses_are_rate_limited() {
        let mut games = Games::new(4, 2, Duration::from_secs(60));
        let statuses: Vec<u16> = (0..200)
            .map(|_| {
                games
                    .get(&fresh_secret(), None)
                    .err()
                    .unwrap()
                    .status
                    .as_u16()
            })
            .collect();
        assert!(statuses.iter().take(40).all(|&s| s == 404));
        assert!(statuses.contains(&429));
    }
}
