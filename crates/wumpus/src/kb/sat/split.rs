//! The per-component engine: one solver per component of the formula, made when the
//! component is first solved, merged as clauses join components, and dropped when unused for
//! long.
//!
//! A part's solver, models and witness hold for its current clauses alone; whatever changes
//! the clauses must drop them, and nothing here may give an answer other than one solver
//! over the whole formula would.

use rustc_hash::FxHashMap;
use varisat::{ExtendFormula, Lit, Solver};

use super::components::find;
use super::{Engine, Model, Sat};

/// The per-component engine.
#[derive(Default)]
pub(super) struct Split {
    /// The components some clause mentions, by representative; a variable of no clause is
    /// free and has none.
    pub(super) parts: FxHashMap<u32, Part>,
    /// Each variable's position in its part's `vars`, which is its index in the part's
    /// solver and models.
    pub(super) local: Vec<u32>,
    /// Parts that hold a solver.
    pub(super) solvers: usize,
    /// How many may ([`MAX_SOLVERS`], but for tests).
    pub(super) max_solvers: usize,
    /// Solves so far, to tell recently used solvers from old ones.
    pub(super) uses: u64,
    /// Representatives (at the time) of parts changed since they were last solved.
    pub(super) dirty: Vec<u32>,
    /// True once the empty clause was added.
    pub(super) empty: bool,
    /// The failed assumptions of the last unsatisfiable solve.
    pub(super) core: Vec<Lit>,
}

impl Split {
    /// Keeps the solvers of the `max_solvers / 2` parts used last and drops the others'
    /// (their models stay: a solver made again numbers the variables the same way). A scan
    /// of every part, once per `max_solvers / 2` solvers made.
    pub(super) fn drop_old_solvers(&mut self) {
        let mut used: Vec<u64> = self
            .parts
            .values()
            .filter(|p| p.solver.is_some())
            .map(|p| p.used)
            .collect();
        let keep = self.max_solvers / 2;
        if used.len() <= keep {
            return;
        }
        let cut = used.len() - keep;
        let (_, &mut oldest_kept, _) = used.select_nth_unstable(cut);
        for part in self.parts.values_mut() {
            if part.solver.is_some() && part.used < oldest_kept {
                part.solver = None;
                self.solvers -= 1;
            }
        }
    }
}

/// One component of the split engine.
#[derive(Default)]
pub(super) struct Part {
    /// Its variables, in the order of their indices in `solver` and `models`.
    pub(super) vars: Vec<u32>,
    /// Its clauses, as indices into [`Sat::clauses`].
    pub(super) clauses: Vec<u32>,
    /// Its solver while it is in use: made from the clauses when the part is solved, kept
    /// for the next solve, dropped when merged into a bigger part or when many other parts
    /// were solved since (see [`MAX_SOLVERS`]).
    pub(super) solver: Option<Box<Solver<'static>>>,
    /// When its solver was last used, in [`Split::uses`].
    pub(super) used: u64,
    /// Models of its current clauses, over the positions in `vars`.
    pub(super) models: Vec<Model>,
    /// True when its current clauses are known satisfiable.
    pub(super) consistent: bool,
    /// A model of its current clauses found by its last satisfiable solve, whatever the
    /// assumptions were (so it may not answer questions, unlike `models`): it shows the part
    /// satisfiable under any assumptions it satisfies, so those need no solve (see
    /// [`Sat::solve`]). Dropped with `models` when a clause joins the part.
    pub(super) witness: Option<Model>,
}

/// The number of variables at which [`Sat::growing`] moves to one solver per component.
/// Below it a call over the whole formula is cheap, and one solver is cheaper than many
/// (each new solver pays again for every variable it is given). Measured in instructions
/// (callgrind) over whole batches: 5×5 games run fastest with one solver (a split from the
/// start costs 8–11% more; most games stay under 64 variables), 32×32 and 64×64 sparse
/// games fastest split early (at 512 variables they cost 1.6–2× more than split from the
/// start; at 64, 3–8% more).
pub(super) const SPLIT_AT: usize = 64;

/// How many parts may hold a solver at once. A sparse 1024×1024 grid has tens of thousands
/// of components, nearly all settled far behind the agent, and a varisat solver costs some
/// kilobytes even when small; the least recently used lose theirs (a settled part is seldom
/// solved again, and remaking a small one costs its few clauses).
pub(super) const MAX_SOLVERS: usize = 1024;

impl Part {
    /// Appends `other` (a component just joined to this one); returns how many solvers
    /// were dropped (0 or 1).
    pub(super) fn absorb(
        &mut self,
        mut other: Part,
        local: &mut [u32],
        clauses: &[Vec<Lit>],
    ) -> usize {
        if other.vars.len() > self.vars.len() {
            // Keep the bigger part's numbering and solver, so that a variable is renumbered
            // and a clause re-added O(log n) times in all.
            std::mem::swap(self, &mut other);
        }
        for &v in &other.vars {
            local[v as usize] = self.vars.len() as u32;
            self.vars.push(v);
        }
        if let Some(solver) = &mut self.solver {
            for &c in &other.clauses {
                solver.add_clause(&localised(&clauses[c as usize], local));
            }
        }
        self.clauses.extend_from_slice(&other.clauses);
        self.models.clear();
        self.witness = None;
        self.consistent = false;
        usize::from(other.solver.is_some())
    }

    /// Makes its solver from its clauses if it has none; returns true when it made one.
    pub(super) fn make_solver(&mut self, local: &[u32], clauses: &[Vec<Lit>]) -> bool {
        if self.solver.is_some() {
            return false;
        }
        let mut solver = Box::new(Solver::new());
        for &c in &self.clauses {
            solver.add_clause(&localised(&clauses[c as usize], local));
        }
        self.solver = Some(solver);
        true
    }
}

/// `lits` over a part's solver variables.
pub(super) fn localised(lits: &[Lit], local: &[u32]) -> Vec<Lit> {
    lits.iter()
        .map(|l| Lit::from_index(local[l.index()] as usize, l.is_positive()))
        .collect()
}

impl Sat {
    /// Moves to one solver per component: groups the clauses so far by component, each part
    /// to be solved (and its solver made) when next needed. The whole formula's solver and
    /// models are dropped; answers are unchanged.
    pub(super) fn split_now(&mut self) {
        let mut split = Split {
            max_solvers: self.max_solvers,
            local: vec![u32::MAX; self.vars],
            ..Split::default()
        };
        for (id, clause) in self.clauses.iter().enumerate() {
            let Some(first) = clause.first() else {
                split.empty = true;
                continue;
            };
            let root = find(&mut self.parent, first.index()) as u32;
            let part = split.parts.entry(root).or_default();
            for lit in clause {
                let v = lit.index();
                if split.local[v] == u32::MAX {
                    split.local[v] = part.vars.len() as u32;
                    part.vars.push(v as u32);
                }
            }
            part.clauses.push(id as u32);
        }
        split.dirty = split.parts.keys().copied().collect();
        // (Part order does not matter: each part is solved on its own.)
        self.engine = Engine::Split(split);
    }
}
