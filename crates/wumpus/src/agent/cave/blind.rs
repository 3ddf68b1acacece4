//! Arrows into tunnels nobody has seen yet, for a cave being discovered as the hunter goes.
//!
//! Arrows aimed along known tunnels reach only one room past where the hunter has stood, and
//! while it smelt nothing there, those rooms cannot hold the wumpus: it is further in. But an
//! arrow told a room its own room is not joined to flies down a random tunnel instead, so a
//! path can go on past the known tunnels. This module plans such a path (a known prefix, then
//! rooms named in the dark) and estimates its chance of a kill under the agent's model of the
//! unknown map: each unknown tunnel end leads to any unvisited room alike, the same assumption
//! the odds make ([`super::layouts`]). Two rules ask for the best such path ([`blind_shot`]);
//! every other arrow along known tunnels asks for a tail to its own path ([`with_tail`]), so
//! it flies on instead of stopping where the known tunnels end.
//!
//! Invariant: the arrow can never come back into the hunter's room, whatever the real map is.
//! The hunter has stood in its room, so every tunnel at that room is known; a random flight
//! from a room enters the hunter's room only through one of them, and the tunnels that touch a
//! visited room are all known. The planner keeps every room the arrow may be in after each
//! named room (the *support* of `Flight::after`, never smaller than the truth) and names a
//! room only when the hunter's room stays outside it. `tests` check this against every random
//! flight on the real map.

use super::map::MapKnowledge;
use crate::cave::classic::MAX_ARROW_ROOMS;
use crate::cave::map::TUNNELS;
use crate::planner;
use crate::topology::{Place, Topology};

/// A path with a tail through unseen tunnels.
#[derive(Clone, Debug, PartialEq)]
pub struct BlindShot {
    /// The rooms named, the known prefix first.
    pub path: Vec<Place>,
    /// How many of them are reached by known tunnels: a miss proves the wumpus was not in
    /// these (the rest may have been flown through or not).
    pub known: usize,
    /// The estimated chance of a kill.
    pub chance: f64,
}

/// The best path from `here` whose tail flies through unseen tunnels, by estimated chance of a
/// kill when the wumpus is in each room with the chances `wumpus`; `None` when no path can
/// go past the known tunnels without risking the hunter (or the map is known).
pub fn blind_shot(
    map: &MapKnowledge,
    known: &Topology,
    here: Place,
    wumpus: &[f64],
) -> Option<BlindShot> {
    if map.whole() {
        return None;
    }
    let flight = Flight::new(map);
    let mut best: Option<BlindShot> = None;
    for prefix in planner::arrow_paths(known, here, MAX_ARROW_ROOMS - 1) {
        if let Some(shot) = flight.with_tail(here, &prefix, wumpus) {
            if best.as_ref().is_none_or(|b| shot.chance > b.chance + 1e-12) {
                best = Some(shot);
            }
        }
    }
    best
}

/// `path`, a shot along known tunnels from `here`, flown on past them as far as it safely can
/// ([`blind_shot`]'s tail); `None` when it cannot go on (the map is known, it is already 5
/// rooms long, a room of it is not reached by known tunnels, or it ends in a visited room or
/// one next to the hunter).
pub fn with_tail(
    map: &MapKnowledge,
    here: Place,
    path: &[Place],
    wumpus: &[f64],
) -> Option<BlindShot> {
    if map.whole() || path.len() >= MAX_ARROW_ROOMS {
        return None;
    }
    // The tail is planned from the room the known tunnels surely bring the arrow to: a path
    // that already flies through the dark (a blind shot) has no such room.
    let mut at = here;
    for &room in path {
        if !map.joined(at, room) {
            return None;
        }
        at = room;
    }
    Flight::new(map).with_tail(here, path, wumpus)
}

/// Where an arrow may fly on a map partly known.
struct Flight<'a> {
    map: &'a MapKnowledge,
    unvisited: Vec<Place>,
}

/// The weight given to a room's unknown tunnel ends when the counts say there are none: a
/// room no one has stood in may still have tunnels into it from other unvisited rooms (maps
/// need not give every room three ways in), so they are never ruled out.
const UNCOUNTED_ENDS: f64 = 0.01;

/// The largest chance given to an unknown tunnel joining two unvisited rooms, so that the
/// random flight it would replace is never ruled out.
const MAX_JOIN_CHANCE: f64 = 0.95;

impl<'a> Flight<'a> {
    fn new(map: &'a MapKnowledge) -> Flight<'a> {
        Flight {
            map,
            unvisited: map.unvisited().collect(),
        }
    }

    /// `prefix` with the best tail the planner finds, if any room can be named past it.
    fn with_tail(&self, here: Place, prefix: &[Place], wumpus: &[f64]) -> Option<BlindShot> {
        let last = *prefix.last()?;
        // From a visited room every tunnel is known (the prefixes already hold them); from a
        // room next to the hunter a random flight could come straight back.
        if self.map.visited(last) || self.map.joined(last, here) {
            return None;
        }
        let mut left = wumpus.to_vec();
        let mut chance = 0.0;
        for r in prefix {
            chance += left[r.index()];
            left[r.index()] = 0.0;
        }
        let mut at = vec![0.0; wumpus.len()];
        at[last.index()] = 1.0;
        let mut path = prefix.to_vec();
        while path.len() < MAX_ARROW_ROOMS {
            let two_back = if path.len() >= 2 {
                path[path.len() - 2]
            } else {
                here
            };
            let Some((gain, named, next)) = self.best_named(&at, here, two_back, &left) else {
                break;
            };
            chance += gain;
            path.push(named);
            at = next;
        }
        (path.len() > prefix.len()).then(|| BlindShot {
            known: prefix.len(),
            chance: chance.min(1.0),
            path,
        })
    }

    /// How many of `room`'s tunnel ends (out and in) are unknown, as the model counts them:
    /// three ways out and, on average, three ways in.
    fn unknown_ends(&self, room: Place) -> f64 {
        if self.map.visited(room) {
            return 0.0;
        }
        let outs = self.map.unknown_tunnels(room);
        let ins = TUNNELS.saturating_sub(self.map.ins(room).len());
        match outs + ins {
            0 => UNCOUNTED_ENDS,
            n => n as f64,
        }
    }

    /// Where a random flight from `room` goes: a known tunnel end each, and the unknown ends
    /// spread over the unvisited rooms (the room itself included: a tunnel may loop).
    fn ends(&self, room: Place) -> Vec<(Place, f64)> {
        let known = self.map.outs(room).len() + self.map.ins(room).len();
        let unknown = self.unknown_ends(room);
        let total = known as f64 + unknown;
        let mut ends: Vec<(Place, f64)> = self
            .map
            .outs(room)
            .iter()
            .chain(self.map.ins(room))
            .map(|&r| (r, 1.0 / total))
            .collect();
        if unknown > 0.0 && !self.unvisited.is_empty() {
            let each = unknown / total / self.unvisited.len() as f64;
            ends.extend(self.unvisited.iter().map(|&r| (r, each)));
        }
        ends
    }

    /// The chance that a tunnel joins `a` and `b` either way: 1 for a known one; for two
    /// unvisited rooms, the chance that an unknown tunnel out of one leads to the other; else
    /// 0 (a tunnel touching a visited room, or out of a room whose ways out are all known,
    /// would be known).
    fn join_chance(&self, a: Place, b: Place) -> f64 {
        if self.map.joined(a, b) {
            1.0
        } else if self.map.visited(a) || self.map.visited(b) {
            0.0
        } else {
            let n = self.unvisited.len().max(1) as f64;
            let tunnels = (self.map.unknown_tunnels(a) + self.map.unknown_tunnels(b)) as f64;
            (1.0 - (1.0 - 1.0 / n).powf(tunnels)).min(MAX_JOIN_CHANCE)
        }
    }

    /// Where the arrow is after being told `named`, from where it was (`at`, chances by room).
    /// Every room it may really be in has a chance above 0. `ends` is `ends_from(at)`.
    fn after(&self, at: &[f64], named: Place, ends: &[Vec<(Place, f64)>]) -> Vec<f64> {
        let mut next = vec![0.0; at.len()];
        for (i, &p) in at.iter().enumerate() {
            if p == 0.0 {
                continue;
            }
            let join = self.join_chance(Place::new(i), named);
            next[named.index()] += p * join;
            if join < 1.0 {
                for &(r, w) in &ends[i] {
                    next[r.index()] += p * (1.0 - join) * w;
                }
            }
        }
        next
    }

    /// `ends` of every room the arrow may be in (`at` above 0), empty for the rest:
    /// made once a step, for scoring every room that might be named and for the flight on.
    fn ends_from(&self, at: &[f64]) -> Vec<Vec<(Place, f64)>> {
        at.iter()
            .enumerate()
            .map(|(i, &p)| {
                if p == 0.0 {
                    Vec::new()
                } else {
                    self.ends(Place::new(i))
                }
            })
            .collect()
    }

    /// The room to name next: the one with the best chance of a kill on this step (`wumpus`:
    /// its chances by room) among those that keep the arrow out of `here`, never `here` itself
    /// nor `two_back` (the arrow may not double back). Returns the chance, the room and where
    /// the arrow then is.
    fn best_named(
        &self,
        at: &[f64],
        here: Place,
        two_back: Place,
        wumpus: &[f64],
    ) -> Option<(f64, Place, Vec<f64>)> {
        // Rooms the arrow may be in from which a random flight could reach the hunter: the
        // named room must be joined to each of them by a known tunnel.
        let near_hunter: Vec<Place> = (0..at.len())
            .map(Place::new)
            .filter(|&r| at[r.index()] > 0.0 && self.map.joined(r, here))
            .collect();
        let ends = self.ends_from(at);
        let mut random = vec![0.0; at.len()];
        let mut end_value = vec![0.0; at.len()];
        for (i, &p) in at.iter().enumerate() {
            for &(r, w) in &ends[i] {
                random[r.index()] += p * w;
                end_value[i] += w * wumpus[r.index()];
            }
        }
        let base: f64 = random.iter().zip(wumpus).map(|(a, w)| a * w).sum();
        let mut best: Option<(f64, Place)> = None;
        for x in (0..at.len()).map(Place::new) {
            if x == here || x == two_back || near_hunter.iter().any(|&r| !self.map.joined(r, x)) {
                continue;
            }
            let mut gain = base;
            for (i, &p) in at.iter().enumerate() {
                if p > 0.0 {
                    let join = self.join_chance(Place::new(i), x);
                    gain += p * join * (wumpus[x.index()] - end_value[i]);
                }
            }
            if best.is_none_or(|(g, _)| gain > g + 1e-12) {
                best = Some((gain, x));
            }
        }
        let (gain, named) = best?;
        Some((gain, named, self.after(at, named, &ends)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::map::{parse_map, CaveMap};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Every room an arrow told `path` from `here` can really reach on `map`, step by step,
    /// following the game's rule: the named room when joined either way, else any tunnel end.
    fn real_support(map: &CaveMap, here: Place, path: &[Place]) -> Vec<Vec<bool>> {
        let mut at = vec![false; map.len()];
        at[here.index()] = true;
        let mut steps = Vec::new();
        for &named in path {
            let mut next = vec![false; map.len()];
            for from in map.rooms().filter(|r| at[r.index()]) {
                if map.joined(from, named) {
                    next[named.index()] = true;
                } else {
                    for &r in map.outs(from).iter().chain(map.ins(from)) {
                        next[r.index()] = true;
                    }
                }
            }
            steps.push(next.clone());
            at = next;
        }
        steps
    }

    /// Walks a random route through `map` from a random room, learning as the hunter does.
    fn explore(map: &CaveMap, rng: &mut ChaCha8Rng, steps: usize) -> (MapKnowledge, Place) {
        let mut k = MapKnowledge::unknown(map.len(), 1);
        let mut here = Place::new(rng.random_range(0..map.len()));
        for _ in 0..steps {
            k.stand_in(here, map.outs(here), map.ins(here));
            let outs = map.outs(here);
            here = outs[rng.random_range(0..outs.len())];
        }
        k.stand_in(here, map.outs(here), map.ins(here));
        (k, here)
    }

    /// `path` from `here` is a legal crooked path that can never fly back into `here`, and
    /// the planner's model of the flight covers every room the arrow can really reach.
    fn assert_flies_safely(map: &CaveMap, k: &MapKnowledge, here: Place, path: &[Place]) {
        assert!(!path.contains(&here));
        let crooked = std::iter::once(here)
            .chain(path.iter().copied())
            .collect::<Vec<_>>();
        assert!(crooked.windows(3).all(|w| w[0] != w[2]), "doubles back");
        let flight = Flight::new(k);
        let mut at = vec![0.0; map.len()];
        at[here.index()] = 1.0;
        for (step, real) in real_support(map, here, path).iter().enumerate() {
            at = flight.after(&at, path[step], &flight.ends_from(&at));
            assert!(!real[here.index()], "the arrow can fly back: {path:?}");
            for r in map.rooms() {
                assert!(
                    !real[r.index()] || at[r.index()] > 0.0,
                    "room {} reachable but not in the model",
                    r.index()
                );
            }
            let mass: f64 = at.iter().sum();
            assert!((mass - 1.0).abs() < 1e-9, "the arrow is somewhere: {mass}");
        }
    }

    #[test]
    fn a_blind_arrow_never_comes_back_and_its_model_covers_every_real_flight() {
        let maps = [
            include_str!("../../../../../worlds/cave-standard.txt"),
            include_str!("../../../../../worlds/cave-waterslide.txt"),
            include_str!("../../../../../worlds/cave-mobius.txt"),
            include_str!("../../../../../worlds/cave-risk.txt"),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut shots = 0;
        for text in maps {
            let map = parse_map(text).unwrap();
            for trial in 0..400 {
                let (k, here) = explore(&map, &mut rng, trial % 6);
                let known = k.known_topology();
                // A wumpus anywhere not yet visited, so that the tail is worth planning.
                let mut wumpus: Vec<f64> = map
                    .rooms()
                    .map(|r| {
                        if k.visited(r) {
                            0.0
                        } else {
                            rng.random::<f64>()
                        }
                    })
                    .collect();
                let sum: f64 = wumpus.iter().sum();
                wumpus.iter_mut().for_each(|w| *w /= sum);
                let Some(shot) = blind_shot(&k, &known, here, &wumpus) else {
                    continue;
                };
                shots += 1;
                assert!(shot.known >= 1 && shot.known < shot.path.len());
                assert_flies_safely(&map, &k, here, &shot.path);
                // Flown through the dark already: no tail is planned on top of it.
                if shot.path.windows(2).any(|w| !k.joined(w[0], w[1])) {
                    assert_eq!(with_tail(&k, here, &shot.path, &wumpus), None);
                }
            }
        }
        assert!(shots > 500, "blind shots were planned {shots} times");
    }

    #[test]
    fn nothing_is_aimed_blind_on_a_known_map() {
        let map = parse_map(include_str!("../../../../../worlds/cave-standard.txt")).unwrap();
        let k = MapKnowledge::known(&map);
        let wumpus = vec![1.0 / 20.0; 20];
        assert_eq!(
            blind_shot(&k, &k.known_topology(), Place::new(0), &wumpus),
            None
        );
    }

    #[test]
    fn a_known_path_flies_on_only_where_it_cannot_come_back() {
        let maps = [
            include_str!("../../../../../worlds/cave-standard.txt"),
            include_str!("../../../../../worlds/cave-waterslide.txt"),
            include_str!("../../../../../worlds/cave-risk.txt"),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut tails, mut stops) = (0, 0);
        for text in maps {
            let map = parse_map(text).unwrap();
            for trial in 0..150 {
                let (k, here) = explore(&map, &mut rng, trial % 6);
                let known = k.known_topology();
                let wumpus: Vec<f64> = vec![1.0 / map.len() as f64; map.len()];
                for path in planner::arrow_paths(&known, here, MAX_ARROW_ROOMS) {
                    let Some(shot) = with_tail(&k, here, &path, &wumpus) else {
                        stops += 1;
                        continue;
                    };
                    tails += 1;
                    assert_eq!(shot.path[..path.len()], path[..]);
                    assert_eq!(shot.known, path.len());
                    assert!(shot.path.len() > path.len() && shot.path.len() <= MAX_ARROW_ROOMS);
                    let last = path[path.len() - 1];
                    assert!(!k.visited(last) && !k.joined(last, here));
                    assert_flies_safely(&map, &k, here, &shot.path);
                }
            }
        }
        assert!(tails > 1000 && stops > 1000, "{tails} tails, {stops} stops");
        let k = MapKnowledge::known(&parse_map(maps[0]).unwrap());
        let path = [Place::new(1), Place::new(2)];
        assert_eq!(with_tail(&k, Place::new(0), &path, &[0.05; 20]), None);
    }
}
