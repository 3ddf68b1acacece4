//! What no player can beat in a batch's setting, where that is known: the exact optimum of
//! the grid's game (the optimal agent's solved values, the exact best win rates), and under the
//! textbook's rules on grids too large to solve, an upper bound. `solve` sets its batch's
//! figures beside them. Each is read from the batch's typed description ([`Summary::game`]).

use super::Summary;
use crate::agent::grid;
use crate::agent::optimal;
pub use crate::agent::optimal::BestScore;
use crate::game::RuleSet;
use crate::game_spec::GridSizes;
use crate::grid::Deal;

impl Summary {
    /// The best mean score any player can expect in this batch's setting, where it is known
    /// exactly or bounded.
    pub fn best_mean_score(&self) -> Option<BestScore> {
        let game = &self.game;
        let pit_prob = game.pit_prob?;
        match (game.rules, game.size) {
            // The course's deal, dealt or read from its world files (a batch over files has
            // no size; its deal says they are all the course's).
            (RuleSet::Aima, _) if game.deal == Some(Deal::Course) => {
                optimal::best_course_score(pit_prob)
            }
            // A range of square sizes (`4x4..7x7`) deals each alike.
            (RuleSet::Aima, Some(GridSizes::Range(range))) => {
                let square = |(rows, cols): (usize, usize)| (rows == cols).then_some(rows);
                optimal::best_textbook_range(
                    square(range.smallest)?,
                    square(range.largest)?,
                    pit_prob,
                )
            }
            (RuleSet::Aima, Some(GridSizes::One(rows, cols))) => {
                optimal::best_textbook_score(rows, cols, pit_prob)
            }
            (RuleSet::Grid, Some(GridSizes::One(rows, cols))) => {
                optimal::best_mean_score(rows, cols, pit_prob, game.scoring?).map(BestScore::Exact)
            }
            _ => None,
        }
    }

    /// The best win rate any player can expect in this batch's setting, where it is known.
    pub fn best_win_rate(&self) -> Option<f64> {
        let game = &self.game;
        match (crate::game_spec::facts(game.rules).on_grid, game.size) {
            (true, Some(GridSizes::One(rows, cols))) => {
                grid::best_win_rate(rows, cols, game.pit_prob?)
            }
            _ => None,
        }
    }
}
