//! Random cave maps: maps nobody chose a rule or a number on, dealt from a seed. `wumpus world
//! new --rules cave` writes one; the safety tests play the agents on hundreds of them, so that
//! their proofs are checked beyond the event's four maps.
//!
//! A two-way map is a random connected cave of three two-way tunnels a room, none looping back
//! to its own room and no two joining the same pair of rooms: the dodecahedron's kind of map,
//! drawn by pairing the rooms' tunnel ends at random and dealing again until the result is such
//! a cave (the pairing model, which gives every such cave the same chance). A one-way map gives
//! each room three tunnels to three other rooms: one along a random cycle through every room,
//! so that every room reaches every other however large the map, and two to other rooms at
//! random. (Dealing all three at random and again until every room reached every other would
//! never end on large maps: a room nobody leads into is then all but certain.) Both come out
//! as [`CaveMap`]s, in either file format.

use super::map::{CaveMap, MapErrorKind, MapFormat, MAX_ROOMS, TUNNELS};
use rand::seq::SliceRandom;
use rand::Rng;

/// How a random map's tunnels run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tunnels {
    /// Every tunnel goes both ways: three neighbours a room.
    TwoWay,
    /// Each room's three tunnels lead to three other rooms, with no promise of a way back.
    OneWay,
}

/// Why no random map of the asked shape can be dealt.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum RandomMapError {
    /// Three two-way tunnels a room pair up only with an even count of rooms, and need 4.
    #[error(
        "a two-way map of three tunnels a room needs an even room count from 4 to {MAX_ROOMS}, \
         not {0}"
    )]
    TwoWayRooms(usize),
    /// Three tunnels to three other rooms need at least 4 rooms.
    #[error("a one-way map of three tunnels to other rooms needs 4 to {MAX_ROOMS} rooms, not {0}")]
    OneWayRooms(usize),
    /// The map itself was refused (a warning distance of 0).
    #[error(transparent)]
    Map(#[from] MapErrorKind),
}

/// Deals a random map of `rooms` rooms with `tunnels`, the wumpus smelt `warning_distance`
/// tunnels away. In the `caves.dat` format each cave is named `Cave N`, numbered from 0.
pub fn random_map(
    rooms: usize,
    tunnels: Tunnels,
    warning_distance: u32,
    format: MapFormat,
    rng: &mut impl Rng,
) -> Result<CaveMap, RandomMapError> {
    let table = match tunnels {
        Tunnels::TwoWay => {
            if rooms < 4 || rooms % 2 == 1 || rooms > MAX_ROOMS {
                return Err(RandomMapError::TwoWayRooms(rooms));
            }
            two_way(rooms, rng)
        }
        Tunnels::OneWay => {
            if !(4..=MAX_ROOMS).contains(&rooms) {
                return Err(RandomMapError::OneWayRooms(rooms));
            }
            one_way(rooms, rng)
        }
    };
    let names = match format {
        MapFormat::CavesDat => (0..rooms).map(|r| Some(format!("Cave {r}"))).collect(),
        MapFormat::Event => Vec::new(),
    };
    Ok(CaveMap::new(
        &table,
        format,
        warning_distance,
        names,
        Vec::new(),
    )?)
}

/// A connected simple cubic graph by the pairing model: each try pairs the 3n tunnel ends at
/// random and is kept only without loops, doubled tunnels or a split cave. A try is kept about
/// one time in eight (e^-2 for the first two), so the expected work is a few shuffles.
fn two_way(rooms: usize, rng: &mut impl Rng) -> Vec<[usize; TUNNELS]> {
    let mut ends: Vec<usize> = (0..rooms).flat_map(|r| [r; TUNNELS]).collect();
    loop {
        ends.shuffle(rng);
        let mut outs = vec![Vec::with_capacity(TUNNELS); rooms];
        let mut simple = true;
        for pair in ends.chunks(2) {
            let (a, b) = (pair[0], pair[1]);
            if a == b || outs[a].contains(&b) {
                simple = false;
                break;
            }
            outs[a].push(b);
            outs[b].push(a);
        }
        if simple && reaches_all(&outs) {
            return sorted(outs);
        }
    }
}

/// Three distinct other rooms a room: the next room along a random cycle through them all,
/// then two more at random.
fn one_way(rooms: usize, rng: &mut impl Rng) -> Vec<[usize; TUNNELS]> {
    let mut cycle: Vec<usize> = (0..rooms).collect();
    cycle.shuffle(rng);
    let mut outs = vec![Vec::with_capacity(TUNNELS); rooms];
    for (k, &r) in cycle.iter().enumerate() {
        outs[r].push(cycle[(k + 1) % rooms]);
    }
    for (r, picked) in outs.iter_mut().enumerate() {
        while picked.len() < TUNNELS {
            let to = rng.random_range(0..rooms);
            if to != r && !picked.contains(&to) {
                picked.push(to);
            }
        }
    }
    sorted(outs)
}

/// Whether every room is reached from room 0 following `links` (each room's list of rooms).
fn reaches_all(links: &[Vec<usize>]) -> bool {
    let mut seen = vec![false; links.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(r) = stack.pop() {
        for &n in &links[r] {
            if !seen[n] {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    seen.iter().all(|&s| s)
}

/// Each room's tunnels in room order, as the event's maps list them.
fn sorted(outs: Vec<Vec<usize>>) -> Vec<[usize; TUNNELS]> {
    outs.into_iter()
        .map(|mut o| {
            o.sort_unstable();
            [o[0], o[1], o[2]]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::map::{format_map, parse_map};
    use crate::rng::seeded;
    use crate::topology::Place;

    /// An event-format map, the wumpus smelt one tunnel away.
    fn deal(rooms: usize, tunnels: Tunnels, seed: u64) -> CaveMap {
        random_map(rooms, tunnels, 1, MapFormat::Event, &mut seeded(seed)).unwrap()
    }

    #[test]
    fn two_way_maps_are_connected_simple_and_cubic() {
        for seed in 0..200 {
            let rooms = 4 + 2 * (seed as usize % 14);
            let map = deal(rooms, Tunnels::TwoWay, seed);
            for r in map.rooms() {
                let outs = map.outs(r);
                assert!(!outs.contains(&r), "seed {seed}: a loop at {}", r.index());
                for &to in outs {
                    assert!(map.outs(to).contains(&r), "seed {seed}: one-way tunnel");
                    assert_eq!(outs.iter().filter(|&&t| t == to).count(), 1, "doubled");
                }
            }
            let all = map.within(Place::new(0), rooms as u32);
            assert!(all.iter().all(|&b| b), "seed {seed}: a split cave");
        }
    }

    #[test]
    fn one_way_maps_lead_to_three_other_rooms_and_everywhere() {
        for seed in 0..200 {
            let rooms = 4 + seed as usize % 27;
            let map = deal(rooms, Tunnels::OneWay, seed);
            for r in map.rooms() {
                let outs = map.outs(r);
                assert!(!outs.contains(&r));
                assert!(
                    outs[0] < outs[1] && outs[1] < outs[2],
                    "three distinct rooms"
                );
            }
            // Every room reaches room 0 and room 0 every room, following tunnels forward.
            let forward: Vec<Vec<usize>> = map
                .rooms()
                .map(|r| map.outs(r).iter().map(|t| t.index()).collect())
                .collect();
            let mut backward = vec![Vec::new(); rooms];
            for (from, outs) in forward.iter().enumerate() {
                for &to in outs {
                    backward[to].push(from);
                }
            }
            assert!(reaches_all(&forward), "seed {seed}");
            assert!(reaches_all(&backward), "seed {seed}");
        }
    }

    #[test]
    fn large_maps_are_dealt_at_once() {
        // 100,000 rooms: the most a map may have.
        for tunnels in [Tunnels::TwoWay, Tunnels::OneWay] {
            let map = deal(MAX_ROOMS, tunnels, 1);
            assert_eq!(map.len(), MAX_ROOMS);
        }
    }

    #[test]
    fn a_seed_deals_one_map_and_it_reads_back() {
        let deal = |seed| {
            let map = random_map(20, Tunnels::TwoWay, 1, MapFormat::Event, &mut seeded(seed));
            format_map(&map.unwrap())
        };
        assert_eq!(deal(3), deal(3));
        assert_ne!(deal(3), deal(4));
        let again = parse_map(&deal(3)).unwrap();
        assert_eq!(format_map(&again), deal(3));
        let dat = random_map(8, Tunnels::OneWay, 1, MapFormat::CavesDat, &mut seeded(1)).unwrap();
        let text = format_map(&dat);
        assert!(text.contains("Cave 7"), "{text}");
        assert_eq!(format_map(&parse_map(&text).unwrap()), text);
    }

    #[test]
    fn impossible_shapes_are_refused() {
        let deal = |rooms, tunnels| {
            random_map(rooms, tunnels, 1, MapFormat::Event, &mut seeded(0)).map(|_| ())
        };
        assert_eq!(
            deal(21, Tunnels::TwoWay),
            Err(RandomMapError::TwoWayRooms(21))
        );
        assert_eq!(
            deal(2, Tunnels::TwoWay),
            Err(RandomMapError::TwoWayRooms(2))
        );
        assert_eq!(
            deal(3, Tunnels::OneWay),
            Err(RandomMapError::OneWayRooms(3))
        );
        assert!(deal(5, Tunnels::OneWay).is_ok());
        let zero = random_map(20, Tunnels::TwoWay, 0, MapFormat::Event, &mut seeded(0));
        assert!(matches!(zero, Err(RandomMapError::Map(_))));
    }
}
