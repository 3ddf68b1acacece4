//! Change watching: when something learnt can bear on an atom (`changed_since`), and watches
//! that report it (`watch`, `take_changed`), so that an agent re-asks only the questions whose
//! answer can have changed.
//!
//! A watch may fire early (a caller checks with `changed_since`), but it must never be late.

use varisat::Lit;

use super::ground::Atom;
use super::sat::Sat;
use super::KnowledgeBase;

/// The watches set on atoms, and those that fired. Watches on atoms with a variable live in the
/// solver's components (sat/components.rs); this holds the rest. It must never drop a watch
/// before it fires, and never decides itself what changed: the fixing of an atom, or the stamp
/// of its component, says that.
#[derive(Default)]
pub(super) struct Watches {
    /// Watches on atoms no clause mentions yet and no counter constrains: they wait here
    /// until the atom gets a variable (the watch moves to its component) or is fixed (it
    /// fires). See [`KnowledgeBase::watch`].
    pub(super) waiting: rustc_hash::FxHashMap<Atom, Vec<(u32, u64)>>,
    /// Watches that fired and are not yet taken by [`KnowledgeBase::take_changed`].
    pub(super) fired: Vec<u32>,
}

impl Watches {
    /// `atom`, without a variable, was fixed at time `now`: its waiting watches set before
    /// then fire.
    pub(super) fn fixed(&mut self, atom: Atom, now: u64) {
        if let Some(watches) = self.waiting.remove(&atom) {
            self.fired
                .extend(watches.iter().filter(|w| now > w.1).map(|w| w.0));
        }
    }

    /// `atom` got the variable `lit`: its waiting watches move to the solver.
    pub(super) fn given_variable(&mut self, atom: Atom, lit: Lit, sat: &mut Sat) {
        if let Some(watches) = self.waiting.remove(&atom) {
            for (token, since) in watches {
                sat.watch(lit, token, since, &mut self.fired);
            }
        }
    }
}

impl KnowledgeBase {
    /// The current time, for [`KnowledgeBase::changed_since`].
    pub fn now(&self) -> u64 {
        self.sat.now()
    }

    /// True when something learnt after time `since` can bear on `atom`. An answer about the
    /// atom obtained at `since` still stands when this is false.
    pub fn changed_since(&mut self, atom: Atom, since: u64) -> bool {
        let state = self.atoms.state(atom);
        if state.fixed.is_some() {
            return state.fixed_at > since;
        }
        match state.lit {
            Some(l) => self.sat.changed_since(l, since),
            // A counted atom not yet mentioned is still constrained through its counter.
            None => self.counting.counted[atom.pred],
        }
    }

    /// Watches `atom` for a change after time `since`: `token` comes back from
    /// [`KnowledgeBase::take_changed`] no later than the first call after
    /// [`KnowledgeBase::changed_since`]`(atom, since)` turns true (at once if it already is),
    /// and the watch is then dropped. Sometimes it comes back when nothing bearing on the atom
    /// changed (its component was stamped before the watch was set but drained after), so a
    /// caller checks with `changed_since`; it is never late.
    ///
    /// Why: an agent with thousands of open questions can re-ask only those whose answer can
    /// have changed, at a cost proportional to what changed rather than to what it asked.
    pub fn watch(&mut self, atom: Atom, token: u32, since: u64) {
        let state = self.atoms.state(atom);
        if state.fixed.is_some() {
            // A fixed atom changes once, when it is fixed.
            if state.fixed_at > since {
                self.watches.fired.push(token);
            }
            return;
        }
        match state.lit {
            Some(l) => self.sat.watch(l, token, since, &mut self.watches.fired),
            // An unmentioned counted atom is always "changed" (see changed_since).
            None if self.counting.counted[atom.pred] => self.watches.fired.push(token),
            None => self
                .watches
                .waiting
                .entry(atom)
                .or_default()
                .push((token, since)),
        }
    }

    /// Appends to `out` the tokens of the watches that fired since the last call (see
    /// [`KnowledgeBase::watch`]), in no particular order, possibly repeated.
    pub fn take_changed(&mut self, out: &mut Vec<u32>) {
        self.sat.drain_changed(&mut self.watches.fired);
        out.append(&mut self.watches.fired);
    }
}

#[cfg(test)]
mod tests {
    use super::super::knowledge::tests::grid_kb;
    use super::super::{KnowledgeBase, Proofs};
    use super::*;
    use crate::topology::Place;

    #[test]
    fn a_watch_fires_before_changed_since_turns_true() {
        use rand::Rng;
        for seed in 0..60 {
            let proofs = if seed % 2 == 0 {
                Proofs::Fast
            } else {
                Proofs::Explained
            };
            let mut kb = grid_kb(4, 5, proofs);
            let id = |kb: &KnowledgeBase, name: &str| {
                kb.rules()
                    .predicates
                    .iter()
                    .position(|p| p.name == name)
                    .unwrap()
            };
            let hidden = [id(&kb, "pit"), id(&kb, "wumpus")];
            let percepts =
                ["breeze", "stench", "visited", "unharmed", "missed"].map(|n| id(&kb, n));
            let places = kb.topology().len();
            let mut rng = crate::rng::seeded(seed);
            // (atom, since, still waiting) by token.
            let mut watches: Vec<(Atom, u64, bool)> = Vec::new();
            let mut fired = Vec::new();
            for _ in 0..40 {
                for _ in 0..3 {
                    let pred = hidden[rng.random_range(0..2)];
                    let atom = kb.atom(pred, Some(Place::new(rng.random_range(0..places))));
                    let since = kb.now();
                    kb.watch(atom, watches.len() as u32, since);
                    watches.push((atom, since, true));
                }
                let pred = percepts[rng.random_range(0..percepts.len())];
                let at = Place::new(rng.random_range(0..places));
                kb.tell(pred, Some(at), rng.random_bool(0.5)).unwrap();
                if rng.random_bool(0.5) {
                    // Questions mention counted atoms, which extends the counter.
                    let pred = hidden[rng.random_range(0..2)];
                    let atom = kb.atom(pred, Some(Place::new(rng.random_range(0..places))));
                    let _ = kb.possible(&[(atom, rng.random_bool(0.5))]);
                }
                kb.take_changed(&mut fired);
                for &t in &fired {
                    watches[t as usize].2 = false;
                }
                fired.clear();
                for &(atom, since, waiting) in &watches {
                    if waiting {
                        assert!(
                            !kb.changed_since(atom, since),
                            "seed {seed}: {atom:?} changed after {since} unannounced"
                        );
                    }
                }
            }
        }
    }
}
