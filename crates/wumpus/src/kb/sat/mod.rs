//! The one place that talks to the SAT solver (`varisat`).
//!
//! [`Sat`] holds the clauses of a whole game and answers "is the formula satisfiable under
//! these assumptions?" in one of two ways:
//!
//! - [`Sat::whole`]: one incremental solver over every variable ([`Sat::growing`] starts
//!   with it, while the formula is small).
//! - Split: one incremental solver per component (variables joined by clauses,
//!   below), made when the component is first solved and merged with others as clauses join
//!   them. A solver call must assign every variable of its solver, and on a big sparse grid
//!   most of the formula is settled ground far behind the agent; with a solver per component
//!   a call costs the component it asks about, and the consistency check after each step
//!   re-solves only the components the step's clauses touched. The answers are the same (the
//!   components share no variable, so the formula is satisfiable exactly when each is); the
//!   models found, and so the solver calls saved by them, differ. Explanations work on it
//!   too: each part remembers a model of its current clauses, so a call assuming every
//!   observation's selector solves only the parts changed since (see [`Sat::solve`]), and
//!   the failed core of an unsatisfiable call is the failing part's own assumptions, which
//!   minimisation then shrinks by solving that part alone.
//!
//! Besides adding clauses and solving under assumptions, it keeps three things that make
//! questions cheap:
//!
//! - **Models found so far** (for the current clause set): a question "is `a ∧ b` possible?"
//!   is answered yes without a solver call when a known model already satisfies it. Adding a
//!   clause forgets the models it may falsify (all of them with one solver; those of the
//!   clause's component with one per component, where models of different components
//!   combine into a model of the whole).
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

mod components;
mod split;
#[cfg(test)]
mod tests;

use components::{find, Watch};
use split::{localised, Split, MAX_SOLVERS, SPLIT_AT};

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

/// How the clauses are solved (see the module documentation).
enum Engine {
    /// One solver over every variable, with the models kept for the current formula.
    Whole {
        solver: Box<Solver<'static>>,
        models: Vec<Model>,
    },
    /// One solver per component.
    Split(Split),
}

/// Keeps `model`, forgetting the oldest beyond [`MODEL_POOL`].
fn keep_model(models: &mut Vec<Model>, model: Model) {
    if models.len() == MODEL_POOL {
        models.remove(0);
    }
    models.push(model);
}

/// A clause set with model reuse and change tracking.
pub(crate) struct Sat {
    engine: Engine,
    /// The number of variables at which one solver over every variable gives way to one per
    /// component, if it does.
    split_at: Option<usize>,
    /// How many parts may keep a solver once split ([`MAX_SOLVERS`], but for tests).
    max_solvers: usize,
    vars: usize,
    parent: Vec<u32>,
    stamp: Vec<u64>,
    clock: u64,
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

/// How many recent models are kept for answering questions without a call (per component
/// with one solver per component).
const MODEL_POOL: usize = 8;

impl Sat {
    /// Clauses solved by one solver over every variable.
    pub(crate) fn whole() -> Sat {
        Sat::with(Engine::Whole {
            solver: Box::new(Solver::new()),
            models: Vec::new(),
        })
    }

    /// Clauses solved by one solver over every variable while the formula is small, and by
    /// one solver per component once it has [`SPLIT_AT`] variables.
    pub(crate) fn growing() -> Sat {
        Sat::splitting_at(SPLIT_AT, MAX_SOLVERS)
    }

    /// Clauses solved by one solver over every variable until there are `split_at` of them,
    /// then by one per component, at most `max_solvers` of which are kept.
    pub(crate) fn splitting_at(split_at: usize, max_solvers: usize) -> Sat {
        let mut sat = Sat::whole();
        sat.split_at = Some(split_at);
        sat.max_solvers = max_solvers;
        sat
    }

    fn with(engine: Engine) -> Sat {
        Sat {
            split_at: None,
            max_solvers: MAX_SOLVERS,
            engine,
            vars: 0,
            parent: Vec::new(),
            stamp: Vec::new(),
            clock: 1,
            clauses: Vec::new(),
            watches: FxHashMap::default(),
            stamped: Vec::new(),
            calls: 0,
        }
    }

    /// A fresh variable, as its positive literal.
    pub(crate) fn new_lit(&mut self) -> Lit {
        if self.split_at == Some(self.vars) {
            self.split_now();
        }
        let var = match &mut self.engine {
            Engine::Whole { solver, .. } => solver.new_var(),
            Engine::Split(split) => {
                split.local.push(u32::MAX);
                varisat::Var::from_index(self.vars)
            }
        };
        debug_assert_eq!(var.index(), self.vars);
        self.vars += 1;
        self.parent.push(var.index() as u32);
        self.stamp.push(self.clock);
        var.positive()
    }

    /// True once the clauses are solved one component at a time.
    #[cfg(test)]
    pub(crate) fn is_split(&self) -> bool {
        matches!(self.engine, Engine::Split(_))
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
        let mut root = None;
        // Representatives joined into `root` by this clause.
        let mut joined = Vec::new();
        for &lit in lits {
            let r = find(&mut self.parent, lit.index());
            root = Some(match root {
                None => r,
                Some(q) if q == r => q,
                Some(q) => {
                    self.parent[r] = q as u32;
                    self.merge_watches(r, q);
                    joined.push(r as u32);
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
        let id = self.clauses.len() as u32;
        self.clauses.push(lits.to_vec());
        match &mut self.engine {
            Engine::Whole { solver, models } => {
                models.clear();
                solver.add_clause(lits);
            }
            Engine::Split(split) => {
                let Some(root) = root else {
                    split.empty = true;
                    return;
                };
                let clauses = &self.clauses;
                let mut part = split.parts.remove(&(root as u32)).unwrap_or_default();
                // A representative without a part is a variable no clause mentioned yet.
                let mut free = Vec::new();
                if part.vars.is_empty() {
                    free.push(root as u32);
                }
                for r in joined {
                    match split.parts.remove(&r) {
                        Some(other) => {
                            split.solvers -= part.absorb(other, &mut split.local, clauses);
                        }
                        None => free.push(r),
                    }
                }
                for v in free {
                    split.local[v as usize] = part.vars.len() as u32;
                    part.vars.push(v);
                }
                if let Some(solver) = &mut part.solver {
                    solver.add_clause(&localised(lits, &split.local));
                }
                part.clauses.push(id);
                part.models.clear();
                part.witness = None;
                part.consistent = false;
                split.dirty.push(root as u32);
                split.parts.insert(root as u32, part);
            }
        }
    }

    /// True when a kept model satisfies all of `lits`.
    pub(crate) fn known_possible(&self, lits: &[Lit]) -> bool {
        match &self.engine {
            Engine::Whole { models, .. } => models.iter().any(|m| m.satisfies(lits)),
            Engine::Split(split) => {
                if split.empty || !split.dirty.is_empty() {
                    // A part not known satisfiable may make the whole formula unsatisfiable.
                    return false;
                }
                let grouped = self.by_component(lits);
                grouped.chunk_by(|a, b| a.0 == b.0).all(|group| {
                    let lits: Vec<Lit> = group.iter().map(|&(_, l)| l).collect();
                    match split.parts.get(&group[0].0) {
                        // Free variables take any values asked, unless asked both ways.
                        None => !lits.iter().any(|&l| lits.contains(&!l)),
                        Some(part) => {
                            let lits = localised(&lits, &split.local);
                            part.models.iter().any(|m| m.satisfies(&lits))
                        }
                    }
                })
            }
        }
    }

    /// Solves under `assumptions`. When satisfiable, the model is kept for later questions
    /// (only when `keep` is set: models under partial assumptions must not answer questions
    /// about the whole knowledge base).
    pub(crate) fn solve(&mut self, assumptions: &[Lit], keep: bool) -> bool {
        let split = match &mut self.engine {
            Engine::Whole { solver, models } => {
                self.calls += 1;
                solver.assume(assumptions);
                // varisat only fails on proof-writing errors, which are never enabled here.
                let sat = solver.solve().expect("varisat solve without proof output");
                if sat && keep {
                    let lits = solver.model().unwrap_or_default();
                    keep_model(models, Model::from_lits(&lits, self.vars));
                }
                return sat;
            }
            Engine::Split(split) => split,
        };
        split.core.clear();
        if split.empty {
            return false;
        }
        // The parts to solve: those the assumptions speak of, and those changed since they
        // were last found satisfiable; every other part is known satisfiable already.
        let mut grouped: Vec<(u32, Lit)> = assumptions
            .iter()
            .map(|&l| (find(&mut self.parent, l.index()) as u32, l))
            .collect();
        grouped.sort_by_key(|&(r, _)| r);
        let mut todo: Vec<u32> = grouped.iter().map(|&(r, _)| r).collect();
        for r in std::mem::take(&mut split.dirty) {
            todo.push(find(&mut self.parent, r as usize) as u32);
        }
        todo.sort_unstable();
        todo.dedup();
        let mut sat = true;
        for &root in &todo {
            let start = grouped.partition_point(|&(r, _)| r < root);
            let end = grouped.partition_point(|&(r, _)| r <= root);
            let asked: Vec<Lit> = grouped[start..end].iter().map(|&(_, l)| l).collect();
            let Some(part) = split.parts.get_mut(&root) else {
                // Free variables: satisfiable unless one is assumed both ways.
                if let Some(&l) = asked.iter().find(|&&l| asked.contains(&!l)) {
                    split.core = vec![l, !l];
                    sat = false;
                    break;
                }
                continue;
            };
            if asked.is_empty() && part.consistent {
                continue;
            }
            // Skip the solve when the part's clauses have a known model that satisfies every
            // assumption asked of it. Sound: `witness` is a model of the part's current
            // clauses (it is dropped whenever a clause joins the part), found under some
            // assumptions A and so making all of A true; a part satisfiable under A is
            // satisfiable under any subset of A, and more generally under any assumptions its
            // model makes true. Components share no variable, so the whole formula is
            // satisfiable under the assumptions exactly when each part is under its own: the
            // answer is the one a solve would give. In explained mode every call assumes every
            // observation's selector, so without this each call would re-solve every part with
            // an observation; with it, only the parts changed since their last solve (and the
            // one part a question or a trial of `minimal_core` is about) are solved. When the
            // model is to be kept, a part with no kept model is solved anyway, so that one of
            // the current clauses under the caller's full assumptions is kept.
            let known = part
                .witness
                .as_ref()
                .is_some_and(|w| w.satisfies(&localised(&asked, &split.local)));
            if known && (!keep || !part.models.is_empty()) {
                continue;
            }
            if part.make_solver(&split.local, &self.clauses) {
                split.solvers += 1;
            }
            split.uses += 1;
            part.used = split.uses;
            let solver = part.solver.as_mut().expect("made above");
            let local = localised(&asked, &split.local);
            self.calls += 1;
            solver.assume(&local);
            let found = solver.solve().expect("varisat solve without proof output");
            if !found {
                // varisat's failed core is meant to be a subset of the part's assumptions
                // that is unsatisfiable on its own, but is not always (seen with repeated or
                // clashing assumptions, and in incremental use); so it is checked by one more
                // solve, and the part's own assumptions, unsatisfiable by this very call, are
                // the core when the check fails. The check matters: in explained mode one
                // part may hold hundreds of observations, and deletion-based minimisation
                // costs a solve per observation it starts from.
                let failed: Vec<Lit> = solver
                    .failed_core()
                    .unwrap_or(&local)
                    .iter()
                    .map(|l| Lit::from_index(part.vars[l.index()] as usize, l.is_positive()))
                    .collect();
                split.core = asked;
                if failed.len() < split.core.len() && failed.iter().all(|l| split.core.contains(l))
                {
                    self.calls += 1;
                    solver.assume(&localised(&failed, &split.local));
                    if !solver.solve().expect("varisat solve without proof output") {
                        split.core = failed;
                    }
                }
                sat = false;
                break;
            }
            let model = Model::from_lits(&solver.model().unwrap_or_default(), part.vars.len());
            part.consistent = true;
            if keep {
                keep_model(&mut part.models, model.clone());
            }
            part.witness = Some(model);
        }
        // Parts not found satisfiable stay to be solved.
        for root in todo {
            if split.parts.get(&root).is_some_and(|p| !p.consistent) {
                split.dirty.push(root);
            }
        }
        if split.solvers > split.max_solvers {
            split.drop_old_solvers();
        }
        sat
    }

    /// The value of `lit` in the most recent kept model (of its component, with one solver
    /// per component), or `None` when no kept model covers it.
    pub(crate) fn model_value(&self, lit: Lit) -> Option<bool> {
        match &self.engine {
            Engine::Whole { models, .. } => models.last()?.value(lit),
            Engine::Split(split) => {
                let part = split.parts.get(&(self.root(lit.index()) as u32))?;
                let local = Lit::from_index(split.local[lit.index()] as usize, lit.is_positive());
                part.models.last()?.value(local)
            }
        }
    }

    /// After an unsatisfiable [`Sat::solve`]: a subset of the assumptions that is already
    /// unsatisfiable with the formula.
    pub(crate) fn failed_core(&self) -> Vec<Lit> {
        match &self.engine {
            Engine::Whole { solver, .. } => {
                solver.failed_core().map(|c| c.to_vec()).unwrap_or_default()
            }
            Engine::Split(split) => split.core.clone(),
        }
    }
}
