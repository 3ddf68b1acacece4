//! Odds in the `caves.dat` maze: where the wumpi, the pit and the bats are, counted over the
//! layouts consistent with what the player saw from one known starting cave.
//!
//! The maze deals 1 to rooms/4 wumpi (the count uniform), the pit, the bats and the player in
//! different caves, every placement uniform. The belief holds every set of wumpus caves still
//! possible, as a bitmask with its weight, and the weight of every (pit, bats) pair, and
//! counts their combinations exactly while the maze is static: a layout's weight is its
//! wumpus set's times its pair's when they do not overlap, the deal's own chance of it. A bat
//! drop multiplies each set's weight by the chance of landing where the player did (one of
//! the empty caves, alike).
//!
//! **Decision:** when a blast startles wumpi, each runs to a cave free of the pit and the bats,
//! which ties where it goes to where they are; the exact joint would need every (set, pit,
//! bats) triple. The belief instead takes each target cave to be free with its current
//! chance, and goes on weighing the moved sets with the pairs by the same rule as before (no
//! two things in one cave). The odds stay sound (nothing possible gets chance 0) and are exact
//! while no grenade has been tossed.

use crate::cave::hazards::GRENADES_PER_WUMPUS;
use crate::cave::map::CaveMap;
use crate::topology::Place;
use std::cell::OnceCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The most caves the maze belief handles: wumpus sets are bitmasks, and the number of sets
/// grows as C(n, n/4).
pub const MAX_CAVES: usize = 24;

/// What is believed of the maze from one hypothesis about where the player started.
#[derive(Clone, Debug)]
pub struct MazeBelief {
    n: usize,
    /// Possible sets of live wumpus caves, with weights.
    sets: Vec<(u64, f64)>,
    /// Weight of each (pit, bats) pair, `pb[p * n + b]`. A layout weighs its set's weight
    /// times its pair's when they share no cave.
    pb: Vec<f64>,
    /// Wumpi killed so far.
    kills: u32,
    /// Grenades tossed so far.
    tosses: u32,
    /// The sets' and pairs' layout weights ([`MazeBelief::marginal_parts`]), counted once
    /// between changes.
    parts: OnceCell<(Vec<f64>, Vec<f64>)>,
}

/// No layout fits what was observed under this hypothesis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no layout of the maze fits the observations")]
pub struct NoLayout;

/// The odds of each thing in each cave.
#[derive(Clone, Debug, PartialEq)]
pub struct MazeOdds {
    /// Chance of a live wumpus, by cave.
    pub wumpus: Vec<f64>,
    /// Chance of the pit, by cave.
    pub pit: Vec<f64>,
    /// Chance of the bats, by cave.
    pub bats: Vec<f64>,
    /// Chance of each number of live wumpi.
    pub alive: Vec<f64>,
    /// Chance that exactly one grenade is left.
    pub last_grenade: f64,
    /// The total weight of the consistent layouts (comparable between hypotheses).
    pub weight: f64,
}

/// Wumpus sets (bitmasks of caves) with their weights.
type Sets = Vec<(u64, f64)>;

/// Every set of 1 to `n / 4` caves of a maze of `n` caves, in the order of a depth-first walk,
/// each weighted by the deal's chance of it (for a player in another cave): made once a size.
fn all_sets(n: usize) -> Arc<Sets> {
    static CACHE: OnceLock<Mutex<HashMap<usize, Arc<Sets>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(sets) = cache.lock().expect("not poisoned").get(&n) {
        return sets.clone();
    }
    let max_k = (n / 4).max(1);
    fn grow(n: usize, from: usize, mask: u64, k: usize, max_k: usize, out: &mut Vec<(u64, usize)>) {
        if k > 0 {
            out.push((mask, k));
        }
        if k == max_k {
            return;
        }
        for c in from..n {
            grow(n, c + 1, mask | 1 << c, k + 1, max_k, out);
        }
    }
    let mut raw = Vec::new();
    grow(n, 0, 0, 0, max_k, &mut raw);
    let mut sets = Vec::with_capacity(raw.len());
    for (mask, k) in raw {
        let deals = n as f64
            * binomial(n - 1, k)
            * (n as f64 - 1.0 - k as f64)
            * (n as f64 - 2.0 - k as f64);
        if deals > 0.0 {
            sets.push((mask, 1.0 / (max_k as f64 * deals)));
        }
    }
    let sets = Arc::new(sets);
    cache.lock().expect("not poisoned").insert(n, sets.clone());
    sets
}

/// The caves of a set, without allocating.
fn caves_of(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(c)
        }
    })
}

fn binomial(n: usize, k: usize) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k.min(n - k)).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

impl MazeBelief {
    /// Nothing observed yet, the player in `start`, in a maze of `caves` caves (at most
    /// [`MAX_CAVES`]).
    pub fn new(caves: usize, start: Place) -> MazeBelief {
        assert!(
            caves <= MAX_CAVES,
            "the maze belief handles up to {MAX_CAVES} caves"
        );
        let n = caves;
        let s = start.index();
        // Every set of 1..=max_k caves other than the start, weighted by the deal: the sets of
        // all caves are made once a maze size, and the start's are dropped.
        let sets: Vec<(u64, f64)> = all_sets(n)
            .iter()
            .filter(|&&(m, _)| m >> s & 1 == 0)
            .copied()
            .collect();
        let mut pb = vec![0.0; n * n];
        for p in 0..n {
            for b in 0..n {
                if p != b && p != s && b != s {
                    pb[p * n + b] = 1.0;
                }
            }
        }
        MazeBelief {
            n,
            sets,
            pb,
            kills: 0,
            tosses: 0,
            parts: OnceCell::new(),
        }
    }

    /// The number of caves.
    pub fn caves(&self) -> usize {
        self.n
    }

    /// Wumpi killed so far.
    pub fn kills(&self) -> u32 {
        self.kills
    }

    /// Grenades tossed so far.
    pub fn tosses(&self) -> u32 {
        self.tosses
    }

    fn keep_sets(&mut self, f: impl Fn(u64) -> bool) {
        self.parts.take();
        self.sets.retain(|&(m, _)| f(m));
    }

    fn keep_pairs(&mut self, f: impl Fn(usize, usize) -> bool) {
        self.parts.take();
        let n = self.n;
        for p in 0..n {
            for b in 0..n {
                if self.pb[p * n + b] != 0.0 && !f(p, b) {
                    self.pb[p * n + b] = 0.0;
                }
            }
        }
    }

    fn mask_of(rooms: &[Place]) -> u64 {
        rooms.iter().fold(0, |m, r| m | 1 << r.index())
    }

    /// The player stands in `cave`: nothing is there.
    pub fn stood(&mut self, cave: Place) {
        let c = cave.index();
        self.keep_sets(|m| m & 1 << c == 0);
        self.keep_pairs(|p, b| p != c && b != c);
    }

    /// A wumpus smelt (or not) through tunnels leading to `near`.
    pub fn smell(&mut self, near: &[Place], present: bool) {
        let mask = Self::mask_of(near);
        self.keep_sets(|m| (m & mask != 0) == present);
    }

    /// The pit felt (or not) through tunnels leading to `near`.
    pub fn feel(&mut self, near: &[Place], present: bool) {
        let mask = Self::mask_of(near);
        self.keep_pairs(|p, _| (mask >> p & 1 == 1) == present);
    }

    /// The bats heard (or not) through tunnels leading to `near`.
    pub fn hear(&mut self, near: &[Place], present: bool) {
        let mask = Self::mask_of(near);
        self.keep_pairs(|_, b| (mask >> b & 1 == 1) == present);
    }

    /// Carried off on walking into `cave`: the bats live there (and nothing else does).
    pub fn carried(&mut self, cave: Place) {
        let c = cave.index();
        self.keep_pairs(|p, b| b == c && p != c);
        self.keep_sets(|m| m & 1 << c == 0);
    }

    /// The bats dropped the player in `cave`, one of the empty caves, each alike.
    pub fn landed(&mut self, cave: Place) {
        let n = self.n as f64;
        self.parts.take();
        for (m, w) in &mut self.sets {
            *w /= n - m.count_ones() as f64 - 2.0;
        }
        self.stood(cave);
    }

    /// The weight of each set and of each pair over the layouts they take part in (counted
    /// once between changes).
    fn parts(&self) -> &(Vec<f64>, Vec<f64>) {
        self.parts.get_or_init(|| self.marginal_parts())
    }

    /// The weight of each set and of each pair over the layouts they take part in.
    fn marginal_parts(&self) -> (Vec<f64>, Vec<f64>) {
        let n = self.n;
        let row: Vec<f64> = (0..n)
            .map(|p| (0..n).map(|b| self.pb[p * n + b]).sum())
            .collect();
        let col: Vec<f64> = (0..n)
            .map(|b| (0..n).map(|p| self.pb[p * n + b]).sum())
            .collect();
        let total: f64 = row.iter().sum();
        let mut set_weights = Vec::with_capacity(self.sets.len());
        let mut pair_weights = vec![0.0; n * n];
        // Σ_W w(W) over the sets, and the per-cave sums, to weigh each pair by the sets it
        // misses: pair (p, b) gets Σ_{W ∌ p, b} w(W).
        let mut all = 0.0;
        let mut with = vec![0.0; n];
        let mut with_two = vec![0.0; n * n];
        for &(m, w) in &self.sets {
            let mut out = total;
            for x in caves_of(m) {
                out -= row[x] + col[x];
                with[x] += w;
                // The other caves of the set above x.
                for y in caves_of(m & !((2u64 << x) - 1)) {
                    out += self.pb[x * n + y] + self.pb[y * n + x];
                    with_two[x * n + y] += w;
                }
            }
            set_weights.push(w * out.max(0.0));
            all += w;
        }
        for p in 0..n {
            for b in 0..n {
                let v = self.pb[p * n + b];
                if v == 0.0 {
                    continue;
                }
                let both = with_two[p.min(b) * n + p.max(b)];
                pair_weights[p * n + b] = v * (all - with[p] - with[b] + both).max(0.0);
            }
        }
        (set_weights, pair_weights)
    }

    /// The odds now.
    pub fn odds(&self) -> Result<MazeOdds, NoLayout> {
        let n = self.n;
        let (set_w, pair_w) = self.parts();
        let zs: f64 = set_w.iter().sum();
        let zp: f64 = pair_w.iter().sum();
        if zs <= 0.0 || zp <= 0.0 {
            return Err(NoLayout);
        }
        let mut wumpus = vec![0.0; n];
        let max_k = (n / 4).max(1);
        let mut alive = vec![0.0; max_k + 1];
        let mut last = 0.0;
        for (&(m, _), &w) in self.sets.iter().zip(set_w) {
            for c in caves_of(m) {
                wumpus[c] += w;
            }
            let live = m.count_ones();
            alive[(live as usize).min(max_k)] += w;
            let dealt = live + self.kills;
            if GRENADES_PER_WUMPUS * dealt == self.tosses + 1 {
                last += w;
            }
        }
        let mut pit = vec![0.0; n];
        let mut bats = vec![0.0; n];
        for p in 0..n {
            for b in 0..n {
                let w = pair_w[p * n + b];
                pit[p] += w;
                bats[b] += w;
            }
        }
        for x in wumpus.iter_mut().chain(alive.iter_mut()) {
            *x /= zs;
        }
        for x in pit.iter_mut().chain(bats.iter_mut()) {
            *x /= zp;
        }
        let weight = zs;
        Ok(MazeOdds {
            wumpus,
            pit,
            bats,
            alive,
            last_grenade: last / zs,
            weight,
        })
    }

    /// The chance that a grenade tossed into `blast` from `player` makes a startled wumpus run
    /// into the player's cave.
    pub fn devour_chance(&self, map: &CaveMap, blast: Place, player: Place) -> f64 {
        self.devour_chances(map, &[blast], player)[0]
    }

    /// [`MazeBelief::devour_chance`] for each of `blasts`, counting the layouts once.
    pub fn devour_chances(&self, map: &CaveMap, blasts: &[Place], player: Place) -> Vec<f64> {
        let (set_w, pair_w) = self.parts();
        let before: f64 = set_w.iter().sum();
        blasts
            .iter()
            .map(|&blast| {
                if before <= 0.0 {
                    0.0
                } else {
                    self.runs(map, blast, player, set_w, pair_w, false).0 / before
                }
            })
            .collect()
    }

    /// A grenade tossed into `blast` from `player` killed (`hit`) or missed: the kill (if any),
    /// the startled wumpi's runs, and the survival of the player (no wumpus ran in). Returns
    /// the weight of the ways the player was devoured (removed).
    pub fn toss(&mut self, map: &CaveMap, blast: Place, player: Place, hit: bool) -> f64 {
        let b = blast.index();
        self.keep_sets(|m| (m >> b & 1 == 1) == hit);
        self.tosses += 1;
        let devoured = self.startle(map, blast, player);
        if hit {
            self.kills += 1;
        }
        // The game goes on: wumpi are left, and so are grenades.
        let (kills, tosses) = (self.kills, self.tosses);
        self.keep_sets(|m| m != 0 && GRENADES_PER_WUMPUS * (m.count_ones() + kills) > tosses);
        devoured
    }

    /// The blast's effect on every set: the kill, then each startled wumpus's run (one at a
    /// time, in the blast cave's tunnel order, to an empty cave among its tunnels' or staying
    /// when none is free). Drops the ways a wumpus runs into `player`'s cave and returns their
    /// weight.
    fn startle(&mut self, map: &CaveMap, blast: Place, player: Place) -> f64 {
        let (set_w, pair_w) = self.parts();
        let (devoured, sets) = self.runs(map, blast, player, set_w, pair_w, true);
        self.parts.take();
        self.sets = sets;
        devoured
    }

    /// The startled wumpi's runs from every set (see [`MazeBelief::startle`]), given the sets'
    /// and pairs' layout weights: the weight of the ways the player is devoured, and (when
    /// `collect`) the sets after the runs, with their weights.
    fn runs(
        &self,
        map: &CaveMap,
        blast: Place,
        player: Place,
        set_w: &[f64],
        pair_w: &[f64],
        collect: bool,
    ) -> (f64, Vec<(u64, f64)>) {
        let n = self.n;
        let b = blast.index();
        // A cave is free of the pit and the bats with its current chance (by decision).
        let zp: f64 = pair_w.iter().sum();
        let free: Vec<f64> = (0..n)
            .map(|c| {
                let pit: f64 = (0..n).map(|x| pair_w[c * n + x]).sum();
                let bats: f64 = (0..n).map(|x| pair_w[x * n + c]).sum();
                if zp > 0.0 {
                    (1.0 - (pit + bats) / zp).max(0.0)
                } else {
                    1.0
                }
            })
            .collect();
        let mut order: Vec<usize> = Vec::new();
        for &c in map.outs(blast) {
            if !order.contains(&c.index()) {
                order.push(c.index());
            }
        }
        // Each startled cave's tunnels' caves, each once, itself excluded.
        let exits: Vec<Vec<usize>> = order
            .iter()
            .map(|&x| {
                let mut t: Vec<usize> = Vec::new();
                for &c in map.outs(Place::new(x)) {
                    if c.index() != x && !t.contains(&c.index()) {
                        t.push(c.index());
                    }
                }
                t
            })
            .collect();
        let p = player.index();
        let startled: u64 = order.iter().fold(0, |m, &x| m | 1 << x);
        let mut next: Vec<(u64, f64)> = Vec::new();
        let mut devoured = 0.0;
        let mut ways: Vec<(u64, f64)> = Vec::new();
        let mut after: Vec<(u64, f64)> = Vec::new();
        for (&(m, w), &joint) in self.sets.iter().zip(set_w) {
            // Devouring is counted in layouts' weight: this set's share of it.
            let scale = if w > 0.0 { joint / w } else { 0.0 };
            let start = m & !(1 << b);
            if start & startled == 0 {
                // Nobody is startled: the set stays as it is (less its kill).
                if collect {
                    next.push((start, w));
                }
                continue;
            }
            ways.clear();
            ways.push((start, w));
            // Who is startled is settled before anyone runs: a wumpus that runs into a cave
            // next to the blast is not startled again.
            for (i, &x) in order.iter().enumerate() {
                if start >> x & 1 == 0 {
                    continue;
                }
                after.clear();
                for &(m, w) in &ways {
                    let mut targets = [0usize; 3];
                    let mut k = 0;
                    for &t in &exits[i] {
                        if m >> t & 1 == 0 {
                            targets[k] = t;
                            k += 1;
                        }
                    }
                    let targets = &targets[..k];
                    // Every pattern of which targets are free of the pit and the bats.
                    for pattern in 0u32..1 << k {
                        let mut chance = 1.0;
                        let mut open = 0usize;
                        for (j, &t) in targets.iter().enumerate() {
                            if pattern >> j & 1 == 1 {
                                chance *= free[t];
                                open += 1;
                            } else {
                                chance *= 1.0 - free[t];
                            }
                        }
                        if chance == 0.0 {
                            continue;
                        }
                        if open == 0 {
                            after.push((m, w * chance));
                            continue;
                        }
                        let each = w * chance / open as f64;
                        for (j, &t) in targets.iter().enumerate() {
                            if pattern >> j & 1 == 0 {
                                continue;
                            }
                            if t == p {
                                devoured += each * scale;
                            } else {
                                after.push(((m & !(1 << x)) | 1 << t, each));
                            }
                        }
                    }
                }
                std::mem::swap(&mut ways, &mut after);
            }
            if collect {
                next.extend_from_slice(&ways);
            }
        }
        // The same set reached in several ways: one entry, the weights added.
        next.sort_by_key(|&(m, _)| m);
        let mut sets: Vec<(u64, f64)> = Vec::with_capacity(next.len());
        for (m, w) in next {
            match sets.last_mut() {
                Some((last, sum)) if *last == m => *sum += w,
                _ => sets.push((m, w)),
            }
        }
        sets.retain(|&(_, w)| w > 0.0);
        (devoured, sets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::map::parse_map;

    fn caves() -> CaveMap {
        parse_map(include_str!("../../../../../worlds/caves.dat")).unwrap()
    }

    #[test]
    fn the_deal_odds_with_nothing_observed() {
        let b = MazeBelief::new(20, Place::new(0));
        let o = b.odds().unwrap();
        // Pit and bats: one each, uniform over the 19 other caves.
        for c in 1..20 {
            assert!((o.pit[c] - 1.0 / 19.0).abs() < 1e-12);
            assert!((o.bats[c] - 1.0 / 19.0).abs() < 1e-12);
        }
        // Wumpi: 1 to 5 alike, so 3 on average over 19 caves.
        for c in 1..20 {
            assert!((o.wumpus[c] - 3.0 / 19.0).abs() < 1e-12, "{}", o.wumpus[c]);
        }
        for k in 1..=5 {
            assert!((o.alive[k] - 0.2).abs() < 1e-12);
        }
    }

    #[test]
    fn senses_narrow_the_odds_and_a_blast_moves_the_wumpi() {
        let map = caves();
        let mut b = MazeBelief::new(20, Place::new(0));
        let near: Vec<Place> = map.outs(Place::new(0)).to_vec();
        b.stood(Place::new(0));
        b.smell(&near, true);
        b.feel(&near, false);
        b.hear(&near, false);
        let o = b.odds().unwrap();
        let total: f64 = near.iter().map(|c| o.wumpus[c.index()]).sum();
        assert!(total >= 1.0 - 1e-12);
        for c in &near {
            assert_eq!(o.pit[c.index()], 0.0);
        }
        // A miss into cave 1 (index 1): the wumpi next to it may run.
        let devour = b.devour_chance(&map, near[0], Place::new(0));
        assert!((0.0..1.0).contains(&devour));
        let before = b.odds().unwrap().weight;
        let devoured = b.toss(&map, near[0], Place::new(0), false);
        let o = b.odds().unwrap();
        // The player survived: no wumpus ran into cave 0; the weight lost is the devouring.
        assert_eq!(o.wumpus[0], 0.0);
        assert!((o.weight + devoured) <= before * (1.0 + 1e-9));
        assert!((o.pit.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!((o.alive.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }
}
