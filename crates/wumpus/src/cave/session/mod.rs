//! The classic cave and the `caves.dat` maze through the one game interface
//! ([`Session`](crate::game::Session)): [`ClassicSession`] wraps a
//! [`ClassicGame`](super::ClassicGame), [`MazeSession`] a [`MazeGame`](super::MazeGame), each
//! dealt from its setup (the map, its name for people, and the classic cave's variant).
//!
//! `classic` and `maze` hold one rule set each; this root holds what both read and write
//! alike: the commands every game shares, and their map files (told apart, dealt at random,
//! checked). It must never hold what only one rule set does.

use super::command::CaveCommand;
use super::map::MapFormat;
use crate::game::{Command, GameError, MapShape, NewFile};
use crate::rng::seeded;
use std::path::Path;

mod classic;
mod maze;

pub use classic::{CaveShown, ClassicSession, ClassicSetup, CLASSIC_ACTION_LIMIT, CLASSIC_FACTS};
pub use maze::{MazeSession, MazeSetup, MazeShown, MAZE_ACTION_LIMIT, MAZE_FACTS};

/// A command line read as `rules` reads it, turned into a game command by `action`.
fn meta<A>(command: CaveCommand) -> Command<A> {
    match command {
        CaveCommand::Help => Command::Help,
        CaveCommand::Hint => Command::Hint,
        CaveCommand::Quit => Command::Quit,
        CaveCommand::Load(f) => Command::Load(f),
        CaveCommand::Save(f) => Command::Save(f),
        CaveCommand::MoveTo(_)
        | CaveCommand::Shoot(_)
        | CaveCommand::Move(_)
        | CaveCommand::Toss(_) => unreachable!("game actions are read by the caller"),
    }
}

/// The format of the map `text` holds, if it reads as a map.
fn map_format(text: &str) -> Option<MapFormat> {
    // A map that does not parse is still a map, told by its look: its errors are the map's.
    super::map::looks_like_cave_map(text).then(|| super::map::detect_format(text))
}

/// A random map in `format`, dealt from `seed` in `shape`.
fn new_map_file(format: MapFormat, seed: u64, shape: &MapShape) -> Result<NewFile, GameError> {
    let (tunnels, kind) = if shape.one_way {
        (super::Tunnels::OneWay, "one-way")
    } else {
        (super::Tunnels::TwoWay, "two-way")
    };
    let map = super::random_map(shape.rooms, tunnels, 1, format, &mut seeded(seed))
        .map_err(GameError::rules)?;
    Ok(NewFile {
        text: super::format_map(&map),
        words: format!("{}-room map, {kind} tunnels", shape.rooms),
        comments: false,
    })
}

/// What a map file's text holds, checked: its format, rooms and tunnels that go one way or to
/// their own room.
fn check_map_text(path: &Path, text: &str) -> Result<String, crate::files::FileError> {
    let map = crate::files::parsed(path, text, super::parse_map)?;
    let (mut one_way, mut to_itself) = (0, 0);
    for room in map.rooms() {
        for &to in map.outs(room) {
            if to == room {
                to_itself += 1;
            } else if !map.outs(to).contains(&room) {
                one_way += 1;
            }
        }
    }
    let plural = |n: usize, one, many| crate::game::plural(n as u64, one, many);
    Ok(format!(
        "{}, {} {}, {one_way} one-way {}, {to_itself} {} to their own room",
        map.format().name(),
        map.len(),
        plural(map.len(), "room", "rooms"),
        plural(one_way, "tunnel", "tunnels"),
        plural(to_itself, "tunnel", "tunnels"),
    ))
}
