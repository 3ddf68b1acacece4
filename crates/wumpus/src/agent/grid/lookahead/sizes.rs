//! The look-ahead's posterior when the board's size is hidden: the exact mixture over the sizes
//! still possible of each size's own posterior, each size weighed by its prior and by how
//! likely it makes what the player has seen (the breezes, where the wumpus may still be, and
//! the gold not yet found).
//!
//! On one size the odds are those of a told player ([`pit_posterior_by_cell`] with that size's
//! chance of a pit in each cell, 0 off its board); the size's weight is the prior weight of the
//! pit layouts that fit the breezes, times the chance that the wumpus is among the cells it may
//! still be in, times the chance that the gold lies outside the cells visited. It must never
//! see the dealt world: only the sight and the sizes the prior allows.

use super::super::odds::{pit_posterior_by_cell, PitPosterior};
use super::{Lookahead, Sight};
use crate::agent::common::bits;
use crate::game::GridPrior;
use rustc_hash::FxHashMap;

/// One size the board may have, on the look-ahead's model grid.
#[derive(Clone, Debug)]
pub struct SizeHypothesis {
    /// Its prior weight.
    pub weight: f64,
    /// Each model cell's chance of a pit on a board of this size (0 off the board).
    pub pits: Vec<f64>,
    /// The model cells on a board of this size.
    pub board: u64,
}

impl SizeHypothesis {
    /// The sizes `prior` allows with rows in `rows` and columns in `cols` (inclusive), on a
    /// `model` grid, pits dealt with `pit_prob` where the prior puts them; none on a model too
    /// large for the look-ahead.
    pub fn within(
        prior: &GridPrior,
        model: (usize, usize),
        rows: (usize, usize),
        cols: (usize, usize),
        pit_prob: f64,
    ) -> Vec<SizeHypothesis> {
        if model.0 * model.1 > super::MAX_CELLS {
            return Vec::new();
        }
        prior
            .sizes()
            .into_iter()
            .filter(|&((r, c), _)| (rows.0..=rows.1).contains(&r) && (cols.0..=cols.1).contains(&c))
            .map(|((r, c), weight)| SizeHypothesis {
                weight,
                pits: prior.pit_chances(model, (r, r), (c, c), pit_prob),
                board: (0..model.0 * model.1)
                    .filter(|i| i / model.1 < r && i % model.1 < c)
                    .fold(0u64, |m, i| m | 1 << i),
            })
            .collect()
    }
}

/// The posterior of a sight: the pits, and where the size is hidden, each cell's chance of
/// holding the live wumpus and the gold (`None`: uniform over the cells they may be in).
#[derive(Clone, Debug)]
pub(super) struct Posterior {
    pub pits: PitPosterior,
    pub wumpus: Option<Vec<f64>>,
    pub gold: Option<Vec<f64>>,
}

impl Posterior {
    /// The share of the live wumpus's odds in `set` (a count of cells when uniform).
    pub fn wumpus_in(&self, set: u64) -> f64 {
        match &self.wumpus {
            None => set.count_ones() as f64,
            Some(w) => bits(set).map(|i| w[i]).sum(),
        }
    }

    /// The share of the gold's odds in `set` (a count of cells when uniform).
    pub fn gold_in(&self, set: u64) -> f64 {
        match &self.gold {
            None => set.count_ones() as f64,
            Some(g) => bits(set).map(|i| g[i]).sum(),
        }
    }
}

impl Lookahead {
    /// The mixture over `sizes` of the posterior of `s`.
    pub(super) fn mixed(&self, sizes: &[SizeHypothesis], s: &Sight) -> Posterior {
        let cells = self.cells;
        let visited = s.visited;
        let fringe = self.reach(visited) & !visited;
        let calm_next = self.reach(visited & !s.breeze);
        let seen = (visited & !1).count_ones() as f64;
        let mut total = 0.0;
        let mut pit = vec![0.0; cells];
        let mut calm = vec![0.0; cells];
        let mut wumpus = vec![0.0; cells];
        let mut gold = vec![0.0; cells];
        // Sizes alike in every cell that bears on the count share one count.
        let relevant = visited | fringe | self.reach(fringe);
        let mut counts: FxHashMap<u64, PitPosterior> = FxHashMap::default();
        for h in sizes {
            if visited & !h.board != 0 {
                // A board without a cell the player stood in.
                continue;
            }
            let open = bits(relevant).fold(0u64, |m, i| m | u64::from(h.pits[i] > 0.0) << i);
            let post = counts.entry(open).or_insert_with(|| {
                pit_posterior_by_cell(&self.neighbours, &h.pits, visited, s.breeze, {
                    fringe & !calm_next & open
                })
            });
            if !post.possible {
                continue;
            }
            // The cells the count left out must be pit-free: visited ones, and those next to a
            // calm visited cell.
            let free: f64 = bits(visited | (fringe & calm_next))
                .map(|i| 1.0 - h.pits[i])
                .product();
            let places = (h.board.count_ones() - 1) as f64;
            let unseen = places - seen;
            let lair = (s.wumpus & h.board).count_ones() as f64;
            let mut w = h.weight * post.total * free * (unseen / places);
            if s.wumpus != 0 {
                w *= lair / places;
            }
            if w <= 0.0 {
                continue;
            }
            total += w;
            for i in 0..cells {
                let on_board = h.board >> i & 1 == 1;
                if fringe >> i & 1 == 1 {
                    pit[i] += w * post.pit[i];
                    calm[i] += w * post.clear_and_calm[i];
                } else if visited >> i & 1 == 0 {
                    pit[i] += w * h.pits[i];
                }
                if on_board && s.wumpus >> i & 1 == 1 {
                    wumpus[i] += w / lair;
                }
                if on_board && i != 0 && visited >> i & 1 == 0 {
                    gold[i] += w / unseen;
                }
            }
        }
        let possible = total > 0.0;
        let norm = |v: Vec<f64>| -> Vec<f64> {
            v.into_iter()
                .map(|x| if possible { x / total } else { 0.0 })
                .collect()
        };
        Posterior {
            pits: PitPosterior {
                pit: norm(pit),
                clear_and_calm: norm(calm),
                possible,
                total,
            },
            wumpus: Some(norm(wumpus)),
            gold: Some(norm(gold)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Scoring;
    use crate::rng::seeded;
    use crate::topology::Topology;
    use rand::Rng;

    /// The brute-force posterior: every size, pit layout, wumpus and gold that fits what was
    /// seen, weighed by the deal. Returns P(pit), P(wumpus), P(gold) in each model cell.
    fn enumerate(
        prior: &GridPrior,
        model: (usize, usize),
        s: &Sight,
        stench: u64,
    ) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        let cells = model.0 * model.1;
        let t = Topology::grid(model.0, model.1).unwrap();
        let near = |i: usize| -> u64 {
            t.neighbours(crate::topology::Place::new(i))
                .fold(0, |m, n| m | 1 << n.index())
        };
        let (mut pit, mut wum, mut gold) = (vec![0.0; cells], vec![0.0; cells], vec![0.0; cells]);
        let mut total = 0.0;
        for ((r, c), weight) in prior.sizes() {
            let board: Vec<usize> = (0..cells)
                .filter(|i| i / model.1 < r && i % model.1 < c)
                .collect();
            let places = (board.len() - 1) as f64;
            if board.iter().fold(0u64, |m, &i| m | 1 << i) & s.visited != s.visited {
                continue;
            }
            let may: Vec<usize> = board
                .iter()
                .copied()
                .filter(|&i| prior.pit_possible((r, c), i / model.1, i % model.1))
                .collect();
            for layout in 0u64..1 << may.len() {
                let pits = may
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| layout >> k & 1 == 1)
                    .fold(0u64, |m, (_, &i)| m | 1 << i);
                if pits & s.visited != 0 {
                    continue;
                }
                let breezy = (0..cells)
                    .filter(|&i| near(i) & pits != 0)
                    .fold(0u64, |m, i| m | 1 << i);
                if breezy & s.visited != s.breeze {
                    continue;
                }
                let k = pits.count_ones() as i32;
                let wp = weight * 0.2f64.powi(k) * 0.8f64.powi(may.len() as i32 - k);
                for &w in board.iter().filter(|&&i| i != 0) {
                    let smelly = (near(w) | 1 << w) & s.visited;
                    if smelly != stench || s.visited >> w & 1 == 1 {
                        continue;
                    }
                    for &g in board.iter().filter(|&&i| i != 0 && s.visited >> i & 1 == 0) {
                        let p = wp / places / places;
                        total += p;
                        for (i, chance) in pit.iter_mut().enumerate() {
                            *chance += p * f64::from(u8::from(pits >> i & 1 == 1));
                        }
                        wum[w] += p;
                        gold[g] += p;
                    }
                }
            }
        }
        let norm = |v: Vec<f64>| v.into_iter().map(|x| x / total).collect();
        (norm(pit), norm(wum), norm(gold))
    }

    #[test]
    fn the_mixture_over_sizes_equals_brute_force_enumeration() {
        // Boards of 2 to 3 rows and columns, on the model of the largest (the course's sizes
        // are too many layouts to enumerate; its pit rule is the per-size chances, checked
        // in `GridPrior`'s tests).
        let uniform = GridPrior::Uniform {
            smallest: (2, 2),
            largest: (3, 3),
        };
        let model = (3, 3);
        let topology = Topology::grid(3, 3).unwrap();
        let mut checked = 0;
        for seed in 0..300u64 {
            let mut rng = seeded(seed);
            let prior = uniform;
            let l = Lookahead::new(&topology, 0.2, Scoring::Aima).unwrap();
            let sizes = SizeHypothesis::within(&prior, model, (2, 3), (2, 3), 0.2);
            let l = l.with_sizes(sizes);
            // A random world on a random size, and a random walk over it.
            let (r, c) = (rng.random_range(2..=3usize), rng.random_range(2..=3usize));
            let on = |i: usize| i / 3 < r && i % 3 < c;
            let board: Vec<usize> = (0..9).filter(|&i| on(i)).collect();
            let pits: u64 = board
                .iter()
                .filter(|&&i| i != 0 && rng.random_bool(0.2))
                .fold(0, |m, &i| m | 1 << i);
            let wumpus = board[rng.random_range(1..board.len())];
            let near = |i: usize| -> u64 {
                topology
                    .neighbours(crate::topology::Place::new(i))
                    .filter(|n| on(n.index()))
                    .fold(0, |m, n| m | 1 << n.index())
            };
            let mut s = l.blank();
            let mut stench = 0u64;
            let mut at = 0usize;
            for _ in 0..6 {
                if pits >> at & 1 == 1 || at == wumpus {
                    break;
                }
                let breeze = near(at) & pits != 0;
                let smell = (near(at) | 1 << at) >> wumpus & 1 == 1;
                if s.visited >> at & 1 == 0 {
                    l.visit(&mut s, at, breeze, smell);
                    stench |= u64::from(smell) << at;
                }
                let next: Vec<usize> = (0..9).filter(|&n| near(at) >> n & 1 == 1).collect();
                at = next[rng.random_range(0..next.len())];
            }
            let post = l.mixed(l.sizes.as_ref().unwrap(), &s);
            let (pit, wum, gold) = enumerate(&prior, model, &s, stench);
            for i in 0..9 {
                if s.visited >> i & 1 == 1 {
                    continue;
                }
                assert!(
                    (post.pits.pit[i] - pit[i]).abs() < 1e-9,
                    "seed {seed} pit {i}: {} {}",
                    post.pits.pit[i],
                    pit[i]
                );
                assert!(
                    (post.wumpus_in(1 << i) - wum[i]).abs() < 1e-9,
                    "seed {seed} wumpus {i}"
                );
                assert!(
                    (post.gold_in(1 << i) - gold[i]).abs() < 1e-9,
                    "seed {seed} gold {i}"
                );
            }
            checked += 1;
        }
        assert!(checked > 250);
    }
}
