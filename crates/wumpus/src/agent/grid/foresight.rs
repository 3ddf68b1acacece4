//! What the grid agent's look-ahead needs of a game: the search deeper than one step
//! (`--depth` above 1) and what it has seen, and each cell's prior chance of a pit and the
//! sizes still possible where the deal or a hidden size makes them differ from cell to cell.
//!
//! It is told the agent's own visits and shots and what they showed, never anything of the
//! world: it must never see more than the agent perceived.

use super::lookahead::{Lookahead, Sight, SizeHypothesis};
use crate::topology::Direction;
use std::sync::Arc;

/// The look-ahead, what it has seen, and the priors it counts with. It values steps and
/// shots for the risk agent's weighing (risk.rs) and never decides by itself.
#[derive(Default)]
pub(super) struct Foresight {
    /// The look-ahead deeper than one step, and how deep (`--depth` above 1).
    pub(super) lookahead: Option<(Arc<Lookahead>, u32)>,
    /// What the look-ahead has seen.
    pub(super) sight: Option<Sight>,
    /// Each cell's own prior chance of a pit, where the deal puts pits in some cells only or
    /// the size is hidden (`None`: the strategy's chance in every cell but the start).
    pub(super) pit_chances: Option<Arc<Vec<f64>>>,
    /// With the board's size hidden, the sizes it may still have, for the look-ahead.
    pub(super) sizes: Option<Arc<Vec<SizeHypothesis>>>,
}

impl Foresight {
    /// The arrow was fired from cell `at` towards `dir`; `scream` says whether it killed.
    pub(super) fn shot(&mut self, at: usize, dir: Direction, scream: bool) {
        if let (Some((l, _)), Some(s)) = (&self.lookahead, &mut self.sight) {
            l.shot(s, at, dir, scream);
        }
    }

    /// The agent first stood in cell `at` and felt a breeze or a stench there, or not.
    pub(super) fn visit(&mut self, at: usize, breeze: bool, stench: bool) {
        if let (Some((l, _)), Some(s)) = (&self.lookahead, &mut self.sight) {
            l.visit(s, at, breeze, stench);
        }
    }

    /// Changes each cell's prior chance of a pit and the sizes still possible mid-game (the
    /// size hidden, its bounds narrowed): the look-ahead counts with them from now on.
    pub(super) fn set_cell_chances(&mut self, pits: Vec<f64>, sizes: Vec<SizeHypothesis>) {
        if let Some((l, depth)) = &self.lookahead {
            let l = (**l)
                .clone()
                .with_pit_chances(pits.clone())
                .with_sizes(sizes.clone());
            self.lookahead = Some((Arc::new(l), *depth));
        }
        self.pit_chances = Some(Arc::new(pits));
        self.sizes = Some(Arc::new(sizes));
    }
}
