//! What both map formats share: the errors (each naming its line), telling the formats apart,
//! and reading lines, numbers and room lines into a table of tunnels.
//!
//! Parsers take text and return typed errors with a line; nothing here reads a file, and a
//! parser must never build a `CaveMap` but through `CaveMap::new`, which checks it.

use super::{MapFormat, MAX_ROOMS, TUNNELS};
use crate::files::{quoted, LineError};

/// What is wrong with a map file, and on which line.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{kind}")]
pub struct MapError {
    /// The 1-based line, or `None` when the fault is the file as a whole (it ends too soon).
    pub line: Option<usize>,
    /// What is wrong.
    pub kind: MapErrorKind,
}

impl LineError for MapError {
    fn line(&self) -> Option<usize> {
        self.line
    }
}

/// The ways a map file can be wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MapErrorKind {
    /// The file has no lines at all.
    #[error("the file is empty: a map starts with its room count")]
    Empty,
    /// A value that should be a whole number is not.
    #[error("{} is not a whole number ({what})", quoted(.found))]
    NotANumber {
        /// What the value is.
        what: &'static str,
        /// The text found.
        found: String,
    },
    /// A drawing position that is not a finite number.
    #[error("{} is not a drawing position (a number such as 0.25)", quoted(.0))]
    BadPosition(String),
    /// The warning distance is 0.
    #[error("the warning distance must be at least 1")]
    ZeroWarningDistance,
    /// A line that should hold one number holds more or fewer.
    #[error("expected one number ({what}), found {found} values")]
    OneNumber {
        /// What the number is.
        what: &'static str,
        /// How many values were there.
        found: usize,
    },
    /// The room count is out of range.
    #[error("room count {0} is out of range (1 to {max})", max = MAX_ROOMS)]
    RoomCount(usize),
    /// More rooms than the agents can serve (see [`MAX_ROOMS`]).
    #[error(
        "the map has {0} rooms; at most {max} are played (first move within a second, \
         docs/caves.md)",
        max = MAX_ROOMS
    )]
    TooManyRooms(usize),
    /// A room line has the wrong number of values.
    #[error("a room line is '{form}', found {found} numbers")]
    RoomFields {
        /// The expected form.
        form: &'static str,
        /// How many numbers were found.
        found: usize,
    },
    /// A `caves.dat` line has no name after its numbers.
    #[error("cave {0} has no name after its tunnels")]
    MissingName(usize),
    /// A position line has the wrong number of values.
    #[error("a position line is 'id x y', found {0} values")]
    PositionFields(usize),
    /// A room id outside the map.
    #[error("no room {room}: rooms are numbered {first} to {last}")]
    UnknownRoom {
        /// The number found.
        room: usize,
        /// The first room's number.
        first: usize,
        /// The last room's number.
        last: usize,
    },
    /// A tunnel to a room outside the map.
    #[error("room {from} has a tunnel to room {room}, but rooms are numbered {first} to {last}")]
    UnknownTunnel {
        /// The room the tunnel leaves.
        from: usize,
        /// The room it names.
        room: usize,
        /// The first room's number.
        first: usize,
        /// The last room's number.
        last: usize,
    },
    /// The same room listed twice.
    #[error("room {room} is listed twice (first on line {first_line})")]
    DuplicateRoom {
        /// The room's number.
        room: usize,
        /// The line of the first listing.
        first_line: usize,
    },
    /// The same room's position given twice.
    #[error("room {room}'s position is given twice (first on line {first_line})")]
    DuplicatePosition {
        /// The room's number.
        room: usize,
        /// The line of the first position.
        first_line: usize,
    },
    /// The file ends before every room is listed.
    #[error("the file ends after {found} of its {count} rooms")]
    MissingRooms {
        /// Room lines found.
        found: usize,
        /// Rooms the count promised.
        count: usize,
    },
    /// The file ends part way through the drawing positions.
    #[error("the file ends after {found} of its {count} room positions")]
    MissingPositions {
        /// Position lines found.
        found: usize,
        /// Rooms the count promised.
        count: usize,
    },
    /// A line after the map is complete.
    #[error("unexpected line after the last {0}")]
    ExtraLine(&'static str),
}

/// Tells the two map formats apart without parsing: a second line holding one value means the
/// event host's format.
pub fn detect_format(text: &str) -> MapFormat {
    match content_lines(text).nth(1) {
        Some((_, line)) if line.split_whitespace().count() == 1 => MapFormat::Event,
        Some(_) => MapFormat::CavesDat,
        None => MapFormat::Event,
    }
}

/// True when `text` looks like a cave map of either format (its first line is one number), as
/// opposed to a grid world file, whose lines start with a keyword.
pub fn looks_like_cave_map(text: &str) -> bool {
    match content_lines(text).next() {
        Some((_, line)) => {
            let words: Vec<&str> = line.split_whitespace().collect();
            words.len() == 1 && words[0].parse::<usize>().is_ok()
        }
        None => false,
    }
}

/// The non-blank lines of `text`, with their 1-based line numbers.
pub(super) fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
}

pub(super) fn at(line: usize, kind: MapErrorKind) -> MapError {
    MapError {
        line: Some(line),
        kind,
    }
}

/// Reads a line that holds one whole number.
pub(super) fn one_number(line: usize, text: &str, what: &'static str) -> Result<usize, MapError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() != 1 {
        return Err(at(
            line,
            MapErrorKind::OneNumber {
                what,
                found: words.len(),
            },
        ));
    }
    number(line, words[0], what)
}

pub(super) fn number(line: usize, word: &str, what: &'static str) -> Result<usize, MapError> {
    word.parse::<usize>().map_err(|_| {
        at(
            line,
            MapErrorKind::NotANumber {
                what,
                found: word.to_string(),
            },
        )
    })
}

/// Reads the room count line.
/// Refuses a room count of 0 or over [`MAX_ROOMS`].
pub(super) fn check_room_count(count: usize) -> Result<(), MapErrorKind> {
    match count {
        0 => Err(MapErrorKind::RoomCount(count)),
        n if n > MAX_ROOMS => Err(MapErrorKind::TooManyRooms(n)),
        _ => Ok(()),
    }
}

pub(super) fn room_count(line: usize, text: &str) -> Result<usize, MapError> {
    let count = one_number(line, text, "the room count")?;
    check_room_count(count).map_err(|kind| at(line, kind))?;
    Ok(count)
}

/// Turns a room number as written into an index, or says which rooms exist.
pub(super) fn index_of(
    line: usize,
    number: usize,
    first: usize,
    count: usize,
) -> Result<usize, MapError> {
    number
        .checked_sub(first)
        .filter(|&i| i < count)
        .ok_or_else(|| {
            at(
                line,
                MapErrorKind::UnknownRoom {
                    room: number,
                    first,
                    last: count - 1 + first,
                },
            )
        })
}

/// Checks a room line's numbers and records them: `id` then three tunnels.
pub(super) fn record_room(
    line: usize,
    numbers: [usize; 4],
    first: usize,
    rooms: &mut [Option<([usize; TUNNELS], usize)>],
) -> Result<usize, MapError> {
    let count = rooms.len();
    let id = index_of(line, numbers[0], first, count)?;
    if let Some((_, first_line)) = rooms[id] {
        return Err(at(
            line,
            MapErrorKind::DuplicateRoom {
                room: numbers[0],
                first_line,
            },
        ));
    }
    let mut outs = [0; TUNNELS];
    for (slot, &to) in outs.iter_mut().zip(&numbers[1..]) {
        *slot = to
            .checked_sub(first)
            .filter(|&i| i < count)
            .ok_or_else(|| {
                at(
                    line,
                    MapErrorKind::UnknownTunnel {
                        from: numbers[0],
                        room: to,
                        first,
                        last: count - 1 + first,
                    },
                )
            })?;
    }
    rooms[id] = Some((outs, line));
    Ok(id)
}
