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
//!
//! The files: `parse.rs` (the errors, telling the formats apart, and the line and number
//! reading both formats share), `event.rs` (the event host's format), `caves_dat.rs`
//! (`caves.dat`), `write.rs` (writing either format back), `draw.rs` (a map as text).

mod caves_dat;
mod draw;
mod event;
mod parse;
mod write;

pub use caves_dat::parse_caves_dat;
pub use draw::{draw_map, RoomTags};
pub use event::parse_event_map;
pub use parse::{detect_format, looks_like_cave_map, MapError, MapErrorKind};
pub use write::format_map;

use crate::topology::{Place, Shape, Topology};
use std::sync::Arc;

/// Parses a map in either format (see [`detect_format`]).
pub fn parse_map(text: &str) -> Result<CaveMap, MapError> {
    match detect_format(text) {
        MapFormat::Event => parse_event_map(text),
        MapFormat::CavesDat => parse_caves_dat(text),
    }
}

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
        parse::check_room_count(count)?;
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

#[cfg(test)]
mod tests;
