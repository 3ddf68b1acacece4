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
                    drivers.extend(told(&b).filter(|&k| !self.observations[k].present));
                }
                drivers.into_iter().collect()
            })
            .collect()
    }

    /// The atoms each observation's clauses mention, and the observations that mention each
    /// atom.
    fn mentions(&self) -> (Vec<Vec<Atom>>, HashMap<Atom, Vec<usize>>) {
        let rules = &self.grounding.rules;
        let mut mentions = Vec::with_capacity(self.observations.len());
        let mut by_atom: HashMap<Atom, Vec<usize>> = HashMap::default();
        for (k, obs) in self.observations.iter().enumerate() {
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
                            pred: self.current[a.pred],
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
