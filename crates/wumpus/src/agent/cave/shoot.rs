//! How much shooting from a room is worth in the classic cave: the arrow to shoot and the
//! expected score of shooting on from there, by an exact look-ahead over the wumpus's
//! whereabouts.
//!
//! The agent's rules ([`super`], rules 1 to 3 and 6) ask this module for the best arrow from
//! the hunter's room and for its worth: a first arrow weighed among every path worth weighing,
//! then after each miss (the wumpus wakes, may walk in, and is smelt or not) the path with the
//! best chance again, until the arrows run out. While the map is being discovered, each first
//! arrow's worth also counts the tail it flies on with past the known tunnels
//! ([`super::blind::with_tail`]), at a share of its estimated chance. The step look-ahead ([`super::steps`]) and the
//! rollouts ([`super::rollout`]) ask the same question from other rooms. It reads the odds
//! ([`super::layouts`]) and the known tunnels; it decides nothing itself.

use super::layouts::{wake_moves, Odds};
use super::map::MapKnowledge;
use crate::cave::classic::MAX_ARROW_ROOMS;
use crate::planner;
use crate::topology::{Place, Topology};
use std::cell::RefCell;

/// The best arrow from a room, and the worth of shooting from there on.
#[derive(Clone, Debug)]
pub(super) struct Shot {
    pub(super) path: Vec<Place>,
    pub(super) chance: f64,
    pub(super) eaten: f64,
    /// The expected score of shooting from here on (this arrow, then the best after each miss).
    pub(super) value: f64,
}

/// What shooting from a room has to spend, and what it plays for.
#[derive(Clone, Copy, Debug)]
pub(super) struct Stakes {
    /// Arrows left.
    pub(super) arrows: u8,
    /// Points for a kill now (`100 − moves`, less any walk to the room).
    pub(super) full: f64,
    /// What walking on is worth after a miss, as a share of `full`: after each miss the
    /// look-ahead takes the better of shooting on and this. 0 where walking on after a miss
    /// is not weighed (the map being discovered: see `CaveAgent::walk_on_after_miss`).
    pub(super) walk_on: f64,
    /// On a map being discovered, the share of a tail's estimated chance of a kill that the
    /// first arrow is weighed by ([`super::Policy::tail_trust`]): a path along known tunnels
    /// that ends in an unvisited room not next to the hunter flies on past them
    /// ([`super::blind::with_tail`]). 0 leaves tails out of the worth.
    pub(super) tail_trust: f64,
}

/// How deep [`best_shot`] weighs every path worth weighing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Weighing {
    /// The first arrow among every path, the best chance after each miss: the worth the
    /// rules decide by (rules 3 and 6, and every room they weigh).
    FirstArrow,
    /// Every path for the second arrow too, after each miss of the first (later arrows still
    /// take the best chance): the arrow shot with the map known, once a rule has decided to
    /// shoot. The rules decide *whether* to shoot by [`Weighing::FirstArrow`]'s worth, for
    /// which their shares were chosen; this only chooses *which* arrow. It costs a scan of
    /// the paths for each path, too much for every room the rules weigh but not for the few
    /// arrows a game shoots; past [`AIM_WORK`] the arrow is [`Weighing::FirstArrow`]'s.
    FirstTwoArrows,
}

/// The best arrow from `here` and the value of shooting from here on: the path worth most
/// (weighed among every path worth weighing, as deep as `weighing` says), and the expected
/// score of shooting it and, after each miss, the better of walking on and the path with the
/// best chance again, for a kill worth `stakes.full` points. After a miss the wumpus wakes
/// (it may walk in and eat the hunter); the hunter then smells it in `near` or not, and aims
/// by what it smelt.
pub(super) fn best_shot(
    known: &Topology,
    here: Place,
    odds: &Odds,
    map: &MapKnowledge,
    near: &[Place],
    stakes: Stakes,
    weighing: Weighing,
) -> Option<Shot> {
    let paths = uncovered(
        planner::arrow_paths(known, here, MAX_ARROW_ROOMS),
        known.len(),
    );
    if paths.is_empty() {
        return None;
    }
    let n = odds.wumpus.len();
    let moves: Vec<Vec<(Place, f64)>> = (0..n).map(|x| wake_moves(map, Place::new(x))).collect();
    let mut smell = vec![false; n];
    for r in near {
        smell[r.index()] = true;
    }
    let look = Lookahead {
        paths: &paths,
        moves: &moves,
        smell: &smell,
        here,
        full: stakes.full,
        walk_on: stakes.walk_on * stakes.full,
        scratch: RefCell::new(Vec::new()),
    };
    // The first arrows worth weighing are listed once, for the work bound and the weighing.
    let firsts = worth_weighing(&paths, &odds.wumpus);
    let deeper = u8::from(
        weighing == Weighing::FirstTwoArrows
            && stakes.arrows > 2
            && paths.len() * firsts.len() <= AIM_WORK,
    );
    let (value, index) = if stakes.tail_trust > 0.0 && !map.whole() {
        // Each first arrow also flies on past the known tunnels where it safely can.
        let tails = Tails {
            map,
            here,
            wumpus: &odds.wumpus,
            trust: stakes.tail_trust,
            full: stakes.full,
        };
        let mut best = (-1.0, 0usize);
        for (index, chance) in firsts {
            let v = look.value_of(&odds.wumpus, stakes.arrows, index, chance, deeper);
            let v = tails.with_tail(&paths[index], chance, v);
            if v > best.0 + 1e-9 {
                best = (v, index);
            }
        }
        best
    } else {
        look.value_over(firsts, &odds.wumpus, stakes.arrows, deeper)
    };
    let path = paths[index].clone();
    Some(Shot {
        chance: odds.kill_chance(&path),
        eaten: odds.eaten_after_miss(&path, here, map),
        value,
        path,
    })
}

/// What a first arrow's tail past the known tunnels adds to its worth.
struct Tails<'a> {
    map: &'a MapKnowledge,
    here: Place,
    wumpus: &'a [f64],
    trust: f64,
    full: f64,
}

impl Tails<'_> {
    /// The worth of shooting `path` (chance `chance` along known tunnels, worth `value` with
    /// no tail) when it flies on into tunnels not yet seen: the tail's estimated chance, times
    /// `trust`, is a kill more, and the arrows after a miss are weighed as before but only for
    /// the misses left. (The look-ahead's later arrows and its beliefs after a miss leave the
    /// tail out: a miss proves nothing about the rooms it may have flown through.)
    fn with_tail(&self, path: &[Place], chance: f64, value: f64) -> f64 {
        let Some(tail) = super::blind::with_tail(self.map, self.here, path, self.wumpus) else {
            return value;
        };
        worth_with_tail(chance, tail.chance - chance, self.trust, self.full, value)
    }
}

/// [`Tails::with_tail`]'s sum: a path with chance `chance` along known tunnels, worth `value`
/// without its tail, whose tail adds an estimated `tail` chance of a kill counted at `trust`,
/// for a kill worth `full`.
fn worth_with_tail(chance: f64, tail: f64, trust: f64, full: f64, value: f64) -> f64 {
    let miss = 1.0 - chance;
    if miss < 1e-9 {
        return value;
    }
    let extra = (tail * trust).clamp(0.0, miss);
    let after_miss = value - chance * full;
    (chance + extra) * full + after_miss * (miss - extra) / miss
}

/// `paths` without those whose rooms an earlier path all flies through. The look-ahead never
/// takes such a path: the earlier one is at least as likely to kill whatever the odds, and of
/// equal chances the earlier path is taken. So dropping them changes no decision, and on a
/// map with one-way tunnels (six tunnel ends a room) it leaves far fewer to scan.
fn uncovered(paths: Vec<Vec<Place>>, rooms: usize) -> Vec<Vec<Place>> {
    let mut kept: Vec<Vec<Place>> = Vec::new();
    let mut kept_sets: Vec<RoomSet> = Vec::new();
    for path in paths {
        let set = RoomSet::of(&path, rooms, |_| true);
        // Checking the kept paths is enough: a dropped path's rooms lie within a kept one's.
        if !kept_sets.iter().any(|k| set.within(k)) {
            kept.push(path);
            kept_sets.push(set);
        }
    }
    kept
}

/// The arrow paths worth weighing (indices into `paths`) where the wumpus is in each room
/// with the chances `belief`, with each one's chance of a kill now: one path (the first) for
/// each set of rooms the wumpus may be in that a path flies through (paths with the same set
/// are worth the same), and none whose set lies within another's. Such a path is never
/// better: the larger set kills whenever it would, the wumpus wakes the same way after both
/// misses, and the larger set's miss tells more.
pub fn worth_weighing(paths: &[Vec<Place>], belief: &[f64]) -> Vec<(usize, f64)> {
    let mut sets: Vec<(RoomSet, usize)> = Vec::new();
    for (index, path) in paths.iter().enumerate() {
        let set = RoomSet::of(path, belief.len(), |r| belief[r] > 0.0);
        if !sets.iter().any(|(s, _)| *s == set) {
            sets.push((set, index));
        }
    }
    sets.iter()
        .filter(|(a, _)| !sets.iter().any(|(b, _)| a != b && a.within(b)))
        .map(|(set, index)| (*index, set.rooms().map(|r| belief[r]).sum()))
        .collect()
}

/// The most work [`Weighing::FirstTwoArrows`] takes on: the paths from the hunter's room times the first
/// arrows worth weighing. Each first arrow scans the paths again for the second, so the work
/// grows with the square of the paths: on two-way maps of 20 rooms (65 paths or fewer on the
/// event maps) it is at most 2,535 and always done; where tunnels go one way (six tunnel
/// ends a room, waterslide's 262 paths and more) it is mostly over, and the arrow is chosen
/// as [`Weighing::FirstArrow`] chooses it.
const AIM_WORK: usize = 4_000;

/// A set of rooms as bits, for the path comparisons above.
#[derive(Clone, PartialEq, Eq)]
struct RoomSet(Vec<u64>);

impl RoomSet {
    /// The rooms of `path` that `keep` keeps, on a map of `rooms` rooms.
    fn of(path: &[Place], rooms: usize, keep: impl Fn(usize) -> bool) -> RoomSet {
        let mut bits = vec![0u64; rooms.div_ceil(64)];
        for r in path.iter().map(|r| r.index()).filter(|&r| keep(r)) {
            bits[r / 64] |= 1 << (r % 64);
        }
        RoomSet(bits)
    }

    /// Every room of this set is in `other` too.
    fn within(&self, other: &RoomSet) -> bool {
        self.0.iter().zip(&other.0).all(|(s, o)| s & !o == 0)
    }

    /// The rooms, in order.
    fn rooms(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            (0..64)
                .filter(move |b| bits >> b & 1 == 1)
                .map(move |b| w * 64 + b)
        })
    }
}

/// The shoot-from-here lookahead over the wumpus's whereabouts.
struct Lookahead<'a> {
    paths: &'a [Vec<Place>],
    moves: &'a [Vec<(Place, f64)>],
    smell: &'a [bool],
    here: Place,
    full: f64,
    /// Walking on after a miss, in points.
    walk_on: f64,
    /// Spare belief vectors, so that the look-ahead's nodes do not allocate their own.
    scratch: RefCell<Vec<Vec<f64>>>,
}

impl Lookahead<'_> {
    /// A zeroed belief vector of `n` rooms, from the spares if there is one.
    fn take(&self, n: usize) -> Vec<f64> {
        let mut v = self.scratch.borrow_mut().pop().unwrap_or_default();
        v.clear();
        v.resize(n, 0.0);
        v
    }

    /// Back to the spares.
    fn give(&self, v: Vec<f64>) {
        self.scratch.borrow_mut().push(v);
    }

    /// The expected score of shooting with `arrows` arrows when the wumpus is in each room
    /// with the chances `belief` (summing to 1), taking the path with the best chance of a
    /// kill each time (or, after a miss, walking on when that is worth more), and that path.
    fn value(&self, belief: &[f64], arrows: u8) -> (f64, usize) {
        // The one best path: a scan, not a sort (this runs at every node of the look-ahead).
        // Strictly better only, so the earliest of equal chances wins.
        let mut best: Option<(usize, f64)> = None;
        for (i, path) in self.paths.iter().enumerate() {
            let chance = path.iter().map(|r| belief[r.index()]).sum::<f64>();
            if best.is_none_or(|(_, b)| chance > b) {
                best = Some((i, chance));
            }
        }
        let Some((index, chance)) = best else {
            return (-1.0, 0);
        };
        (self.value_of(belief, arrows, index, chance, 0), index)
    }

    /// The best value over every path worth weighing as the first arrow (later arrows take
    /// the single best path), and the path that gives it.
    ///
    /// The first arrow is weighed by what it leaves behind as well as by what it hits: a path
    /// with a smaller chance now may leave the woken wumpus where the next arrows reach it
    /// (`examples/first_arrows.rs` measures it against the best possible).
    ///
    /// With `deeper` above 0 the arrows after a miss are weighed the same way, `deeper`
    /// arrows on (each level a scan of the paths for every path).
    fn value_first(&self, belief: &[f64], arrows: u8, deeper: u8) -> (f64, usize) {
        self.value_over(worth_weighing(self.paths, belief), belief, arrows, deeper)
    }

    /// [`Lookahead::value_first`] over `firsts`, the paths worth weighing already listed.
    fn value_over(
        &self,
        firsts: Vec<(usize, f64)>,
        belief: &[f64],
        arrows: u8,
        deeper: u8,
    ) -> (f64, usize) {
        let mut best = (-1.0, 0usize);
        for (index, chance) in firsts {
            let v = self.value_of(belief, arrows, index, chance, deeper);
            if v > best.0 + 1e-9 {
                best = (v, index);
            }
        }
        best
    }

    /// The value of shooting path `index` (kill chance `chance`) first, then after each miss
    /// the better of walking on and the best path again (every path worth weighing, while
    /// `deeper` is above 0).
    ///
    /// Walking on after a miss is the option a player always has, and the rules take it
    /// (rules 3 and 6) when shooting on is worth less. Leaving it out undervalued arrows whose
    /// miss leaves later ones little chance; it is taken in at the share rule 6 gives walking
    /// on, times the chance of surviving the next step.
    fn value_of(&self, belief: &[f64], arrows: u8, index: usize, chance: f64, deeper: u8) -> f64 {
        let mut value = chance * self.full;
        if arrows > 1 && chance < 1.0 - 1e-12 {
            let path = &self.paths[index];
            let n = belief.len();
            let mut woken = self.take(n);
            for (w, &b) in belief.iter().enumerate() {
                if b == 0.0 || path.contains(&Place::new(w)) {
                    continue;
                }
                for &(to, c) in &self.moves[w] {
                    woken[to.index()] += b * c;
                }
            }
            woken[self.here.index()] = 0.0;
            let mut part = self.take(n);
            for smelt in [true, false] {
                for ((p, &b), &s) in part.iter_mut().zip(&woken).zip(self.smell) {
                    *p = if s == smelt { b } else { 0.0 };
                }
                let mass: f64 = part.iter().sum();
                if mass > 1e-12 {
                    for p in part.iter_mut() {
                        *p /= mass;
                    }
                    let shoot_on = if deeper > 0 {
                        self.value_first(&part, arrows - 1, deeper - 1).0
                    } else {
                        self.value(&part, arrows - 1).0
                    };
                    value += mass * shoot_on.max(self.walk_on);
                }
            }
            self.give(woken);
            self.give(part);
        }
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rooms(list: &[usize]) -> Vec<Place> {
        list.iter().map(|&r| Place::new(r)).collect()
    }

    #[test]
    fn only_paths_whose_rooms_no_other_path_covers_are_weighed() {
        // The wumpus may be in rooms 2, 3 and 4 only (room 1 is next door and was not smelt).
        let belief = [0.0, 0.0, 0.5, 0.3, 0.2];
        let paths = vec![
            rooms(&[1, 2]),    // {2}: within {2, 3}
            rooms(&[1, 2, 3]), // {2, 3}
            rooms(&[1, 3, 2]), // {2, 3} again: the first path with that set stands for it
            rooms(&[1, 4]),    // {4}: no other path covers it
            rooms(&[1]),       // {}: within every other
        ];
        let weighed = worth_weighing(&paths, &belief);
        assert_eq!(weighed.len(), 2, "{weighed:?}");
        assert_eq!(weighed[0].0, 1);
        assert!((weighed[0].1 - 0.8).abs() < 1e-12);
        assert_eq!(weighed[1].0, 3);
        assert!((weighed[1].1 - 0.2).abs() < 1e-12);
    }

    #[test]
    fn paths_an_earlier_path_covers_are_not_scanned() {
        let paths = vec![
            rooms(&[1, 2]),
            rooms(&[2, 1]),    // the same rooms as an earlier path
            rooms(&[1, 2, 3]), // covers the first, but comes later: kept
            rooms(&[3]),       // within the one before
            rooms(&[4]),
        ];
        let kept = uncovered(paths, 5);
        assert_eq!(kept, vec![rooms(&[1, 2]), rooms(&[1, 2, 3]), rooms(&[4])]);
    }

    #[test]
    fn after_a_miss_walking_on_is_taken_when_shooting_on_is_worth_less() {
        // The hunter in room 0 can shoot rooms 1 and 2; the wumpus is in one of them, alike.
        // Woken, it always walks on to room 3, which no arrow reaches: after a miss shooting
        // on is worth nothing, and only walking on is worth anything.
        let paths = vec![rooms(&[1]), rooms(&[2])];
        let to_3 = vec![(Place::new(3), 1.0)];
        let moves = vec![Vec::new(), to_3.clone(), to_3, Vec::new()];
        let smell = [false; 4];
        let belief = [0.0, 0.5, 0.5, 0.0];
        let look = |walk_on: f64| Lookahead {
            paths: &paths,
            moves: &moves,
            smell: &smell,
            here: Place::new(0),
            full: 100.0,
            walk_on,
            scratch: RefCell::new(Vec::new()),
        };
        let (shooting_on, _) = look(0.0).value_first(&belief, 3, 0);
        assert!((shooting_on - 50.0).abs() < 1e-9, "{shooting_on}");
        let (walking_on, _) = look(70.0).value_first(&belief, 3, 0);
        assert!(
            (walking_on - (50.0 + 0.5 * 70.0)).abs() < 1e-9,
            "{walking_on}"
        );
    }

    #[test]
    fn aiming_two_arrows_deep_takes_the_arrow_that_sets_up_the_last() {
        // Three arrows; the wumpus is in room 8 or 9, alike. Missed in room 9 it wakes to
        // room 4 (55%) or 6 (45%): from 4 it would walk on to room 1, which an arrow reaches,
        // from 6 to room 7, which none does. Missed in room 8 it wakes to room 10 (70%) or 11,
        // and from either to room 12, out of reach.
        let paths = vec![
            rooms(&[8]),
            rooms(&[9]),
            rooms(&[4]),
            rooms(&[6]),
            rooms(&[1]),
            rooms(&[10]),
            rooms(&[11]),
        ];
        let mut moves: Vec<Vec<(Place, f64)>> = vec![Vec::new(); 13];
        moves[9] = vec![(Place::new(4), 0.55), (Place::new(6), 0.45)];
        moves[8] = vec![(Place::new(10), 0.7), (Place::new(11), 0.3)];
        moves[4] = vec![(Place::new(1), 1.0)];
        moves[6] = vec![(Place::new(7), 1.0)];
        moves[10] = vec![(Place::new(12), 1.0)];
        moves[11] = vec![(Place::new(12), 1.0)];
        let smell = [false; 13];
        let mut belief = [0.0; 13];
        belief[8] = 0.5;
        belief[9] = 0.5;
        let look = Lookahead {
            paths: &paths,
            moves: &moves,
            smell: &smell,
            here: Place::new(0),
            full: 100.0,
            walk_on: 0.0,
            scratch: RefCell::new(Vec::new()),
        };
        // The second arrow at the best chance: after room 9's miss it shoots room 4 (55%),
        // and a miss leaves the wumpus out of reach: 50 + 0.5 * 55. After room 8's miss,
        // room 10: 50 + 0.5 * 70. So room 9 first.
        let (value, first) = look.value_first(&belief, 3, 0);
        assert_eq!((first, (value * 1e6).round() / 1e6), (1, 85.0));
        // Every second arrow weighed: after room 9's miss, room 6 first (45%), and a miss
        // sends the wumpus where the last arrow kills it: 50 + 0.5 * (45 + 55). Room 8 first.
        let (value, first) = look.value_first(&belief, 3, 1);
        assert_eq!((first, (value * 1e6).round() / 1e6), (0, 100.0));
    }

    #[test]
    fn a_tail_is_a_kill_more_and_leaves_fewer_misses_to_weigh() {
        // Half a chance along known tunnels; after a miss the arrows left are worth 30 points.
        let (chance, full) = (0.5, 90.0);
        let value = chance * full + (1.0 - chance) * 30.0;
        assert_eq!(worth_with_tail(chance, 0.2, 0.0, full, value), value);
        assert_eq!(worth_with_tail(chance, 0.0, 0.75, full, value), value);
        // 0.15 more to kill: 0.65 × 90 + 0.35 × 30.
        let with = worth_with_tail(chance, 0.2, 0.75, full, value);
        assert!((with - (0.65 * 90.0 + 0.35 * 30.0)).abs() < 1e-9, "{with}");
        // Never more than a sure kill, whatever the estimate.
        assert!(worth_with_tail(chance, 5.0, 1.0, full, value) <= full + 1e-9);
    }
}
