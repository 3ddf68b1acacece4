//! The grid *Wumpus World* rule set (seed 001): a rows × cols grid, pits, one wumpus that never
//! moves, one gold, one arrow, and a way out at `0,0`.
//!
//! [`world`] holds the hidden layout, [`game`] the simulator, [`mod@file`] the world-file format and
//! [`command`] what a player may type; [`session`] plays it through the one game interface
//! ([`crate::game::Session`]). The agents for this rule set live in `crate::agent`.

pub mod aima;
pub mod command;
pub mod course;
pub mod file;
pub mod game;
pub mod session;
pub mod world;

pub use aima::{AimaSession, AimaShown, HeadedAction};
pub use command::{parse_command, Command, CommandError};
pub use file::{format_world, parse_own_world, WorldFileError};
pub use game::{Action, GridGame, Message, Outcome, Percepts, Scoring, Turn};
pub use session::{Deal, GridSession, GridSetup, SizeRange};
pub use world::{GridWorld, WorldError};

use crate::files::{read_parsed, save_atomically, FileError};
use std::path::Path;

/// Parses a world file's text: the project's own format, or the course tournament's
/// (recognised by its first line, two numbers; [`course`]).
pub fn parse_world(text: &str) -> Result<GridWorld, WorldFileError> {
    parse_world_within(text, crate::topology::MAX_GRID_SIDE)
}

/// [`parse_world`], refusing a grid with a side over `max_side` before anything is built for it.
pub fn parse_world_within(text: &str, max_side: usize) -> Result<GridWorld, WorldFileError> {
    if course::looks_like_course_world(text) {
        course::parse_course_world(text, max_side)
    } else {
        parse_own_world(text, max_side)
    }
}

/// Reads and checks a grid world file; the error names the file and line.
pub fn read_world(path: &Path) -> Result<GridWorld, FileError> {
    read_parsed(path, parse_world)
}

/// [`read_world`], telling whether the file is a course file ([`course`]), and refusing a
/// grid with a side over `max_side` on the bytes read, before anything is built for it.
pub fn read_world_and_format(path: &Path, max_side: usize) -> Result<(GridWorld, bool), FileError> {
    read_parsed(path, |text| {
        let course = course::looks_like_course_world(text);
        parse_world_within(text, max_side).map(|w| (w, course))
    })
}

/// Saves a world in the world-file format, atomically.
pub fn save_world(path: &Path, world: &GridWorld) -> Result<(), FileError> {
    save_atomically(path, &format_world(world))
}

/// Draws the grid with its hazards, north at the top: `P` pit, `W` wumpus, `G` gold, `.` empty;
/// a cell holding several shows them all.
pub fn draw_world(world: &GridWorld) -> String {
    let topology = world.topology();
    let (rows, cols) = world.size();
    let width = 3usize;
    let mut out = String::new();
    for row in (0..rows).rev() {
        out.push_str(&format!("{row:>4} "));
        for col in 0..cols {
            let cell = topology.cell(row, col).expect("on grid");
            let mut mark = String::new();
            if world.has_pit(cell) {
                mark.push('P');
            }
            if world.wumpus() == cell {
                mark.push('W');
            }
            if world.gold() == cell {
                mark.push('G');
            }
            if mark.is_empty() {
                mark.push(if cell == world.start() { '@' } else { '.' });
            }
            out.push_str(&format!("{mark:^width$}"));
        }
        out.push('\n');
    }
    out.push_str("     ");
    for col in 0..cols {
        out.push_str(&format!("{:^width$}", col % 1000));
    }
    out.push('\n');
    out.push_str("(rows go north, columns east; @ start, P pit, W wumpus, G gold)\n");
    out
}
