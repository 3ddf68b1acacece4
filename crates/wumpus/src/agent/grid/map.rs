//! What the grid agent knows of each cell: whether it stood there, what the knowledge base
//! proved of it and when each open question was last asked, and the cells listed by what is
//! proven of them (safe, a pit, visited, the wumpus's).
//!
//! It only records: every entry comes from the agent's own walk or from a proof of the
//! knowledge base, and it must never hold a guess.

use super::cell_list::CellList;
use super::Question;
use crate::topology::Place;

/// What the agent knows of one cell.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct CellKnowledge {
    pub(super) visited: bool,
    /// Proven answers, by [`Question`].
    pub(super) proven: [bool; 4],
    /// When each unproven question was last asked (0: never).
    pub(super) asked_at: [u64; 4],
    /// True once the cell has been announced safe in a conclusion.
    pub(super) announced_safe: bool,
    /// True once the knowledge base was told the arrow flew through it without a scream.
    pub(super) missed: bool,
}

/// What the agent knows of every cell, and the cells listed by what is proven of them. Proofs
/// never end, so nothing here is ever unlearned but the wumpus's cell once the scream is heard;
/// it must never hold a cell as proven that the knowledge base did not prove, nor as visited
/// one the agent did not stand in.
pub(super) struct Map {
    /// By cell index.
    pub(super) cells: Vec<CellKnowledge>,
    /// Cells proven safe (visited or announced), in cell order: proven safety never ends, and
    /// every safe cell is visited or announced in the turn it became safe, so this is what a
    /// scan of every cell would find, at the cost of the cells found.
    pub(super) safe_cells: CellList,
    /// Cells proven to hold a pit.
    pub(super) pit_cells: CellList,
    /// Cells visited.
    pub(super) visited_cells: CellList,
    /// The cell proven to hold the live wumpus, if any.
    pub(super) wumpus_at: Option<Place>,
}

impl Map {
    /// Nothing known of `n` cells but that the start, `0,0`, is safe.
    pub(super) fn new(n: usize) -> Map {
        Map {
            cells: vec![CellKnowledge::default(); n],
            safe_cells: CellList::of(Place::new(0)),
            pit_cells: CellList::default(),
            visited_cells: CellList::default(),
            wumpus_at: None,
        }
    }

    /// Whether `place` is safe: visited, or proven free of pit and of the wumpus while it
    /// lives. The planner's closures borrow the map alone to ask it.
    pub(super) fn safe(&self, wumpus_alive: bool, place: Place) -> bool {
        let c = &self.cells[place.index()];
        c.visited
            || (c.proven[Question::NoPit as usize]
                && (!wumpus_alive || c.proven[Question::NoWumpus as usize]))
    }
}
