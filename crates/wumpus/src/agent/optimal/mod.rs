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
//! What a belief is worth depends on the points spent before it: under AIMA's scoring every
//! ending is charged them, but under the standard scoring a death scores 0 whatever was spent,
//! so a player deep in debt may rightly risk more. Each fixed policy's worth is a line in the
//! spend, and a belief's worth the upper envelope of the lines of the policies best somewhere
//! ([`Worth`]): each belief is solved once for every spend, and the spend stays out of the
//! table's key. The values are solved once for the whole game (the first call of
//! [`OptimalSolver::game_value`] or of a decision solves it, or reads them from a cache file,
//! [`OptimalSolver::with_cache`]) and shared, read-only, by every game of a batch and every
//! thread; they are the same whatever the number of threads.
//!
//! The textbook's rules of movement ([`Moves::Heading`]) are played by
//! [`HeadedOptimalAgent`]: the same player, its walks costed in poses (a cell and a heading),
//! its compass steps carried out with the fewest turns.

use super::grid::odds::PitPosterior;
use super::{Choice, Decision, Reason, Rule};
use crate::grid::{Action, Percepts, Scoring};
use crate::topology::{Direction, Place, Topology};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

mod agent;
mod cache;
mod known;
mod model;
mod solver;
mod worth;
pub use agent::{HeadedOptimalAgent, OptimalAgent};
pub use cache::{default_cache_dir, CacheEvent, SOLVER_VERSION};
pub use known::{
    best_course_score, best_mean_score, best_textbook_range, best_textbook_score, BestScore,
};
pub use solver::OptimalSolver;
pub use worth::{Line, Worth};

/// The most cells the optimal agent solves: 4x4 takes about 45 s and 1.8 GB under the standard
/// scoring, 30 s and 0.9 GB under the textbook's rules, once per machine with a cache folder
/// (`docs/agents.md`); the belief states grow two- to threefold with each cell, so 4x5 would
/// need tens of GB.
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
/// Headings in the mirror image across the diagonal through the start (north, one row up,
/// becomes east, one column along).
const MIRROR: [usize; 4] = [2, 3, 0, 1];

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
    /// The table's key for this belief.
    fn key(&self) -> u128 {
        self.visited as u128
            | (self.breeze as u128) << 32
            | (self.wumpus as u128) << 64
            | (self.arrow as u128) << 96
            | (self.at as u128) << 97
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

/// One plan weighed in a belief state, with what it is worth (at every spend, or at one).
#[derive(Clone, Debug)]
pub(super) struct Weighed<W> {
    plan: Plan,
    worth: W,
    pit: f64,
    wumpus: f64,
    kill: f64,
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
    /// The most points a game can have spent: worths are kept exact from 0 to this.
    horizon: f64,
}

/// The values solved so far and the pit posteriors they needed.
#[derive(Default)]
struct Table {
    values: FxHashMap<u128, Worth>,
    pits: FxHashMap<u64, Arc<PitPosterior>>,
}

/// The exact value of the whole game and what solving it took.
#[derive(Clone, Copy, Debug)]
pub struct GameValue {
    /// The value at the start, averaged over the start cell's percepts.
    pub value: Value,
    /// Belief states solved (a belief and its mirror image count once).
    pub states: usize,
    /// Seconds the solve took.
    pub seconds: f64,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{GridGame, GridWorld};
    use known::{KNOWN_VALUES, TEXTBOOK_VALUES};

    /// The mean of `score` over every world of a small grid, each weighted by its prior
    /// probability (pits at `pit`, the wumpus and the gold anywhere but the start).
    fn prior_mean(
        rows: usize,
        cols: usize,
        pit: f64,
        mut score: impl FnMut(GridWorld) -> f64,
    ) -> f64 {
        let topology = Arc::new(Topology::grid(rows, cols).unwrap());
        let cells = rows * cols;
        let others = cells - 1;
        let at = |i: usize| (i / cols, i % cols);
        let mut mean = 0.0;
        for layout in 0u32..(1 << others) {
            let pits: Vec<(usize, usize)> = (1..cells)
                .filter(|i| layout >> (i - 1) & 1 == 1)
                .map(at)
                .collect();
            let k = pits.len() as i32;
            let p_pits = pit.powi(k) * (1.0 - pit).powi(others as i32 - k);
            for w in 1..cells {
                for g in 1..cells {
                    let world = GridWorld::new(topology.clone(), &pits, at(w), at(g)).unwrap();
                    mean += p_pits / (others * others) as f64 * score(world);
                }
            }
        }
        mean
    }

    /// Plays the optimal agent in every world of a small grid: its prior-weighted mean score
    /// and the solver's value of the game. No game may run on without end.
    fn policy_mean(rows: usize, cols: usize, pit: f64, scoring: Scoring) -> (f64, f64) {
        let solver = Arc::new(OptimalSolver::new(
            Model::new(rows, cols, pit, scoring).unwrap(),
        ));
        let mean = prior_mean(rows, cols, pit, |world| {
            let mut game = GridGame::new(world);
            let mut agent = OptimalAgent::new(solver.clone(), false);
            agent.observe_percepts(None, &game.start().percepts);
            while game.outcome().is_none() {
                assert!(game.moves() < 200, "a game without end");
                let action = agent.choose().action;
                let shown = game.act(action).percepts;
                agent.observe_percepts(Some(action), &shown);
            }
            game.score(scoring).unwrap() as f64
        });
        (mean, solver.game_value().value.score)
    }

    /// [`policy_mean`] under the textbook's rules: the heading agent in an [`AimaSession`].
    fn headed_policy_mean(rows: usize, cols: usize) -> (f64, f64) {
        use crate::agent::Agent;
        use crate::game::Session;
        use crate::grid::aima::AimaSession;
        use crate::grid::GridSession;
        let model = Model::new(rows, cols, 0.2, Scoring::Aima)
            .unwrap()
            .with_moves(Moves::Heading);
        let solver = Arc::new(OptimalSolver::new(model));
        let mean = prior_mean(rows, cols, 0.2, |world| {
            let mut game = AimaSession::new(GridSession::new(world, Scoring::Aima, 0.2));
            let mut agent = HeadedOptimalAgent::new(solver.clone(), false);
            let mut shown = game.start();
            let mut last = None;
            while game.ending().is_none() {
                agent.observe(last.as_ref(), &shown).unwrap();
                assert!(game.moves() < 300, "a game without end");
                let action = agent.decide().action;
                shown = game.act(&action);
                last = Some(action);
            }
            game.score().unwrap() as f64
        });
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
    fn the_textbook_policy_played_in_every_world_scores_its_value() {
        for (rows, cols) in [(2, 3), (3, 3)] {
            let (played, value) = headed_policy_mean(rows, cols);
            assert!(
                (played - value).abs() < 1e-9 * value.abs(),
                "{rows}x{cols}: played {played}, value {value}"
            );
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
    fn the_course_deal_has_a_bound_not_an_exact_value() {
        let Some(BestScore::AtMost(course)) = best_course_score(0.2) else {
            panic!("a bound on the course's deal");
        };
        // Its sizes' bounds run from about 210 (7x7) to about 400 (4 columns or rows, pits
        // only in the 4x4 block), a quarter of its worlds 4x4 at 345.57 (docs/agents.md).
        assert!((300.0..400.0).contains(&course), "{course}");
        assert_eq!(best_course_score(0.3), None);
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
        agent.observe_percepts(
            None,
            &Percepts {
                breeze: true,
                ..Percepts::default()
            },
        );
        let d = agent.choose();
        assert_eq!(d.action, Action::Climb);
        assert_eq!(d.choices.len(), 1);
    }
}
