//! The optimal player of small grids (`--agent optimal`): the exact best policy of the real
//! grid game, found by expectimax over belief states and played move by move.
//!
//! The game is a POMDP whose belief factorises: pits, the wumpus and the gold have
//! independent priors and each percept speaks of one of them (breeze of pits, stench and the
//! scream of the wumpus, glint of the gold), so a [`Belief`] — the visited cells, where breeze
//! was felt, the cells the live wumpus may still be in (none once it is dead), whether the
//! arrow is left, and where the player stands — fixes the posterior. The pit posterior is
//! counted over the fringe (unvisited neighbours of visited cells); the cells beyond it stay at
//! the prior. Unlike the relaxation of `examples/grid_bound.rs`, nothing is free: every walk
//! over visited cells costs its moves, and the score charged is the game's own
//! ([`Scoring::score`]).
//!
//! Between two informative events a player only walks over visited cells, where nothing new
//! can be learnt, so every policy is a sequence of *plans* ([`Plan`]): walk the shortest way
//! over visited cells and step into a fringe cell, walk and fire in a direction, or walk home
//! and climb. A longer walk only costs more, and once the gold is grabbed the rest is the
//! shortest walk home and the climb; so the optimum over plans is the optimum of the game.
//! How a walk is costed lives in one place (`Model::walks`), the player's [`Pose`] being a
//! cell today: the textbook's heading (turns cost a move, the arrow flies where the player
//! faces) would make the pose a cell and a heading, and change only the walks and the shots.
//!
//! Under AIMA's scoring every ending is charged the moves made, so a state's value is its
//! value from zero cost minus the cost so far, and the cost is left out of the table's key.
//! Under the standard scoring a death scores 0 whatever was spent, so the best choice can
//! depend on the cost so far (a player deep in debt risks more), and the cost is part of the
//! key. The values are solved once for the whole game (the first call of
//! [`OptimalSolver::game_value`] or of a decision solves it) and shared, read-only, by every
//! game of a batch and every thread; they are the same whatever the number of threads.

use super::{Choice, Decision, Reason, Rule};
use crate::grid::{Action, Percepts, Scoring};
use crate::topology::{Direction, Place, Topology};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

mod known;
pub use known::{best_mean_score, best_textbook_range, best_textbook_score, BestScore};

/// The most cells the optimal agent solves: 4x4 takes 20 s and 0.44 GiB under AIMA's scoring,
/// 4 minutes and 3.1 GiB under the standard one (`docs/agents.md`), and the belief states grow
/// two- to threefold with each cell (3x4 to 4x4: forty- to eightyfold), so 4x5 would need
/// tens of GiB.
pub const MAX_CELLS: usize = 16;

/// Why the optimal agent cannot play a game.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OptimalError {
    /// The grid has too many cells to solve exactly.
    #[error(
        "the optimal agent solves grids of at most {max} cells exactly, and {rows}x{cols} has \
         {cells}: use --size 4x4 or smaller, or another agent"
    )]
    TooLarge {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// Cells.
        cells: usize,
        /// The most cells it solves.
        max: usize,
    },
    /// The topology is not a grid.
    #[error("the optimal agent plays the grid Wumpus World only")]
    NotAGrid,
}

/// Where the player stands, as far as the cost of walking goes: a cell under this game's
/// rules ([`Moves::AnyDirection`]), a cell and a heading under the textbook's
/// ([`Moves::Heading`]: `4 × cell + heading`, headings in [`Direction::ALL`]'s order).
pub type Pose = u8;

/// How the player moves and aims: what a walk and a shot cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Moves {
    /// This game's rules: a move steps in any of the four directions, and the arrow is fired
    /// in any.
    #[default]
    AnyDirection,
    /// The textbook's: the player faces a direction (east at the start); turning left or right
    /// costs a move, a move steps forward, and the arrow flies where the player faces. The
    /// game does not play these rules; the solver values them (`examples/optimal_value.rs`).
    Heading,
}

/// Headings after a turn to the left and to the right, by [`Direction::ALL`]'s order (north,
/// south, east, west).
const LEFT: [usize; 4] = [3, 2, 0, 1];
const RIGHT: [usize; 4] = [2, 3, 1, 0];
const EAST: usize = 2;

/// What the player believes, which with the priors fixes the posterior over worlds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Belief {
    /// Cells stood in, as a bit set (cell `r*cols+c` is bit `r*cols+c`).
    pub visited: u32,
    /// Visited cells where breeze was felt.
    pub breeze: u32,
    /// Cells the live wumpus may be in; empty once it is dead.
    pub wumpus: u32,
    /// True while the arrow is left.
    pub arrow: bool,
    /// Where the player stands.
    pub at: Pose,
}

impl Belief {
    /// The table's key for this belief with `spent` points of costs so far.
    fn key(&self, spent: u16) -> u128 {
        self.visited as u128
            | (self.breeze as u128) << 32
            | (self.wumpus as u128) << 64
            | (self.arrow as u128) << 96
            | (self.at as u128) << 97
            | (spent as u128) << 103
    }
}

/// The expected final score of optimal play, and the chances of winning and of dying by it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Value {
    /// Expected final score.
    pub score: f64,
    /// Chance of climbing out with the gold.
    pub win: f64,
    /// Chance of dying.
    pub death: f64,
}

impl Value {
    fn scaled(self, p: f64) -> Value {
        Value {
            score: self.score * p,
            win: self.win * p,
            death: self.death * p,
        }
    }

    fn plus(self, o: Value) -> Value {
        Value {
            score: self.score + o.score,
            win: self.win + o.win,
            death: self.death + o.death,
        }
    }
}

/// A table entry: the score exactly, the chances as f32 (they are only reported).
#[derive(Clone, Copy)]
struct Stored {
    score: f64,
    win: f32,
    death: f32,
}

/// What a player can do next, walking the shortest way over visited cells first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Walk home and climb out.
    Climb,
    /// Walk to visited cell `from` and step into unvisited cell `into`.
    Step {
        /// The fringe cell entered.
        into: u8,
        /// The visited neighbour it is entered from.
        from: u8,
    },
    /// Walk to visited cell `from` and fire in `dir`.
    Shoot {
        /// Where the arrow is fired from.
        from: u8,
        /// Which way it flies.
        dir: Direction,
    },
}

/// One plan weighed in a belief state, with what it is worth.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    /// The plan.
    pub plan: Plan,
    /// Its value: the expected final score with optimal play after it.
    pub value: Value,
    /// Chance of a pit where a step leads.
    pub pit: f64,
    /// Chance of the live wumpus where a step leads.
    pub wumpus: f64,
    /// Chance that a shot kills.
    pub kill: f64,
}

/// The pit posterior of a belief: P(pit) for each cell, and P(no pit in a cell and none next
/// to it), from which the chance of breeze on entering follows.
#[derive(Debug)]
struct PitPosterior {
    pit: Vec<f64>,
    clear_and_calm: Vec<f64>,
    /// False when no pit layout fits the breezes felt (a world the prior cannot deal, such as a
    /// world file with pits played at pit probability 0).
    possible: bool,
}

/// The game's geometry, priors and scoring, and how each plan changes the belief.
#[derive(Debug)]
pub struct Model {
    rows: usize,
    cols: usize,
    cells: usize,
    neighbours: Vec<u32>,
    /// Cells whose stench the wumpus in this cell causes: its neighbours and itself.
    smells: Vec<u32>,
    /// For each cell, the cells an arrow fired from it crosses, by [`Direction::ALL`].
    rays: Vec<[u32; 4]>,
    pit: f64,
    scoring: Scoring,
    moves: Moves,
}

/// The values solved so far and the pit posteriors they needed.
#[derive(Default)]
struct Table {
    values: FxHashMap<u128, Stored>,
    pits: FxHashMap<u64, Arc<PitPosterior>>,
}

/// The exact value of the whole game and what solving it took.
#[derive(Clone, Copy, Debug)]
pub struct GameValue {
    /// The value at the start, averaged over the start cell's percepts.
    pub value: Value,
    /// Belief states (with their costs, under the standard scoring) solved.
    pub states: usize,
    /// Seconds the solve took.
    pub seconds: f64,
}

impl Model {
    /// The model of a `rows`×`cols` grid at pit probability `pit`, scored by `scoring`.
    pub fn new(
        rows: usize,
        cols: usize,
        pit: f64,
        scoring: Scoring,
    ) -> Result<Model, OptimalError> {
        let cells = rows * cols;
        if cells > MAX_CELLS {
            return Err(OptimalError::TooLarge {
                rows,
                cols,
                cells,
                max: MAX_CELLS,
            });
        }
        let mut neighbours = vec![0u32; cells];
        let mut rays = vec![[0u32; 4]; cells];
        for r in 0..rows {
            for c in 0..cols {
                let i = r * cols + c;
                for (d, dir) in Direction::ALL.into_iter().enumerate() {
                    let (dr, dc) = dir.delta();
                    let (mut rr, mut cc) = (r as i64 + dr, c as i64 + dc);
                    let on = |rr: i64, cc: i64| {
                        rr >= 0 && cc >= 0 && (rr as usize) < rows && (cc as usize) < cols
                    };
                    if on(rr, cc) {
                        neighbours[i] |= 1 << (rr as usize * cols + cc as usize);
                    }
                    while on(rr, cc) {
                        rays[i][d] |= 1 << (rr as usize * cols + cc as usize);
                        rr += dr;
                        cc += dc;
                    }
                }
            }
        }
        let smells = (0..cells).map(|i| neighbours[i] | 1 << i).collect();
        Ok(Model {
            rows,
            cols,
            cells,
            neighbours,
            smells,
            rays,
            pit: pit.clamp(0.0, 1.0),
            scoring,
            moves: Moves::AnyDirection,
        })
    }

    /// The same game under other rules of movement.
    pub fn with_moves(self, moves: Moves) -> Model {
        Model { moves, ..self }
    }

    /// The rules of movement.
    pub fn moves(&self) -> Moves {
        self.moves
    }

    /// The model of a game on `topology`.
    pub fn for_topology(
        topology: &Topology,
        pit: f64,
        scoring: Scoring,
    ) -> Result<Model, OptimalError> {
        let (rows, cols) = topology.grid_size().ok_or(OptimalError::NotAGrid)?;
        Model::new(rows, cols, pit, scoring)
    }

    /// The grid's rows and columns.
    pub fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The scoring in force.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    fn all(&self) -> u32 {
        ((1u64 << self.cells) - 1) as u32
    }

    /// The table's key of `b` with `spent` spent: on a square grid a belief and its mirror
    /// image in the diagonal through the start have the same value, so they share the key of
    /// the lower of the two (half the table). With a heading the mirror would swap headings
    /// too; that model keeps every belief apart.
    fn key(&self, b: &Belief, spent: u16) -> u128 {
        let own = b.key(spent);
        if self.rows != self.cols || self.moves != Moves::AnyDirection {
            return own;
        }
        let cols = self.cols;
        let mirror_cell = |i: usize| (i % cols) * cols + i / cols;
        let mirror = |set: u32| bits(set).fold(0u32, |m, i| m | 1 << mirror_cell(i));
        let image = Belief {
            visited: mirror(b.visited),
            breeze: mirror(b.breeze),
            wumpus: mirror(b.wumpus),
            arrow: b.arrow,
            at: mirror_cell(b.at as usize) as Pose,
        };
        own.min(image.key(spent))
    }

    fn reach(&self, set: u32) -> u32 {
        bits(set).fold(0, |out, i| out | self.neighbours[i])
    }

    /// True when every ending charges the moves made, so costs add up and leave the choices
    /// alone.
    fn costs_always_charged(&self) -> bool {
        self.scoring == Scoring::Aima
    }

    /// The score of climbing out without the gold, before costs.
    fn climb_out(&self) -> f64 {
        match self.scoring {
            Scoring::Standard => 100.0,
            Scoring::Aima => 0.0,
        }
    }

    /// The score of dying after spending `spent`.
    fn death(&self, spent: f64) -> f64 {
        match self.scoring {
            Scoring::Standard => 0.0,
            Scoring::Aima => -1000.0 - spent,
        }
    }

    /// The pose of a player in `cell` ready to step or fire in direction `d` (an index into
    /// [`Direction::ALL`]).
    fn facing(&self, cell: usize, d: usize) -> usize {
        match self.moves {
            Moves::AnyDirection => cell,
            Moves::Heading => 4 * cell + d,
        }
    }

    /// The fewest moves from pose `from` to each pose walking over `over` only (`u16::MAX`
    /// where it cannot get). This is the move model: every move costs one, a turn included.
    fn walks(&self, from: Pose, over: u32) -> Vec<u16> {
        let poses = match self.moves {
            Moves::AnyDirection => self.cells,
            Moves::Heading => 4 * self.cells,
        };
        let mut dist = vec![u16::MAX; poses];
        let mut queue = VecDeque::from([from as usize]);
        dist[from as usize] = 0;
        let mut next = Vec::with_capacity(4);
        while let Some(p) = queue.pop_front() {
            next.clear();
            match self.moves {
                Moves::AnyDirection => next.extend(bits(self.neighbours[p] & over)),
                Moves::Heading => {
                    let (cell, h) = (p / 4, p % 4);
                    next.push(4 * cell + LEFT[h]);
                    next.push(4 * cell + RIGHT[h]);
                    let ahead = self.neighbours[cell] & self.rays[cell][h] & over;
                    next.extend(bits(ahead).map(|c| 4 * c + h));
                }
            }
            for &n in &next {
                if dist[n] == u16::MAX {
                    dist[n] = dist[p] + 1;
                    queue.push_back(n);
                }
            }
        }
        dist
    }

    /// The fewest moves to the start cell, whatever the heading, given the walks from a pose.
    fn to_start(&self, walks: &[u16]) -> u16 {
        (0..4)
            .map(|d| walks[self.facing(0, d)])
            .min()
            .expect("four headings")
    }

    /// The index in [`Direction::ALL`] of the way from cell `from` to its neighbour `to`.
    fn heading(&self, from: usize, to: usize) -> usize {
        let dir = self.direction(from, to);
        Direction::ALL
            .iter()
            .position(|&d| d == dir)
            .expect("a direction")
    }

    /// The actions that walk from `from` to `to` over `over`, the shortest way (the lowest
    /// cell first among equals, so that play is reproducible).
    fn route(&self, from: Pose, to: usize, over: u32) -> Vec<Action> {
        let dist = self.walks(to as Pose, over | 1 << to);
        let mut here = from as usize;
        let mut actions = Vec::new();
        while here != to {
            let next = bits(self.neighbours[here] & (over | 1 << to))
                .find(|&n| dist[n] != u16::MAX && dist[n] + 1 == dist[here])
                .expect("a route over visited cells");
            actions.push(Action::Move(self.direction(here, next)));
            here = next;
        }
        actions
    }

    fn direction(&self, from: usize, to: usize) -> Direction {
        let (fr, fc) = (from / self.cols, from % self.cols);
        let (tr, tc) = (to / self.cols, to % self.cols);
        Direction::ALL
            .into_iter()
            .find(|d| {
                let (dr, dc) = d.delta();
                fr as i64 + dr == tr as i64 && fc as i64 + dc == tc as i64
            })
            .expect("neighbouring cells")
    }

    /// The belief at the start, after the start cell's percepts.
    pub fn start(&self, percepts: &Percepts) -> Belief {
        let others = self.all() & !1;
        Belief {
            visited: 1,
            breeze: percepts.breeze as u32,
            wumpus: if percepts.stench {
                others & self.smells[0]
            } else {
                others & !self.smells[0]
            },
            arrow: true,
            at: self.facing(0, EAST) as Pose,
        }
    }

    /// The pit posterior given the visited cells and the breezes felt among them.
    fn count_pits(&self, visited: u32, breeze: u32) -> PitPosterior {
        let fringe = self.reach(visited) & !visited;
        let fringe_cells: Vec<usize> = bits(fringe).collect();
        let beyond = self.all() & !visited & !fringe;
        let mut total = 0.0;
        let mut pit_mass = vec![0.0; self.cells];
        let mut calm_mass = vec![0.0; self.cells];
        for layout in 0u32..(1 << fringe_cells.len()) {
            let pits = fringe_cells
                .iter()
                .enumerate()
                .filter(|(k, _)| layout >> k & 1 == 1)
                .fold(0u32, |m, (_, &i)| m | 1 << i);
            if self.reach(pits) & visited != breeze {
                continue;
            }
            let k = layout.count_ones() as i32;
            let w = self.pit.powi(k) * (1.0 - self.pit).powi(fringe_cells.len() as i32 - k);
            total += w;
            for &i in &fringe_cells {
                if pits >> i & 1 == 1 {
                    pit_mass[i] += w;
                } else if self.neighbours[i] & pits == 0 {
                    // Calm in i: no fringe pit next to it, and its neighbours beyond the
                    // fringe pit-free at the prior.
                    let others = (self.neighbours[i] & beyond).count_ones() as i32;
                    calm_mass[i] += w * (1.0 - self.pit).powi(others);
                }
            }
        }
        let possible = total > 0.0;
        let norm = |m: Vec<f64>| -> Vec<f64> {
            m.into_iter()
                .map(|x| if possible { x / total } else { 0.0 })
                .collect()
        };
        let mut pit = norm(pit_mass);
        // Cells beyond the fringe keep the prior.
        for i in bits(beyond) {
            pit[i] = self.pit;
        }
        PitPosterior {
            pit,
            clear_and_calm: norm(calm_mass),
            possible,
        }
    }

    /// The chance of smelling the wumpus on entering cell `i` (having survived it) or not,
    /// with the cells the live wumpus may then be in.
    fn smell_outcomes(&self, i: usize, wumpus: u32) -> [(f64, u32); 2] {
        if wumpus == 0 {
            return [(1.0, 0), (0.0, 0)];
        }
        let after = wumpus & !(1 << i);
        let smelly = after & self.smells[i];
        let p_smell = smelly.count_ones() as f64 / after.count_ones() as f64;
        [(p_smell, smelly), (1.0 - p_smell, after & !smelly)]
    }

    /// Every plan open in `belief` after spending `spent`, with its value, given the pit
    /// posterior and the value of each belief it may lead to (`child`, with the cost spent
    /// by then). Climbing is always first; ties go to the earlier plan.
    fn candidates(
        &self,
        belief: &Belief,
        spent: u16,
        pits: &PitPosterior,
        child: &mut dyn FnMut(&Belief, u16) -> Value,
    ) -> Vec<Candidate> {
        let b = *belief;
        let here = self.walks(b.at, b.visited);
        let home = self.walks(self.facing(0, EAST) as Pose, b.visited);
        let spent_f = spent as f64;
        let mut out = Vec::new();
        let climb_cost = (self.to_start(&here) + 1) as f64;
        out.push(Candidate {
            plan: Plan::Climb,
            value: Value {
                score: self.climb_out() - spent_f - climb_cost,
                ..Value::default()
            },
            pit: 0.0,
            wumpus: 0.0,
            kill: 0.0,
        });
        if !pits.possible {
            return out;
        }
        let unvisited = (self.all() & !b.visited).count_ones() as f64;
        let live = b.wumpus.count_ones() as f64;
        let fringe = self.reach(b.visited) & !b.visited;
        for i in bits(fringe) {
            let (walk, from, d) = bits(self.neighbours[i] & b.visited)
                .map(|j| {
                    let d = self.heading(j, i);
                    (here[self.facing(j, d)], j, d)
                })
                .min()
                .expect("a fringe cell has a visited neighbour");
            let cost = walk + 1;
            let arrived = self.facing(i, d) as Pose;
            let after = spent.saturating_add(cost);
            let p_wumpus = if b.wumpus >> i & 1 == 1 {
                1.0 / live
            } else {
                0.0
            };
            let p_pit = pits.pit[i];
            let survive = (1.0 - p_pit) * (1.0 - p_wumpus);
            let mut value = Value {
                score: (1.0 - survive) * self.death(after as f64),
                win: 0.0,
                death: 1.0 - survive,
            };
            if survive > 0.0 {
                let gold = 1.0 / unvisited;
                // Found: grab, walk home over the visited cells and this one, climb.
                let way_home = match self.moves {
                    // Walks are symmetric: the way home is the way from home, reversed.
                    Moves::AnyDirection => bits(self.neighbours[i] & b.visited)
                        .map(|j| home[j] + 1)
                        .min()
                        .expect("a visited neighbour"),
                    Moves::Heading => self.to_start(&self.walks(arrived, b.visited | 1 << i)),
                };
                let won = 1000.0 - (after as f64 + 1.0 + way_home as f64 + 1.0);
                value = value.plus(Value {
                    score: survive * gold * won,
                    win: survive * gold,
                    death: 0.0,
                });
                let calm = (pits.clear_and_calm[i] / (1.0 - p_pit)).min(1.0);
                let mut rest = Value::default();
                for (p_w, w_next) in self.smell_outcomes(i, b.wumpus) {
                    for (p_b, breezy) in [(1.0 - calm, true), (calm, false)] {
                        // Rounding leaves impossible branches a chance of about 1e-17.
                        if p_w <= 0.0 || p_b <= 1e-12 {
                            continue;
                        }
                        let next = Belief {
                            visited: b.visited | 1 << i,
                            breeze: b.breeze | (breezy as u32) << i,
                            wumpus: w_next,
                            arrow: b.arrow,
                            at: arrived,
                        };
                        rest = rest.plus(child(&next, after).scaled(p_w * p_b));
                    }
                }
                value = value.plus(rest.scaled(survive * (1.0 - gold)));
            }
            out.push(Candidate {
                plan: Plan::Step {
                    into: i as u8,
                    from: from as u8,
                },
                value,
                pit: p_pit,
                wumpus: p_wumpus,
                kill: 0.0,
            });
        }
        if b.arrow && b.wumpus != 0 {
            for from in bits(b.visited) {
                for (d, dir) in Direction::ALL.into_iter().enumerate() {
                    let line = self.rays[from][d] & b.wumpus;
                    if line == 0 {
                        continue;
                    }
                    // The walk, the shot's move and the arrow's 10.
                    let after = spent.saturating_add(here[self.facing(from, d)] + 11);
                    let p_kill = line.count_ones() as f64 / live;
                    let mut value = Value::default();
                    for (p, wumpus) in [(p_kill, 0), (1.0 - p_kill, b.wumpus & !line)] {
                        if p > 0.0 {
                            let next = Belief {
                                wumpus,
                                arrow: false,
                                at: self.facing(from, d) as Pose,
                                ..b
                            };
                            value = value.plus(child(&next, after).scaled(p));
                        }
                    }
                    out.push(Candidate {
                        plan: Plan::Shoot {
                            from: from as u8,
                            dir,
                        },
                        value,
                        pit: 0.0,
                        wumpus: 0.0,
                        kill: p_kill,
                    });
                }
            }
        }
        out
    }
}

/// The index of the best candidate: the highest expected score, the earliest among equals.
pub fn best(candidates: &[Candidate]) -> usize {
    let mut best = 0;
    for (k, c) in candidates.iter().enumerate() {
        if c.value.score > candidates[best].value.score {
            best = k;
        }
    }
    best
}

/// The cells of a bit set, lowest first.
fn bits(mut set: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}

/// The value of `belief` after spending `spent`, from `base` when it holds it, otherwise
/// solved into `table`.
fn solve(model: &Model, base: Option<&Table>, table: &mut Table, b: &Belief, spent: u16) -> Value {
    let keyed = if model.costs_always_charged() {
        0
    } else {
        spent
    };
    let shift = (spent - keyed) as f64;
    let key = model.key(b, keyed);
    if let Some(s) = base
        .and_then(|t| t.values.get(&key))
        .or_else(|| table.values.get(&key))
    {
        return Value {
            score: s.score - shift,
            win: s.win as f64,
            death: s.death as f64,
        };
    }
    let pits = pit_posterior(model, base, table, b.visited, b.breeze);
    let candidates = model.candidates(b, keyed, &pits, &mut |next, after| {
        solve(model, base, table, next, after)
    });
    let v = candidates[best(&candidates)].value;
    table.values.insert(
        key,
        Stored {
            score: v.score,
            win: v.win as f32,
            death: v.death as f32,
        },
    );
    Value {
        score: v.score - shift,
        ..v
    }
}

fn pit_posterior(
    model: &Model,
    base: Option<&Table>,
    table: &mut Table,
    visited: u32,
    breeze: u32,
) -> Arc<PitPosterior> {
    let key = (visited as u64) << 32 | breeze as u64;
    if let Some(p) = base.and_then(|t| t.pits.get(&key)) {
        return p.clone();
    }
    table
        .pits
        .entry(key)
        .or_insert_with(|| Arc::new(model.count_pits(visited, breeze)))
        .clone()
}

/// The model and its solved values, shared by every game of a batch.
pub struct OptimalSolver {
    model: Model,
    solved: OnceLock<(Table, GameValue)>,
}

impl OptimalSolver {
    /// A solver for `model`; nothing is solved until asked.
    pub fn new(model: Model) -> OptimalSolver {
        OptimalSolver {
            model,
            solved: OnceLock::new(),
        }
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The exact value of the game, solving it on first call (every thread asking meanwhile
    /// waits for the one solve).
    pub fn game_value(&self) -> GameValue {
        self.solved().1
    }

    fn solved(&self) -> &(Table, GameValue) {
        self.solved.get_or_init(|| {
            let started = Instant::now();
            let m = &self.model;
            let mut table = Table::default();
            let p_calm = (1.0 - m.pit).powi(m.neighbours[0].count_ones() as i32);
            let p_smell = (m.smells[0] & !1).count_ones() as f64 / (m.cells - 1) as f64;
            let mut value = Value::default();
            for (p_s, stench) in [(p_smell, true), (1.0 - p_smell, false)] {
                for (p_b, breeze) in [(1.0 - p_calm, true), (p_calm, false)] {
                    if p_s * p_b <= 0.0 {
                        continue;
                    }
                    let start = m.start(&Percepts {
                        breeze,
                        stench,
                        ..Percepts::default()
                    });
                    let v = solve(m, None, &mut table, &start, 0);
                    value = value.plus(v.scaled(p_s * p_b));
                }
            }
            let game = GameValue {
                value,
                states: table.values.len(),
                seconds: started.elapsed().as_secs_f64(),
            };
            (table, game)
        })
    }

    /// The plans open in `belief` after spending `spent`, valued; `local` keeps what had to
    /// be solved afresh (a belief the game's solve never reached, such as one a person's
    /// detour led to).
    fn candidates(&self, belief: &Belief, spent: u16, local: &mut Table) -> Vec<Candidate> {
        let (table, _) = self.solved();
        let m = &self.model;
        let pits = pit_posterior(m, Some(table), local, belief.visited, belief.breeze);
        m.candidates(belief, spent, &pits, &mut |next, after| {
            solve(m, Some(table), local, next, after)
        })
    }
}

/// The optimal player of one game.
pub struct OptimalAgent {
    solver: Arc<OptimalSolver>,
    explain: bool,
    belief: Belief,
    /// Moves made plus 10 once the arrow is fired: what every ending but a standard-scoring
    /// death is charged.
    spent: u16,
    /// Where the gold glints, seen and not yet grabbed.
    gold_seen: Option<usize>,
    has_gold: bool,
    /// The rest of the plan under way, and why it was chosen.
    plan: VecDeque<Action>,
    planned: Option<Reason>,
    local: Table,
}

impl OptimalAgent {
    /// A player sharing `solver`'s values. It plays this game, whose moves go in any
    /// direction: a solver of the textbook's heading rules values them but cannot play here.
    pub fn new(solver: Arc<OptimalSolver>, explain: bool) -> OptimalAgent {
        debug_assert_eq!(solver.model.moves, Moves::AnyDirection);
        let belief = solver.model.start(&Percepts::default());
        OptimalAgent {
            solver,
            explain,
            belief,
            spent: 0,
            gold_seen: None,
            has_gold: false,
            plan: VecDeque::new(),
            planned: None,
            local: Table::default(),
        }
    }

    /// Where the player stands.
    pub fn position(&self) -> Place {
        Place::new(self.belief.at as usize)
    }

    /// What the player believes.
    pub fn belief(&self) -> Belief {
        self.belief
    }

    /// The chances of a pit and of the live wumpus in each unvisited cell, from the belief
    /// (cells beyond the fringe at the prior), in cell order.
    pub fn odds(&self) -> Vec<(Place, f64, f64)> {
        let m = &self.solver.model;
        let b = self.belief;
        let pits = m.count_pits(b.visited, b.breeze);
        let live = b.wumpus.count_ones() as f64;
        bits(m.all() & !b.visited)
            .map(|i| {
                let wumpus = if b.wumpus >> i & 1 == 1 {
                    1.0 / live
                } else {
                    0.0
                };
                (Place::new(i), pits.pit[i], wumpus)
            })
            .collect()
    }

    /// Takes in the player's last action (`None` at the start) and the percepts after it.
    pub fn observe(&mut self, last: Option<Action>, p: &Percepts) {
        let Some(action) = last else {
            *self = OptimalAgent::new(self.solver.clone(), self.explain);
            self.belief = self.solver.model.start(p);
            return;
        };
        let solver = self.solver.clone();
        let m = &solver.model;
        if self.plan.front() == Some(&action) {
            self.plan.pop_front();
        } else {
            self.plan.clear();
            self.planned = None;
        }
        self.spent = self.spent.saturating_add(1);
        let b = &mut self.belief;
        match action {
            Action::Move(dir) => {
                if p.bump {
                    return;
                }
                let at = b.at as usize;
                let d = dir.index();
                let next = bits(m.neighbours[at] & m.rays[at][d]).next();
                let Some(next) = next else { return };
                b.at = next as Pose;
                if b.visited >> next & 1 == 0 {
                    b.visited |= 1 << next;
                    b.breeze |= (p.breeze as u32) << next;
                    if b.wumpus != 0 {
                        let after = b.wumpus & !(1 << next);
                        b.wumpus = if p.stench {
                            after & m.smells[next]
                        } else {
                            after & !m.smells[next]
                        };
                    }
                    if p.glint {
                        self.gold_seen = Some(next);
                    }
                }
            }
            Action::Fire(dir) => {
                if b.arrow {
                    b.arrow = false;
                    self.spent = self.spent.saturating_add(10);
                    let d = dir.index();
                    b.wumpus = if p.scream {
                        0
                    } else {
                        b.wumpus & !m.rays[b.at as usize][d]
                    };
                }
            }
            Action::Grab => {
                if self.gold_seen == Some(b.at as usize) {
                    self.has_gold = true;
                    self.gold_seen = None;
                }
            }
            Action::Climb => {}
        }
    }

    /// The next action and why, with every plan weighed and its expected final score.
    pub fn decide(&mut self) -> Decision<Action> {
        let m = &self.solver.model;
        let b = self.belief;
        let reason = |rule, target: Option<usize>, steps: usize, text: String| Reason {
            rule,
            target: target.map(Place::new),
            steps,
            text,
        };
        let simple = |action, reason| Decision {
            action,
            reason,
            choices: Vec::new(),
            depth: None,
        };
        if self.has_gold {
            if b.at == 0 {
                return simple(
                    Action::Climb,
                    reason(Rule::Climb, None, 0, "climb out with the gold".into()),
                );
            }
            let route = m.route(b.at, 0, b.visited);
            return simple(
                route[0],
                reason(
                    Rule::ReturnWithGold,
                    Some(0),
                    route.len(),
                    "carry the gold home the shortest way over visited cells".into(),
                ),
            );
        }
        if let Some(g) = self.gold_seen {
            if g == b.at as usize {
                return simple(
                    Action::Grab,
                    reason(Rule::GrabGold, Some(g), 0, "grab the gold".into()),
                );
            }
            let route = m.route(b.at, g, b.visited);
            return simple(
                route[0],
                reason(
                    Rule::GrabGold,
                    Some(g),
                    route.len(),
                    "walk back to the gold".into(),
                ),
            );
        }
        if let (Some(&action), Some(reason)) = (self.plan.front(), &self.planned) {
            // On the way over visited cells nothing new is learnt: the plan chosen stands, and
            // its choices were shown when it was chosen (their values have moved by the moves
            // made since).
            return Decision {
                action,
                reason: Reason {
                    steps: self.plan.len(),
                    text: format!("on the way: {}", reason.text),
                    ..reason.clone()
                },
                choices: Vec::new(),
                depth: None,
            };
        }
        let candidates = self.solver.candidates(&b, self.spent, &mut self.local);
        let chosen = best(&candidates);
        let label = |i: usize| format!("{},{}", i / m.cols, i % m.cols);
        let words = |c: &Candidate| match c.plan {
            Plan::Climb => "walk home and climb out".to_string(),
            Plan::Step { into, .. } => format!("step into {}", label(into as usize)),
            Plan::Shoot { from, dir } => format!("shoot {dir} from {}", label(from as usize)),
        };
        let c = candidates[chosen];
        let (mut actions, rule, target) = match c.plan {
            Plan::Climb => {
                let mut a = m.route(b.at, 0, b.visited);
                a.push(Action::Climb);
                let rule = if b.at == 0 {
                    Rule::Climb
                } else {
                    Rule::ReturnEmptyHanded
                };
                (a, rule, Some(0))
            }
            Plan::Step { into, from } => {
                let mut a = m.route(b.at, from as usize, b.visited);
                a.push(Action::Move(m.direction(from as usize, into as usize)));
                let safe = c.pit <= 0.0 && c.wumpus <= 0.0;
                (
                    a,
                    if safe { Rule::Explore } else { Rule::Gamble },
                    Some(into as usize),
                )
            }
            Plan::Shoot { from, dir } => {
                let mut a = m.route(b.at, from as usize, b.visited);
                a.push(Action::Fire(dir));
                let rule = if c.kill >= 1.0 {
                    Rule::ShootWumpus
                } else {
                    Rule::ProbeShot
                };
                (a, rule, Some(from as usize))
            }
        };
        let text = format!(
            "{}: the best expected final score, {:.2} (wins {:.1}%, dies {:.1}%), by exact \
             look-ahead to the end of the game",
            words(&c),
            c.value.score,
            100.0 * c.value.win,
            100.0 * c.value.death
        );
        let why = reason(rule, target, actions.len(), text);
        let choices = if self.explain {
            candidates
                .iter()
                .enumerate()
                .map(|(k, x)| Choice {
                    place: match x.plan {
                        Plan::Climb => Some(Place::new(0)),
                        Plan::Step { into, .. } => Some(Place::new(into as usize)),
                        Plan::Shoot { from, .. } => Some(Place::new(from as usize)),
                    },
                    expected: Some(x.value.score),
                    risk: matches!(x.plan, Plan::Step { .. })
                        .then_some(1.0 - (1.0 - x.pit) * (1.0 - x.wumpus)),
                    pit: matches!(x.plan, Plan::Step { .. }).then_some(x.pit),
                    wumpus: matches!(x.plan, Plan::Step { .. }).then_some(x.wumpus),
                    kill: matches!(x.plan, Plan::Shoot { .. }).then_some(x.kill),
                    chosen: k == chosen,
                    ..Choice::new(words(x))
                })
                .collect()
        } else {
            Vec::new()
        };
        let action = actions[0];
        self.plan = actions.drain(..).collect();
        self.planned = Some(why.clone());
        Decision {
            action,
            reason: why,
            choices,
            depth: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{GridGame, GridWorld};
    use known::{KNOWN_VALUES, TEXTBOOK_VALUES};

    /// Plays the optimal agent in every world of a small grid, each weighted by its prior
    /// probability: the mean score must be the solver's value of the game, and no game may
    /// run on without end.
    fn policy_mean(rows: usize, cols: usize, pit: f64, scoring: Scoring) -> (f64, f64) {
        let topology = Arc::new(Topology::grid(rows, cols).unwrap());
        let solver = Arc::new(OptimalSolver::new(
            Model::new(rows, cols, pit, scoring).unwrap(),
        ));
        let cells = rows * cols;
        let others = cells - 1;
        let mut mean = 0.0;
        for layout in 0u32..(1 << others) {
            let pits: Vec<(usize, usize)> = (1..cells)
                .filter(|i| layout >> (i - 1) & 1 == 1)
                .map(|i| (i / cols, i % cols))
                .collect();
            let k = pits.len() as i32;
            let p_pits = pit.powi(k) * (1.0 - pit).powi(others as i32 - k);
            for w in 1..cells {
                for g in 1..cells {
                    let at = |i: usize| (i / cols, i % cols);
                    let world = GridWorld::new(topology.clone(), &pits, at(w), at(g)).unwrap();
                    let mut game = GridGame::new(world);
                    let mut agent = OptimalAgent::new(solver.clone(), false);
                    agent.observe(None, &game.start().percepts);
                    while game.outcome().is_none() {
                        assert!(game.moves() < 200, "a game without end");
                        let action = agent.decide().action;
                        let shown = game.act(action).percepts;
                        agent.observe(Some(action), &shown);
                    }
                    let score = game.score(scoring).unwrap() as f64;
                    mean += p_pits / (others * others) as f64 * score;
                }
            }
        }
        (mean, solver.game_value().value.score)
    }

    #[test]
    fn the_policy_played_in_every_world_scores_the_value() {
        for (rows, cols) in [(2, 3), (3, 3)] {
            for scoring in [Scoring::Standard, Scoring::Aima] {
                let (played, value) = policy_mean(rows, cols, 0.2, scoring);
                assert!(
                    (played - value).abs() < 1e-9 * value.abs(),
                    "{rows}x{cols} {}: played {played}, value {value}",
                    scoring.name()
                );
            }
        }
    }

    #[test]
    fn the_tabled_values_are_the_solved_ones() {
        for &(rows, cols, scoring, tabled) in &KNOWN_VALUES {
            if rows * cols > 12 {
                continue; // Seconds to minutes each: examples/optimal_value.rs recomputes them.
            }
            let model = Model::new(rows, cols, 0.2, scoring).unwrap();
            let solved = OptimalSolver::new(model).game_value().value.score;
            assert!((solved - tabled).abs() < 5e-5, "{rows}x{cols}: {solved}");
            assert_eq!(best_mean_score(cols, rows, 0.2, scoring), Some(tabled));
        }
        assert_eq!(best_mean_score(3, 3, 0.3, Scoring::Aima), None);
    }

    #[test]
    fn square_sizes_dealt_alike_have_a_bound_not_an_exact_value() {
        // Square 4x4 to 7x7 dealt alike: 4x4 exact, the rest bounded, so the mean is a bound.
        let BestScore::AtMost(mixed) = best_textbook_range(4, 7, 0.2).unwrap() else {
            panic!("a bound, not an exact value");
        };
        assert!((mixed - 276.13).abs() < 0.005, "{mixed}");
        assert_eq!(
            best_textbook_range(2, 3, 0.2),
            Some(BestScore::Exact((514.94 + 434.41) / 2.0))
        );
        assert_eq!(best_textbook_range(4, 8, 0.2), None);
        assert_eq!(
            best_textbook_score(4, 3, 0.2),
            Some(BestScore::Exact(389.21))
        );
        assert_eq!(best_textbook_score(5, 5, 0.3), None);
        // The textbook's exact values sit under this game's: turning costs.
        for &(rows, cols, best) in &TEXTBOOK_VALUES {
            if let (BestScore::Exact(v), Some(free)) =
                (best, best_mean_score(rows, cols, 0.2, Scoring::Aima))
            {
                assert!(v < free, "{rows}x{cols}");
            }
        }
    }

    #[test]
    fn turning_costs_under_the_textbook_heading() {
        // A turn is a move more, never a move less; and on 2x2 the textbook player, facing east
        // at the start, must turn to reach 1,0 or to fire north.
        for scoring in [Scoring::Standard, Scoring::Aima] {
            let value = |moves| {
                let model = Model::new(2, 3, 0.2, scoring).unwrap().with_moves(moves);
                OptimalSolver::new(model).game_value().value
            };
            let (free, heading) = (value(Moves::AnyDirection), value(Moves::Heading));
            assert!(heading.score < free.score, "{heading:?} {free:?}");
            assert!(free.score - heading.score < 10.0);
        }
        let m = Model::new(2, 2, 0.2, Scoring::Aima)
            .unwrap()
            .with_moves(Moves::Heading);
        let walks = m.walks(m.facing(0, EAST) as Pose, 0b1111);
        assert_eq!(walks[m.facing(0, 1)], 1, "east to south: a turn right");
        assert_eq!(walks[m.facing(0, 3)], 2, "east to west: two turns");
        assert_eq!(walks[m.facing(1, EAST)], 1, "one step east");
        assert_eq!(walks[m.facing(2, 0)], 2, "turn left, step north");
        assert_eq!(walks[m.facing(3, 0)], 3, "east, turn left, north");
    }

    #[test]
    fn too_large_a_grid_is_refused() {
        assert!(matches!(
            Model::new(4, 5, 0.2, Scoring::Standard),
            Err(OptimalError::TooLarge { cells: 20, .. })
        ));
        assert!(Model::new(4, 4, 0.2, Scoring::Aima).is_ok());
    }

    #[test]
    fn an_impossible_belief_leaves_only_the_climb() {
        // Pit probability 0, yet breeze at the start (a world file with pits).
        let solver = OptimalSolver::new(Model::new(2, 2, 0.0, Scoring::Aima).unwrap());
        let mut agent = OptimalAgent::new(Arc::new(solver), true);
        agent.observe(
            None,
            &Percepts {
                breeze: true,
                ..Percepts::default()
            },
        );
        let d = agent.decide();
        assert_eq!(d.action, Action::Climb);
        assert_eq!(d.choices.len(), 1);
    }
}
