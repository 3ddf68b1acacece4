//! What is known of the best mean score any player can expect on the grid: the exact values
//! the optimal agent's solver found ([`super::OptimalSolver::game_value`]), and under the
//! textbook's rules on grids too large to solve, the upper bounds of
//! `examples/tournament_bound.rs` (on the square deal, and on the course tournament's). `solve`
//! prints them beside a batch's figures (`crate::run::best`); the solver's tests check the
//! tabled values against it.

use crate::grid::Scoring;

/// The exact value of the real game (the best mean score any player can expect) on a
/// `rows`×`cols` grid at pit probability 0.2 under `scoring`, where it has been solved:
/// [`OptimalSolver::game_value`](super::OptimalSolver::game_value)'s figures, recomputed by the unit tests (up to 12 cells) and
/// by `examples/optimal_value.rs` (the larger; `docs/agents.md`). `None` elsewhere.
pub fn best_mean_score(rows: usize, cols: usize, pit_prob: f64, scoring: Scoring) -> Option<f64> {
    if pit_prob != 0.2 {
        return None;
    }
    // The grid and its transpose are the same game seen in a mirror.
    let (a, b) = (rows.min(cols), rows.max(cols));
    KNOWN_VALUES
        .iter()
        .find(|k| (k.0, k.1, k.2) == (a, b, scoring))
        .map(|k| k.3)
}

/// `(rows, cols, scoring, exact value)` at pit probability 0.2, rows ≤ cols: every grid the
/// optimal agent solves.
pub(super) const KNOWN_VALUES: [(usize, usize, Scoring, f64); 22] = [
    (2, 2, Scoring::Standard, 629.0916),
    (2, 2, Scoring::Aima, 517.1867),
    (2, 3, Scoring::Standard, 625.2234),
    (2, 3, Scoring::Aima, 502.0752),
    (2, 4, Scoring::Standard, 598.2442),
    (2, 4, Scoring::Aima, 458.3414),
    (2, 5, Scoring::Standard, 567.1270),
    (2, 5, Scoring::Aima, 412.0798),
    (2, 6, Scoring::Standard, 535.3964),
    (2, 6, Scoring::Aima, 367.4899),
    (3, 3, Scoring::Standard, 594.0393),
    (3, 3, Scoring::Aima, 437.8130),
    (3, 4, Scoring::Standard, 566.6707),
    (3, 4, Scoring::Aima, 393.2663),
    (2, 7, Scoring::Standard, 505.1771),
    (2, 7, Scoring::Aima, 326.8020),
    (2, 8, Scoring::Standard, 476.9027),
    (2, 8, Scoring::Aima, 290.0052),
    (3, 5, Scoring::Standard, 535.3026),
    (3, 5, Scoring::Aima, 350.8584),
    (4, 4, Scoring::Standard, 532.0492),
    (4, 4, Scoring::Aima, 350.1438),
];

/// What is known of the best mean score any player can expect in some setting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BestScore {
    /// The exact value of the game.
    Exact(f64),
    /// No player can expect more: a sound upper bound, where the exact value is out of reach.
    AtMost(f64),
}

impl BestScore {
    /// The figure, exact or bound.
    pub fn value(self) -> f64 {
        match self {
            BestScore::Exact(v) | BestScore::AtMost(v) => v,
        }
    }
}

/// The best mean score any player can expect under the textbook's rules (`--rules aima`: a
/// heading, every turn an action, AIMA scoring) on a `rows`×`cols` grid at pit probability 0.2:
/// exact up to 4×4 (the solver with [`Moves::Heading`](super::Moves::Heading), cross-checked by
/// `examples/grid_bound.rs ... headed`), an upper bound on square grids from 5×5 to 7×7
/// (`examples/tournament_bound.rs`, which explains it; `docs/agents.md` has the figures).
/// `None` elsewhere.
pub fn best_textbook_score(rows: usize, cols: usize, pit_prob: f64) -> Option<BestScore> {
    if pit_prob != 0.2 {
        return None;
    }
    let (a, b) = (rows.min(cols), rows.max(cols));
    TEXTBOOK_VALUES
        .iter()
        .find(|k| (k.0, k.1) == (a, b))
        .map(|k| k.2)
}

/// The same over a range of square sizes dealt alike (`4x4..7x7` as `wumpus` deals it, the size
/// told; not the course tournament's deal): the mean of the sizes' figures, a bound when any of
/// them is one.
pub fn best_textbook_range(smallest: usize, largest: usize, pit_prob: f64) -> Option<BestScore> {
    let figures: Vec<BestScore> = (smallest..=largest)
        .map(|n| best_textbook_score(n, n, pit_prob))
        .collect::<Option<_>>()?;
    let mean = figures.iter().map(|f| f.value()).sum::<f64>() / figures.len() as f64;
    Some(
        if figures.iter().all(|f| matches!(f, BestScore::Exact(_))) {
            BestScore::Exact(mean)
        } else {
            BestScore::AtMost(mean)
        },
    )
}

/// `(rows, cols, best)` under the textbook's rules at pit probability 0.2, rows ≤ cols. The
/// bounds are the sampled bound of `examples/tournament_bound.rs` (100,000 worlds a size, seed
/// 0, `100,100`) plus Hoeffding's margin for a one-sided confidence of 1 − 10⁻⁶.
pub(super) const TEXTBOOK_VALUES: [(usize, usize, BestScore); 8] = [
    (2, 2, BestScore::Exact(514.94)),
    (2, 3, BestScore::Exact(498.69)),
    (3, 3, BestScore::Exact(434.41)),
    (3, 4, BestScore::Exact(389.21)),
    (4, 4, BestScore::Exact(345.57)),
    (5, 5, BestScore::AtMost(303.04)),
    (6, 6, BestScore::AtMost(247.64)),
    (7, 7, BestScore::AtMost(208.27)),
];

/// The best mean score any player can expect under the textbook's rules on the course
/// tournament's deal (`--deal course`, or its world files; docs/rules.md, "The course
/// tournament") at pit probability 0.2, the size told or not: an upper bound. `None` at other
/// pit probabilities.
pub fn best_course_score(pit_prob: f64) -> Option<BestScore> {
    (pit_prob == 0.2).then_some(BestScore::AtMost(COURSE_BOUND))
}

/// The upper limit, holding with probability 1 − 10⁻⁶, of the bound on the course's deal
/// mixed in its proportions (4×4 a quarter of the worlds, at its exact value 345.57; each of
/// the 15 other sizes a twentieth, sampled): `cargo run --release --example tournament_bound
/// -- course 20000 100,100 0`, Hoeffding's limit over all its worlds at once (332.17 + 3.71,
/// rounded up; `docs/agents.md` has the sizes' figures). A player not told the size can do no
/// better than one told it.
pub(super) const COURSE_BOUND: f64 = 335.89;
