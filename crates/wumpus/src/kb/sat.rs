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

/// The per-component engine.
#[derive(Default)]
struct Split {
    /// The components some clause mentions, by representative; a variable of no clause is
    /// free and has none.
    parts: FxHashMap<u32, Part>,
    /// Each variable's position in its part's `vars`, which is its index in the part's
    /// solver and models.
    local: Vec<u32>,
    /// Parts that hold a solver.
    solvers: usize,
    /// How many may ([`MAX_SOLVERS`], but for tests).
    max_solvers: usize,
    /// Solves so far, to tell recently used solvers from old ones.
    uses: u64,
    /// Representatives (at the time) of parts changed since they were last solved.
    dirty: Vec<u32>,
    /// True once the empty clause was added.
    empty: bool,
    /// The failed assumptions of the last unsatisfiable solve.
    core: Vec<Lit>,
}

impl Split {
    /// Keeps the solvers of the `max_solvers / 2` parts used last and drops the others'
    /// (their models stay: a solver made again numbers the variables the same way). A scan
    /// of every part, once per `max_solvers / 2` solvers made.
    fn drop_old_solvers(&mut self) {
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
struct Part {
    /// Its variables, in the order of their indices in `solver` and `models`.
    vars: Vec<u32>,
    /// Its clauses, as indices into [`Sat::clauses`].
    clauses: Vec<u32>,
    /// Its solver while it is in use: made from the clauses when the part is solved, kept
    /// for the next solve, dropped when merged into a bigger part or when many other parts
    /// were solved since (see [`MAX_SOLVERS`]).
    solver: Option<Box<Solver<'static>>>,
    /// When its solver was last used, in [`Split::uses`].
    used: u64,
    /// Models of its current clauses, over the positions in `vars`.
    models: Vec<Model>,
    /// True when its current clauses are known satisfiable.
    consistent: bool,
    /// A model of its current clauses found by its last satisfiable solve, whatever the
    /// assumptions were (so it may not answer questions, unlike `models`): it shows the part
    /// satisfiable under any assumptions it satisfies, so those need no solve (see
    /// [`Sat::solve`]). Dropped with `models` when a clause joins the part.
    witness: Option<Model>,
}

/// The number of variables at which [`Sat::growing`] moves to one solver per component.
/// Below it a call over the whole formula is cheap, and one solver is cheaper than many
/// (each new solver pays again for every variable it is given). Measured in instructions
/// (callgrind) over whole batches: 5×5 games run fastest with one solver (a split from the
/// start costs 8–11% more; most games stay under 64 variables), 32×32 and 64×64 sparse
/// games fastest split early (at 512 variables they cost 1.6–2× more than split from the
/// start; at 64, 3–8% more).
const SPLIT_AT: usize = 64;

/// How many parts may hold a solver at once. A sparse 1024×1024 grid has tens of thousands
/// of components, nearly all settled far behind the agent, and a varisat solver costs some
/// kilobytes even when small; the least recently used lose theirs (a settled part is seldom
/// solved again, and remaking a small one costs its few clauses).
const MAX_SOLVERS: usize = 1024;

impl Part {
    /// Appends `other` (a component just joined to this one); returns how many solvers
    /// were dropped (0 or 1).
    fn absorb(&mut self, mut other: Part, local: &mut [u32], clauses: &[Vec<Lit>]) -> usize {
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
    fn make_solver(&mut self, local: &[u32], clauses: &[Vec<Lit>]) -> bool {
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
fn localised(lits: &[Lit], local: &[u32]) -> Vec<Lit> {
    lits.iter()
        .map(|l| Lit::from_index(local[l.index()] as usize, l.is_positive()))
        .collect()
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

/// The representative of `i` in the union–find `parent`, halving paths on the way.
fn find(parent: &mut [u32], mut i: usize) -> usize {
    while parent[i] as usize != i {
        let grand = parent[parent[i] as usize];
        parent[i] = grand;
        i = grand as usize;
    }
    i
}

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

    /// Moves to one solver per component: groups the clauses so far by component, each part
    /// to be solved (and its solver made) when next needed. The whole formula's solver and
    /// models are dropped; answers are unchanged.
    fn split_now(&mut self) {
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

    /// The representative of `i` without shortening paths (for `&self` questions).
    fn root(&self, mut i: usize) -> usize {
        while self.parent[i] as usize != i {
            i = self.parent[i] as usize;
        }
        i
    }

    /// The component (a representative variable index) of `lit`'s variable: variables that
    /// share a clause, directly or through others, share a component.
    pub(crate) fn component(&mut self, lit: Lit) -> usize {
        find(&mut self.parent, lit.index())
    }

    /// True when a clause touching `lit`'s component was added after time `since`.
    pub(crate) fn changed_since(&mut self, lit: Lit, since: u64) -> bool {
        let root = find(&mut self.parent, lit.index());
        self.stamp[root] > since
    }

    /// Hands `token` back from [`Sat::drain_changed`] once a clause touching `lit`'s component
    /// is added after time `since` (at once when one already has been). A watch fires once.
    pub(crate) fn watch(&mut self, lit: Lit, token: u32, since: u64, fired: &mut Vec<u32>) {
        let root = find(&mut self.parent, lit.index());
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
            let root = find(&mut self.parent, r as usize);
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

    /// `lits` grouped by component: (representative, literal) pairs, sorted by
    /// representative and otherwise in their order.
    fn by_component(&self, lits: &[Lit]) -> Vec<(u32, Lit)> {
        let mut grouped: Vec<(u32, Lit)> = lits
            .iter()
            .map(|&l| (self.root(l.index()) as u32, l))
            .collect();
        grouped.sort_by_key(|&(r, _)| r);
        grouped
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_answer_without_calls_until_a_clause_is_added() {
        for mut s in [Sat::whole(), Sat::splitting_at(0, MAX_SOLVERS)] {
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
    }

    #[test]
    fn one_solver_per_component_answers_as_one_solver_does() {
        use rand::Rng;
        let mut rng = crate::rng::seeded(3);
        for round in 0..1000 {
            // Every other round, solvers are dropped and made again all the time.
            let (mut whole, mut split) = (
                Sat::whole(),
                // Split from the start, or after a few variables, keeping few solvers or many.
                Sat::splitting_at(round % 3, if round % 2 == 0 { MAX_SOLVERS } else { 2 }),
            );
            let vars = rng.random_range(1..14);
            let lits: Vec<Lit> = (0..vars)
                .map(|_| {
                    let l = whole.new_lit();
                    assert_eq!(split.new_lit(), l);
                    l
                })
                .collect();
            let pick = |rng: &mut crate::rng::GameRng| {
                let l = lits[rng.random_range(0..lits.len())];
                if rng.random_bool(0.5) {
                    l
                } else {
                    !l
                }
            };
            for _ in 0..rng.random_range(0..30) {
                let len = if rng.random_bool(0.01) {
                    0
                } else {
                    rng.random_range(1..4)
                };
                let clause: Vec<Lit> = (0..len).map(|_| pick(&mut rng)).collect();
                whole.add_clause(&clause);
                split.add_clause(&clause);
                for _ in 0..3 {
                    let asked: Vec<Lit> = (0..rng.random_range(0..4))
                        .map(|_| pick(&mut rng))
                        .collect();
                    let known = split.known_possible(&asked);
                    let expected = whole.solve(&asked, true);
                    assert!(!known || expected, "round {round}: a kept model lied");
                    assert_eq!(split.solve(&asked, true), expected, "round {round}");
                    if !expected {
                        // The core is a subset of the assumptions that fails on its own.
                        let core = split.failed_core();
                        assert!(core.iter().all(|l| asked.contains(l)));
                        assert!(!whole.solve(&core, false), "round {round}");
                    }
                }
                if split.solve(&[], true) {
                    // The latest models of the components make a model of the whole.
                    let value = |l: Lit| split.model_value(l).unwrap_or(!l.is_positive());
                    for c in split.clauses() {
                        assert!(c.iter().any(|&l| value(l)), "round {round}: {c:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn change_tracking_follows_shared_clauses() {
        let mut s = Sat::whole();
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
        let mut s = Sat::whole();
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
