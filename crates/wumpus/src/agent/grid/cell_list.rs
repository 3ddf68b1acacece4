//! A set of cells kept for listing in cell order: what the agent tells a trace or a hint it
//! has proven. Adding is a push, so a game nobody watches pays nothing for the order; a
//! listing sorts only what was added since the last one and merges it in. It must never cost
//! a turn work in proportion to the whole grid.

use crate::topology::Place;

/// Cells, listed in cell order, each once.
#[derive(Clone, Debug, Default)]
pub(super) struct CellList {
    /// Listed so far: sorted, without repeats.
    sorted: Vec<Place>,
    /// Added since, in any order, perhaps repeated.
    added: Vec<Place>,
}

impl CellList {
    /// The list of `cell` alone.
    pub(super) fn of(cell: Place) -> CellList {
        CellList {
            sorted: vec![cell],
            added: Vec::new(),
        }
    }

    /// Adds `cell` (again, perhaps).
    pub(super) fn insert(&mut self, cell: Place) {
        self.added.push(cell);
    }

    /// Every cell added, in cell order, each once.
    pub(super) fn sorted(&mut self) -> &[Place] {
        if !self.added.is_empty() {
            self.added.sort_unstable();
            let mut merged = Vec::with_capacity(self.sorted.len() + self.added.len());
            let (mut a, mut b) = (self.sorted.iter().peekable(), self.added.iter().peekable());
            loop {
                let next = match (a.peek(), b.peek()) {
                    (Some(&&x), Some(&&y)) if x <= y => a.next(),
                    (Some(_), Some(_)) | (None, Some(_)) => b.next(),
                    (Some(_), None) => a.next(),
                    (None, None) => break,
                };
                let &cell = next.expect("peeked");
                if merged.last() != Some(&cell) {
                    merged.push(cell);
                }
            }
            self.sorted = merged;
            self.added.clear();
        }
        &self.sorted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use std::collections::BTreeSet;

    #[test]
    fn lists_what_a_sorted_set_would_at_every_listing() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut list = CellList::default();
        let mut set = BTreeSet::new();
        for _ in 0..2_000 {
            let cell = Place::new(rng.random_range(0..300));
            list.insert(cell);
            set.insert(cell);
            if rng.random_bool(0.3) {
                assert_eq!(list.sorted(), set.iter().copied().collect::<Vec<_>>());
            }
        }
        assert_eq!(list.sorted(), set.iter().copied().collect::<Vec<_>>());
    }
}
