//! What no player can beat in a batch's setting, where that is known: the exact optimum of
//! the grid's game (the optimal agent's solved values, the exact best win rates), and under the
//! textbook's rules on grids too large to solve, an upper bound. `solve` sets its batch's
//! figures beside them.

use super::Summary;
use crate::agent::grid;
use crate::agent::optimal::{self, BestScore};
use crate::game::RuleSet;
use crate::grid::Scoring;

impl Summary {
    /// The best mean score any player can expect in this batch's setting, where it is known
    /// exactly or bounded.
    pub fn best_mean_score(&self) -> Option<BestScore> {
        let pit_prob = self.setup.get("pit_prob")?.as_f64()?;
        let says =
            |key: &str, value: &str| self.setup.get(key).and_then(|v| v.as_str()) == Some(value);
        // The course's deal, dealt (`--deal course`) or read from its world files (a batch
        // over files has no size; `deal` says they are all the course's).
        if self.rules == RuleSet::Aima && (says("size", "course") || says("deal", "course")) {
            return optimal::best_course_score(pit_prob);
        }
        let size = self.setup.get("size")?.as_str()?;
        if self.rules == RuleSet::Aima {
            // A range of square sizes (`4x4..7x7`) deals each alike.
            if let Some((low, high)) = size.split_once("..") {
                let side = |s: &str| -> Option<usize> {
                    let (r, c) = s.split_once('x')?;
                    (r == c).then(|| r.parse().ok())?
                };
                return optimal::best_textbook_range(side(low)?, side(high)?, pit_prob);
            }
            let (rows, cols) = size.split_once('x')?;
            return optimal::best_textbook_score(rows.parse().ok()?, cols.parse().ok()?, pit_prob);
        }
        if self.rules != RuleSet::Grid {
            return None;
        }
        let (rows, cols) = size.split_once('x')?;
        let scoring = match self.setup.get("scoring")?.as_str()? {
            "aima" => Scoring::Aima,
            _ => Scoring::Standard,
        };
        optimal::best_mean_score(rows.parse().ok()?, cols.parse().ok()?, pit_prob, scoring)
            .map(BestScore::Exact)
    }

    /// The best win rate any player can expect in this batch's setting, where it is known.
    pub fn best_win_rate(&self) -> Option<f64> {
        if !self.rules.on_grid() {
            return None;
        }
        let size = self.setup.get("size")?.as_str()?;
        let (rows, cols) = size.split_once('x')?;
        let pit_prob = self.setup.get("pit_prob")?.as_f64()?;
        grid::best_win_rate(rows.parse().ok()?, cols.parse().ok()?, pit_prob)
    }
}
