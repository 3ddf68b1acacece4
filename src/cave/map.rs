//! Cave maps: rooms joined by numbered tunnels, read from the event host's map files and from
//! seed 000's `caves.dat`, checked, written back and drawn.
//!
//! Two formats are read (see `docs/caves.md`):
//!
//! - **event host** (`worlds/cave-*.txt`): line 1 the warning distance, line 2 the room count
//!   `n`, then `n` lines `id out1 out2 out3` (1-based), then, optionally, `n` lines `id x y`
//!   giving each room's drawing position in the unit square;
//! - **`caves.dat`** (`worlds/caves.dat`): line 1 the count `n`, then `n` lines
//!   `id a1 a2 a3 name` (0-based), the rest of the line the cave's name. The space between the
//!   last number and the name may be missing (`0 1 4 9The Fountainhead`, as in the seed).
//!
//! [`parse_map`] tells the two apart by the second line (one number: event host). Every room has
//! exactly three tunnels; a tunnel may lead back to its own room and need not have a way back.
//! The parser reads the text into loose lines, then checks each against the count, so each error
//! names the line at fault. A [`CaveMap`] can only be built valid, and it builds the one world
//! graph ([`Topology::cave`]) every rule set reads.
//!
//! Invariant: a `CaveMap`'s topology gives every room exactly [`TUNNELS`] exits, labelled
//! `Link::Tunnel(1..=3)` in file order, and every tunnel leads to a room of the map.

use crate::files::{quoted, LineError};
use crate::topology::{Place, Shape, Topology};
use std::fmt::Write as _;
use std::sync::Arc;

/// Tunnels out of every room.
pub const TUNNELS: usize = 3;

/// The most rooms a map may have: the largest round size on which every agent makes its first
/// move within a second (release build, 2 cores) on both kinds of random map, the map known
/// and discovered, under both rule sets. The slowest is the classic cave's agent given a map
/// of one-way tunnels: 0.9 s at 30 rooms, 1.8 s at 40, 6 s at 60 (two-way maps: 0.5 s at
/// 100, 5 s at 200). The measurement and how to repeat it are in `docs/caves.md`, "How big a
/// map can be".
pub const MAX_ROOMS: usize = 30;

/// Which file format a map was read from (and is written back in).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MapFormat {
    /// The event host's format: 1-based rooms, a warning distance, drawing positions.
    Event,
    /// Seed 000's `caves.dat`: 0-based named caves.
    CavesDat,
}

impl MapFormat {
    /// The number a player uses for the first room: 1 for event maps, 0 for `caves.dat`.
    pub fn first_number(self) -> usize {
        match self {
            MapFormat::Event => 1,
            MapFormat::CavesDat => 0,
        }
    }

    /// A short name of the format, for messages.
    pub fn name(self) -> &'static str {
        match self {
            MapFormat::Event => "classic cave map",
            MapFormat::CavesDat => "caves.dat",
        }
    }
}

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
    /// The room count is 0.
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

/// A valid cave map: the world graph plus how its rooms are named and warned of.
#[derive(Clone, Debug)]
pub struct CaveMap {
    topology: Arc<Topology>,
    format: MapFormat,
    warning_distance: u32,
    outs: Vec<[Place; TUNNELS]>,
    ins: Vec<Vec<Place>>,
}

impl CaveMap {
    /// A map from its rooms' tunnels, 0-based: `tunnels[r]` are the rooms tunnels 1, 2 and 3 of
    /// room `r` lead to. `names` and `positions` are empty or give one entry a room.
    ///
    /// # Panics
    ///
    /// When `names` or `positions` is neither empty nor one entry a room.
    pub fn new(
        tunnels: &[[usize; TUNNELS]],
        format: MapFormat,
        warning_distance: u32,
        names: Vec<Option<String>>,
        positions: Vec<Option<(f64, f64)>>,
    ) -> Result<CaveMap, MapErrorKind> {
        let count = tunnels.len();
        check_room_count(count)?;
        if warning_distance == 0 {
            return Err(MapErrorKind::ZeroWarningDistance);
        }
        let first = format.first_number();
        for (from, outs) in tunnels.iter().enumerate() {
            if let Some(&room) = outs.iter().find(|&&to| to >= count) {
                return Err(MapErrorKind::UnknownTunnel {
                    from: from + first,
                    room: room + first,
                    first,
                    last: count - 1 + first,
                });
            }
        }
        let names = if names.is_empty() {
            vec![None; count]
        } else {
            names
        };
        let positions = if positions.is_empty() {
            vec![None; count]
        } else {
            positions
        };
        assert_eq!(names.len(), count, "one name a room");
        assert_eq!(positions.len(), count, "one position a room");
        let lists: Vec<Vec<usize>> = tunnels.iter().map(|t| t.to_vec()).collect();
        let topology = Arc::new(Topology::cave(&lists, first, names, positions));
        Ok(CaveMap::from_topology(topology, format, warning_distance))
    }

    /// Reads the tunnels back from the topology, so the graph stays the one description of who
    /// neighbours whom; `outs` and `ins` are caches of it.
    fn from_topology(topology: Arc<Topology>, format: MapFormat, warning_distance: u32) -> Self {
        let count = topology.len();
        let mut outs = Vec::with_capacity(count);
        let mut ins = vec![Vec::new(); count];
        for room in topology.places() {
            let mut row = [room; TUNNELS];
            for (i, (_, to)) in topology.exits(room).enumerate() {
                row[i] = to;
            }
            outs.push(row);
        }
        // The event host lists a room's entrances by source room, then by tunnel.
        for (from, row) in outs.iter().enumerate() {
            for to in row {
                ins[to.index()].push(Place::new(from));
            }
        }
        CaveMap {
            topology,
            format,
            warning_distance,
            outs,
            ins,
        }
    }

    /// The world graph.
    pub fn topology(&self) -> &Arc<Topology> {
        &self.topology
    }

    /// The format the map was read from.
    pub fn format(&self) -> MapFormat {
        self.format
    }

    /// How many tunnels away the wumpus can be smelled (1 on every event map).
    pub fn warning_distance(&self) -> u32 {
        self.warning_distance
    }

    /// The number of rooms.
    pub fn len(&self) -> usize {
        self.outs.len()
    }

    /// Always false: a map has at least one room.
    pub fn is_empty(&self) -> bool {
        self.outs.is_empty()
    }

    /// Every room, in order.
    pub fn rooms(&self) -> impl Iterator<Item = Place> {
        (0..self.len()).map(Place::new)
    }

    /// Where tunnels 1, 2 and 3 of `room` lead.
    pub fn outs(&self, room: Place) -> &[Place; TUNNELS] {
        &self.outs[room.index()]
    }

    /// The rooms with a tunnel into `room`, one entry a tunnel, by source room then tunnel.
    pub fn ins(&self, room: Place) -> &[Place] {
        &self.ins[room.index()]
    }

    /// Where tunnel `tunnel` (1-based) of `room` leads, if the room has that tunnel.
    pub fn tunnel(&self, room: Place, tunnel: usize) -> Option<Place> {
        (1..=TUNNELS)
            .contains(&tunnel)
            .then(|| self.outs[room.index()][tunnel - 1])
    }

    /// True when a tunnel joins `a` and `b`, in either direction.
    pub fn joined(&self, a: Place, b: Place) -> bool {
        self.outs(a).contains(&b) || self.outs(b).contains(&a)
    }

    /// The number a player uses for the first room (1 on event maps, 0 in `caves.dat`).
    pub fn first_number(&self) -> usize {
        self.format.first_number()
    }

    /// How a player names `room`: its number.
    pub fn label(&self, room: Place) -> usize {
        room.index() + self.first_number()
    }

    /// The room a player means by `number`, if there is one.
    pub fn room(&self, number: usize) -> Option<Place> {
        number
            .checked_sub(self.first_number())
            .filter(|&i| i < self.len())
            .map(Place::new)
    }

    /// The room's name from the map, or `room N` when the map gives none.
    pub fn name(&self, room: Place) -> String {
        match self.topology.shape() {
            Shape::Cave { names, .. } => match &names[room.index()] {
                Some(name) => name.clone(),
                None => format!("room {}", self.label(room)),
            },
            Shape::Grid { .. } => unreachable!("a cave map has a cave topology"),
        }
    }

    /// The room's drawing position, if the map gives one.
    pub fn position(&self, room: Place) -> Option<(f64, f64)> {
        match self.topology.shape() {
            Shape::Cave { positions, .. } => positions[room.index()],
            Shape::Grid { .. } => unreachable!("a cave map has a cave topology"),
        }
    }

    /// The rooms within `distance` tunnels of `room`, tunnels taken either way: every room at
    /// the end of a walk of 1 to `distance` tunnels (so `room` itself counts when a walk leads
    /// back to it). This is the event host's spread of the wumpus's smell.
    ///
    /// Runs in O(distance × rooms) time.
    pub fn within(&self, room: Place, distance: u32) -> Vec<bool> {
        let mut near = vec![false; self.len()];
        let mut frontier = vec![room];
        let mut reached = vec![false; self.len()];
        for _ in 0..distance {
            let mut next = Vec::new();
            for &r in &frontier {
                for &n in self.outs(r).iter().chain(self.ins(r)) {
                    near[n.index()] = true;
                    if !reached[n.index()] {
                        reached[n.index()] = true;
                        next.push(n);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
        near
    }
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

/// Parses a map in either format (see [`detect_format`]).
pub fn parse_map(text: &str) -> Result<CaveMap, MapError> {
    match detect_format(text) {
        MapFormat::Event => parse_event_map(text),
        MapFormat::CavesDat => parse_caves_dat(text),
    }
}

/// The non-blank lines of `text`, with their 1-based line numbers.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
}

fn at(line: usize, kind: MapErrorKind) -> MapError {
    MapError {
        line: Some(line),
        kind,
    }
}

/// Reads a line that holds one whole number.
fn one_number(line: usize, text: &str, what: &'static str) -> Result<usize, MapError> {
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

fn number(line: usize, word: &str, what: &'static str) -> Result<usize, MapError> {
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

/// Refuses a room count of 0 or over [`MAX_ROOMS`].
fn check_room_count(count: usize) -> Result<(), MapErrorKind> {
    match count {
        0 => Err(MapErrorKind::RoomCount(count)),
        n if n > MAX_ROOMS => Err(MapErrorKind::TooManyRooms(n)),
        _ => Ok(()),
    }
}

/// Reads the room count line.
fn room_count(line: usize, text: &str) -> Result<usize, MapError> {
    let count = one_number(line, text, "the room count")?;
    check_room_count(count).map_err(|kind| at(line, kind))?;
    Ok(count)
}

/// Turns a room number as written into an index, or says which rooms exist.
fn index_of(line: usize, number: usize, first: usize, count: usize) -> Result<usize, MapError> {
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
fn record_room(
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

/// Parses the event host's format.
pub fn parse_event_map(text: &str) -> Result<CaveMap, MapError> {
    const FORM: &str = "id out1 out2 out3";
    let mut lines = content_lines(text);
    let (l, t) = lines.next().ok_or(MapError {
        line: None,
        kind: MapErrorKind::Empty,
    })?;
    let distance = one_number(l, t, "the warning distance")?;
    let Some((count_line, count_text)) = lines.next() else {
        // One number alone is a room count with no rooms after it (the warning distance, a
        // line before it, is a detail a map this short cannot be about): say what is wrong
        // with that count, or that its rooms are missing.
        let count = room_count(l, t)?;
        return Err(MapError {
            line: None,
            kind: MapErrorKind::MissingRooms { found: 0, count },
        });
    };
    let distance = u32::try_from(distance).map_err(|_| {
        at(
            l,
            MapErrorKind::NotANumber {
                what: "the warning distance",
                found: t.to_string(),
            },
        )
    })?;
    if distance == 0 {
        return Err(at(l, MapErrorKind::ZeroWarningDistance));
    }
    let count = room_count(count_line, count_text)?;
    let mut rooms = vec![None; count];
    for found in 0..count {
        let (l, t) = lines.next().ok_or(MapError {
            line: None,
            kind: MapErrorKind::MissingRooms { found, count },
        })?;
        let words: Vec<&str> = t.split_whitespace().collect();
        if words.len() != 4 {
            return Err(at(
                l,
                MapErrorKind::RoomFields {
                    form: FORM,
                    found: words.len(),
                },
            ));
        }
        let mut numbers = [0; 4];
        for (n, w) in numbers.iter_mut().zip(&words) {
            *n = number(l, w, "a room number")?;
        }
        record_room(l, numbers, 1, &mut rooms)?;
    }
    let mut positions: Vec<Option<(f64, f64)>> = vec![None; count];
    let mut position_lines = vec![0usize; count];
    let mut found = 0;
    while found < count {
        let Some((l, t)) = lines.next() else {
            if found == 0 {
                break; // no drawing positions: allowed
            }
            return Err(MapError {
                line: None,
                kind: MapErrorKind::MissingPositions { found, count },
            });
        };
        let words: Vec<&str> = t.split_whitespace().collect();
        if words.len() != 3 {
            return Err(at(l, MapErrorKind::PositionFields(words.len())));
        }
        let id = index_of(l, number(l, words[0], "a room number")?, 1, count)?;
        if position_lines[id] != 0 {
            return Err(at(
                l,
                MapErrorKind::DuplicatePosition {
                    room: id + 1,
                    first_line: position_lines[id],
                },
            ));
        }
        let coordinate = |w: &str| {
            w.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| at(l, MapErrorKind::BadPosition(w.to_string())))
        };
        positions[id] = Some((coordinate(words[1])?, coordinate(words[2])?));
        position_lines[id] = l;
        found += 1;
    }
    if let Some((l, _)) = lines.next() {
        return Err(at(l, MapErrorKind::ExtraLine("room position")));
    }
    let tunnels: Vec<[usize; TUNNELS]> = rooms
        .into_iter()
        .map(|r| r.expect("every room listed").0)
        .collect();
    let positions = if found == 0 { Vec::new() } else { positions };
    CaveMap::new(&tunnels, MapFormat::Event, distance, Vec::new(), positions)
        .map_err(|kind| MapError { line: None, kind })
}

/// Splits a `caves.dat` line into its four numbers and its name. The fourth number may run
/// straight into the name (`0 1 4 9The Fountainhead`).
fn split_cave_line(line: usize, text: &str) -> Result<([usize; 4], &str), MapError> {
    const FORM: &str = "id a1 a2 a3 name";
    let mut numbers = [0; 4];
    let mut rest = text;
    for (i, slot) in numbers.iter_mut().enumerate() {
        rest = rest.trim_start();
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if digits == 0 {
            if rest.is_empty() {
                return Err(at(
                    line,
                    MapErrorKind::RoomFields {
                        form: FORM,
                        found: i,
                    },
                ));
            }
            // A word where a number belongs: a short line ("2 4 7The Hall of Kings") or a typo.
            let word = &rest[..word_end];
            if word.chars().next().is_some_and(|c| c.is_alphabetic()) {
                return Err(at(
                    line,
                    MapErrorKind::RoomFields {
                        form: FORM,
                        found: i,
                    },
                ));
            }
            return Err(at(
                line,
                MapErrorKind::NotANumber {
                    what: "a cave number",
                    found: word.to_string(),
                },
            ));
        }
        // Only the last number may run into the name; a number running into a word earlier
        // means the line is short of numbers ("2 4 7The Hall of Kings").
        if i < 3 && digits != word_end {
            if rest[digits..].starts_with(char::is_alphabetic) {
                return Err(at(
                    line,
                    MapErrorKind::RoomFields {
                        form: FORM,
                        found: i + 1,
                    },
                ));
            }
            return Err(at(
                line,
                MapErrorKind::NotANumber {
                    what: "a cave number",
                    found: rest[..word_end].to_string(),
                },
            ));
        }
        *slot = number(line, &rest[..digits], "a cave number")?;
        rest = &rest[digits..];
    }
    Ok((numbers, rest.trim()))
}

/// Parses seed 000's `caves.dat` format.
pub fn parse_caves_dat(text: &str) -> Result<CaveMap, MapError> {
    let mut lines = content_lines(text);
    let (l, t) = lines.next().ok_or(MapError {
        line: None,
        kind: MapErrorKind::Empty,
    })?;
    let count = room_count(l, t)?;
    let mut rooms = vec![None; count];
    let mut names = vec![None; count];
    for found in 0..count {
        let (l, t) = lines.next().ok_or(MapError {
            line: None,
            kind: MapErrorKind::MissingRooms { found, count },
        })?;
        let (numbers, name) = split_cave_line(l, t)?;
        let id = record_room(l, numbers, 0, &mut rooms)?;
        if name.is_empty() {
            return Err(at(l, MapErrorKind::MissingName(numbers[0])));
        }
        names[id] = Some(name.to_string());
    }
    if let Some((l, _)) = lines.next() {
        return Err(at(l, MapErrorKind::ExtraLine("cave")));
    }
    let tunnels: Vec<[usize; TUNNELS]> = rooms
        .into_iter()
        .map(|r| r.expect("every room listed").0)
        .collect();
    CaveMap::new(&tunnels, MapFormat::CavesDat, 1, names, Vec::new())
        .map_err(|kind| MapError { line: None, kind })
}

/// Writes a map in the format it was read from; [`parse_map`] reads it back unchanged.
pub fn format_map(map: &CaveMap) -> String {
    let mut out = String::new();
    let first = map.first_number();
    match map.format() {
        MapFormat::Event => {
            let _ = writeln!(out, "{}", map.warning_distance());
            let _ = writeln!(out, "{}", map.len());
            for room in map.rooms() {
                let [a, b, c] = map.outs(room).map(|p| p.index() + first);
                let _ = writeln!(out, "{} {a} {b} {c}", map.label(room));
            }
            if map.rooms().all(|r| map.position(r).is_some()) {
                for room in map.rooms() {
                    let (x, y) = map.position(room).expect("checked");
                    let _ = writeln!(out, "{} {x} {y}", map.label(room));
                }
            }
        }
        MapFormat::CavesDat => {
            let _ = writeln!(out, "{}", map.len());
            for room in map.rooms() {
                let [a, b, c] = map.outs(room).map(|p| p.index() + first);
                let _ = writeln!(out, "{} {a} {b} {c} {}", map.label(room), map.name(room));
            }
        }
    }
    out
}

/// What to mark on a drawing of a map: for each room, short tags such as `wumpus` or `pit`.
pub type RoomTags = Vec<Vec<&'static str>>;

/// Draws a map as text: a line a room with its tunnels (one-way tunnels and tunnels to the room
/// itself marked, one-way entrances listed), the room's tags when given, then, when the map has
/// drawing positions, a plot of the room numbers at their positions.
pub fn draw_map(map: &CaveMap, tags: Option<&RoomTags>) -> String {
    let mut out = String::new();
    let first = map.first_number();
    let _ = writeln!(
        out,
        "{}: {} rooms, numbered {} to {}, warning distance {}",
        map.format().name(),
        map.len(),
        first,
        map.len() - 1 + first,
        map.warning_distance()
    );
    let width = (map.len() - 1 + first).to_string().len();
    for room in map.rooms() {
        let label = map.label(room);
        let mut line = format!("{label:>width$}");
        if map.format() == MapFormat::CavesDat {
            let _ = write!(line, " {}", map.name(room));
        }
        line.push_str(": to");
        for (i, &to) in map.outs(room).iter().enumerate() {
            let _ = write!(line, "{} {}", if i == 0 { "" } else { "," }, map.label(to));
            if to == room {
                line.push_str(" (itself)");
            } else if !map.outs(to).contains(&room) {
                line.push_str(" (one-way)");
            }
        }
        let mut one_way_in: Vec<usize> = map
            .ins(room)
            .iter()
            .filter(|&&from| !map.outs(room).contains(&from))
            .map(|&from| map.label(from))
            .collect();
        one_way_in.dedup();
        if !one_way_in.is_empty() {
            let list: Vec<String> = one_way_in.iter().map(usize::to_string).collect();
            let _ = write!(line, "; one-way in from {}", list.join(", "));
        }
        if let Some(tags) = tags {
            if !tags[room.index()].is_empty() {
                let _ = write!(line, "  [{}]", tags[room.index()].join(", "));
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    if map.rooms().all(|r| map.position(r).is_some()) {
        out.push('\n');
        out.push_str(&plot(map, tags));
    }
    out
}

/// Plots room numbers at their drawing positions on a character canvas; a tagged room shows the
/// first letter of each tag after its number (`7W`).
fn plot(map: &CaveMap, tags: Option<&RoomTags>) -> String {
    const COLS: usize = 64;
    const ROWS: usize = 22;
    let points: Vec<(f64, f64)> = map.rooms().filter_map(|r| map.position(r)).collect();
    let (min_x, max_x) = bounds(points.iter().map(|p| p.0));
    let (min_y, max_y) = bounds(points.iter().map(|p| p.1));
    let mut canvas = vec![vec![' '; COLS + 4]; ROWS + 1];
    for room in map.rooms() {
        let (x, y) = map.position(room).expect("checked");
        let col = ((x - min_x) / (max_x - min_x) * COLS as f64).round() as usize;
        let row = ((y - min_y) / (max_y - min_y) * ROWS as f64).round() as usize;
        let mut text = map.label(room).to_string();
        if let Some(tags) = tags {
            for tag in &tags[room.index()] {
                text.push(tag.chars().next().unwrap_or('?').to_ascii_uppercase());
            }
        }
        let start = col.saturating_sub(text.len() / 2);
        for (i, ch) in text.chars().enumerate() {
            if let Some(cell) = canvas[row.min(ROWS)].get_mut(start + i) {
                *cell = ch;
            }
        }
    }
    let mut out = String::new();
    for row in canvas {
        let line: String = row.into_iter().collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if hi - lo < 1e-9 {
        (lo - 0.5, lo + 0.5)
    } else {
        (lo, hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) const STANDARD: &str = include_str!("../../worlds/cave-standard.txt");
    const MOBIUS: &str = include_str!("../../worlds/cave-mobius.txt");
    const WATERSLIDE: &str = include_str!("../../worlds/cave-waterslide.txt");
    const RISK: &str = include_str!("../../worlds/cave-risk.txt");
    const CAVES_DAT: &str = include_str!("../../worlds/caves.dat");

    fn kind(text: &str) -> (Option<usize>, MapErrorKind) {
        let e = parse_map(text).unwrap_err();
        (e.line, e.kind)
    }

    fn p(i: usize) -> Place {
        Place::new(i)
    }

    #[test]
    fn the_four_event_maps_parse() {
        for text in [STANDARD, MOBIUS, WATERSLIDE, RISK] {
            let map = parse_map(text).unwrap();
            assert_eq!(map.format(), MapFormat::Event);
            assert_eq!(map.len(), 20);
            assert_eq!(map.warning_distance(), 1);
            assert!(map.rooms().all(|r| map.position(r).is_some()));
            // Three tunnels out of every room, counted from the one graph.
            for r in map.rooms() {
                assert_eq!(map.topology().exits(r).count(), 3);
            }
        }
    }

    #[test]
    fn standard_map_is_the_dodecahedron() {
        let map = parse_map(STANDARD).unwrap();
        assert_eq!(map.outs(p(0)), &[p(1), p(4), p(7)]);
        // Every tunnel has its way back, and every room has three distinct neighbours.
        for r in map.rooms() {
            for &to in map.outs(r) {
                assert!(map.outs(to).contains(&r));
            }
            assert_eq!(map.topology().linked(r).len(), 3);
        }
        assert_eq!(map.label(p(0)), 1);
        assert_eq!(map.room(20), Some(p(19)));
        assert_eq!(map.room(0), None);
        assert_eq!(map.room(21), None);
        assert_eq!(map.name(p(4)), "room 5");
    }

    #[test]
    fn waterslide_has_one_way_tunnels_and_ins_follow_the_host() {
        let map = parse_map(WATERSLIDE).unwrap();
        // 17 -> 2 and 2 -> 5 have no way back; 2 lists 17 among its entrances, not 5.
        assert!(map.outs(p(16)).contains(&p(1)));
        assert!(!map.outs(p(1)).contains(&p(16)));
        assert_eq!(map.outs(p(1)), &[p(0), p(2), p(4)]);
        assert_eq!(map.ins(p(1)), &[p(0), p(2), p(16)]);
        assert!(map.joined(p(1), p(16)));
        assert!(!map.joined(p(1), p(15)));
    }

    #[test]
    fn caves_dat_is_the_issues_corrected_listing() {
        let map = parse_map(CAVES_DAT).unwrap();
        assert_eq!(map.format(), MapFormat::CavesDat);
        assert_eq!(map.len(), 20);
        assert_eq!(map.name(p(0)), "The Fountainhead");
        assert_eq!(map.name(p(14)), "Shelob's Lair");
        assert_eq!(map.label(p(0)), 0);
        assert_eq!(map.room(0), Some(p(0)));
        for r in 15..20 {
            assert_eq!(map.name(p(r)), "The Lost Caverns of the Wyrm");
        }
        assert_eq!(map.outs(p(15)), &[p(15), p(16), p(19)]);
        assert_eq!(map.outs(p(17)), &[p(16), p(17), p(18)]);
        // The Lost Caverns: in from 14 (one-way) and 13, out only by 18 -> 13.
        let caverns = |r: Place| r.index() >= 15;
        let ways_in: Vec<(usize, usize)> = map
            .rooms()
            .filter(|&r| !caverns(r))
            .flat_map(|r| map.outs(r).iter().map(move |&to| (r, to)))
            .filter(|&(_, to)| caverns(to))
            .map(|(r, to)| (r.index(), to.index()))
            .collect();
        assert_eq!(ways_in, [(13, 18), (14, 15)]);
        let ways_out: Vec<(usize, usize)> = map
            .rooms()
            .filter(|&r| caverns(r))
            .flat_map(|r| map.outs(r).iter().map(move |&to| (r, to)))
            .filter(|&(_, to)| !caverns(to))
            .map(|(r, to)| (r.index(), to.index()))
            .collect();
        assert_eq!(ways_out, [(18, 13)]);
    }

    #[test]
    fn caves_dat_names_may_touch_the_last_number() {
        let glued = "3\n0 1 2 0The Fountainhead\n1 0 2 1 The Rumpus Room\n2 0 1 2Ess four 2\n";
        let map = parse_map(glued).unwrap();
        assert_eq!(map.name(p(0)), "The Fountainhead");
        assert_eq!(map.name(p(1)), "The Rumpus Room");
        assert_eq!(map.name(p(2)), "Ess four 2");
        assert_eq!(map.outs(p(0)), &[p(1), p(2), p(0)]);
    }

    #[test]
    fn the_seeds_damaged_listing_is_refused_at_its_first_bad_line() {
        let damaged = "20\n0 1 4 9The Fountainhead\n1 0 2 5The Rumpus Room\n2 1 3 6Buford's Folly\n   2 4 7The Hall of Kings\n4\n";
        let (line, kind) = kind(damaged);
        assert_eq!(line, Some(5));
        assert!(matches!(kind, MapErrorKind::RoomFields { found: 3, .. }));
    }

    #[test]
    fn round_trips_both_formats() {
        for text in [STANDARD, MOBIUS, WATERSLIDE, RISK, CAVES_DAT] {
            let map = parse_map(text).unwrap();
            let again = parse_map(&format_map(&map)).unwrap();
            assert_eq!(format_map(&again), format_map(&map));
            for r in map.rooms() {
                assert_eq!(map.outs(r), again.outs(r));
                assert_eq!(map.name(r), again.name(r));
                assert_eq!(map.position(r), again.position(r));
            }
        }
    }

    #[test]
    fn positions_are_optional_but_all_or_none() {
        let map = parse_map("1\n2\n1 2 2 1\n2 1 1 2\n").unwrap();
        assert_eq!(map.position(p(0)), None);
        assert!(matches!(
            kind("1\n2\n1 2 2 1\n2 1 1 2\n1 0.5 0.5\n"),
            (None, MapErrorKind::MissingPositions { found: 1, count: 2 })
        ));
        let map = parse_map("1\n2\n2 1 1 2\n1 2 2 1\n2 0 1\n1 .5 0.5\n").unwrap();
        assert_eq!(map.position(p(0)), Some((0.5, 0.5)));
        assert_eq!(map.outs(p(1)), &[p(0), p(0), p(1)]);
    }

    #[test]
    fn every_error_names_its_line() {
        use MapErrorKind as K;
        assert!(matches!(kind(""), (None, K::Empty)));
        assert!(matches!(kind("x\n2\n"), (Some(1), K::NotANumber { .. })));
        assert!(matches!(kind("0\n2\n"), (Some(1), K::ZeroWarningDistance)));
        assert!(matches!(kind("1\n0\n"), (Some(2), K::RoomCount(0))));
        assert!(matches!(
            kind("1\n2\n1 2 2\n"),
            (Some(3), K::RoomFields { found: 3, .. })
        ));
        assert!(matches!(
            kind("1\n2\n1 2 2 3\n"),
            (Some(3), K::UnknownTunnel { room: 3, .. })
        ));
        assert!(matches!(
            kind("1\n2\n1 2 2 0\n"),
            (Some(3), K::UnknownTunnel { room: 0, .. })
        ));
        assert!(matches!(
            kind("1\n2\n3 2 2 1\n"),
            (Some(3), K::UnknownRoom { room: 3, .. })
        ));
        assert!(matches!(
            kind("1\n2\n1 2 2 1\n1 2 2 1\n"),
            (
                Some(4),
                K::DuplicateRoom {
                    room: 1,
                    first_line: 3
                }
            )
        ));
        assert!(matches!(
            kind("1\n2\n1 2 2 1\n2 1 x 2\n"),
            (Some(4), K::NotANumber { .. })
        ));
        assert!(matches!(
            kind("1\n3\n1 2 2 1\n2 1 1 2\n"),
            (None, K::MissingRooms { found: 2, count: 3 })
        ));
        assert!(matches!(
            kind("1\n2\n1 2 2 1\n2 1 1 2\n1 0 0\n1 0 0\n"),
            (Some(6), K::DuplicatePosition { room: 1, .. })
        ));
        assert!(matches!(
            kind("1\n2\n1 2 2 1\n2 1 1 2\n1 0 nan\n"),
            (Some(5), K::BadPosition(_))
        ));
        assert!(matches!(
            kind("1\n2\n1 2 2 1\n2 1 1 2\n1 0\n"),
            (Some(5), K::PositionFields(2))
        ));
        assert!(matches!(
            kind("1\n2\n1 2 2 1\n2 1 1 2\n1 0 0\n2 0 0\n9 9 9\n"),
            (Some(7), K::ExtraLine(_))
        ));
        // caves.dat
        assert!(matches!(
            kind("2\n0 1 1 0\n1 0 0 1 B\n"),
            (Some(2), K::MissingName(0))
        ));
        assert!(matches!(
            kind("2\n0 1 1 2 A\n"),
            (Some(2), K::UnknownTunnel { room: 2, .. })
        ));
        assert!(matches!(
            kind("2\n0 1.5 1 0 A\n1 0 0 1 B\n"),
            (Some(2), K::NotANumber { .. })
        ));
        assert!(matches!(
            kind("2\n0 1 1 0 A\n1 0 0 1 B\n2 0 0 1 C\n"),
            (Some(4), K::ExtraLine(_))
        ));
        assert!(matches!(
            kind("2\n0 1 1 0 A\n0 0 0 1 B\n"),
            (
                Some(3),
                K::DuplicateRoom {
                    room: 0,
                    first_line: 2
                }
            )
        ));
        assert!(matches!(
            kind("2\n0 1 1 0 A\n"),
            (None, K::MissingRooms { found: 1, count: 2 })
        ));
    }

    #[test]
    fn detects_formats_and_cave_maps() {
        assert_eq!(detect_format(STANDARD), MapFormat::Event);
        assert_eq!(detect_format(CAVES_DAT), MapFormat::CavesDat);
        assert!(looks_like_cave_map(STANDARD));
        assert!(looks_like_cave_map(CAVES_DAT));
        assert!(!looks_like_cave_map("SIZE 4 4\nWUMPUS 1 1\n"));
        assert!(!looks_like_cave_map(""));
    }

    #[test]
    fn smell_spreads_by_the_warning_distance() {
        let map = parse_map(STANDARD).unwrap();
        let one = map.within(p(0), 1);
        assert_eq!(one.iter().filter(|&&b| b).count(), 3);
        assert!(one[1] && one[4] && one[7] && !one[0]);
        let two = map.within(p(0), 2);
        // Three neighbours, six rooms two away, and room 1 itself by walking back.
        assert_eq!(two.iter().filter(|&&b| b).count(), 10);
        assert!(two[0]);
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        /// A random map: 1 to 30 rooms, three tunnels each to any room.
        fn tunnel_table() -> impl Strategy<Value = Vec<[usize; TUNNELS]>> {
            (1usize..30)
                .prop_flat_map(|n| proptest::collection::vec(proptest::array::uniform3(0..n), n))
        }

        proptest! {
            #[test]
            fn parsing_any_text_never_panics(text in "[0-9 .a-z\n-]{0,200}") {
                let _ = parse_map(&text);
                let _ = parse_caves_dat(&text);
                let _ = parse_event_map(&text);
            }

            #[test]
            fn random_maps_round_trip_in_both_formats(
                tunnels in tunnel_table(),
                glue in any::<bool>(),
            ) {
                let n = tunnels.len();
                let event = CaveMap::new(&tunnels, MapFormat::Event, 1, Vec::new(), Vec::new())
                    .unwrap();
                let again = parse_map(&format_map(&event)).unwrap();
                prop_assert_eq!(again.format(), MapFormat::Event);
                let names = (0..n).map(|i| Some(format!("Cave {i} of {n}"))).collect();
                let dat = CaveMap::new(&tunnels, MapFormat::CavesDat, 1, names, Vec::new())
                    .unwrap();
                let mut text = format_map(&dat);
                if glue {
                    // The seed's listing: no space between the last number and the name.
                    text = text.replace(" Cave", "Cave");
                }
                let dat_again = parse_map(&text).unwrap();
                for r in event.rooms() {
                    prop_assert_eq!(event.outs(r), again.outs(r));
                    prop_assert_eq!(dat.outs(r), dat_again.outs(r));
                    prop_assert_eq!(dat.name(r), dat_again.name(r));
                    // ins lists each tunnel into the room once.
                    let into = event.rooms().map(|f| {
                        event.outs(f).iter().filter(|&&t| t == r).count()
                    }).sum::<usize>();
                    prop_assert_eq!(event.ins(r).len(), into);
                }
            }
        }
    }

    #[test]
    fn drawing_marks_one_way_self_loops_and_tags() {
        let map = parse_map(CAVES_DAT).unwrap();
        let mut tags: RoomTags = vec![Vec::new(); 20];
        tags[16].push("wumpus");
        let text = draw_map(&map, Some(&tags));
        assert!(text.contains("15 The Lost Caverns of the Wyrm: to 15 (itself), 16, 19"));
        assert!(text.contains("14 Shelob's Lair: to 4, 10, 15 (one-way)"));
        assert!(text.contains("one-way in from 14"));
        assert!(text.contains("[wumpus]"));
        let plot = draw_map(&parse_map(STANDARD).unwrap(), None);
        assert!(plot.lines().count() > 25, "{plot}");
    }
}
