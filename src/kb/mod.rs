//! The propositional knowledge base: rules grounded over the world's graph, observations told
//! as they arrive, and questions answered by SAT.
//!
//! A [`KnowledgeBase`] holds the clauses of a whole game, solved incrementally (see sat.rs).
//! A fact is *entailed* when the knowledge base together with its negation is unsatisfiable;
//! a place is proven safe when "danger there" is impossible. Every "no" comes from the solver; every "yes" from a model.
//!
//! Grounding is lazy, and exact. A hidden atom gets a solver variable only when some clause
//! mentions it. A percept's meaning is grounded at a place only when that percept is observed
//! there: an unobserved percept atom is defined by its meaning and occurs nowhere else, so
//! leaving it out changes no answer about hidden atoms. A cardinality constraint ("exactly one
//! wumpus") is an incremental sequential counter over the atoms mentioned so far, with the
//! unmentioned places standing for "the rest": at most *k* among the mentioned, and at least
//! *k − rest* of them. So a 1024×1024 grid costs only what the agent has explored.
//!
//! A world that changes is told its **events** ([`KnowledgeBase::happen`]): each predicate the
//! event changes gets a fresh set of atoms, an *epoch*, tied to the previous one by the event's
//! rules, so old observations keep constraining the old epoch and, through the rules, the new
//! one. Facts speak of epoch 0 (the world as dealt); cardinalities hold in every epoch; a
//! percept speaks of the epochs current when it is told. One solver serves the whole game.
//!
//! On a map that is only partly known, the topology can grow ([`KnowledgeBase::set_topology`]):
//! later groundings read the new graph, earlier clauses stand.
//!
//! In [`Proofs::Explained`] mode each observation is guarded by a selector variable and passed
//! as an assumption, so [`KnowledgeBase::explain`] can name the observations a conclusion rests
//! on (the solver's failed assumptions, then minimised one by one: with one solver per
//! component, the failing component's assumptions, each trial solving only that component).
//! [`Proofs::Fast`] adds observations as plain clauses, which is quicker when no one asks why.

pub mod ground;
pub mod odds;
pub mod rules;
mod sat;

use ground::{Atom, Ground, GroundClause, GroundError, GroundLit};
use rules::{EventId, PredId, PredKind, Rules};
use sat::Sat;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, OnceLock};
use varisat::Lit;

use crate::topology::{Place, Topology};

/// Whether conclusions must be explainable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proofs {
    /// Observations become clauses; [`KnowledgeBase::explain`] is unavailable.
    Fast,
    /// Observations are assumptions; every conclusion can be explained.
    Explained,
}

/// One thing told to the knowledge base.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Observation {
    /// The percept predicate.
    pub pred: PredId,
    /// Where it was observed, for a per-place percept.
    pub place: Option<Place>,
    /// Present or absent.
    pub present: bool,
    /// How many events had happened when it was told (0 in a world without events).
    pub time: u32,
}

/// Errors of the knowledge base.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KbError {
    /// A rule could not be grounded.
    #[error("{0}")]
    Ground(#[from] GroundError),
    /// The observations cannot all be true together with the rules.
    #[error("the observations contradict each other or the rules: {0}")]
    Contradiction(String),
    /// An observation was told of a predicate that is not a percept, or with the wrong arity.
    #[error("'{0}' cannot be observed here")]
    NotObservable(String),
    /// The rules lack something an agent needs (a predicate, or one of the right kind).
    #[error("the rules do not suit the agent: {0}")]
    Vocabulary(String),
    /// An event was told with or without a place against its declaration, or at no place of
    /// the world.
    #[error("event '{0}' cannot happen like that here")]
    BadEvent(String),
    /// A new topology with another number of places than the knowledge base's.
    #[error("the new map has {found} places, the knowledge base {expected}")]
    TopologyMismatch {
        /// Places the knowledge base was built for.
        expected: usize,
        /// Places of the new map.
        found: usize,
    },
    /// A question the knowledge base cannot answer as asked.
    #[error("{0}")]
    Unsupported(String),
    /// `explain` on a knowledge base built for speed.
    #[error("explanations need a knowledge base built with Proofs::Explained")]
    NotExplaining,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bit {
    False,
    True,
    Lit(Lit),
}

/// An incremental sequential counter: `regs[j - 1]` is true exactly when at least `j` of the
/// atoms mentioned so far are true.
#[derive(Clone, Debug)]
struct Counter {
    pred: PredId,
    places: usize,
    at_least: usize,
    at_most: Option<usize>,
    regs: Vec<Bit>,
    mentioned: usize,
}

impl Counter {
    /// A counter for cardinality `c` over the atoms of `pred` (a predicate of the knowledge
    /// base: the cardinality's own, or one of its epochs).
    fn new(c: &rules::Cardinality, pred: PredId, places: usize) -> Counter {
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

/// What the knowledge base holds of one ground atom.
#[derive(Clone, Copy, Debug, Default)]
struct AtomState {
    /// Its solver variable, once a clause in the solver mentions it.
    lit: Option<Lit>,
    /// Its value, once a unit clause fixed it. Fixed atoms are simplified out of later clauses
    /// and need no solver call; most observations on the grid fix atoms ("no breeze here: no
    /// pit next door"), so the solver sees only what is genuinely uncertain.
    fixed: Option<bool>,
    /// When it was fixed.
    fixed_at: u64,
}

/// Rules grounded over one topology, shared by every game played on it: facts are grounded
/// once, and each percept's meaning at each place at most once (on small worlds).
pub struct Grounding {
    rules: Arc<Rules>,
    topology: Arc<Topology>,
    start: Option<Place>,
    facts: Vec<GroundClause>,
    percept_slot: Vec<Option<usize>>,
    cache: Option<Vec<OnceLock<Vec<GroundClause>>>>,
}

/// Worlds up to this many (places × per-place percepts) keep a grounding cache.
const CACHE_LIMIT: usize = 1 << 16;

impl Grounding {
    /// Grounds the facts of `rules` on `topology`; `start` is what the rules call `start`.
    pub fn new(
        rules: Arc<Rules>,
        topology: Arc<Topology>,
        start: Option<Place>,
    ) -> Result<Arc<Grounding>, KbError> {
        let ground = Ground::new(&topology, start);
        let mut facts = Vec::new();
        for fact in &rules.facts {
            match &fact.var {
                None => facts.extend(ground.clauses(&fact.formula, &mut Vec::new(), true)?),
                Some(v) => {
                    for place in topology.places() {
                        let mut env = vec![(v.clone(), place)];
                        facts.extend(ground.clauses(&fact.formula, &mut env, true)?);
                    }
                }
            }
        }
        let mut slots = 0;
        let percept_slot = rules
            .predicates
            .iter()
            .map(|p| {
                (p.kind == PredKind::Percept && p.per_place).then(|| {
                    slots += 1;
                    slots - 1
                })
            })
            .collect();
        let cells = slots * topology.len() * 2;
        let cache = (cells <= CACHE_LIMIT).then(|| (0..cells).map(|_| OnceLock::new()).collect());
        Ok(Arc::new(Grounding {
            rules,
            topology,
            start,
            facts,
            percept_slot,
            cache,
        }))
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The topology.
    pub fn topology(&self) -> &Arc<Topology> {
        &self.topology
    }

    /// The place the rules call `start`.
    pub fn start(&self) -> Option<Place> {
        self.start
    }

    /// The clauses meaning "percept `pred` observed `present` at `place`".
    fn percept(
        &self,
        pred: PredId,
        place: Option<Place>,
        present: bool,
    ) -> Result<std::borrow::Cow<'_, [GroundClause]>, KbError> {
        let rule = self
            .rules
            .percept_rule(pred)
            .expect("checked by the caller");
        let compute = || {
            let ground = Ground::new(&self.topology, self.start);
            let mut env = match (&rule.var, place) {
                (Some(v), Some(at)) => vec![(v.clone(), at)],
                _ => Vec::new(),
            };
            ground.clauses(&rule.body, &mut env, present)
        };
        let index = match (&self.cache, self.percept_slot[pred], place) {
            (Some(_), Some(slot), Some(at)) => {
                Some((slot * self.topology.len() + at.index()) * 2 + present as usize)
            }
            _ => None,
        };
        match (index, &self.cache) {
            (Some(i), Some(cache)) => {
                if cache[i].get().is_none() {
                    let _ = cache[i].set(compute()?);
                }
                Ok(std::borrow::Cow::Borrowed(
                    cache[i].get().expect("set above"),
                ))
            }
            _ => Ok(std::borrow::Cow::Owned(compute()?)),
        }
    }
}

/// Clauses grouped by the component (representative variable) they belong to.
type ComponentClauses = HashMap<usize, Arc<odds::SharedClauses>>;

/// The knowledge base of one game.
pub struct KnowledgeBase {
    grounding: Arc<Grounding>,
    proofs: Proofs,
    sat: Sat,
    atoms: Vec<Vec<AtomState>>,
    mentioned: Vec<Vec<Option<Place>>>,
    /// Per predicate, the mentioned atoms fixed true.
    fixed_true: Vec<Vec<Option<Place>>>,
    /// Per predicate, mentioned atoms that may still be unfixed (fixed ones are dropped
    /// lazily), so that [`KnowledgeBase::true_in_model`] need not scan every mentioned atom:
    /// on a big grid nearly all of them are fixed false by the observations.
    unfixed: Vec<Vec<Option<Place>>>,
    counted: Vec<bool>,
    counters: Vec<Counter>,
    observations: Vec<Observation>,
    told: HashSet<Observation>,
    selectors: Vec<Lit>,
    consistent_at: Option<u64>,
    /// For each predicate of the rules, the knowledge base's predicate of its current epoch.
    current: Vec<PredId>,
    /// For each predicate of the knowledge base: the rules' predicate and its epoch.
    epoch_of: Vec<(PredId, u32)>,
    /// For each predicate of the rules, its epochs' predicates, oldest first.
    epochs: Vec<Vec<PredId>>,
    /// Events told so far.
    time: u32,
    /// Clauses grouped by component for odds, at a time, over this many clauses.
    by_component: Option<(u64, ComponentClauses)>,
    grouped: usize,
    /// Counts kept between odds questions about the same state.
    odds_cache: Option<odds::OddsCache>,
    /// Watches on atoms no clause mentions yet and no counter constrains: they wait here
    /// until the atom gets a variable (the watch moves to its component) or is fixed (it
    /// fires). See [`KnowledgeBase::watch`].
    atom_watches: rustc_hash::FxHashMap<Atom, Vec<(u32, u64)>>,
    /// Watches that fired and are not yet taken by [`KnowledgeBase::take_changed`].
    fired: Vec<u32>,
}

impl KnowledgeBase {
    /// A knowledge base for `rules` on `topology`; `start` is what the rules call `start`.
    pub fn new(
        rules: Arc<Rules>,
        topology: Arc<Topology>,
        start: Option<Place>,
        proofs: Proofs,
    ) -> Result<KnowledgeBase, KbError> {
        Ok(KnowledgeBase::from_grounding(
            Grounding::new(rules, topology, start)?,
            proofs,
        ))
    }

    /// A knowledge base on a shared grounding (cheaper when many games share a world's shape).
    pub fn from_grounding(grounding: Arc<Grounding>, proofs: Proofs) -> KnowledgeBase {
        // One solver per component once the formula is big (see sat.rs), in both modes:
        // explanations only ever need the one part that fails.
        KnowledgeBase::on(grounding, proofs, Sat::growing())
    }

    /// [`KnowledgeBase::from_grounding`] keeping one solver over the whole formula, for
    /// tests that compare the two ways of solving.
    #[cfg(test)]
    pub(crate) fn from_grounding_unsplit(
        grounding: Arc<Grounding>,
        proofs: Proofs,
    ) -> KnowledgeBase {
        KnowledgeBase::on(grounding, proofs, Sat::whole())
    }

    fn on(grounding: Arc<Grounding>, proofs: Proofs, sat: Sat) -> KnowledgeBase {
        let rules = grounding.rules.clone();
        let places = grounding.topology.len();
        let atoms = rules
            .predicates
            .iter()
            .map(|p| match (p.kind, p.per_place) {
                (PredKind::Hidden, true) => vec![AtomState::default(); places],
                (PredKind::Hidden, false) => vec![AtomState::default()],
                (PredKind::Percept, _) => Vec::new(),
            })
            .collect();
        let mut counted = vec![false; rules.predicates.len()];
        let counters = rules
            .cardinalities
            .iter()
            .map(|c| {
                counted[c.pred] = true;
                Counter::new(c, c.pred, places)
            })
            .collect();
        let n = rules.predicates.len();
        let mut kb = KnowledgeBase {
            grounding: grounding.clone(),
            proofs,
            sat,
            mentioned: vec![Vec::new(); rules.predicates.len()],
            fixed_true: vec![Vec::new(); rules.predicates.len()],
            unfixed: vec![Vec::new(); rules.predicates.len()],
            atoms,
            counted,
            counters,
            observations: Vec::new(),
            told: HashSet::new(),
            selectors: Vec::new(),
            consistent_at: None,
            current: (0..n).collect(),
            epoch_of: (0..n).map(|p| (p, 0)).collect(),
            epochs: (0..n).map(|p| vec![p]).collect(),
            time: 0,
            by_component: None,
            grouped: 0,
            odds_cache: None,
            atom_watches: rustc_hash::FxHashMap::default(),
            fired: Vec::new(),
        };
        for i in 0..kb.counters.len() {
            kb.start_counter(i);
        }
        for clause in &grounding.facts {
            kb.add_ground(clause, None);
        }
        kb
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.grounding.rules
    }

    /// The world's graph.
    pub fn topology(&self) -> &Arc<Topology> {
        &self.grounding.topology
    }

    /// Everything told so far, in order.
    pub fn observations(&self) -> &[Observation] {
        &self.observations
    }

    /// Events told so far.
    pub fn time(&self) -> u32 {
        self.time
    }

    /// The current epoch of the rules' predicate `pred`: how many times an event changed it.
    pub fn epoch(&self, pred: PredId) -> u32 {
        self.epochs[pred].len() as u32 - 1
    }

    /// The rules' predicate behind a knowledge-base predicate (itself but for later epochs).
    pub(crate) fn base_pred(&self, pred: PredId) -> PredId {
        self.epoch_of[pred].0
    }

    /// The rules' predicate and the epoch behind a predicate of an [`Atom`].
    pub fn epoch_of(&self, atom: Atom) -> (PredId, u32) {
        self.epoch_of[atom.pred]
    }

    /// Starts counter `i`: an impossible bound is a contradiction; "at least" is enforced over
    /// the places no clause mentions yet.
    fn start_counter(&mut self, i: usize) {
        let c = &self.counters[i];
        if c.at_least > c.places || c.at_most.is_some_and(|m| m < c.at_least) {
            self.sat.add_clause(&[]);
        }
        self.enforce_at_least(i);
    }

    /// Tells the knowledge base that `event` happened (at `at`, for an event at a place): every
    /// predicate it changes moves to a fresh epoch, with the event's rules between the old
    /// epoch and the new one, and the predicate's cardinalities over the new one.
    pub fn happen(&mut self, event: EventId, at: Option<Place>) -> Result<(), KbError> {
        let grounding = self.grounding.clone();
        let rules = &grounding.rules;
        let decl = &rules.events[event];
        if decl.param.is_some() != at.is_some()
            || at.is_some_and(|p| p.index() >= grounding.topology.len())
        {
            return Err(KbError::BadEvent(decl.name.clone()));
        }
        let places = grounding.topology.len();
        let old = self.current.clone();
        for &pred in &decl.changes {
            let id = self.atoms.len();
            let slots = if rules.predicates[pred].per_place {
                places
            } else {
                1
            };
            self.atoms.push(vec![AtomState::default(); slots]);
            self.mentioned.push(Vec::new());
            self.fixed_true.push(Vec::new());
            self.unfixed.push(Vec::new());
            self.counted.push(self.counted[pred]);
            self.epoch_of.push((pred, self.epochs[pred].len() as u32));
            self.epochs[pred].push(id);
            self.current[pred] = id;
            for c in rules.cardinalities.iter().filter(|c| c.pred == pred) {
                self.counters.push(Counter::new(c, id, places));
                self.start_counter(self.counters.len() - 1);
            }
        }
        self.time += 1;
        let new = self.current.clone();
        let ground = Ground {
            topology: &grounding.topology,
            start: grounding.start,
            now: Some(&old),
            next: Some(&new),
        };
        for t in rules.transitions.iter().filter(|t| t.event == event) {
            let mut env: Vec<(String, Place)> = match (&decl.param, at) {
                (Some(v), Some(p)) => vec![(v.clone(), p)],
                _ => Vec::new(),
            };
            match &t.var {
                None => {
                    for clause in ground.clauses(&t.formula, &mut env, true)? {
                        self.add_ground(&clause, None);
                    }
                }
                Some(v) => {
                    for place in grounding.topology.places() {
                        env.push((v.clone(), place));
                        let clauses = ground.clauses(&t.formula, &mut env, true);
                        env.pop();
                        for clause in clauses? {
                            self.add_ground(&clause, None);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Replaces the world's graph for everything grounded from now on (percepts told and
    /// events happening later); what was grounded before stands. For a map learnt as it is
    /// explored: sound when the new graph only adds to what the clauses so far relied on.
    pub fn set_topology(&mut self, topology: Arc<Topology>) -> Result<(), KbError> {
        let old = &self.grounding;
        if topology.len() != old.topology.len() {
            return Err(KbError::TopologyMismatch {
                expected: old.topology.len(),
                found: topology.len(),
            });
        }
        self.grounding = Arc::new(Grounding {
            rules: old.rules.clone(),
            topology,
            start: old.start,
            facts: Vec::new(),
            percept_slot: old.percept_slot.clone(),
            cache: None,
        });
        Ok(())
    }

    /// Solver calls made so far.
    pub fn solver_calls(&self) -> u64 {
        self.sat.calls
    }

    /// True once the knowledge base solves one component at a time (see sat.rs).
    #[cfg(test)]
    pub(crate) fn is_split(&self) -> bool {
        self.sat.is_split()
    }

    /// Solver variables allocated so far.
    pub fn variables(&self) -> usize {
        self.sat.var_count()
    }

    /// An observation in words: `breeze at 1,1`, `no stench at 0,0`, `scream`.
    pub fn describe(&self, obs: &Observation) -> String {
        let name = &self.rules().predicates[obs.pred].name;
        let not = if obs.present { "" } else { "no " };
        let when = if obs.time > 0 {
            format!(" (after event {})", obs.time)
        } else {
            String::new()
        };
        match obs.place {
            Some(p) => format!("{not}{name} at {}{when}", self.topology().label(p)),
            None => format!("{not}{name}{when}"),
        }
    }

    fn state(&self, atom: Atom) -> AtomState {
        self.atoms[atom.pred][atom.place.map_or(0, |p| p.index())]
    }

    fn state_mut(&mut self, atom: Atom) -> &mut AtomState {
        let state = &mut self.atoms[atom.pred][atom.place.map_or(0, |p| p.index())];
        if state.lit.is_none() && state.fixed.is_none() {
            self.mentioned[atom.pred].push(atom.place);
            self.unfixed[atom.pred].push(atom.place);
        }
        state
    }

    /// The places where `pred` is true in the most recent model, among the atoms mentioned so
    /// far (unmentioned atoms are unconstrained but for their counters), in no particular
    /// order.
    ///
    /// Complexity: the atoms fixed true plus those not fixed, not every mentioned atom.
    pub fn true_in_model(&mut self, pred: PredId) -> Vec<Option<Place>> {
        let pred = self.current[pred];
        let atoms = &self.atoms[pred];
        self.unfixed[pred].retain(|&place| atoms[place.map_or(0, |p| p.index())].fixed.is_none());
        let open = self.unfixed[pred]
            .iter()
            .copied()
            .filter(|&place| self.model_value(Atom { pred, place }) == Some(true));
        self.fixed_true[pred].iter().copied().chain(open).collect()
    }

    /// The places of a per-place predicate that no clause mentions yet, if there is exactly
    /// one (by counting, such a place can still be forced).
    pub fn sole_unmentioned(&self, pred: PredId) -> Option<Place> {
        let pred = self.current[pred];
        let places = self.topology().len();
        if places - self.mentioned[pred].len() != 1 {
            return None;
        }
        (0..places).map(Place::new).find(|&p| {
            self.state(Atom {
                pred,
                place: Some(p),
            })
            .lit
            .is_none()
                && self
                    .state(Atom {
                        pred,
                        place: Some(p),
                    })
                    .fixed
                    .is_none()
        })
    }

    /// Adds a ground clause (guarded by `selector` in explained mode), simplified against the
    /// fixed atoms; an unguarded unit clause fixes its atom.
    fn add_ground(&mut self, clause: &[GroundLit], selector: Option<Lit>) {
        let mut open: Vec<GroundLit> = Vec::with_capacity(clause.len());
        for &(atom, value) in clause {
            match self.state(atom).fixed {
                Some(v) if v == value => return,
                Some(_) => {}
                None => open.push((atom, value)),
            }
        }
        match (selector, open.as_slice()) {
            (None, []) => self.sat.add_clause(&[]),
            (None, &[(atom, value)]) => self.fix(atom, value),
            _ => {
                let mut lits: Vec<Lit> = open.iter().map(|&l| self.lit(l)).collect();
                if let Some(s) = selector {
                    lits.push(!s);
                }
                self.sat.add_clause(&lits);
            }
        }
    }

    /// Fixes `atom` to `value` (a unit clause).
    fn fix(&mut self, atom: Atom, value: bool) {
        let now = self.sat.tick();
        let state = self.state_mut(atom);
        state.fixed = Some(value);
        state.fixed_at = now;
        let lit = state.lit;
        // A watched atom without a variable changes now; one with a variable is reached
        // through its component, which the unit clause below stamps.
        if let Some(watches) = self.atom_watches.remove(&atom) {
            self.fired
                .extend(watches.iter().filter(|w| now > w.1).map(|w| w.0));
        }
        if value {
            self.fixed_true[atom.pred].push(atom.place);
        }
        match lit {
            Some(l) => self.sat.add_clause(&[if value { l } else { !l }]),
            None => {
                for i in 0..self.counters.len() {
                    if self.counters[i].pred == atom.pred {
                        self.count_fixed(i, value);
                    }
                }
            }
        }
    }

    /// The solver literal of a ground literal, allocating the atom's variable (and extending
    /// its counters) on first mention.
    fn lit(&mut self, (atom, positive): GroundLit) -> Lit {
        let state = self.state(atom);
        let lit = match state.lit {
            Some(l) => l,
            None => {
                let l = self.sat.new_lit();
                self.state_mut(atom).lit = Some(l);
                if let Some(watches) = self.atom_watches.remove(&atom) {
                    for (token, since) in watches {
                        self.sat.watch(l, token, since, &mut self.fired);
                    }
                }
                match state.fixed {
                    // Already counted when it was fixed.
                    Some(v) => self.sat.add_clause(&[if v { l } else { !l }]),
                    None => {
                        for i in 0..self.counters.len() {
                            if self.counters[i].pred == atom.pred {
                                self.extend_counter(i, l);
                            }
                        }
                    }
                }
                l
            }
        };
        if positive {
            lit
        } else {
            !lit
        }
    }

    /// "At most k": a true atom may not follow k true ones.
    fn forbid_after(&mut self, before: Option<Bit>, x: Option<Lit>) {
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
    fn upper_guard(&self, i: usize) -> Option<Bit> {
        let c = &self.counters[i];
        c.at_most
            .map(|k| if k == 0 { Bit::True } else { c.regs[k - 1] })
    }

    /// "At least k": the unmentioned rest can make up at most `rest` of them.
    fn enforce_at_least(&mut self, i: usize) {
        let c = &self.counters[i];
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
    fn extend_counter(&mut self, i: usize, x: Lit) {
        let guard = self.upper_guard(i);
        self.forbid_after(guard, Some(x));
        let old = self.counters[i].regs.clone();
        let new: Vec<Bit> = (0..old.len())
            .map(|j| {
                let b = if j == 0 { Bit::True } else { old[j - 1] };
                self.or_and(old[j], x, b)
            })
            .collect();
        let c = &mut self.counters[i];
        c.regs = new;
        c.mentioned += 1;
        self.enforce_at_least(i);
    }

    /// Counts a newly mentioned atom fixed to `value`, without a variable.
    fn count_fixed(&mut self, i: usize, value: bool) {
        if value {
            let guard = self.upper_guard(i);
            self.forbid_after(guard, None);
            let c = &mut self.counters[i];
            // One more true atom: "at least j" becomes "at least j - 1 before".
            if !c.regs.is_empty() {
                c.regs.pop();
                c.regs.insert(0, Bit::True);
            }
        }
        self.counters[i].mentioned += 1;
        self.enforce_at_least(i);
    }

    /// A bit equal to `a ∨ (x ∧ b)`.
    fn or_and(&mut self, a: Bit, x: Lit, b: Bit) -> Bit {
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

    /// The ground atom of the rules' predicate `pred` at `place` (or the proposition `pred`),
    /// in its current epoch.
    pub fn atom(&self, pred: PredId, place: Option<Place>) -> Atom {
        Atom {
            pred: self.current[pred],
            place,
        }
    }

    /// The ground atom of `pred` at `place` in epoch `epoch` (0: as dealt), if that epoch has
    /// begun.
    pub fn atom_at(&self, pred: PredId, epoch: u32, place: Option<Place>) -> Option<Atom> {
        let id = *self.epochs[pred].get(epoch as usize)?;
        Some(Atom { pred: id, place })
    }

    /// Tells the knowledge base that percept `pred` was observed present or absent at `place`.
    /// Telling the same observation twice changes nothing.
    pub fn tell(
        &mut self,
        pred: PredId,
        place: Option<Place>,
        present: bool,
    ) -> Result<(), KbError> {
        let grounding = self.grounding.clone();
        let p = &grounding.rules.predicates[pred];
        let rule = grounding
            .rules
            .percept_rule(pred)
            .filter(|_| p.kind == PredKind::Percept && p.per_place == place.is_some())
            .ok_or_else(|| KbError::NotObservable(p.name.clone()))?;
        if place.is_some_and(|at| at.index() >= grounding.topology.len()) {
            return Err(KbError::NotObservable(p.name.clone()));
        }
        let obs = Observation {
            pred,
            place,
            present,
            time: self.time,
        };
        if !self.told.insert(obs) {
            return Ok(());
        }
        self.observations.push(obs);
        let selector = match self.proofs {
            Proofs::Explained => {
                let s = self.sat.new_lit();
                self.selectors.push(s);
                Some(s)
            }
            Proofs::Fast => None,
        };
        // Absence of a one-way percept says nothing.
        if present || rule.iff {
            let clauses = grounding.percept(pred, place, present)?;
            let remap = self.time > 0;
            for clause in clauses.iter() {
                if remap {
                    let mapped: GroundClause = clause
                        .iter()
                        .map(|&(a, v)| {
                            (
                                Atom {
                                    pred: self.current[a.pred],
                                    place: a.place,
                                },
                                v,
                            )
                        })
                        .collect();
                    self.add_ground(&mapped, selector);
                } else {
                    self.add_ground(clause, selector);
                }
            }
        }
        Ok(())
    }

    /// Checks that the rules and the observations can all be true together.
    pub fn check_consistent(&mut self) -> Result<(), KbError> {
        if self.consistent_at == Some(self.sat.now()) {
            return Ok(());
        }
        let assumptions = self.selectors.clone();
        if self.sat.solve(&assumptions, true) {
            self.consistent_at = Some(self.sat.now());
            return Ok(());
        }
        let why = match self.proofs {
            Proofs::Explained => {
                let core = self.minimal_core(&[]);
                if core.is_empty() {
                    "the rules alone cannot all hold, whatever is observed".to_string()
                } else {
                    let words: Vec<String> = core
                        .iter()
                        .map(|&i| self.describe(&self.observations[i]))
                        .collect();
                    format!("these cannot all hold: {}", words.join("; "))
                }
            }
            Proofs::Fast if self.observations.is_empty() => {
                "the rules alone cannot all hold, whatever is observed".to_string()
            }
            Proofs::Fast => format!(
                "the {} observations of this game cannot all hold",
                self.observations.len()
            ),
        };
        Err(KbError::Contradiction(why))
    }

    /// The solver literals for a question, with fixed and unconstrained atoms taken out;
    /// `None` when a fixed atom already makes it impossible.
    fn question(&mut self, conj: &[GroundLit]) -> Option<Vec<Lit>> {
        let mut lits = Vec::with_capacity(conj.len());
        for (i, &(atom, value)) in conj.iter().enumerate() {
            let state = self.state(atom);
            match state.fixed {
                Some(v) if v != value => return None,
                Some(_) => continue,
                None => {}
            }
            if state.lit.is_none() && !self.counted[atom.pred] {
                // Nothing constrains this atom: either value will do, unless the question
                // asks for both at once.
                if conj[..i].contains(&(atom, !value)) {
                    return None;
                }
                continue;
            }
            lits.push(self.lit((atom, value)));
        }
        Some(lits)
    }

    /// True when the ground literals can all hold together with everything known.
    pub fn possible(&mut self, conj: &[GroundLit]) -> Result<bool, KbError> {
        let Some(lits) = self.question(conj) else {
            // Fixed atoms answer this, but a contradictory knowledge base answers nothing.
            self.check_consistent()?;
            return Ok(false);
        };
        self.check_consistent()?;
        if lits.is_empty() || self.sat.known_possible(&lits) {
            return Ok(true);
        }
        let mut assumptions = self.selectors.clone();
        assumptions.extend_from_slice(&lits);
        Ok(self.sat.solve(&assumptions, true))
    }

    /// True when everything known entails the ground literal.
    pub fn entails(&mut self, (atom, positive): GroundLit) -> Result<bool, KbError> {
        Ok(!self.possible(&[(atom, !positive)])?)
    }

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

    /// The value of `atom` in the most recent model, if known.
    pub fn model_value(&self, atom: Atom) -> Option<bool> {
        let state = self.state(atom);
        if let Some(v) = state.fixed {
            return Some(v);
        }
        self.sat.model_value(state.lit?)
    }

    /// The observations (as indices into [`KnowledgeBase::observations`]) that make `conj`
    /// impossible: a set from which no observation can be dropped (empty when the rules alone
    /// rule it out). `None` when `conj` is possible.
    pub fn explain(&mut self, conj: &[GroundLit]) -> Result<Option<Vec<usize>>, KbError> {
        if self.proofs != Proofs::Explained {
            return Err(KbError::NotExplaining);
        }
        if self.possible(conj)? {
            return Ok(None);
        }
        // In explained mode only the rules fix atoms, so a fixed atom needs no observation.
        match self.question(conj) {
            None => Ok(Some(Vec::new())),
            Some(lits) => Ok(Some(self.minimal_core(&lits))),
        }
    }

    /// A subset-minimal set of observations that, with the rules and `extra`, is unsatisfiable.
    fn minimal_core(&mut self, extra: &[Lit]) -> Vec<usize> {
        let solve = |sat: &mut Sat, selectors: &[Lit]| {
            let mut a = selectors.to_vec();
            a.extend_from_slice(extra);
            if sat.solve(&a, false) {
                None
            } else {
                Some(sat.failed_core())
            }
        };
        let Some(core) = solve(&mut self.sat, &self.selectors) else {
            return Vec::new();
        };
        let mut keep: Vec<Lit> = self
            .selectors
            .iter()
            .copied()
            .filter(|s| core.contains(s))
            .collect();
        // Deletion-based minimisation: drop each observation the rest can do without.
        let mut i = 0;
        while i < keep.len() {
            let mut trial = keep.clone();
            trial.remove(i);
            match solve(&mut self.sat, &trial) {
                Some(smaller) => {
                    keep = trial.into_iter().filter(|s| smaller.contains(s)).collect();
                }
                None => i += 1,
            }
        }
        let mut ids: Vec<usize> = keep
            .iter()
            .filter_map(|s| self.selectors.iter().position(|t| t == s))
            .collect();
        ids.sort_unstable();
        ids
    }

    /// The grounded formula in DIMACS CNF, with a comment table naming each atom's variable,
    /// so that any SAT solver can check the knowledge base's conclusions.
    ///
    /// Atoms fixed outside the solver (most unit observations) get fresh variables after the
    /// solver's, each with its unit clause, so the file says everything the knowledge base
    /// knows: for a question about atom `a`, the formula with the unit `a` added is
    /// unsatisfiable exactly when the knowledge base entails `not a`. Atoms no clause mentions
    /// have no variable (nothing constrains them but their counters, which count them as "the
    /// rest"). In explained mode the observations' selectors are added as unit clauses too.
    pub fn to_dimacs(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(out, "c wumpus knowledge base");
        let rules = self.rules();
        let mut next = self.sat.var_count();
        let mut units: Vec<isize> = Vec::new();
        for (pred, slots) in self.atoms.iter().enumerate() {
            for (slot, state) in slots.iter().enumerate() {
                if state.lit.is_none() && state.fixed.is_none() {
                    continue;
                }
                let (base, epoch) = self.epoch_of[pred];
                let name = if epoch == 0 {
                    rules.predicates[base].name.clone()
                } else {
                    format!("{}@{epoch}", rules.predicates[base].name)
                };
                let place = if rules.predicates[base].per_place {
                    format!("({})", self.topology().label(Place::new(slot)))
                } else {
                    String::new()
                };
                match (state.lit, state.fixed) {
                    (Some(l), _) => {
                        let _ = writeln!(out, "c var {} {name}{place}", l.to_dimacs());
                    }
                    (None, Some(v)) => {
                        next += 1;
                        let _ = writeln!(out, "c var {next} {name}{place}");
                        let _ = writeln!(out, "c fixed {name}{place} = {v} (a unit clause)");
                        units.push(if v { next as isize } else { -(next as isize) });
                    }
                    (None, None) => {}
                }
            }
        }
        for (obs, sel) in self.observations.iter().zip(&self.selectors) {
            let _ = writeln!(
                out,
                "c observation {} {}",
                sel.to_dimacs(),
                self.describe(obs)
            );
        }
        let clauses = self.sat.clauses();
        let _ = writeln!(
            out,
            "p cnf {} {}",
            next,
            clauses.len() + self.selectors.len() + units.len()
        );
        for clause in clauses {
            for l in clause {
                let _ = write!(out, "{} ", l.to_dimacs());
            }
            let _ = writeln!(out, "0");
        }
        for s in &self.selectors {
            let _ = writeln!(out, "{} 0", s.to_dimacs());
        }
        for u in units {
            let _ = writeln!(out, "{u} 0");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::rules::{parse_rules, GRID_RULES};
    use super::*;

    fn grid_kb(rows: usize, cols: usize, proofs: Proofs) -> KnowledgeBase {
        let topo = Arc::new(Topology::grid(rows, cols).unwrap());
        let start = topo.cell(0, 0);
        KnowledgeBase::new(
            Arc::new(parse_rules(GRID_RULES).unwrap()),
            topo,
            start,
            proofs,
        )
        .unwrap()
    }

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

    /// Explained mode on one solver per component answers as on one solver, and each of its
    /// explanations is checked from scratch: the observations it names rule the conclusion
    /// out, and without any one of them they do not.
    #[test]
    fn explanations_split_by_component_are_sound_and_minimal() {
        use rand::Rng;
        let rules = Arc::new(parse_rules(GRID_RULES).unwrap());
        let id = |name: &str| rules.predicate(name).unwrap();
        let (pit, wumpus) = (id("pit"), id("wumpus"));
        let (breeze, stench, visited, unharmed) =
            (id("breeze"), id("stench"), id("visited"), id("unharmed"));
        let (mut explained, mut contradicted) = (0, 0);
        for seed in 0..48u64 {
            let (rows, cols) = [(4, 4), (5, 5), (3, 6), (6, 6)][seed as usize % 4];
            let topo = Arc::new(Topology::grid(rows, cols).unwrap());
            let start = topo.cell(0, 0);
            let grounding = Grounding::new(rules.clone(), topo.clone(), start).unwrap();
            // Split from the start or after a few variables; solvers dropped often or kept.
            let split_at = [0, 8, 40][seed as usize % 3];
            let max_solvers = if seed % 2 == 0 { 2 } else { 1024 };
            let mut split = KnowledgeBase::on(
                grounding.clone(),
                Proofs::Explained,
                Sat::splitting_at(split_at, max_solvers),
            );
            let mut whole =
                KnowledgeBase::from_grounding_unsplit(grounding.clone(), Proofs::Explained);
            let mut rng = crate::rng::seeded(seed);
            let n = topo.len();
            let pits: Vec<bool> = (0..n).map(|i| i != 0 && rng.random_bool(0.2)).collect();
            let w = rng.random_range(1..n);
            let near = |p: usize, f: &dyn Fn(usize) -> bool| {
                topo.neighbours(Place::new(p)).any(|q| f(q.index()))
            };
            // The observations that, with the rules, must make `conj` impossible: checked on a
            // fresh knowledge base told only those.
            let impossible_from = |obs: &[Observation], conj: &[GroundLit]| {
                let mut kb = KnowledgeBase::from_grounding_unsplit(grounding.clone(), Proofs::Fast);
                for o in obs {
                    kb.tell(o.pred, o.place, o.present).unwrap();
                }
                !kb.possible(conj).unwrap()
            };
            'game: for _ in 0..30 {
                let p = rng.random_range(0..n);
                let mut told = vec![
                    (breeze, near(p, &|q| pits[q])),
                    (stench, p == w || near(p, &|q| q == w)),
                ];
                if !pits[p] && p != w {
                    told.push((visited, true));
                    told.push((unharmed, true));
                }
                for (pred, mut present) in told {
                    // Now and then a false report, to make contradictions.
                    if rng.random_bool(0.03) {
                        present = !present;
                    }
                    split.tell(pred, Some(Place::new(p)), present).unwrap();
                    whole.tell(pred, Some(Place::new(p)), present).unwrap();
                }
                for _ in 0..4 {
                    let pred = if rng.random_bool(0.5) { pit } else { wumpus };
                    let atom = split.atom(pred, Some(Place::new(rng.random_range(0..n))));
                    let conj = [(atom, rng.random_bool(0.5))];
                    let answer = split.possible(&conj);
                    match (&answer, whole.possible(&conj)) {
                        (Ok(a), Ok(b)) => assert_eq!(*a, b, "seed {seed}: {conj:?}"),
                        (Err(_), Err(_)) => {
                            contradicted += 1;
                            break 'game;
                        }
                        (a, b) => panic!("seed {seed}: {a:?} against {b:?}"),
                    }
                    if answer == Ok(true) {
                        assert_eq!(split.explain(&conj).unwrap(), None);
                        continue;
                    }
                    let ids = split.explain(&conj).unwrap().expect("impossible");
                    let obs: Vec<Observation> =
                        ids.iter().map(|&i| split.observations()[i]).collect();
                    assert!(
                        impossible_from(&obs, &conj),
                        "seed {seed}: {obs:?} {conj:?}"
                    );
                    for i in 0..obs.len() {
                        let mut fewer = obs.clone();
                        fewer.remove(i);
                        assert!(
                            !impossible_from(&fewer, &conj),
                            "seed {seed}: {:?} is not needed for {conj:?}",
                            obs[i]
                        );
                    }
                    explained += 1;
                }
            }
            if split_at == 0 {
                assert!(split.is_split());
            }
        }
        // The games reach both kinds of ending, and explain plenty.
        assert!(explained > 500, "{explained}");
        assert!(contradicted > 3, "{contradicted}");
    }

    #[test]
    fn seed_example_reasoning_locates_the_wumpus() {
        let mut kb = grid_kb(5, 5, Proofs::Explained);
        let r = kb.rules().clone();
        let (breeze, stench, visited, unharmed) = (
            r.predicate("breeze").unwrap(),
            r.predicate("stench").unwrap(),
            r.predicate("visited").unwrap(),
            r.predicate("unharmed").unwrap(),
        );
        let (pit, wumpus) = (r.predicate("pit").unwrap(), r.predicate("wumpus").unwrap());
        let t = kb.topology().clone();
        let c = |r, c| t.cell(r, c);
        for (at, b, s) in [
            ((0, 0), false, false),
            ((0, 1), true, false),
            ((1, 0), false, true),
        ] {
            let place = c(at.0, at.1);
            kb.tell(visited, place, true).unwrap();
            kb.tell(unharmed, place, true).unwrap();
            kb.tell(breeze, place, b).unwrap();
            kb.tell(stench, place, s).unwrap();
        }
        let w20 = kb.atom(wumpus, c(2, 0));
        assert!(kb.entails((w20, true)).unwrap());
        let p02 = kb.atom(pit, c(0, 2));
        assert!(kb.entails((p02, true)).unwrap());
        let why = kb.explain(&[(w20, false)]).unwrap().unwrap();
        let words: Vec<String> = why
            .iter()
            .map(|&i| kb.describe(&kb.observations()[i]))
            .collect();
        assert!(words.contains(&"stench at 1,0".to_string()), "{words:?}");
        assert!(words.contains(&"no stench at 0,1".to_string()), "{words:?}");
        assert!(!words.iter().any(|w| w.contains("breeze")), "{words:?}");
        // Unrelated: nothing is known of 3,3.
        let p33 = kb.atom(pit, c(3, 3));
        assert!(kb.possible(&[(p33, true)]).unwrap());
        assert!(kb.possible(&[(p33, false)]).unwrap());
    }

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
    fn contradictions_are_reported_not_believed() {
        let mut kb = grid_kb(3, 3, Proofs::Explained);
        let r = kb.rules().clone();
        let breeze = r.predicate("breeze").unwrap();
        let pit = r.predicate("pit").unwrap();
        let t = kb.topology().clone();
        // A breeze at the start whose only neighbours are told pit-free by their own breezes.
        kb.tell(breeze, t.cell(0, 0), true).unwrap();
        kb.tell(breeze, t.cell(1, 1), false).unwrap();
        let p22 = kb.atom(pit, t.cell(2, 2));
        let err = kb.possible(&[(p22, true)]).unwrap_err();
        assert!(matches!(err, KbError::Contradiction(_)), "{err}");
        assert!(err.to_string().contains("breeze at 0,0"), "{err}");
    }

    /// A ring of five rooms, each with tunnels to both neighbours and to itself.
    fn ring_kb(rules: &str) -> KnowledgeBase {
        let tunnels: Vec<Vec<usize>> = (0..5).map(|r| vec![(r + 1) % 5, (r + 4) % 5]).collect();
        let topo = Arc::new(Topology::cave(&tunnels, 0, vec![None; 5], vec![None; 5]));
        KnowledgeBase::new(
            Arc::new(parse_rules(rules).unwrap()),
            topo,
            Some(Place::new(0)),
            Proofs::Explained,
        )
        .unwrap()
    }

    const WANDERING: &str = "hidden wumpus(X).\nnot wumpus(start).\nexactly 1 X: wumpus(X).\n\
        percept stench(X) <-> any N in adj(X): wumpus(N).\n\
        percept here(X) -> wumpus(X).\n\
        event wake.\n\
        wake: next wumpus(X) -> wumpus(X) | any N in in(X): wumpus(N).\n";

    #[test]
    fn an_event_starts_a_new_epoch_tied_to_the_old_one() {
        let mut kb = ring_kb(WANDERING);
        let r = kb.rules().clone();
        let (wumpus, here) = (r.predicate("wumpus").unwrap(), r.predicate("here").unwrap());
        let wake = r.event("wake").unwrap();
        let p = Place::new;
        kb.tell(here, Some(p(2)), true).unwrap();
        let w2 = kb.atom(wumpus, Some(p(2)));
        assert!(kb.entails((w2, true)).unwrap());
        kb.happen(wake, None).unwrap();
        assert_eq!((kb.epoch(wumpus), kb.time()), (1, 1));
        // Now it is in 1, 2 or 3: nowhere proven, but certainly not in 0 or 4.
        for (room, possible) in [(0, false), (1, true), (2, true), (3, true), (4, false)] {
            let a = kb.atom(wumpus, Some(p(room)));
            assert_eq!(kb.possible(&[(a, true)]).unwrap(), possible, "room {room}");
        }
        // The old epoch keeps what it knew.
        let old = kb.atom_at(wumpus, 0, Some(p(2))).unwrap();
        assert!(kb.entails((old, true)).unwrap());
        // The same percept told again is a new observation in the new epoch.
        kb.tell(here, Some(p(3)), true).unwrap();
        assert_eq!(kb.observations().len(), 2);
        assert!(kb.entails((kb.atom(wumpus, Some(p(3))), true)).unwrap());
        assert!(kb.describe(&kb.observations()[1]).contains("after event 1"));
        // A second wake: from 3 to 2, 3 or 4.
        kb.happen(wake, None).unwrap();
        let a0 = kb.atom(wumpus, Some(p(0)));
        assert!(!kb.possible(&[(a0, true)]).unwrap());
        assert!(kb.to_dimacs().contains("wumpus@2(4)"));
    }

    #[test]
    fn old_evidence_constrains_the_new_epoch_through_the_transition() {
        // A stench at 0 before the wake: the wumpus was in 1 or 4 (not 0: the start). After
        // the wake it stayed or moved one room: 0, 1, 2, 3 or 4. A stench-free 0 after the wake
        // rules out 1 and 4 now, so it moved to 2, 3 or 0 (nothing here says the hunter in 0
        // survived).
        let mut kb = ring_kb(WANDERING);
        let r = kb.rules().clone();
        let (wumpus, stench) = (
            r.predicate("wumpus").unwrap(),
            r.predicate("stench").unwrap(),
        );
        let p = Place::new;
        kb.tell(stench, Some(p(0)), true).unwrap();
        kb.happen(r.event("wake").unwrap(), None).unwrap();
        kb.tell(stench, Some(p(0)), false).unwrap();
        let now = |kb: &mut KnowledgeBase, room| {
            let a = kb.atom(wumpus, Some(p(room)));
            kb.possible(&[(a, true)]).unwrap()
        };
        assert_eq!(
            (0..5).map(|room| now(&mut kb, room)).collect::<Vec<_>>(),
            [true, false, true, true, false]
        );
        // Not in 1 now: the explanation is the stench-free 0 after the wake.
        let a1 = kb.atom(wumpus, Some(p(1)));
        let why = kb.explain(&[(a1, true)]).unwrap().unwrap();
        let words: Vec<String> = why
            .iter()
            .map(|&i| kb.describe(&kb.observations()[i]))
            .collect();
        assert_eq!(words, ["no stench at 0 (after event 1)"]);
    }

    #[test]
    fn events_at_a_place_and_conditions_on_places() {
        let rules = "hidden wumpus(X).\nexactly 1 X: wumpus(X).\n\
            percept here(X) -> wumpus(X).\n\
            event blast(B).\n\
            blast(B): wumpus(X) & not X in out(B) -> next wumpus(X).\n\
            blast(B): next wumpus(X) -> wumpus(X) & not X = B | any N in in(X): (N in out(B) & wumpus(N)).\n";
        let mut kb = ring_kb(rules);
        let r = kb.rules().clone();
        let (wumpus, here) = (r.predicate("wumpus").unwrap(), r.predicate("here").unwrap());
        let blast = r.event("blast").unwrap();
        let p = Place::new;
        assert!(matches!(kb.happen(blast, None), Err(KbError::BadEvent(_))));
        kb.tell(here, Some(p(3)), true).unwrap();
        // A blast at 0: 3 is not next to 0, so the wumpus stays.
        kb.happen(blast, Some(p(0))).unwrap();
        assert!(kb.entails((kb.atom(wumpus, Some(p(3))), true)).unwrap());
        // A blast at 2: 3 is next to it; the wumpus may run to 4 (or 2).
        kb.happen(blast, Some(p(2))).unwrap();
        let a4 = kb.atom(wumpus, Some(p(4)));
        assert!(kb.possible(&[(a4, true)]).unwrap());
        let a0 = kb.atom(wumpus, Some(p(0)));
        assert!(!kb.possible(&[(a0, true)]).unwrap());
    }

    #[test]
    fn a_grown_topology_grounds_later_percepts() {
        let mut kb = ring_kb(WANDERING);
        let r = kb.rules().clone();
        let (wumpus, stench) = (
            r.predicate("wumpus").unwrap(),
            r.predicate("stench").unwrap(),
        );
        // Room 0 is found to have a tunnel to room 2 as well.
        let tunnels: Vec<Vec<usize>> = (0..5)
            .map(|r| {
                let mut t = vec![(r + 1) % 5, (r + 4) % 5];
                if r == 0 {
                    t.push(2);
                }
                t
            })
            .collect();
        let grown = Arc::new(Topology::cave(&tunnels, 0, vec![None; 5], vec![None; 5]));
        kb.set_topology(grown).unwrap();
        kb.tell(stench, Some(Place::new(0)), false).unwrap();
        let a2 = kb.atom(wumpus, Some(Place::new(2)));
        assert!(!kb.possible(&[(a2, true)]).unwrap());
        let small = Arc::new(Topology::grid(2, 2).unwrap());
        assert!(matches!(
            kb.set_topology(small),
            Err(KbError::TopologyMismatch { .. })
        ));
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

    #[test]
    fn telling_a_hidden_predicate_is_refused() {
        let mut kb = grid_kb(3, 3, Proofs::Fast);
        let pit = kb.rules().predicate("pit").unwrap();
        assert!(matches!(
            kb.tell(pit, Some(Place::new(1)), true),
            Err(KbError::NotObservable(_))
        ));
    }
}
