//! The one place that talks to the SAT solver (`varisat`).
//!
//! [`Sat`] wraps one incremental solver for a whole game. Besides adding clauses and solving
//! under assumptions, it keeps two things that make questions cheap:
//!
//! - **Models found so far** (for the current clause set): a question "is `a ∧ b` possible?"
//!   is answered yes without a solver call when a known model already satisfies it. Adding a
//!   clause forgets the models, since they may no longer satisfy the formula.
//! - **Which part of the formula changed when.** Variables that share a clause are joined in a
//!   union–find; every clause stamps its component with the current time. A literal's answer
//!   can only change when its component has been stamped since it was last asked, because
//!   components that share no variable constrain each other only through overall consistency,
//!   which is checked separately.
//!
//! - **Who is waiting for which change.** A caller can [`Sat::watch`] a literal with a token:
//!   the token comes back from [`Sat::drain_changed`] once the literal's component is stamped
//!   after the time given. Watches move with their component when components merge, and only
//!   components someone watches are logged, so a caller with many open questions finds the few
//!   whose answers can have changed without looking at the rest.
//!
//! Why this matters: a solver call must assign every variable, so its cost grows with the
//! formula; most questions each turn are about places nothing new was learnt about.

use rustc_hash::FxHashMap;
use varisat::{ExtendFormula, Lit, Solver};

/// A caller's token waiting for a change after a time.
#[derive(Clone, Copy, Debug)]
struct Watch {
    token: u32,
    since: u64,
}

/// A total assignment found by the solver, as a bitset over variable indices.
#[derive(Clone, Debug)]
pub(crate) struct Model {
    bits: Vec<u64>,
    len: usize,
}

impl Model {
    fn from_lits(lits: &[Lit], len: usize) -> Model {
        let mut bits = vec![0u64; len.div_ceil(64)];
        for lit in lits {
            if lit.is_positive() {
                let i = lit.index();
                bits[i / 64] |= 1 << (i % 64);
            }
        }
        Model { bits, len }
    }

    /// The value of `lit`, or `None` when its variable is newer than the model.
    pub(crate) fn value(&self, lit: Lit) -> Option<bool> {
        let i = lit.index();
        (i < self.len).then(|| ((self.bits[i / 64] >> (i % 64)) & 1 == 1) == lit.is_positive())
    }

    fn satisfies(&self, lits: &[Lit]) -> bool {
        lits.iter().all(|&l| self.value(l) == Some(true))
    }
}

/// An incremental solver with model reuse and change tracking.
pub(crate) struct Sat {
    solver: Solver<'static>,
    vars: usize,
    parent: Vec<u32>,
    stamp: Vec<u64>,
    clock: u64,
    models: Vec<Model>,
    clauses: Vec<Vec<Lit>>,
    /// Watches by component representative; a component nobody watches has no entry, so
    /// callers that never watch pay one failed lookup per clause.
    watches: FxHashMap<u32, Vec<Watch>>,
    /// Watched components stamped since the last [`Sat::drain_changed`] (repeats allowed;
    /// each is looked up again there, as it may have merged into another since).
    stamped: Vec<u32>,
    /// Solver calls made, for statistics and benchmarks.
    pub(crate) calls: u64,
}

/// How many recent models are kept for answering questions without a call.
const MODEL_POOL: usize = 8;

impl Sat {
    pub(crate) fn new() -> Sat {
        Sat {
            solver: Solver::new(),
            vars: 0,
            parent: Vec::new(),
            stamp: Vec::new(),
            clock: 1,
            models: Vec::new(),
            clauses: Vec::new(),
            watches: FxHashMap::default(),
            stamped: Vec::new(),
            calls: 0,
        }
    }

    /// A fresh variable, as its positive literal.
    pub(crate) fn new_lit(&mut self) -> Lit {
        let var = self.solver.new_var();
        debug_assert_eq!(var.index(), self.vars);
        self.vars += 1;
        self.parent.push(var.index() as u32);
        self.stamp.push(self.clock);
        var.positive()
    }

    /// The number of variables.
    pub(crate) fn var_count(&self) -> usize {
        self.vars
    }

    /// Every clause added, in order (for export and checks).
    pub(crate) fn clauses(&self) -> &[Vec<Lit>] {
        &self.clauses
    }

    /// The current time: a clause added from now on is "since" this.
    pub(crate) fn now(&self) -> u64 {
        self.clock
    }

    /// Moves the clock on without adding a clause (for facts kept outside the solver), and
    /// returns the new time.
    pub(crate) fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// Adds a clause; the empty clause makes the formula unsatisfiable.
    pub(crate) fn add_clause(&mut self, lits: &[Lit]) {
        self.clock += 1;
        self.models.clear();
        let mut root = None;
        for &lit in lits {
            let r = self.find(lit.index());
            root = Some(match root {
                None => r,
                Some(q) if q == r => q,
                Some(q) => {
                    self.parent[r] = q as u32;
                    self.merge_watches(r, q);
                    q
                }
            });
        }
        if let Some(r) = root {
            self.stamp[r] = self.clock;
            if self.watches.contains_key(&(r as u32)) {
                self.stamped.push(r as u32);
            }
        }
        self.solver.add_clause(lits);
        self.clauses.push(lits.to_vec());
    }

    /// Moves the watches of component `from` to `into`, which it has just joined (the longer
    /// list is kept and the shorter appended, so a watch moves O(log n) times in all).
    fn merge_watches(&mut self, from: usize, into: usize) {
        let Some(mut moved) = self.watches.remove(&(from as u32)) else {
            return;
        };
        let kept = self.watches.entry(into as u32).or_default();
        if kept.len() < moved.len() {
            std::mem::swap(kept, &mut moved);
        }
        kept.append(&mut moved);
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] as usize != i {
            let grand = self.parent[self.parent[i] as usize];
            self.parent[i] = grand;
            i = grand as usize;
        }
        i
    }

    /// The component (a representative variable index) of `lit`'s variable: variables that
    /// share a clause, directly or through others, share a component.
    pub(crate) fn component(&mut self, lit: Lit) -> usize {
        self.find(lit.index())
    }

    /// True when a clause touching `lit`'s component was added after time `since`.
    pub(crate) fn changed_since(&mut self, lit: Lit, since: u64) -> bool {
        let root = self.find(lit.index());
        self.stamp[root] > since
    }

    /// Hands `token` back from [`Sat::drain_changed`] once a clause touching `lit`'s component
    /// is added after time `since` (at once when one already has been). A watch fires once.
    pub(crate) fn watch(&mut self, lit: Lit, token: u32, since: u64, fired: &mut Vec<u32>) {
        let root = self.find(lit.index());
        if self.stamp[root] > since {
            fired.push(token);
        } else {
            self.watches
                .entry(root as u32)
                .or_default()
                .push(Watch { token, since });
        }
    }

    /// Appends to `fired` the token of every watch whose component was stamped after the
    /// watch's time, and drops those watches. Costs the watches of the components stamped
    /// since the last call, not all of them.
    pub(crate) fn drain_changed(&mut self, fired: &mut Vec<u32>) {
        let stamped = std::mem::take(&mut self.stamped);
        for &r in &stamped {
            let root = self.find(r as usize);
            let stamp = self.stamp[root];
            let Some(list) = self.watches.get_mut(&(root as u32)) else {
                continue;
            };
            list.retain(|w| {
                let changed = stamp > w.since;
                if changed {
                    fired.push(w.token);
                }
                !changed
            });
            if list.is_empty() {
                self.watches.remove(&(root as u32));
            }
        }
        // Keep the log's allocation for the next turn.
        self.stamped = stamped;
        self.stamped.clear();
    }

    /// True when a kept model satisfies all of `lits`.
    pub(crate) fn known_possible(&self, lits: &[Lit]) -> bool {
        self.models.iter().any(|m| m.satisfies(lits))
    }

    /// Solves under `assumptions`. When satisfiable, the model is kept for later questions
    /// (only when `keep` is set: models under partial assumptions must not answer questions
    /// about the whole knowledge base).
    pub(crate) fn solve(&mut self, assumptions: &[Lit], keep: bool) -> bool {
        self.calls += 1;
        self.solver.assume(assumptions);
        // varisat only fails on proof-writing errors, which are never enabled here.
        let sat = self
            .solver
            .solve()
            .expect("varisat solve without proof output");
        if sat && keep {
            let lits = self.solver.model().unwrap_or_default();
            if self.models.len() == MODEL_POOL {
                self.models.remove(0);
            }
            self.models.push(Model::from_lits(&lits, self.vars));
        }
        sat
    }

    /// The most recent kept model, if any.
    pub(crate) fn last_model(&self) -> Option<&Model> {
        self.models.last()
    }

    /// After an unsatisfiable [`Sat::solve`]: a subset of the assumptions that is already
    /// unsatisfiable with the formula.
    pub(crate) fn failed_core(&self) -> Vec<Lit> {
        self.solver
            .failed_core()
            .map(|c| c.to_vec())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_answer_without_calls_until_a_clause_is_added() {
        let mut s = Sat::new();
        let (a, b) = (s.new_lit(), s.new_lit());
        s.add_clause(&[a, b]);
        assert!(s.solve(&[a], true));
        let calls = s.calls;
        assert!(s.known_possible(&[a]));
        assert_eq!(s.calls, calls);
        s.add_clause(&[!a]);
        assert!(!s.known_possible(&[a]));
        assert!(!s.solve(&[a], true));
        assert_eq!(s.failed_core(), vec![a]);
    }

    #[test]
    fn change_tracking_follows_shared_clauses() {
        let mut s = Sat::new();
        let (a, b, c) = (s.new_lit(), s.new_lit(), s.new_lit());
        s.add_clause(&[a, b]);
        let t = s.now();
        s.add_clause(&[!c]);
        assert!(!s.changed_since(a, t));
        assert!(s.changed_since(c, t));
        s.add_clause(&[b, c]);
        assert!(s.changed_since(a, t), "a joined c's component");
    }

    #[test]
    fn watches_fire_once_after_their_component_changes() {
        let mut s = Sat::new();
        let (a, b, c, d) = (s.new_lit(), s.new_lit(), s.new_lit(), s.new_lit());
        s.add_clause(&[a, b]);
        let t = s.now();
        let mut fired = Vec::new();
        s.watch(a, 1, t, &mut fired);
        s.watch(c, 2, t, &mut fired);
        s.watch(d, 3, 0, &mut fired);
        assert_eq!(fired, vec![3], "d was created after time 0");
        fired.clear();
        s.add_clause(&[!c]);
        s.drain_changed(&mut fired);
        assert_eq!(fired, vec![2]);
        fired.clear();
        // a's watch moves into c's component when they merge, then fires.
        s.add_clause(&[b, c]);
        s.drain_changed(&mut fired);
        assert_eq!(fired, vec![1]);
        fired.clear();
        s.add_clause(&[a, c]);
        s.drain_changed(&mut fired);
        assert!(fired.is_empty(), "a watch fires once");
    }
}
