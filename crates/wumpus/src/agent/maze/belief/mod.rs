//! Odds in the `caves.dat` maze: where the wumpi, the pit and the bats are, counted over the
//! layouts consistent with what the player saw from one known starting cave.
//!
//! The maze deals 1 to rooms/4 wumpi (the count uniform), the pit, the bats and the player in
//! different caves, every placement uniform. The belief holds every set of wumpus caves still
//! possible, as a bitmask with its weight, and the caves the pit and the bats may each be in
//! (no observation ties one to the other but "not in the same cave"), and counts their
//! combinations exactly while the maze is static: a layout's weight is its wumpus set's when
//! the pit and the bats are in possible caves apart from it and from each other, the deal's
//! own chance of it. A bat drop multiplies each set's weight by the chance of landing where
//! the player did (one of the empty caves, alike). A chance that is nought is exactly nought
//! (the sums are arranged so), since a proof is only sought where the odds say certain.
//!
//! **Decision:** when a blast startles wumpi, each runs to a cave free of the pit and the bats,
//! which ties where it goes to where they are; the exact joint would need every (set, pit,
//! bats) triple. The belief instead takes each target cave to be free with its current
//! chance, and goes on weighing the moved sets with the pit and the bats by the same rule as
//! before (no two things in one cave). The odds stay sound (nothing possible gets chance 0)
//! and are exact while no grenade has been tossed.

use crate::cave::hazards::{MazeHazards, GRENADES_PER_WUMPUS};
use crate::topology::Place;
use std::cell::OnceCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

mod blast;
#[cfg(test)]
mod tests;

/// The most caves the maze belief handles: wumpus sets are bitmasks, and the number of sets
/// grows as C(n, n/4).
pub const MAX_CAVES: usize = 24;

/// What is believed of the maze from one hypothesis about where the player started.
///
/// The (pit, bats) pairs are held as two masks: every observation that bears on them (a draft
/// or none, wings or none, standing in a cave, being carried off) rules out caves for the pit
/// or for the bats alone, so a pair is possible exactly when its pit cave is in one mask, its
/// bats cave in the other, and they differ. Every sum over pairs is then a count of bits.
#[derive(Clone, Debug)]
pub struct MazeBelief {
    n: usize,
    /// Possible sets of live wumpus caves, with weights.
    sets: Vec<(u64, f64)>,
    /// Caves that may hold the pit.
    pits: u64,
    /// Caves that may hold the bats.
    bats: u64,
    /// Wumpi killed so far.
    kills: u32,
    /// Grenades tossed so far.
    tosses: u32,
    /// The layout weights ([`MazeBelief::marginal_parts`]), counted once between changes.
    parts: OnceCell<Parts>,
}

/// Layout weights: each wumpus set's, summed over the (pit, bats) pairs it leaves room for,
/// and the pit's and the bats' by cave, summed over the layouts.
#[derive(Clone, Debug)]
struct Parts {
    sets: Vec<f64>,
    pit: Vec<f64>,
    bats: Vec<f64>,
    /// A live wumpus's weight by cave, each number of live wumpi's, and the weight of the
    /// layouts with one grenade left.
    wumpus: Vec<f64>,
    alive: Vec<f64>,
    last: f64,
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

impl MazeOdds {
    /// No layout puts the pit or a wumpus in cave `c`: worth a proof that it is safe.
    pub fn free(&self, c: Place) -> bool {
        self.pit[c.index()] == 0.0 && self.wumpus[c.index()] == 0.0
    }

    /// A chance that is one but for rounding: worth a proof that it is certain.
    pub fn sure(chance: f64) -> bool {
        chance >= 1.0 - 1e-9
    }
}

/// Wumpus sets (bitmasks of caves) with their weights.
type Sets = Vec<(u64, f64)>;

/// Every set of 1 to `n / 4` caves of a maze of `n` caves, in increasing order of its mask,
/// each weighted by the deal's chance of it (for a player in another cave; nought for a size
/// the deal cannot make): made once a size. A belief keeps its sets in the same order.
fn all_sets(n: usize) -> Arc<Sets> {
    static CACHE: OnceLock<Mutex<HashMap<usize, Arc<Sets>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(sets) = cache.lock().expect("not poisoned").get(&n) {
        return sets.clone();
    }
    let max_k = MazeHazards::most_wumpi(n);
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
    raw.sort_unstable();
    let sets: Sets = raw
        .into_iter()
        .map(|(mask, k)| {
            let deals = n as f64
                * binomial(n - 1, k)
                * (n as f64 - 1.0 - k as f64)
                * (n as f64 - 2.0 - k as f64);
            let w = if deals > 0.0 {
                1.0 / (max_k as f64 * deals)
            } else {
                0.0
            };
            (mask, w)
        })
        .collect();
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
        MazeBelief::smelling(caves, start, &[], None)
    }

    /// [`MazeBelief::new`], having smelt a wumpus (or not) through tunnels leading to `near`
    /// when `smell` is given: [`MazeBelief::smell`] in the same pass over the sets.
    pub fn smelling(caves: usize, start: Place, near: &[Place], smell: Option<bool>) -> MazeBelief {
        assert!(
            caves <= MAX_CAVES,
            "the maze belief handles up to {MAX_CAVES} caves"
        );
        let n = caves;
        let s = start.index();
        let near = Self::mask_of(near);
        // Every set of 1..=max_k caves other than the start, weighted by the deal: the sets of
        // all caves are made once a maze size, and the start's are dropped.
        let sets: Vec<(u64, f64)> = all_sets(n)
            .iter()
            .filter(|&&(m, w)| {
                m >> s & 1 == 0 && w > 0.0 && smell.is_none_or(|smelt| (m & near != 0) == smelt)
            })
            .copied()
            .collect();
        let everywhere = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let elsewhere = everywhere & !(1u64 << s);
        MazeBelief {
            n,
            sets,
            pits: elsewhere,
            bats: elsewhere,
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

    /// Keeps the sets `f` allows; the weights are counted again only when that drops one
    /// (a cave walked through again tells nothing new).
    fn keep_sets(&mut self, f: impl Fn(u64) -> bool) {
        let before = self.sets.len();
        self.sets.retain(|&(m, _)| f(m));
        if self.sets.len() != before {
            self.parts.take();
        }
    }

    /// Rules out caves for the pit (those outside `pits`) and for the bats (outside `bats`).
    fn keep_pairs(&mut self, pits: u64, bats: u64) {
        if self.pits & pits != self.pits || self.bats & bats != self.bats {
            self.parts.take();
            self.pits &= pits;
            self.bats &= bats;
        }
    }

    fn mask_of(rooms: &[Place]) -> u64 {
        rooms.iter().fold(0, |m, r| m | 1 << r.index())
    }

    /// The player stands in `cave`: nothing is there.
    pub fn stood(&mut self, cave: Place) {
        let c = cave.index();
        self.keep_sets(|m| m & 1 << c == 0);
        self.keep_pairs(!(1 << c), !(1 << c));
    }

    /// A wumpus smelt (or not) through tunnels leading to `near`.
    pub fn smell(&mut self, near: &[Place], present: bool) {
        let mask = Self::mask_of(near);
        self.keep_sets(|m| (m & mask != 0) == present);
    }

    /// The pit felt (or not) through tunnels leading to `near`.
    pub fn feel(&mut self, near: &[Place], present: bool) {
        let mask = Self::mask_of(near);
        self.keep_pairs(if present { mask } else { !mask }, u64::MAX);
    }

    /// The bats heard (or not) through tunnels leading to `near`.
    pub fn hear(&mut self, near: &[Place], present: bool) {
        let mask = Self::mask_of(near);
        self.keep_pairs(u64::MAX, if present { mask } else { !mask });
    }

    /// Carried off on walking into `cave`: the bats live there (and nothing else does).
    pub fn carried(&mut self, cave: Place) {
        let c = cave.index();
        self.keep_pairs(!(1 << c), 1 << c);
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

    /// The layout weights (counted once between changes).
    fn parts(&self) -> &Parts {
        self.parts.get_or_init(|| self.marginal_parts())
    }

    /// The layout weights. A set W leaves room for F·G − H pairs, where F counts the pit's
    /// possible caves outside W, G the bats', H the caves in both (a pair needs two caves);
    /// the pit's weight in p sums, over the sets without p, the bats' caves left besides p.
    fn marginal_parts(&self) -> Parts {
        let n = self.n;
        let (f, g) = (self.pits, self.bats);
        let both = f & g;
        let mut set_weights = Vec::with_capacity(self.sets.len());
        // Σ w, Σ w·F_W, Σ w·G_W over every set, and the same over the sets holding each cave.
        let (mut all, mut sum_f, mut sum_g) = (0.0, 0.0, 0.0);
        let mut with = vec![0.0; n];
        let mut with_f = vec![0.0; n];
        let mut with_g = vec![0.0; n];
        let mut wumpus = vec![0.0; n];
        let max_k = MazeHazards::most_wumpi(n);
        let mut alive = vec![0.0; max_k + 1];
        let mut last = 0.0;
        // The caves in every set.
        let mut common = u64::MAX;
        for &(m, w) in &self.sets {
            common &= m;
            let fw = (f & !m).count_ones() as f64;
            let gw = (g & !m).count_ones() as f64;
            let hw = (both & !m).count_ones() as f64;
            let layouts = w * (fw * gw - hw);
            set_weights.push(layouts);
            all += w;
            sum_f += w * fw;
            sum_g += w * gw;
            for x in caves_of(m) {
                with[x] += w;
                with_f[x] += w * fw;
                with_g[x] += w * gw;
                wumpus[x] += layouts;
            }
            let live = m.count_ones();
            alive[(live as usize).min(max_k)] += layouts;
            if GRENADES_PER_WUMPUS * (live + self.kills) == self.tosses + 1 {
                last += layouts;
            }
        }
        let mut pit = vec![0.0; n];
        let mut bats = vec![0.0; n];
        for c in 0..n {
            // The sums below subtract, so a weight that is nought would come out as rounding:
            // where it is nought by structure, it is set so. A cave in every set holds a
            // wumpus; the pit in c leaves the bats no cave when c is their only one, and the
            // other way round.
            if common >> c & 1 == 1 {
                continue;
            }
            let free = all - with[c];
            if f >> c & 1 == 1 && g & !(1 << c) != 0 {
                let g_here = (g >> c & 1) as f64;
                pit[c] = (sum_g - with_g[c] - g_here * free).max(0.0);
            }
            if g >> c & 1 == 1 && f & !(1 << c) != 0 {
                let f_here = (f >> c & 1) as f64;
                bats[c] = (sum_f - with_f[c] - f_here * free).max(0.0);
            }
        }
        Parts {
            sets: set_weights,
            pit,
            bats,
            wumpus,
            alive,
            last,
        }
    }

    /// The odds now.
    pub fn odds(&self) -> Result<MazeOdds, NoLayout> {
        let parts = self.parts();
        let set_w = &parts.sets;
        let zs: f64 = set_w.iter().sum();
        let zp: f64 = parts.pit.iter().sum();
        if zs <= 0.0 || zp <= 0.0 {
            return Err(NoLayout);
        }
        let mut wumpus = parts.wumpus.clone();
        let mut alive = parts.alive.clone();
        let last = parts.last;
        let mut pit = parts.pit.clone();
        let mut bats = parts.bats.clone();
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
}
