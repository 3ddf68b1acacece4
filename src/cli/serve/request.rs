//! What a request to start a game of the live page may ask for ([`NewGame`]): the JSON
//! object's fields are the library's options by name ([`wumpus::game_spec::OPTIONS`]), read into a
//! [`GameSpec`] and checked there, so that the page, `play` and Python refuse the same things
//! with the same messages. Beside them the request names how the game is dealt (`seed`, a
//! `world` of the worlds folder, an `upload`). This file keeps no list of options.
//!
//! What the page cannot honour it refuses, never drops: a rule file (`kb`, a path on the
//! server's machine), a map that is not a file of the worlds folder, a grid larger than
//! [`MAX_SIDE`], more than [`MAX_PAGE_ROLLOUTS`] rollouts a decision.

use super::{ApiError, Server, MAX_OPTIMAL_CELLS, MAX_SIDE};
use axum::http::StatusCode;
use serde_json::{Map, Value as Json};
use std::path::{Path, PathBuf};
use wumpus::game_spec::{GameSpec, Spelling, Value};

/// The most rollouts a decision a game of the page may ask for: more would keep a hint waiting
/// for seconds.
pub const MAX_PAGE_ROLLOUTS: u32 = 1024;

/// A new game, as the page asks for it.
#[derive(Debug, Default)]
pub struct NewGame {
    /// The game.
    pub spec: GameSpec,
    /// The seed that deals it (a fresh one when not given).
    pub seed: Option<u64>,
    /// A file of the worlds folder holding the game (a grid world).
    pub world: Option<String>,
    /// An uploaded game file's text (a grid world, or a cave's hazards), and its name.
    pub upload: Option<(String, String)>,
}

/// The fields a new game takes: the dealing fields, then the rule set and the options the page
/// honours.
fn fields_taken() -> Vec<&'static str> {
    let mut names = vec!["seed", "world", "upload", "upload_name", "rules"];
    names.extend(
        wumpus::game_spec::OPTIONS
            .iter()
            .map(|o| o.name)
            .filter(|&n| n != "kb"),
    );
    names
}

pub fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, message)
}

/// A field that must be text.
fn text(field: &str, v: &Json) -> Result<String, ApiError> {
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| bad(format!("{field} must be text")))
}

impl Server {
    /// Reads a request's fields: the dealing fields here, every other one an option of the
    /// game, checked by the library.
    pub fn new_game(&self, fields: Map<String, Json>) -> Result<NewGame, ApiError> {
        let mut req = NewGame::default();
        // Every game of the page is at most this large, whether dealt, uploaded or read from
        // a file of the worlds folder (read again each time a game is made).
        req.spec.limits.max_side = MAX_SIDE;
        // The optimal agent's solve runs on the games' thread: a 4x4 solve would stall every
        // game for a minute and hold GBs per game.
        req.spec.limits.max_optimal_cells = MAX_OPTIMAL_CELLS;
        let mut upload_name = None;
        let mut options: Vec<(String, Value)> = Vec::new();
        for (name, v) in fields {
            if v.is_null() {
                continue;
            }
            match name.as_str() {
                "seed" => {
                    req.seed = Some(v.as_u64().ok_or_else(|| {
                        bad("seed must be a whole number from 0 to 18446744073709551615")
                    })?)
                }
                "world" => req.world = Some(text("world", &v)?),
                "upload" => req.upload = Some((String::new(), text("upload", &v)?)),
                "upload_name" => upload_name = Some(text("upload_name", &v)?),
                "kb" => {
                    return Err(bad(
                        "the live page reasons with the built-in rules: a rule file (kb) is for \
                         `wumpus trace --kb FILE` and `solve --kb FILE`",
                    ))
                }
                "map" => {
                    let path = self.offered(&text("map", &v)?, "map")?;
                    options.push((name, Value::Text(path.display().to_string())));
                }
                _ if name != "rules" && wumpus::game_spec::option(&name).is_none() => {
                    return Err(bad(format!(
                        "there is no field {}: a new game takes {}",
                        wumpus::files::quoted(&name),
                        fields_taken().join(", ")
                    )))
                }
                _ => options.push((name, Value::from_json(&v).map_err(bad)?)),
            }
        }
        if let Some((name, _)) = &mut req.upload {
            *name = upload_name.unwrap_or_else(|| "an upload".into());
        }
        let refused = |e: wumpus::game_spec::SpecError| bad(e.spelled(Spelling::Form));
        let too_big = || {
            bad(format!(
                "size: the live page plays grids from 2x2 to {MAX_SIDE}x{MAX_SIDE}; `wumpus \
                 trace` and `solve` take larger ones"
            ))
        };
        for (name, value) in &options {
            req.spec.set(name, value).map_err(|e| match name.as_str() {
                "size" => too_big(),
                _ => refused(e),
            })?;
        }
        if req.spec.size.is_some_and(|size| {
            let (rows, cols) = size.largest();
            rows > MAX_SIDE || cols > MAX_SIDE
        }) {
            return Err(too_big());
        }
        req.spec.check().map_err(refused)?;
        if req.spec.rollouts.is_some_and(|n| n > MAX_PAGE_ROLLOUTS) {
            return Err(bad(format!(
                "the live page takes up to {MAX_PAGE_ROLLOUTS} rollouts a decision; `wumpus \
                 solve` takes more"
            )));
        }
        let holds_world = wumpus::game_spec::catalogue::file_of(req.spec.rules) == "world";
        if req.world.is_some() && req.upload.is_some() {
            return Err(bad("give a world file or an upload, not both"));
        }
        if req.world.is_some() && !holds_world {
            return Err(bad(format!(
                "a world file is for the grid; {} takes a map",
                wumpus::game_spec::facts(req.spec.rules).title
            )));
        }
        if let (Some((name, text)), true) = (&req.upload, holds_world) {
            // Refused from its text alone, before anything is built for it.
            wumpus::run::world::check_world_text(Path::new(name), text, MAX_SIDE)
                .map_err(|e| bad(e.to_string()))?;
        }
        Ok(req)
    }

    /// A file of the worlds folder, by name, if the page offers it as `kind` (`world`, `map`).
    pub fn offered(&self, name: &str, kind: &str) -> Result<PathBuf, ApiError> {
        if self.files.iter().any(|(n, k)| n == name && *k == kind) {
            Ok(self.worlds.join(name))
        } else {
            Err(bad(format!(
                "'{name}' is not a {} file of the worlds folder",
                if kind == "world" {
                    "grid world"
                } else {
                    "cave map"
                }
            )))
        }
    }
}
