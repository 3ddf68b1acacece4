//! What the hunter knows of a cave's tunnels: the whole map up front (`--map-known`), or, as the
//! event requires, only the room count, each room's tunnels being learnt by standing in it.
//!
//! Standing in a room shows where its tunnels lead (`out`) and which rooms have a tunnel into
//! it (`in`), so every tunnel at a visited room is known, and so is every tunnel from an
//! unvisited room *into* a visited one. What is not known is where an unvisited room's other
//! tunnels lead: only to unvisited rooms (a tunnel into a visited room would have been listed
//! there), maybe to itself.
//!
//! Two graphs come out of this. The **known** graph holds the tunnels known to exist: the
//! hunter walks and aims arrows only along them. The **possible** graph adds, from each
//! unvisited room with tunnels still unknown, a tunnel to every unvisited room: everything the
//! real map might hold. The knowledge base grounds over the possible graph, which is sound for
//! rules in which more tunnels only weaken a conclusion (neighbours under `any`, as in the
//! wumpus's wake); warnings are only ever told in visited rooms, whose tunnels are all known.
//!
//! Invariant: every room has exactly [`TUNNELS`] out-tunnels (a map's rule), so a room with that
//! many known out-tunnels is fully known even unvisited.

use crate::cave::map::{CaveMap, TUNNELS};
use crate::topology::{Place, Topology};
use std::sync::Arc;

/// The hunter's knowledge of the map.
#[derive(Clone, Debug)]
pub struct MapKnowledge {
    /// Known out-tunnels of each room: all of them, in tunnel order, for a visited room (or
    /// every room when the map is known); the known ones into visited rooms otherwise.
    outs: Vec<Vec<Place>>,
    /// Known in-tunnels of each room, one entry a tunnel (all of them for a visited room).
    ins: Vec<Vec<Place>>,
    visited: Vec<bool>,
    /// True for the whole map given up front.
    whole: bool,
    /// A room whose tunnels are all known has out- and in-tunnels that differ
    /// ([`MapKnowledge::one_way_seen`]). Knowledge only grows, so once set it stays set.
    one_way: bool,
    /// Bumped each time something is learnt.
    version: u64,
    first_number: usize,
}

impl MapKnowledge {
    /// Knowing only that the cave has `rooms` rooms; `first_number` is how rooms are numbered
    /// to a player (1 on event maps).
    pub fn unknown(rooms: usize, first_number: usize) -> MapKnowledge {
        MapKnowledge {
            outs: vec![Vec::new(); rooms],
            ins: vec![Vec::new(); rooms],
            visited: vec![false; rooms],
            whole: false,
            one_way: false,
            version: 0,
            first_number,
        }
    }

    /// Knowing the whole map.
    pub fn known(map: &CaveMap) -> MapKnowledge {
        MapKnowledge {
            outs: map.rooms().map(|r| map.outs(r).to_vec()).collect(),
            ins: map.rooms().map(|r| map.ins(r).to_vec()).collect(),
            visited: vec![false; map.len()],
            whole: true,
            one_way: map.rooms().any(|r| one_way(map.outs(r), map.ins(r))),
            version: 0,
            first_number: map.first_number(),
        }
    }

    /// The number of rooms.
    pub fn rooms(&self) -> usize {
        self.outs.len()
    }

    /// True when the whole map was given.
    pub fn whole(&self) -> bool {
        self.whole
    }

    /// A counter that changes whenever something is learnt.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// True once the hunter has stood in `room`.
    pub fn visited(&self, room: Place) -> bool {
        self.visited[room.index()]
    }

    /// Learns what standing in `room` shows: where its tunnels lead and which rooms have a
    /// tunnel into it. Returns true when the map knowledge grew.
    pub fn stand_in(&mut self, room: Place, outs: &[Place], ins: &[Place]) -> bool {
        let r = room.index();
        if self.visited[r] {
            return false;
        }
        self.visited[r] = true;
        if self.whole {
            return false;
        }
        self.outs[r] = outs.to_vec();
        self.ins[r] = ins.to_vec();
        self.one_way |= one_way(outs, ins);
        for &to in outs {
            if !self.visited[to.index()] && to != room {
                self.ins[to.index()].push(room);
            }
        }
        for &from in ins {
            if !self.visited[from.index()] {
                self.outs[from.index()].push(room);
            }
        }
        self.version += 1;
        true
    }

    /// True when the out-tunnels a status shows for `room` are not the ones known for it (a
    /// host whose map is not the one given, or that changed its tunnels).
    pub fn contradicts(&self, room: Place, outs: &[Place]) -> bool {
        if !(self.whole || self.visited(room)) {
            return false;
        }
        // The same tunnels, repeats counted, in any order: three at most, so no copies are made
        // (this is asked on every turn).
        let known = self.outs(room);
        let count = |v: &[Place], p: &Place| v.iter().filter(|q| *q == p).count();
        known.len() != outs.len() || known.iter().any(|p| count(known, p) != count(outs, p))
    }

    /// True when every out-tunnel of `room` is known.
    pub fn complete(&self, room: Place) -> bool {
        self.whole || self.visited(room) || self.outs[room.index()].len() >= TUNNELS
    }

    /// True when every tunnel at `room`, either way, is known: the rooms a warning there
    /// speaks of are known.
    pub fn neighbourhood_known(&self, room: Place) -> bool {
        self.whole || self.visited(room)
    }

    /// The known out-tunnels of `room` (all of them when [`MapKnowledge::complete`]), one
    /// entry a tunnel.
    pub fn outs(&self, room: Place) -> &[Place] {
        &self.outs[room.index()]
    }

    /// The known in-tunnels of `room`, one entry a tunnel.
    pub fn ins(&self, room: Place) -> &[Place] {
        &self.ins[room.index()]
    }

    /// How many out-tunnels of `room` lead nobody knows where.
    pub fn unknown_tunnels(&self, room: Place) -> usize {
        if self.complete(room) {
            0
        } else {
            TUNNELS - self.outs[room.index()].len()
        }
    }

    /// True when a tunnel known from both of its ends' rooms goes one way only: some room
    /// whose tunnels are all known has out-tunnels and in-tunnels that differ (with the map
    /// given, any room of the map; while it is discovered, a room the hunter has stood in).
    pub fn one_way_seen(&self) -> bool {
        self.one_way
    }

    /// The rooms an unknown tunnel may lead to: the unvisited ones.
    pub fn unvisited(&self) -> impl Iterator<Item = Place> + '_ {
        (0..self.rooms())
            .filter(|&i| !self.visited[i])
            .map(Place::new)
    }

    /// True when a known tunnel joins `a` and `b`, either way.
    pub fn joined(&self, a: Place, b: Place) -> bool {
        self.outs(a).contains(&b) || self.outs(b).contains(&a)
    }

    /// The rooms joined to `room` by a known tunnel either way, each once.
    pub fn linked(&self, room: Place) -> Vec<Place> {
        let mut v: Vec<Place> = self
            .outs(room)
            .iter()
            .chain(self.ins(room))
            .copied()
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    fn topology(&self, tunnels: &[Vec<usize>]) -> Arc<Topology> {
        let n = self.rooms();
        Arc::new(Topology::cave(
            tunnels,
            self.first_number,
            vec![None; n],
            vec![None; n],
        ))
    }

    /// The graph of the tunnels known to exist.
    pub fn known_topology(&self) -> Arc<Topology> {
        let tunnels: Vec<Vec<usize>> = self
            .outs
            .iter()
            .map(|o| o.iter().map(|p| p.index()).collect())
            .collect();
        self.topology(&tunnels)
    }

    /// The graph of every tunnel the map may hold: the known ones, and from each room with
    /// unknown tunnels, one to every unvisited room.
    pub fn possible_topology(&self) -> Arc<Topology> {
        let unvisited: Vec<usize> = self.unvisited().map(|p| p.index()).collect();
        let tunnels: Vec<Vec<usize>> = (0..self.rooms())
            .map(|i| {
                let mut t: Vec<usize> = self.outs[i].iter().map(|p| p.index()).collect();
                if !self.complete(Place::new(i)) {
                    let extra: Vec<usize> = unvisited
                        .iter()
                        .copied()
                        .filter(|u| !t.contains(u))
                        .collect();
                    t.extend(extra);
                }
                t
            })
            .collect();
        self.topology(&tunnels)
    }
}

/// True when a room's out-tunnels and in-tunnels (all of them, one entry a tunnel) are not the
/// same rooms as often: some tunnel there goes one way only.
fn one_way(outs: &[Place], ins: &[Place]) -> bool {
    let mut outs = outs.to_vec();
    let mut ins = ins.to_vec();
    outs.sort_unstable();
    ins.sort_unstable();
    outs != ins
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::map::parse_map;

    fn p(i: usize) -> Place {
        Place::new(i)
    }

    #[test]
    fn standing_in_rooms_reveals_tunnels_both_ways() {
        let map = parse_map(include_str!("../../../../../worlds/cave-waterslide.txt")).unwrap();
        let mut k = MapKnowledge::unknown(map.len(), 1);
        assert!(!k.complete(p(0)));
        let r = p(1); // room 2: outs 1, 3, 5; ins 1, 3, 17
        assert!(k.stand_in(r, map.outs(r), map.ins(r)));
        assert!(!k.stand_in(r, map.outs(r), map.ins(r)));
        assert!(k.complete(r) && k.neighbourhood_known(r));
        // Room 17 (index 16) has a tunnel into room 2: known, but its others are not.
        assert_eq!(k.outs(p(16)), [r]);
        assert_eq!(k.unknown_tunnels(p(16)), 2);
        assert!(k.joined(p(16), r) && k.joined(r, p(16)));
        assert!(!k.joined(p(16), p(15)));
        let known = k.known_topology();
        assert_eq!(known.linked(r), map.topology().linked(r));
        // The possible graph lets room 17 lead anywhere unvisited, but never back to room 2.
        let possible = k.possible_topology();
        let from17: Vec<Place> = possible.neighbours(p(16)).collect();
        assert!(from17.contains(&p(19)) && from17.contains(&p(16)));
        assert_eq!(from17.iter().filter(|&&x| x == r).count(), 1);
    }

    #[test]
    fn the_whole_map_is_complete_everywhere() {
        let map = parse_map(include_str!("../../../../../worlds/cave-standard.txt")).unwrap();
        let k = MapKnowledge::known(&map);
        assert!(map
            .rooms()
            .all(|r| k.complete(r) && k.neighbourhood_known(r)));
        let t = k.possible_topology();
        for r in map.rooms() {
            assert_eq!(t.linked(r), map.topology().linked(r));
        }
    }

    #[test]
    fn a_one_way_tunnel_is_seen_only_once_a_room_shows_it() {
        let standard = parse_map(include_str!("../../../../../worlds/cave-standard.txt")).unwrap();
        assert!(!MapKnowledge::known(&standard).one_way_seen());
        let slide = parse_map(include_str!("../../../../../worlds/cave-waterslide.txt")).unwrap();
        assert!(MapKnowledge::known(&slide).one_way_seen());
        // Discovering: nothing is seen until the hunter stands in a room that shows it.
        let mut k = MapKnowledge::unknown(standard.len(), 1);
        k.stand_in(p(0), standard.outs(p(0)), standard.ins(p(0)));
        assert!(!k.one_way_seen());
        let mut k = MapKnowledge::unknown(slide.len(), 1);
        assert!(!k.one_way_seen());
        let two = p(1); // room 2: outs 1, 3, 5; ins 1, 3, 17
        k.stand_in(two, slide.outs(two), slide.ins(two));
        assert!(k.one_way_seen());
    }
}
