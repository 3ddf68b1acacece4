//! Which observations drive the odds of a place that logic leaves open: the percepts whose
//! constraints reach it through other open places (a breeze next to it, a breeze next to a
//! place that shares that breeze with it, and so on), and at the edge of that cluster the
//! absent percepts that closed a place the cluster's percepts name (the calm cell that ruled
//! out one of a breeze's places). What the player learns by standing in a place names nothing.
//!
//! It reads the observations' ground clauses only (no solving), so it is cheap enough to ask
//! of every open place at every step; it must never change the knowledge base.

use super::ground::Atom;
use super::KnowledgeBase;
use crate::topology::Place;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeSet;

impl KnowledgeBase {
    /// For each of `atoms`, the observations (indices into [`KnowledgeBase::observations`]) that
    /// drive its odds, in the order they were told. `open` says which atoms logic leaves open
    /// (the caller knows what it proved); `stood` which places the player stood in (their
    /// hazards are ruled out by being there, so the percepts that also rule them out are not
    /// named).
    pub fn drivers(
        &self,
        atoms: &[Atom],
        open: impl Fn(Atom) -> bool,
        stood: impl Fn(Place) -> bool,
    ) -> Vec<Vec<usize>> {
        let (mentions, by_atom) = self.mentions();
        let told = |a: &Atom| by_atom.get(a).into_iter().flatten().copied();
        atoms
            .iter()
            .map(|&start| {
                let mut reached: HashSet<Atom> = HashSet::default();
                reached.insert(start);
                let mut queue = vec![start];
                let mut drivers = BTreeSet::new();
                let mut edge = Vec::new();
                while let Some(a) = queue.pop() {
                    for k in told(&a) {
                        if !drivers.insert(k) {
                            continue;
                        }
                        for &b in &mentions[k] {
                            if open(b) {
                                if reached.insert(b) {
                                    queue.push(b);
                                }
                            } else if !b.place.is_some_and(&stood) {
                                edge.push(b);
                            }
                        }
                    }
                }
                for b in edge {
                    drivers.extend(told(&b).filter(|&k| !self.told.observations[k].present));
                }
                drivers.into_iter().collect()
            })
            .collect()
    }

    /// The atoms each observation's clauses mention, and the observations that mention each
    /// atom.
    fn mentions(&self) -> (Vec<Vec<Atom>>, HashMap<Atom, Vec<usize>>) {
        let rules = &self.grounding.rules;
        let mut mentions = Vec::with_capacity(self.told.observations.len());
        let mut by_atom: HashMap<Atom, Vec<usize>> = HashMap::default();
        for (k, obs) in self.told.observations.iter().enumerate() {
            let mut atoms: Vec<Atom> = Vec::new();
            let says = rules
                .percept_rule(obs.pred)
                .is_some_and(|r| obs.present || r.iff);
            if let (true, Ok(clauses)) = (
                says,
                self.grounding.percept(obs.pred, obs.place, obs.present),
            ) {
                for &(a, _) in clauses.iter().flatten() {
                    // Told after an event, a clause speaks of the predicates' epoch of then;
                    // the odds asked of are the current epoch's.
                    let a = if obs.time > 0 {
                        Atom {
                            pred: self.epochs.current[a.pred],
                            place: a.place,
                        }
                    } else {
                        a
                    };
                    if !atoms.contains(&a) {
                        atoms.push(a);
                    }
                }
            }
            for &a in &atoms {
                by_atom.entry(a).or_default().push(k);
            }
            mentions.push(atoms);
        }
        (mentions, by_atom)
    }
}

#[cfg(test)]
mod tests {
    use super::super::knowledge::tests::grid_kb;
    use super::super::Proofs;
    use super::*;

    /// Tells `kb` that the player stood at each of `stood` (row, column, breeze) unharmed and
    /// smelled nothing; answers the drivers of a pit at each of `asked`, in words, with the
    /// pits at `open` left open by logic.
    fn drivers_in_words(
        stood: &[(usize, usize, bool)],
        open: &[(usize, usize)],
        asked: &[(usize, usize)],
    ) -> Vec<Vec<String>> {
        let mut kb = grid_kb(4, 4, Proofs::Explained);
        let r = kb.rules().clone();
        let [breeze, stench, visited, unharmed, pit] =
            ["breeze", "stench", "visited", "unharmed", "pit"].map(|n| r.predicate(n).unwrap());
        let t = kb.topology().clone();
        for &(row, col, b) in stood {
            let place = t.cell(row, col);
            kb.tell(visited, place, true).unwrap();
            kb.tell(unharmed, place, true).unwrap();
            kb.tell(breeze, place, b).unwrap();
            kb.tell(stench, place, false).unwrap();
        }
        let pits = |cells: &[(usize, usize)]| -> Vec<Atom> {
            cells
                .iter()
                .map(|&(r, c)| kb.atom(pit, t.cell(r, c)))
                .collect()
        };
        let open = pits(open);
        let stood: Vec<Place> = stood.iter().filter_map(|&(r, c, _)| t.cell(r, c)).collect();
        kb.drivers(&pits(asked), |a| open.contains(&a), |p| stood.contains(&p))
            .into_iter()
            .map(|named| {
                named
                    .iter()
                    .map(|&k| kb.describe(&kb.observations()[k]))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_cluster_of_open_places_is_driven_by_the_breezes_that_join_it() {
        // Calm at 0,0, breezes at 0,1 and 1,0: 0,2, 1,1 and 2,0 are open, one cluster through
        // 1,1 (next to both breezes). What ruled out 0,1 and 1,0 is being there: not named.
        let open = [(0, 2), (1, 1), (2, 0)];
        let named = drivers_in_words(
            &[(0, 0, false), (0, 1, true), (1, 0, true)],
            &open,
            &[(0, 2), (2, 0)],
        );
        for words in named {
            assert_eq!(words, ["breeze at 0,1", "breeze at 1,0"]);
        }
    }

    #[test]
    fn a_calm_cell_that_closed_a_breezes_place_is_named() {
        // The breeze at 0,1 names 0,0 and 1,1 (both stood in) and 0,2 (open): the calm at
        // 1,1 closes places the breeze does not name, so only the breeze drives 0,2.
        let named = drivers_in_words(
            &[(0, 0, false), (0, 1, true), (1, 1, false)],
            &[(0, 2)],
            &[(0, 2)],
        );
        assert_eq!(named, [vec!["breeze at 0,1".to_string()]]);
        // Calm at 1,0 closes 1,1 (not stood in), one of the places the breeze at 0,1 names:
        // it shapes 0,2's odds, so it is named with the breeze.
        let named = drivers_in_words(
            &[(0, 0, false), (0, 1, true), (1, 0, false)],
            &[(0, 2)],
            &[(0, 2)],
        );
        assert_eq!(
            named,
            [vec![
                "breeze at 0,1".to_string(),
                "no breeze at 1,0".to_string()
            ]]
        );
    }

    #[test]
    fn a_place_nothing_perceived_bears_on_has_no_drivers() {
        let named = drivers_in_words(&[(0, 0, false)], &[(3, 3)], &[(3, 3)]);
        assert_eq!(named, [Vec::<String>::new()]);
    }
}
