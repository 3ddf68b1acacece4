//! The risk agent's look-ahead (`--depth N`, N ≥ 2): an expectimax over what the agent has
//! seen, used where the one-step agent would gamble (when logic runs out).
//!
//! What a grid player has seen fixes the posterior over worlds (as in [`crate::agent::optimal`]): the
//! visited cells, the breezes felt among them, the cells the live wumpus may still be in, and
//! whether the arrow is left. A [`Sight`] holds these as bit sets (grids of up to
//! [`MAX_CELLS`] cells). From a sight the search weighs climbing out, stepping into each
//! fringe cell, and a shot along each line the wumpus may be on. A step is a chance node whose
//! outcomes (death, the gold, and the breeze and stench felt on arriving) have the exact odds
//! of the posterior; a shot is one with the exact odds of a kill; the search goes on from each
//! outcome, exploring proven-safe cells first as the agent's logic does. It deepens one round
//! (one more gamble) at a time and keeps the deepest round that valued every option within the
//! budget; past its last round a step is valued by the one-step estimate the risk agent has
//! always used (`GridAgent::gamble`'s). Walks go over visited cells only, as in the exact
//! solver.

mod sizes;
mod walks;

use sizes::Posterior;
pub use sizes::SizeHypothesis;

use super::odds::{pit_posterior, pit_posterior_by_cell, PitPosterior};
use crate::agent::common::bits;
use crate::grid::Scoring;
use crate::topology::{Direction, Place, Topology};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// How much each further step away discounts the chance of ever reaching an unseen cell:
/// every step beyond the look-ahead is another cell that may need a risk of its own.
pub(crate) const REACH_DISCOUNT: f64 = 0.5;

/// How far beyond a candidate the estimate of cells still to be explored looks.
pub(crate) const REACH_RADIUS: u32 = 8;

/// The most cells a sight holds.
pub const MAX_CELLS: usize = 64;

/// The most sights a round of the search may value in full; a round that needs more is given
/// up, and the round before it decides. Larger budgets win little more at a fraction of the
/// speed.
pub const NODE_BUDGET: usize = 30;

/// Chance branches less likely than this are left out of the search.
const NEGLIGIBLE: f64 = 1e-12;

/// What the agent has seen, as bit sets of cells by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sight {
    /// Cells stood in.
    pub visited: u64,
    /// Visited cells where breeze was felt.
    pub breeze: u64,
    /// Cells the live wumpus may be in; empty once it is dead.
    pub wumpus: u64,
    /// True while the arrow is left.
    pub arrow: bool,
    /// Where the player stands.
    pub at: usize,
    /// Under the textbook's rules, the way the player faces (an index into
    /// [`Direction::ALL`]); 0 and unused under compass moves.
    pub facing: u8,
    /// Moves made, plus 10 once the arrow is fired.
    pub spent: u32,
}

/// The grid's geometry, prior and scoring, for the search.
#[derive(Clone, Debug)]
pub struct Lookahead {
    cells: usize,
    neighbours: Vec<u64>,
    /// Each cell and its neighbours: where the wumpus in it is smelt.
    smells: Vec<u64>,
    /// For each cell, the cells an arrow fired from it crosses, by [`Direction::ALL`].
    rays: Vec<[u64; 4]>,
    /// For each cell, the cells at each grid distance 2..=REACH_RADIUS from it.
    rings: Vec<Vec<u64>>,
    pit: f64,
    /// Each cell's own prior chance of a pit, where the deal puts pits in some cells only or
    /// the board's size is not known (`None`: `pit` in every cell but the start); with the
    /// cells whose chance is 0.
    pit_at: Option<(Vec<f64>, u64)>,
    /// With the board's size hidden, the sizes it may have: the posterior is their mixture
    /// ([`sizes`]).
    sizes: Option<Vec<SizeHypothesis>>,
    scoring: Scoring,
    budget: usize,
    /// For each cell and direction (by [`Direction::ALL`]), the cell one step that way.
    ahead: Vec<[Option<usize>; 4]>,
    /// The textbook's rules: the player faces a way, and each quarter turn is an action.
    headed: bool,
}

/// The fewest actions to stand in each cell, facing each way (by [`Direction::ALL`]);
/// `u32::MAX` where it cannot. Under compass moves the four are the same.
type Costs = Vec<[u32; 4]>;

/// The fewest quarter turns from facing `from` to facing `to` (indices into
/// [`Direction::ALL`]).
fn turns(from: usize, to: usize) -> u32 {
    Direction::ALL[from].turns_to(Direction::ALL[to])
}

/// The cheapest way to face `dir` in `cell`, given `costs`.
fn facing_cost(costs: &Costs, cell: usize, dir: usize) -> u32 {
    (0..4)
        .filter(|&h| costs[cell][h] != u32::MAX)
        .map(|h| costs[cell][h] + turns(h, dir))
        .min()
        .unwrap_or(u32::MAX)
}

/// The values of one search, for trace and hint.
#[derive(Clone, Debug, PartialEq)]
pub struct Valued {
    /// How many steps ahead every option was searched: 2 for the first round.
    pub depth: u32,
    /// The expected final score of walking home and climbing out now.
    pub climb: f64,
    /// Each fringe cell that can be survived, with the expected final score of stepping in.
    pub steps: Vec<(Place, f64)>,
    /// Each line the live wumpus may be on, as the visited cell nearest to here to fire it
    /// from and the direction, with the chance of a kill and the expected final score of
    /// walking there and firing.
    pub shots: Vec<(Place, Direction, f64, f64)>,
}

/// What [`Lookahead::options`] finds: the better of climbing out and (below the root) the best
/// shot; each survivable step with its value; whether the step is forced (a safe cell to
/// explore); and at the root, each shot with its value.
type RootOptions = (
    f64,
    Vec<(usize, f64)>,
    bool,
    Vec<(usize, Direction, f64, f64)>,
);

impl Lookahead {
    /// The search on `topology` (a grid of up to [`MAX_CELLS`] cells, else `None`) at pit
    /// probability `pit`, scored by `scoring`.
    pub fn new(topology: &Topology, pit: f64, scoring: Scoring) -> Option<Lookahead> {
        topology.grid_size()?;
        let cells = topology.len();
        if cells > MAX_CELLS {
            return None;
        }
        let bit = |p: Place| 1u64 << p.index();
        let ahead = (0..cells)
            .map(|i| {
                Direction::ALL
                    .map(|dir| topology.ray(Place::new(i), dir).first().map(|p| p.index()))
            })
            .collect();
        let mut neighbours = vec![0u64; cells];
        let mut rays = vec![[0u64; 4]; cells];
        let mut rings = vec![vec![0u64; REACH_RADIUS as usize + 1]; cells];
        for (i, ray) in rays.iter_mut().enumerate() {
            let p = Place::new(i);
            neighbours[i] = topology.neighbours(p).fold(0, |m, n| m | bit(n));
            for (d, dir) in Direction::ALL.into_iter().enumerate() {
                ray[d] = topology.ray(p, dir).into_iter().fold(0, |m, n| m | bit(n));
            }
            // Grid distances, as the one-step estimate's breadth-first walk counts them.
            let mut depth = vec![u32::MAX; cells];
            depth[i] = 0;
            let mut queue = VecDeque::from([p]);
            while let Some(q) = queue.pop_front() {
                let d = depth[q.index()];
                if (2..=REACH_RADIUS).contains(&d) {
                    rings[i][d as usize] |= bit(q);
                }
                if d == REACH_RADIUS {
                    continue;
                }
                for n in topology.neighbours(q) {
                    if depth[n.index()] == u32::MAX {
                        depth[n.index()] = d + 1;
                        queue.push_back(n);
                    }
                }
            }
        }
        let smells = (0..cells).map(|i| neighbours[i] | 1 << i).collect();
        Some(Lookahead {
            cells,
            neighbours,
            smells,
            rays,
            rings,
            pit: pit.clamp(0.0, 1.0),
            pit_at: None,
            sizes: None,
            scoring,
            budget: NODE_BUDGET,
            ahead,
            headed: false,
        })
    }

    /// The same search under the textbook's rules: the player faces a way (kept in
    /// [`Sight::facing`]), every walk is priced in actions with the quarter turns, a step
    /// ends facing the way it went and a shot flies the way the player faces.
    pub fn headed(self) -> Lookahead {
        Lookahead {
            headed: true,
            ..self
        }
    }

    /// The same search with each cell's own prior chance of a pit (by cell index).
    pub fn with_pit_chances(self, chances: Vec<f64>) -> Lookahead {
        let zero = chances
            .iter()
            .enumerate()
            .filter(|(_, &p)| p <= 0.0)
            .fold(0u64, |m, (i, _)| m | 1 << i);
        Lookahead {
            pit_at: Some((chances, zero)),
            ..self
        }
    }

    /// The same search on a board whose size is hidden: one of `sizes`, each weighed by its
    /// prior and by what the player sees.
    pub fn with_sizes(self, sizes: Vec<SizeHypothesis>) -> Lookahead {
        Lookahead {
            sizes: Some(sizes),
            ..self
        }
    }

    /// The posterior of `s`: the pits', and with the size hidden, the wumpus's and the gold's.
    fn posterior(&self, s: &Sight) -> Posterior {
        match &self.sizes {
            Some(sizes) => self.mixed(sizes, s),
            None => Posterior {
                pits: self.pits(s.visited, s.breeze),
                wumpus: None,
                gold: None,
            },
        }
    }

    /// The same search valuing up to `nodes` sights in full below each candidate of the root
    /// (default [`NODE_BUDGET`]).
    pub fn with_budget(self, nodes: usize) -> Lookahead {
        Lookahead {
            budget: nodes,
            ..self
        }
    }

    /// The sight before the first percept: nothing visited, the wumpus anywhere but the start.
    pub fn blank(&self) -> Sight {
        let all = if self.cells == 64 {
            u64::MAX
        } else {
            (1u64 << self.cells) - 1
        };
        Sight {
            visited: 0,
            breeze: 0,
            wumpus: all & !1,
            arrow: true,
            at: 0,
            // The textbook's player starts facing east.
            facing: if self.headed { 2 } else { 0 },
            spent: 0,
        }
    }

    /// Takes in the first visit of cell `at` with its breeze and stench.
    pub fn visit(&self, s: &mut Sight, at: usize, breeze: bool, stench: bool) {
        s.visited |= 1 << at;
        s.breeze |= (breeze as u64) << at;
        if s.wumpus != 0 {
            let after = s.wumpus & !(1 << at);
            s.wumpus = if stench {
                after & self.smells[at]
            } else {
                after & !self.smells[at]
            };
        }
    }

    /// Takes in a shot from `from` in `dir`, and whether it killed.
    pub fn shot(&self, s: &mut Sight, from: usize, dir: Direction, scream: bool) {
        let d = dir.index();
        s.wumpus = if scream {
            0
        } else {
            s.wumpus & !self.rays[from][d]
        };
        s.arrow = false;
    }

    fn reach(&self, set: u64) -> u64 {
        bits(set).fold(0, |m, i| m | self.neighbours[i])
    }

    fn unvisited(&self, s: &Sight) -> u64 {
        let all = if self.cells == 64 {
            u64::MAX
        } else {
            (1u64 << self.cells) - 1
        };
        all & !s.visited
    }

    /// The pit posterior: only fringe cells with no calm visited neighbour may hold a pit, so
    /// only their layouts are counted.
    fn pits(&self, visited: u64, breeze: u64) -> PitPosterior {
        let fringe = self.reach(visited) & !visited;
        let counted = fringe & !self.reach(visited & !breeze);
        match &self.pit_at {
            None => pit_posterior(&self.neighbours, self.pit, visited, breeze, counted),
            Some((chances, zero)) => {
                pit_posterior_by_cell(&self.neighbours, chances, visited, breeze, counted & !zero)
            }
        }
    }

    fn out_and_gold(&self) -> (f64, f64) {
        match self.scoring {
            Scoring::Standard => (100.0, 900.0),
            Scoring::Aima => (0.0, 1000.0),
        }
    }

    fn death(&self, spent: f64) -> f64 {
        match self.scoring {
            Scoring::Standard => 0.0,
            Scoring::Aima => -1000.0 - spent,
        }
    }

    /// The values of climbing out, of stepping into each fringe cell of `s` and of each shot,
    /// looking up to `depth` steps ahead (at least 2; the agent's `--depth`).
    ///
    /// The search deepens one gamble at a time, and every option is valued to the same
    /// depth: the deepest whose search stays within the budget of sights. The first round
    /// values each step by the one-step estimate and searches each shot through what it
    /// proves, up to the next gamble (so it looks two steps ahead); round `d` looks `d + 1`.
    pub fn weigh(&self, s: &Sight, depth: u32) -> Valued {
        let mut cache = Cache::new(usize::MAX);
        let mut searched = None;
        for d in 1..depth.max(2) {
            // One gamble deep, only shots are searched (the arrow then spent): never cut.
            cache.limit = if d == 1 { usize::MAX } else { self.budget };
            let found = self.options(s, d, &mut cache, true);
            if cache.aborted {
                break;
            }
            searched = Some((found, d));
        }
        let ((climb, steps, _, shots), rounds) = searched.expect("one gamble deep is never cut");
        Valued {
            depth: rounds + 1,
            climb,
            steps: steps.into_iter().map(|(i, v)| (Place::new(i), v)).collect(),
            shots: shots
                .into_iter()
                .map(|(from, dir, kill, v)| (Place::new(from), dir, kill, v))
                .collect(),
        }
    }

    /// The value of `s` played by the search, `depth` gambles deep.
    fn value(&self, s: &Sight, depth: u32, cache: &mut Cache) -> f64 {
        let key = (*s, depth);
        if let Some(&v) = cache.values.get(&key) {
            return v;
        }
        if cache.aborted || cache.nodes >= cache.limit {
            // Past the budget this depth's search is given up; its values are not used.
            cache.aborted = true;
            return 0.0;
        }
        cache.nodes += 1;
        let (climb, steps, forced, _) = self.options(s, depth, cache, false);
        let v = if forced {
            steps[0].1
        } else {
            steps.iter().fold(climb, |best, &(_, v)| best.max(v))
        };
        cache.values.insert(key, v);
        v
    }

    /// The better of climbing out and (below the root) shooting, each survivable fringe
    /// step's value, `depth` gambles deep, and whether the step is forced. Below the root, where a fringe cell is proven safe, the
    /// agent explores the nearest one, as its logic does: that step alone is valued, searched
    /// as deep (only gambles spend the depth). Past the budget of nodes, every gamble is
    /// valued by the one-step estimate.
    fn options(&self, s: &Sight, depth: u32, cache: &mut Cache, root: bool) -> RootOptions {
        let here = self.costs(s.at, usize::from(s.facing), s.visited);
        let home = self.home_costs(s.visited);
        let spent = s.spent as f64;
        let (out, gold) = self.out_and_gold();
        let climb = out - spent - Self::any_facing(&here, 0) as f64 - 1.0;
        let post = cache
            .pits
            .entry((s.visited, s.breeze, s.wumpus))
            .or_insert_with(|| std::rc::Rc::new(self.posterior(s)))
            .clone();
        let pits = &post.pits;
        if !pits.possible {
            return (climb, Vec::new(), false, Vec::new());
        }
        let unvisited = self.unvisited(s);
        let unseen = post.gold_in(unvisited).max(1.0);
        let live = post.wumpus_in(s.wumpus);
        let fringe = self.reach(s.visited) & !s.visited;
        let safe = |i: usize| pits.pit[i] == 0.0 && s.wumpus >> i & 1 == 0;
        // The nearest safe fringe cell, which the agent's logic explores next.
        let explore = if root {
            None
        } else {
            bits(fringe)
                .filter(|&i| safe(i))
                .filter_map(|i| {
                    bits(self.neighbours[i] & s.visited)
                        .map(|j| self.step_in(&here, j, i))
                        .min()
                        .map(|d| (d, i))
                })
                .min()
                .map(|(_, i)| i)
        };
        let (cells, child_depth) = match explore {
            Some(i) => (1u64 << i, Some(depth)),
            None if depth <= 1 => (fringe, None),
            None => (fringe, Some(depth - 1)),
        };
        let mut steps = Vec::new();
        for i in bits(cells) {
            let p_pit = pits.pit[i];
            let p_wumpus = if s.wumpus >> i & 1 == 1 {
                post.wumpus_in(1 << i) / live
            } else {
                0.0
            };
            let survive = (1.0 - p_pit) * (1.0 - p_wumpus);
            if survive <= 0.0 {
                continue;
            }
            // Enter from the visited neighbour nearest to here, then nearest to home. With a
            // heading, nearest counts the turns, and home is walked from the cell facing the
            // way the step went.
            let entry = bits(self.neighbours[i] & s.visited)
                .filter(|&j| here[j][0] != u32::MAX)
                .map(|j| {
                    let home_after = if self.headed {
                        self.home_from(&home, s.visited, i, self.way(j, i))
                    } else {
                        home[j][0].saturating_add(1)
                    };
                    (self.step_in(&here, j, i), home_after, j)
                })
                .min();
            let Some((to_c, c_home, entry)) = entry else {
                continue;
            };
            let (to_c, c_home) = (to_c as f64, c_home as f64);
            let facing = if self.headed {
                self.way(entry, i) as u8
            } else {
                0
            };
            let after = spent + to_c;
            let dead = self.death(after);
            // P(calm at i | no pit at i) and P(no stench at i | no wumpus at i).
            let calm = if p_pit < 1.0 {
                (pits.clear_and_calm[i] / (1.0 - p_pit)).min(1.0)
            } else {
                0.0
            };
            let (p_smell, smelly, fresh) = if s.wumpus == 0 {
                (0.0, 0, 0)
            } else {
                let rest = s.wumpus & !(1 << i);
                let smelly = rest & self.smells[i];
                (
                    post.wumpus_in(smelly) / post.wumpus_in(rest).max(f64::MIN_POSITIVE),
                    smelly,
                    rest & !smelly,
                )
            };
            let value = if child_depth.is_none() {
                // The one-step estimate: the gold is found among the cell, its neighbours
                // opened when it is clear, and an allowance for the cells beyond.
                let clear = calm * (1.0 - p_smell);
                let opened: f64 = bits(self.neighbours[i] & unvisited)
                    .filter(|&n| !safe(n))
                    .map(|n| post.gold_in(1 << n))
                    .sum();
                let beyond: f64 = self.rings[i]
                    .iter()
                    .enumerate()
                    .skip(2)
                    .map(|(d, &ring)| {
                        let doubtful: f64 = bits(ring & unvisited)
                            .filter(|&n| !safe(n))
                            .map(|n| post.gold_in(1 << n))
                            .sum();
                        doubtful * (1.0 - self.pit) * REACH_DISCOUNT.powi(d as i32 - 1)
                    })
                    .sum();
                let found = ((post.gold_in(1 << i) + clear * opened + beyond) / unseen).min(1.0);
                let alive = out - spent - to_c - c_home - 1.0 + found * gold;
                survive * alive + (1.0 - survive) * dead
            } else {
                // Found: grab, walk home, climb.
                let p_gold = post.gold_in(1 << i) / unseen;
                let won = 1000.0 - (after + 1.0 + c_home + 1.0);
                let mut rest = 0.0;
                for (p_w, wumpus) in [(p_smell, smelly), (1.0 - p_smell, fresh)] {
                    for (p_b, breezy) in [(1.0 - calm, true), (calm, false)] {
                        let p = p_w * p_b;
                        if p <= NEGLIGIBLE {
                            continue;
                        }
                        let next = Sight {
                            visited: s.visited | 1 << i,
                            breeze: s.breeze | (breezy as u64) << i,
                            wumpus,
                            arrow: s.arrow,
                            at: i,
                            facing,
                            spent: after as u32,
                        };
                        rest += p * self.value(&next, child_depth.unwrap_or(1), cache);
                    }
                }
                (1.0 - survive) * dead + survive * (p_gold * won + (1.0 - p_gold) * rest)
            };
            steps.push((i, value));
        }
        let forced = explore.is_some() && !steps.is_empty();
        let mut climb = climb;
        let mut shots = Vec::new();
        if !forced && s.arrow && s.wumpus != 0 {
            // A shot is weighed with climbing out: the cheapest place to fire each line from,
            // searched as deep (the arrow is spent once). At the root each is kept apart, for
            // the agent to fire the best; below it the best shot joins climbing out.
            for (line, walk, from, dir) in self.lines(s, &here) {
                let p_kill = post.wumpus_in(line) / live;
                let after = s.spent + walk + 11;
                let mut v = 0.0;
                for (p, wumpus) in [(p_kill, 0), (1.0 - p_kill, s.wumpus & !line)] {
                    if p > NEGLIGIBLE {
                        let next = Sight {
                            wumpus,
                            arrow: false,
                            at: from,
                            facing: if self.headed { dir as u8 } else { 0 },
                            spent: after,
                            ..*s
                        };
                        v += p * self.value(&next, depth, cache);
                    }
                }
                if root {
                    shots.push((from, Direction::ALL[dir], p_kill, v));
                } else {
                    climb = climb.max(v);
                }
            }
        }
        (climb, steps, forced, shots)
    }

    /// Each line of cells the live wumpus may be on that one arrow crosses, with the fewest
    /// actions from here (`here`: the costs from where the player stands; turns to face the
    /// line counted, with a heading) to fire it from a visited cell, that cell, and the
    /// direction (an index into [`Direction::ALL`]).
    fn lines(&self, s: &Sight, here: &Costs) -> Vec<(u64, u32, usize, usize)> {
        let mut lines: Vec<(u64, u32, usize, usize)> = Vec::new();
        for from in bits(s.visited).filter(|&f| here[f][0] != u32::MAX) {
            for (dir, ray) in self.rays[from].iter().enumerate() {
                let line = ray & s.wumpus;
                if line == 0 {
                    continue;
                }
                let walk = if self.headed {
                    facing_cost(here, from, dir)
                } else {
                    here[from][0]
                };
                match lines.iter_mut().find(|l| l.0 == line) {
                    Some(l) if l.1 <= walk => {}
                    Some(l) => *l = (line, walk, from, dir),
                    None => lines.push((line, walk, from, dir)),
                }
            }
        }
        lines
    }

    /// The exact chance of a pit and of the live wumpus in cell `i`, from the sight alone.
    pub fn odds(&self, s: &Sight, i: usize) -> (f64, f64) {
        self.odds_of(s, [i])[0]
    }

    /// [`Lookahead::odds`] of each of `cells`, the pit posterior counted once.
    pub fn odds_of(&self, s: &Sight, cells: impl IntoIterator<Item = usize>) -> Vec<(f64, f64)> {
        let post = self.posterior(s);
        let live = post.wumpus_in(s.wumpus);
        cells
            .into_iter()
            .map(|i| {
                let wumpus = if s.wumpus >> i & 1 == 1 {
                    post.wumpus_in(1 << i) / live
                } else {
                    0.0
                };
                (post.pits.pit[i], wumpus)
            })
            .collect()
    }
}

/// What one search has valued, and the posteriors it counted.
struct Cache {
    values: FxHashMap<(Sight, u32), f64>,
    nodes: usize,
    /// Set when a search went past the budget: its values are then not used.
    aborted: bool,
    /// The most sights this iteration may value in full.
    limit: usize,
    pits: FxHashMap<(u64, u64, u64), std::rc::Rc<Posterior>>,
}

impl Cache {
    fn new(limit: usize) -> Cache {
        Cache {
            values: FxHashMap::default(),
            nodes: 0,
            aborted: false,
            limit,
            pits: FxHashMap::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::optimal::best_mean_score;

    /// The search's value of the whole game, `depth` gambles deep with no node budget,
    /// averaged over the start cell's percepts; `headed`: under the textbook's rules.
    fn game_value(rows: usize, cols: usize, scoring: Scoring, depth: u32, headed: bool) -> f64 {
        let topology = Topology::grid(rows, cols).unwrap();
        let mut l = Lookahead::new(&topology, 0.2, scoring)
            .unwrap()
            .with_budget(usize::MAX);
        if headed {
            l = l.headed();
        }
        let around = l.neighbours[0].count_ones() as i32;
        let p_breeze = 1.0 - 0.8f64.powi(around);
        let p_stench = around as f64 / (rows * cols - 1) as f64;
        let mut total = 0.0;
        for (p_s, stench) in [(p_stench, true), (1.0 - p_stench, false)] {
            for (p_b, breeze) in [(p_breeze, true), (1.0 - p_breeze, false)] {
                let mut s = l.blank();
                l.visit(&mut s, 0, breeze, stench);
                // Searched as below the root, where shots are weighed too.
                total += p_s * p_b * l.value(&s, depth, &mut Cache::new(usize::MAX));
            }
        }
        total
    }

    #[test]
    fn searched_to_the_end_it_values_a_real_policy_below_the_exact_optimum() {
        // Deep enough that no gamble is left to the estimate, the search values a policy of
        // the real game (safe cells explored first, at most one shot per line) with exact
        // odds: never above the optimum of every policy, and within 0.2% of it.
        for (rows, cols) in [(2, 2), (2, 3), (3, 3)] {
            for scoring in [Scoring::Standard, Scoring::Aima] {
                let exact = best_mean_score(rows, cols, 0.2, scoring).unwrap();
                let searched = game_value(rows, cols, scoring, 10, false);
                assert!(
                    searched <= exact + 1e-3,
                    "{rows}x{cols} {scoring:?}: {searched} above the optimum {exact}"
                );
                assert!(
                    searched >= exact - 2e-3 * exact.abs(),
                    "{rows}x{cols} {scoring:?}: {searched} far below the optimum {exact}"
                );
            }
        }
    }

    #[test]
    fn with_a_heading_searched_to_the_end_it_stays_just_below_the_textbook_optimum() {
        // The exact optimum of the textbook's game (a heading, quarter turns each an action,
        // AIMA scoring), as `cargo run --release --example grid_bound -- R C aima 0.2 headed`
        // solves it: nothing relaxed. The search plays a policy of that game with exact odds
        // and exact costs, so it can only be below, and it should be close.
        for (rows, cols, exact) in [(2, 2, 514.940), (2, 3, 498.694), (3, 3, 434.414)] {
            let searched = game_value(rows, cols, Scoring::Aima, 10, true);
            assert!(
                searched <= exact + 1e-3,
                "{rows}x{cols}: {searched} above the optimum {exact}"
            );
            assert!(
                searched >= exact * (1.0 - 2e-3),
                "{rows}x{cols}: {searched} far below the optimum {exact}"
            );
        }
        // The costs themselves: from the start facing east, standing at 1,0 (north of it)
        // takes a left turn and a step; facing south there, two more turns.
        let topology = Topology::grid(3, 3).unwrap();
        let l = Lookahead::new(&topology, 0.2, Scoring::Aima)
            .unwrap()
            .headed();
        let costs = l.costs(0, 2, u64::MAX >> (64 - 9));
        assert_eq!(Lookahead::any_facing(&costs, 3), 2);
        assert_eq!(costs[3][1], 4);
        assert_eq!(l.home_costs(u64::MAX >> (64 - 9))[3][1], 1);
        assert_eq!(l.home_costs(u64::MAX >> (64 - 9))[3][0], 3);
    }

    #[test]
    fn the_root_weighs_the_same_options_as_the_search_below_it_shots_included() {
        // A breeze and a stench at the start of a 3x3: every step may kill, and a shot first
        // is worth more than any step (the exact optimum shoots here). The agent's choices
        // at the root must be the search's own: their best is the value of the sight.
        let topology = Topology::grid(3, 3).unwrap();
        let l = Lookahead::new(&topology, 0.2, Scoring::Standard)
            .unwrap()
            .with_budget(usize::MAX);
        let mut s = l.blank();
        l.visit(&mut s, 0, true, true);
        let valued = l.weigh(&s, 8);
        assert_eq!(valued.depth, 8);
        let best_step = valued.steps.iter().map(|x| x.1).fold(f64::MIN, f64::max);
        let best_shot = valued.shots.iter().map(|x| x.3).fold(f64::MIN, f64::max);
        assert!(best_shot > best_step.max(valued.climb), "{valued:?}");
        let searched = l.value(&s, 7, &mut Cache::new(usize::MAX));
        assert!(
            (best_shot - searched).abs() < 1e-9,
            "{best_shot} {searched}"
        );
        // The two shots from the start each cross one of its neighbours: a kill one time in
        // two.
        assert_eq!(valued.shots.len(), 2);
        assert!(valued.shots.iter().all(|x| (x.2 - 0.5).abs() < 1e-12));
    }

    #[test]
    fn the_sights_odds_are_the_exact_posterior() {
        // 2x2 by hand: breeze and no stench at the start, stench and no breeze at 0,1: the pit
        // is at 1,0 and the wumpus at 1,1, for sure.
        let topology = Topology::grid(2, 2).unwrap();
        let l = Lookahead::new(&topology, 0.2, Scoring::Standard).unwrap();
        let mut s = l.blank();
        l.visit(&mut s, 0, true, false);
        l.visit(&mut s, 1, false, true);
        assert_eq!(l.odds(&s, 2), (1.0, 0.0));
        assert_eq!(l.odds(&s, 3), (0.0, 1.0));
        // One breeze at the start alone: either neighbour, P = 0.2 / (1 - 0.8²) each.
        let mut s = l.blank();
        l.visit(&mut s, 0, true, true);
        let (pit, wumpus) = l.odds(&s, 1);
        assert!((pit - 0.2 / (1.0 - 0.64)).abs() < 1e-12);
        assert!((wumpus - 0.5).abs() < 1e-12);
    }
}
