//! Change watching: when something learnt can bear on an atom (`changed_since`), and watches
//! that report it (`watch`, `take_changed`), so that an agent re-asks only the questions whose
//! answer can have changed.
//!
//! A watch may fire early (a caller checks with `changed_since`), but it must never be late.

use super::ground::Atom;
use super::KnowledgeBase;

impl KnowledgeBase {
    /// The current time, for [`KnowledgeBase::changed_since`].
    pub fn now(&self) -> u64 {
        self.sat.now()
    }

    /// True when something learnt after time `since` can bear on `atom`. An answer about the
    /// atom obtained at `since` still stands when this is false.
    pub fn changed_since(&mut self, atom: Atom, since: u64) -> bool {
        let state = self.state(atom);
        if state.fixed.is_some() {
            return state.fixed_at > since;
        }
        match state.lit {
            Some(l) => self.sat.changed_since(l, since),
            // A counted atom not yet mentioned is still constrained through its counter.
            None => self.counted[atom.pred],
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
        let state = self.state(atom);
        if state.fixed.is_some() {
            // A fixed atom changes once, when it is fixed.
            if state.fixed_at > since {
                self.fired.push(token);
            }
            return;
        }
        match state.lit {
            Some(l) => self.sat.watch(l, token, since, &mut self.fired),
            // An unmentioned counted atom is always "changed" (see changed_since).
            None if self.counted[atom.pred] => self.fired.push(token),
            None => self
                .atom_watches
                .entry(atom)
                .or_default()
                .push((token, since)),
        }
    }

    /// Appends to `out` the tokens of the watches that fired since the last call (see
    /// [`KnowledgeBase::watch`]), in no particular order, possibly repeated.
    pub fn take_changed(&mut self, out: &mut Vec<u32>) {
        self.sat.drain_changed(&mut self.fired);
        out.append(&mut self.fired);
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
