//! The cave rule sets, played on the same world graph as the grid: the classic Hunt the Wumpus
//! as the event host plays it (seed 002, with Yob's 1973 rules as a variant) and seed 000's
//! `caves.dat` maze.
//!
//! [`map`] reads, writes and draws cave maps (both formats); [`hazards`] holds the starting
//! layouts and the hazard file format; [`random_map`](mod@random_map) deals maps nobody tuned on; [`classic`] and [`maze`] are the simulators; [`command`]
//! is what a player may type; [`session`] plays both through the one game interface
//! ([`crate::game::Session`]). Like the grid, the simulators never print: they return typed
//! turns and events. Nothing here plays a game: the agents live in `crate::agent`, the bot
//! protocols in `crate::bot`.

pub mod classic;
pub mod command;
pub mod hazards;
pub mod map;
pub mod maze;
pub mod random_map;
pub mod session;

pub use classic::{
    Action, ArrowPath, ClassicGame, Ending, Event, LossCause, MoveResult, ShotResult, Status, Turn,
    TurnResult, Variant,
};
pub use command::{parse_command, CaveCommand, CommandError, Rules};
pub use hazards::{ClassicHazards, HazardError, MazeHazards};
pub use map::{draw_map, format_map, parse_map, CaveMap, MapError, MapFormat};
pub use maze::{MazeAction, MazeEnding, MazeGame, MazeLoss, MazeResult, MazeTurn, MazeView};
pub use random_map::{random_map, RandomMapError, Tunnels};
pub use session::{
    CaveShown, ClassicSession, ClassicSetup, MazeSession, MazeSetup, MazeShown,
    CLASSIC_ACTION_LIMIT, MAZE_ACTION_LIMIT,
};

use crate::files::{read_parsed, save_atomically, FileError};
use std::path::Path;

/// The standard dodecahedron (the event host's `standard.txt`), built into the program.
pub const STANDARD_MAP: &str = include_str!("../../../../worlds/cave-standard.txt");

/// Seed 000's standard `caves.dat` (its listing corrected where it broke its own format),
/// built into the program.
pub const STANDARD_CAVES_DAT: &str = include_str!("../../../../worlds/caves.dat");

/// Reads and checks a map file of either format; the error names the file and line.
pub fn read_map(path: &Path) -> Result<CaveMap, FileError> {
    read_parsed(path, parse_map)
}

/// Saves a map in its own format, atomically.
pub fn save_map(path: &Path, map: &CaveMap) -> Result<(), FileError> {
    save_atomically(path, &format_map(map))
}

/// Reads a classic cave's hazard file for `map`.
pub fn read_classic_hazards(path: &Path, map: &CaveMap) -> Result<ClassicHazards, FileError> {
    read_parsed(path, |text| hazards::parse_classic_hazards(text, map))
}

/// Reads a maze's hazard file for `map`.
pub fn read_maze_hazards(path: &Path, map: &CaveMap) -> Result<MazeHazards, FileError> {
    read_parsed(path, |text| hazards::parse_maze_hazards(text, map))
}

/// Saves a classic layout as a hazard file, atomically.
pub fn save_classic_hazards(
    path: &Path,
    hazards: &ClassicHazards,
    map: &CaveMap,
) -> Result<(), FileError> {
    save_atomically(path, &hazards::format_classic_hazards(hazards, map))
}

/// Saves a maze layout as a hazard file, atomically.
pub fn save_maze_hazards(
    path: &Path,
    hazards: &MazeHazards,
    map: &CaveMap,
) -> Result<(), FileError> {
    save_atomically(path, &hazards::format_maze_hazards(hazards, map))
}
