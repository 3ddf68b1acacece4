//! Cardinality constraints ("exactly one wumpus") as incremental sequential counters over the
//! atoms mentioned so far, the places no clause mentions standing for "the rest".
//!
//! A counter's registers say "at least *j* of the mentioned atoms are true"; each newly
//! mentioned atom (a variable, or a value fixed outside the solver) extends it by one, so a
//! bound costs only what the agent has explored. A counter never holds more registers than
//! there are places, whatever the rule file says, and it must never assume anything of an
//! atom no clause mentions but that it is one of the rest.

use varisat::Lit;

use super::rules;
use super::rules::PredId;
use super::KnowledgeBase;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bit {
    False,
    True,
    Lit(Lit),
}

/// An incremental sequential counter: `regs[j - 1]` is true exactly when at least `j` of the
/// atoms mentioned so far are true.
#[derive(Clone, Debug)]
pub(super) struct Counter {
    pub(super) pred: PredId,
    pub(super) places: usize,
    pub(super) at_least: usize,
    pub(super) at_most: Option<usize>,
    pub(super) regs: Vec<Bit>,
    pub(super) mentioned: usize,
}

impl Counter {
    /// A counter for cardinality `c` over the atoms of `pred` (a predicate of the knowledge
    /// base: the cardinality's own, or one of its epochs).
    pub(super) fn new(c: &rules::Cardinality, pred: PredId, places: usize) -> Counter {
        // A bound beyond the number of places says nothing more than `places` (at most) or
        // `places + 1` (at least: impossible, checked when the counter starts) does, so the
        // counter never needs more registers than that, whatever the file says.
        let at_least = c.at_least.map_or(0, |k| k.value(places)).min(places + 1);
        let at_most = c.at_most.map(|k| k.value(places).min(places));
        let width = at_least.max(at_most.unwrap_or(0));
        Counter {
            pred,
            places,
            at_least,
            at_most,
            regs: vec![Bit::False; width],
            mentioned: 0,
        }
    }
}

/// The cardinality constraints, one counter each (epochs included), and which predicates they
/// count. It must never assume anything of an atom no clause mentions but that it is one of the
/// rest, and a counter only grows: an atom counted stays counted.
pub(super) struct Counting {
    pub(super) counters: Vec<Counter>,
    /// By predicate of the knowledge base: true when a counter counts its atoms.
    pub(super) counted: Vec<bool>,
}

impl Counting {
    /// A counter for each of `rules`' cardinalities over `places` places, none started.
    pub(super) fn new(rules: &rules::Rules, places: usize) -> Counting {
        let mut counted = vec![false; rules.predicates.len()];
        let counters = rules
            .cardinalities
            .iter()
            .map(|c| {
                counted[c.pred] = true;
                Counter::new(c, c.pred, places)
            })
            .collect();
        Counting { counters, counted }
    }
}

impl KnowledgeBase {
    /// Starts counter `i`: an impossible bound is a contradiction; "at least" is enforced over
    /// the places no clause mentions yet.
    pub(super) fn start_counter(&mut self, i: usize) {
        let c = &self.counting.counters[i];
        if c.at_least > c.places || c.at_most.is_some_and(|m| m < c.at_least) {
            self.sat.add_clause(&[]);
        }
        self.enforce_at_least(i);
    }

    /// "At most k": a true atom may not follow k true ones.
    pub(super) fn forbid_after(&mut self, before: Option<Bit>, x: Option<Lit>) {
        let Some(before) = before else { return };
        match (before, x) {
            (Bit::False, _) => {}
            (Bit::True, Some(x)) => self.sat.add_clause(&[!x]),
            (Bit::True, None) => self.sat.add_clause(&[]),
            (Bit::Lit(b), Some(x)) => self.sat.add_clause(&[!x, !b]),
            (Bit::Lit(b), None) => self.sat.add_clause(&[!b]),
        }
    }

    /// The register "at least k before this atom" for counter `i`'s upper bound, if bounded.
    pub(super) fn upper_guard(&self, i: usize) -> Option<Bit> {
        let c = &self.counting.counters[i];
        c.at_most
            .map(|k| if k == 0 { Bit::True } else { c.regs[k - 1] })
    }

    /// "At least k": the unmentioned rest can make up at most `rest` of them.
    pub(super) fn enforce_at_least(&mut self, i: usize) {
        let c = &self.counting.counters[i];
        let need = c.at_least.saturating_sub(c.places - c.mentioned);
        if need > 0 {
            match c.regs[need - 1] {
                Bit::True => {}
                Bit::False => self.sat.add_clause(&[]),
                Bit::Lit(l) => self.sat.add_clause(&[l]),
            }
        }
    }

    /// Counts a newly mentioned atom with variable `x`.
    pub(super) fn extend_counter(&mut self, i: usize, x: Lit) {
        let guard = self.upper_guard(i);
        self.forbid_after(guard, Some(x));
        let old = self.counting.counters[i].regs.clone();
        let new: Vec<Bit> = (0..old.len())
            .map(|j| {
                let b = if j == 0 { Bit::True } else { old[j - 1] };
                self.or_and(old[j], x, b)
            })
            .collect();
        let c = &mut self.counting.counters[i];
        c.regs = new;
        c.mentioned += 1;
        self.enforce_at_least(i);
    }

    /// Counts a newly mentioned atom fixed to `value`, without a variable.
    pub(super) fn count_fixed(&mut self, i: usize, value: bool) {
        if value {
            let guard = self.upper_guard(i);
            self.forbid_after(guard, None);
            let c = &mut self.counting.counters[i];
            // One more true atom: "at least j" becomes "at least j - 1 before".
            if !c.regs.is_empty() {
                c.regs.pop();
                c.regs.insert(0, Bit::True);
            }
        }
        self.counting.counters[i].mentioned += 1;
        self.enforce_at_least(i);
    }

    /// A bit equal to `a ∨ (x ∧ b)`.
    pub(super) fn or_and(&mut self, a: Bit, x: Lit, b: Bit) -> Bit {
        match (a, b) {
            (Bit::True, _) => Bit::True,
            (Bit::False, Bit::False) => Bit::False,
            (Bit::False, Bit::True) => Bit::Lit(x),
            _ => {
                let s = self.sat.new_lit();
                let a_lits: Vec<Lit> = match a {
                    Bit::Lit(a) => {
                        self.sat.add_clause(&[!a, s]);
                        vec![a]
                    }
                    _ => Vec::new(),
                };
                let clause = |head: Vec<Lit>| {
                    let mut c = head;
                    c.extend(&a_lits);
                    c
                };
                match b {
                    Bit::True => {
                        self.sat.add_clause(&[!x, s]);
                        self.sat.add_clause(&clause(vec![!s, x]));
                    }
                    Bit::Lit(b) => {
                        self.sat.add_clause(&[!x, !b, s]);
                        self.sat.add_clause(&clause(vec![!s, x]));
                        self.sat.add_clause(&clause(vec![!s, b]));
                    }
                    Bit::False => self.sat.add_clause(&clause(vec![!s])),
                }
                Bit::Lit(s)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::knowledge::tests::grid_kb;
    use super::super::rules::parse_rules;
    use super::super::{KbError, KnowledgeBase, Proofs};
    use crate::topology::Topology;
    use std::sync::Arc;

    #[test]
    fn exactly_one_counts_over_unmentioned_places() {
        // 2x2: a stench-free start rules out 0,1 and 1,0, so the wumpus must be at 1,1, a
        // place no observation mentions.
        let mut kb = grid_kb(2, 2, Proofs::Fast);
        let r = kb.rules().clone();
        let stench = r.predicate("stench").unwrap();
        let wumpus = r.predicate("wumpus").unwrap();
        let t = kb.topology().clone();
        let w11 = kb.atom(wumpus, t.cell(1, 1));
        assert!(!kb.entails((w11, true)).unwrap());
        kb.tell(stench, t.cell(0, 0), false).unwrap();
        assert!(kb.entails((w11, true)).unwrap());
    }

    #[test]
    fn a_huge_count_neither_allocates_nor_panics() {
        // Found by fuzzing: `exactly 100000000000 X: wumpus(X).` asked for 800 GB of counter
        // registers and aborted. Bounds beyond the number of places are clamped: an
        // impossible lower bound is a contradiction, a vacuous upper bound no limit.
        let topo = Arc::new(Topology::grid(3, 3).unwrap());
        let rules = |text: &str| Arc::new(parse_rules(text).unwrap());
        let mut kb = KnowledgeBase::new(
            rules("hidden w(X).\nexactly 100000000000 X: w(X).\n"),
            topo.clone(),
            topo.cell(0, 0),
            Proofs::Fast,
        )
        .unwrap();
        let w = kb.rules().predicate("w").unwrap();
        let atom = kb.atom(w, topo.cell(1, 1));
        assert!(matches!(
            kb.possible(&[(atom, true)]),
            Err(KbError::Contradiction(_))
        ));
        let mut kb = KnowledgeBase::new(
            rules("hidden w(X).\natmost 100000000000 X: w(X).\natleast 9 X: w(X).\n"),
            topo.clone(),
            topo.cell(0, 0),
            Proofs::Fast,
        )
        .unwrap();
        assert!(kb.entails((atom, true)).unwrap());
    }
}
