//! Exact odds: the probability of a hidden atom given everything known, counted over the
//! models of the knowledge base and weighted by how likely the game makes each layout.
//!
//! A [`Prior`] says, per hidden predicate, how the game deals it: each place independently
//! with probability *p* ([`PredPrior::Bernoulli`], the grid's pits), or with a weight that
//! depends only on how many places hold it ([`PredPrior::CountWeights`]; uniform placements of
//! "exactly one wumpus" are the all-ones weights). The probability of an atom is
//! `weight(KB ∧ atom) / weight(KB)`.
//!
//! The counting is exact weighted model counting (DPLL with unit propagation, decomposition
//! into independent components, and a cache of component counts) over the knowledge base's own
//! clauses, restricted to the atom's constraint component, so the grid's independent frontier
//! clusters are counted apart. Three things keep it faithful to the whole world:
//!
//! - atoms fixed by unit clauses are outside the solver and have probability 0 or 1;
//! - places no clause mentions yet ("the rest") are summed out in closed form: for a
//!   count-weighted predicate with *j* true among the *m* mentioned places, the rest adds
//!   `Σ_r C(n−m, r) · W(j + r)`, so the count is split on *j* using the cardinality counter's
//!   registers ("at least *j* mentioned are true") as assumptions;
//! - auxiliary variables (counter registers, explanation selectors) are functions of the atoms
//!   (or assumed), so counting total assignments counts layouts.

use super::ground::{Atom, GroundLit};
use super::rules::{PredId, Rules};
use super::sat::Sat;
use super::{Bit, KbError, KnowledgeBase};
use rustc_hash::FxHashMap as HashMap;
use varisat::Lit;

/// How the game deals one hidden predicate.
#[derive(Clone, Debug, PartialEq)]
pub enum PredPrior {
    /// Each place independently, with this probability.
    Bernoulli(f64),
    /// A layout with `k` places true (over all places) has weight `w[k]`; missing entries are
    /// 1 when the vector is empty (every layout alike) and 0 otherwise.
    CountWeights(Vec<f64>),
}

/// How the game deals the hidden world, predicate by predicate.
#[derive(Clone, Debug, PartialEq)]
pub struct Prior {
    preds: Vec<PredPrior>,
}

impl Prior {
    /// Every layout the rules allow equally likely.
    pub fn uniform(rules: &Rules) -> Prior {
        Prior {
            preds: vec![PredPrior::CountWeights(Vec::new()); rules.predicates.len()],
        }
    }

    /// Deals `pred` at each place independently with probability `p`.
    pub fn bernoulli(mut self, pred: PredId, p: f64) -> Prior {
        self.preds[pred] = PredPrior::Bernoulli(p.clamp(0.0, 1.0));
        self
    }

    /// Weighs layouts of `pred` by how many places hold it.
    pub fn count_weights(mut self, pred: PredId, weights: Vec<f64>) -> Prior {
        self.preds[pred] = PredPrior::CountWeights(weights);
        self
    }

    /// The weight of one layout of `pred` with `k` of `n` places true.
    fn layout_weight(&self, pred: PredId, k: usize, n: usize) -> f64 {
        match &self.preds[pred] {
            PredPrior::Bernoulli(p) => p.powi(k as i32) * (1.0 - p).powi((n - k) as i32),
            PredPrior::CountWeights(w) if w.is_empty() => 1.0,
            PredPrior::CountWeights(w) => w.get(k).copied().unwrap_or(0.0),
        }
    }

    /// True when the predicate's weight is a product of per-atom weights.
    fn per_atom(&self, pred: PredId) -> Option<(f64, f64)> {
        match &self.preds[pred] {
            PredPrior::Bernoulli(p) => Some((*p, 1.0 - p)),
            PredPrior::CountWeights(w) if w.is_empty() => Some((1.0, 1.0)),
            PredPrior::CountWeights(_) => None,
        }
    }
}

/// One way of splitting a count on a counted predicate: the assumptions that make exactly `j`
/// mentioned atoms true, and the weight the unmentioned rest then contributes.
struct Split {
    assumptions: Vec<Lit>,
    weight: f64,
}

impl KnowledgeBase {
    /// The probability that each atom is true, given everything known, under `prior`.
    pub fn marginals(&mut self, atoms: &[Atom], prior: &Prior) -> Result<Vec<f64>, KbError> {
        atoms
            .iter()
            .map(|&a| self.probability(&[(a, true)], prior))
            .collect()
    }

    /// Gives every atom of `atoms` its solver variable now, so that a series of odds
    /// questions about them grows the knowledge base once, at the start, and shares one
    /// counting cache (a question about an atom never mentioned would otherwise add its
    /// variable, and the cache would start afresh after it).
    pub fn mention(&mut self, atoms: &[Atom]) {
        for &atom in atoms {
            let state = self.atoms.state(atom);
            if state.fixed.is_none() && state.lit.is_none() && self.counting.counted[atom.pred] {
                self.lit((atom, true));
            }
        }
    }

    /// The probability that the ground literals all hold, given everything known, under
    /// `prior`.
    pub fn probability(&mut self, conj: &[GroundLit], prior: &Prior) -> Result<f64, KbError> {
        self.check_consistent()?;
        if prior.preds.len() != self.rules().predicates.len() {
            return Err(KbError::Unsupported(
                "the prior was made for other rules".to_string(),
            ));
        }
        // Fixed atoms decide at once; free per-atom-weighted atoms are independent of all.
        let mut lits: Vec<Lit> = Vec::new();
        let mut independent = 1.0;
        for &(atom, value) in conj {
            let state = self.atoms.state(atom);
            if let Some(v) = state.fixed {
                if v != value {
                    return Ok(0.0);
                }
                continue;
            }
            if state.lit.is_none() && !self.counting.counted[atom.pred] {
                let (t, f) = prior.per_atom(self.base_pred(atom.pred)).ok_or_else(|| {
                    KbError::Unsupported(format!(
                        "a count prior on '{}' needs a cardinality constraint in the rules",
                        self.rules().predicates[self.base_pred(atom.pred)].name
                    ))
                })?;
                independent *= if value { t / (t + f) } else { f / (t + f) };
                continue;
            }
            lits.push(self.lit((atom, value)));
        }
        // Literals in different components are independent: multiply their probabilities.
        let mut by_component: HashMap<usize, Vec<Lit>> = HashMap::default();
        for lit in lits {
            let c = self.sat.component(lit);
            by_component.entry(c).or_default().push(lit);
        }
        let mut p = independent;
        for (component, lits) in by_component {
            p *= self.component_probability(component, &lits, prior)?;
        }
        Ok(p)
    }

    fn component_probability(
        &mut self,
        component: usize,
        lits: &[Lit],
        prior: &Prior,
    ) -> Result<f64, KbError> {
        let clauses = self.odds.component_clauses(&mut self.sat, component);
        let now = (
            self.sat.now(),
            self.sat.clauses().len(),
            self.sat.var_count(),
        );
        let fresh = match &self.odds.cache {
            Some(cache) => cache.at != now || cache.prior != *prior,
            None => true,
        };
        if fresh {
            let mut weights = vec![(1.0, 1.0); self.sat.var_count()];
            for (pred, slots) in self.atoms.slots.iter().enumerate() {
                // A counted predicate's weight comes whole from the split on its count.
                if self.counting.counted[pred] {
                    continue;
                }
                if let Some(w) = prior.per_atom(self.base_pred(pred)) {
                    for (_, state) in slots.iter() {
                        if let Some(l) = state.lit {
                            weights[l.index()] = w;
                        }
                    }
                }
            }
            // Counts of clause sets stay true as the knowledge base grows (the cache is keyed
            // by the clauses themselves, and a variable's weight never changes under one
            // prior), so the counter and its cache carry over to the new state.
            let counter = match self.odds.cache.take() {
                Some(old) if old.prior == *prior => {
                    let mut counter = old.counter;
                    counter.grow(weights);
                    counter
                }
                _ => ModelCounter::new(weights),
            };
            self.odds.cache = Some(OddsCache {
                at: now,
                prior: prior.clone(),
                counter,
                totals: HashMap::default(),
                splits: HashMap::default(),
                selectors: HashMap::default(),
            });
        }
        let base = match self
            .odds
            .cache
            .as_ref()
            .and_then(|c| c.selectors.get(&component))
        {
            Some(base) => base.clone(),
            None => {
                let mut base: Vec<Lit> = self
                    .told
                    .selectors
                    .iter()
                    .copied()
                    .filter(|&s| self.sat.component(s) == component)
                    .collect();
                base.sort_unstable();
                let base = std::sync::Arc::new(base);
                let cache = self.odds.cache.as_mut().expect("made above");
                cache.selectors.insert(component, base.clone());
                base
            }
        };
        let cached = self
            .odds
            .cache
            .as_ref()
            .and_then(|c| c.splits.get(&component).cloned());
        let splits = match cached {
            Some(splits) => splits,
            None => {
                let splits = std::sync::Arc::new(self.splits(component, prior)?);
                let cache = self.odds.cache.as_mut().expect("made above");
                cache.splits.insert(component, splits.clone());
                splits
            }
        };
        let cache = self.odds.cache.as_mut().expect("made above");
        let (clauses, vars) = (&clauses.clauses, &clauses.vars);
        let (mut all, mut with) = (0.0, 0.0);
        for (index, split) in splits.iter().enumerate() {
            let mut assumptions =
                Vec::with_capacity(base.len() + split.assumptions.len() + lits.len());
            assumptions.extend_from_slice(&base);
            assumptions.extend_from_slice(&split.assumptions);
            // The denominator is shared by every question about this component.
            // The splits of a component are fixed for the state, so (component, index) names
            // the assumptions.
            let key = (component, index);
            let total = match cache.totals.get(&key) {
                Some(&t) => t,
                None => {
                    let t = cache.counter.count_under_vars(clauses, vars, &assumptions);
                    cache.totals.insert(key, t);
                    t
                }
            };
            all += split.weight * total;
            if total == 0.0 {
                continue;
            }
            assumptions.extend_from_slice(lits);
            with += split.weight * cache.counter.count_under_vars(clauses, vars, &assumptions);
        }
        if all <= 0.0 {
            return Err(KbError::Contradiction(
                "no layout the prior allows fits the observations".to_string(),
            ));
        }
        Ok(with / all)
    }

    /// The ways to split the count by how many mentioned atoms of each count-weighted
    /// predicate in `component` are true.
    fn splits(&mut self, component: usize, prior: &Prior) -> Result<Vec<Split>, KbError> {
        let mut splits = vec![Split {
            assumptions: Vec::new(),
            weight: 1.0,
        }];
        let places = self.topology().len();
        for i in 0..self.counting.counters.len() {
            let pred = self.counting.counters[i].pred;
            let base = self.base_pred(pred);
            let mut lits: Vec<Lit> = self.counting.counters[i]
                .regs
                .iter()
                .filter_map(|b| match b {
                    Bit::Lit(l) => Some(*l),
                    _ => None,
                })
                .collect();
            lits.extend(
                self.atoms.mentioned[pred]
                    .iter()
                    .filter_map(|&place| self.atoms.state(Atom { pred, place }).lit),
            );
            if !lits.iter().any(|&l| self.sat.component(l) == component) {
                continue;
            }
            let c = &self.counting.counters[i];
            let Some(hi) = c.at_most else {
                return Err(KbError::Unsupported(format!(
                    "odds on '{}' need an upper bound on its count",
                    self.rules().predicates[self.base_pred(pred)].name
                )));
            };
            let (lo, rest, mentioned) = (c.at_least, c.places - c.mentioned, c.mentioned);
            let regs = c.regs.clone();
            let mut options = Vec::new();
            for j in 0..=hi.min(mentioned) {
                // The rest holds r more, for j + r within the bounds (j <= hi here): only
                // those r, not all rest + 1 of them (a million on a 1024x1024 grid).
                let weight: f64 = (lo.saturating_sub(j)..=(hi - j).min(rest))
                    .map(|r| binomial(rest, r) * prior.layout_weight(base, j + r, places))
                    .sum();
                if weight == 0.0 {
                    continue;
                }
                // Exactly j: "at least j" and not "at least j + 1".
                let mut assumptions = Vec::new();
                let mut feasible = true;
                for (index, want) in [(j.checked_sub(1), true), (Some(j), false)] {
                    let Some(index) = index else { continue };
                    match regs.get(index) {
                        Some(Bit::Lit(l)) => assumptions.push(if want { *l } else { !*l }),
                        Some(Bit::True) => feasible &= want,
                        Some(Bit::False) => feasible &= !want,
                        // Beyond the registers: the upper bound already forbids it.
                        None => {}
                    }
                }
                if feasible {
                    options.push(Split {
                        assumptions,
                        weight,
                    });
                }
            }
            splits = splits
                .iter()
                .flat_map(|s| {
                    options.iter().map(move |o| Split {
                        assumptions: [s.assumptions.clone(), o.assumptions.clone()].concat(),
                        weight: s.weight * o.weight,
                    })
                })
                .collect();
        }
        Ok(splits)
    }
}

fn binomial(n: usize, k: usize) -> f64 {
    if k > n {
        return 0.0;
    }
    let k = k.min(n - k);
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// What odds questions keep between them: the solver's clauses grouped by component, and the
/// counts of the last state asked about. It must never change an answer: every group and
/// count is of the clauses as they are, brought up to date or dropped when they change.
#[derive(Default)]
pub(super) struct OddsCaches {
    /// Clauses grouped by component, at a time.
    groups: Option<(u64, ComponentClauses)>,
    /// How many of the solver's clauses `groups` holds.
    grouped: usize,
    /// Counts kept between odds questions about the same state.
    cache: Option<OddsCache>,
}

/// Clauses grouped by the component (representative variable) they belong to.
type ComponentClauses = std::collections::HashMap<usize, std::sync::Arc<SharedClauses>>;

impl OddsCaches {
    /// The clauses of one component (literals sorted) and their variables.
    ///
    /// The solver's clauses only grow, and components only merge as they grow, so the groups
    /// are kept from one question to the next and brought up to date with the clauses added
    /// since: a group that gained nothing is shared as it was.
    fn component_clauses(
        &mut self,
        sat: &mut Sat,
        component: usize,
    ) -> std::sync::Arc<SharedClauses> {
        let total = sat.clauses().len();
        if self.groups.is_none() || self.grouped != total {
            let old = self.groups.take().map(|(_, g)| g).unwrap_or_default();
            // New clauses by their component.
            let mut fresh: HashMap<usize, Vec<Clause>> = HashMap::default();
            for i in self.grouped..total {
                let Some(&first) = sat.clauses()[i].first() else {
                    continue;
                };
                let root = sat.component(first);
                let mut clause = Clause::from(&sat.clauses()[i][..]);
                std::sync::Arc::get_mut(&mut clause)
                    .expect("a clause just made is not shared")
                    .sort_unstable();
                fresh.entry(root).or_default().push(clause);
            }
            // Old groups under their present component; those that merged, or gained
            // clauses, are rebuilt.
            let mut merged: HashMap<usize, Vec<std::sync::Arc<SharedClauses>>> = HashMap::default();
            for (root, group) in old {
                let now_root = sat.component(varisat::Var::from_index(root).positive());
                merged.entry(now_root).or_default().push(group);
            }
            let mut groups: ComponentClauses = Default::default();
            for (root, mut parts) in merged {
                let added = fresh.remove(&root);
                if parts.len() == 1 && added.is_none() {
                    groups.insert(root, parts.pop().expect("one part"));
                    continue;
                }
                let mut clauses: Vec<Clause> = parts
                    .iter()
                    .flat_map(|p| p.clauses.iter().cloned())
                    .collect();
                clauses.extend(added.into_iter().flatten());
                let vars = vars_of(&clauses);
                groups.insert(root, std::sync::Arc::new(SharedClauses { clauses, vars }));
            }
            for (root, clauses) in fresh {
                let vars = vars_of(&clauses);
                groups.insert(root, std::sync::Arc::new(SharedClauses { clauses, vars }));
            }
            self.grouped = total;
            self.groups = Some((sat.now(), groups));
        }
        let (_, groups) = self.groups.as_ref().expect("grouped above");
        groups.get(&component).cloned().unwrap_or_default()
    }
}

/// What the knowledge base keeps between odds questions asked of the same state.
pub(super) struct OddsCache {
    /// The time, clause count and variable count it was made at.
    at: (u64, usize, usize),
    prior: Prior,
    counter: ModelCounter,
    /// Weighted counts of each component under each of its splits, shared by every question.
    totals: HashMap<(usize, usize), f64>,
    /// The selectors of each component's observations, sorted.
    selectors: HashMap<usize, std::sync::Arc<Vec<Lit>>>,
    /// The count splits of each component (they depend on the state alone).
    splits: HashMap<usize, std::sync::Arc<Vec<Split>>>,
}

/// The clauses of one constraint component, ready for counting.
#[derive(Default)]
pub(super) struct SharedClauses {
    clauses: Vec<Clause>,
    /// Their variables, sorted.
    vars: Vec<usize>,
}

/// A clause of a model count: literals sorted, shared between the reductions that leave it
/// untouched.
type Clause = std::sync::Arc<[Lit]>;

/// Exact weighted model counting by DPLL with component decomposition and caching.
struct ModelCounter {
    /// (weight of the positive literal, weight of the negative literal) by variable.
    weights: Vec<(f64, f64)>,
    cache: HashMap<Vec<Clause>, f64>,
    /// Scratch: the value of each variable during `assign` (0 unset, 1 true, 2 false).
    value: Vec<u8>,
    /// Scratch: the variables `assign` set, to clear them after.
    touched: Vec<usize>,
    /// Scratch: marks for variables still occurring.
    seen: Vec<bool>,
    /// Scratch: how many clauses of a component each variable occurs in.
    occurrences: Vec<u32>,
}

impl ModelCounter {
    fn new(weights: Vec<(f64, f64)>) -> ModelCounter {
        let n = weights.len();
        ModelCounter {
            weights,
            cache: HashMap::default(),
            value: vec![0; n],
            touched: Vec::new(),
            seen: vec![false; n],
            occurrences: vec![0; n],
        }
    }

    /// Takes the weights of a grown knowledge base: those of the variables it had are the
    /// same, so every cached count still holds.
    fn grow(&mut self, weights: Vec<(f64, f64)>) {
        debug_assert!(weights.len() >= self.weights.len());
        debug_assert!(self.weights.iter().zip(&weights).all(|(a, b)| a == b));
        let n = weights.len();
        self.weights = weights;
        self.value.resize(n, 0);
        self.seen.resize(n, false);
        self.occurrences.resize(n, 0);
    }

    fn weight(&self, lit: Lit) -> f64 {
        let (t, f) = self.weights[lit.index()];
        if lit.is_positive() {
            t
        } else {
            f
        }
    }

    /// The weighted count of the assignments to the clauses' variables that satisfy them and
    /// the assumptions. Variables in no clause are left out (their factor cancels in every
    /// ratio this module takes, as long as the same clause set is used).
    #[cfg(test)]
    fn count_under(&mut self, clauses: &[Vec<Lit>], assumptions: &[Lit]) -> f64 {
        let clauses: Vec<Clause> = clauses
            .iter()
            .map(|c| {
                let mut c = c.clone();
                c.sort_unstable();
                Clause::from(c)
            })
            .collect();
        let vars = vars_of(&clauses);
        self.count_under_vars(&clauses, &vars, assumptions)
    }

    /// [`ModelCounter::count_under`] with the clauses' variables already listed.
    fn count_under_vars(&mut self, clauses: &[Clause], vars: &[usize], assumptions: &[Lit]) -> f64 {
        let mut extra: Vec<usize> = assumptions
            .iter()
            .map(|l| l.index())
            .filter(|v| vars.binary_search(v).is_err())
            .collect();
        let owned;
        let vars = if extra.is_empty() {
            vars
        } else {
            extra.extend_from_slice(vars);
            extra.sort_unstable();
            extra.dedup();
            owned = extra;
            &owned
        };
        match self.assign(clauses, vars, assumptions) {
            None => 0.0,
            Some((rest, factor)) => factor * self.count(rest),
        }
    }

    fn count(&mut self, clauses: Vec<Clause>) -> f64 {
        if clauses.is_empty() {
            return 1.0;
        }
        let mut total = 1.0;
        for component in components(clauses) {
            total *= self.count_component(component);
            if total == 0.0 {
                break;
            }
        }
        total
    }

    fn count_component(&mut self, mut clauses: Vec<Clause>) -> f64 {
        // Each clause's literals are sorted already (reductions keep their order).
        clauses.sort_unstable();
        if let Some(&hit) = self.cache.get(&clauses) {
            return hit;
        }
        let vars = vars_of(&clauses);
        // Branch on the variable in the most clauses.
        // Occurrences counted in a scratch array indexed by variable (cleared after).
        for c in &clauses {
            for l in c.iter() {
                self.occurrences[l.index()] += 1;
            }
        }
        let branch = vars
            .iter()
            .copied()
            .max_by_key(|&v| (self.occurrences[v], std::cmp::Reverse(v)))
            .expect("a component has a variable");
        for &v in &vars {
            self.occurrences[v] = 0;
        }
        let var = varisat::Var::from_index(branch);
        let mut result = 0.0;
        for lit in [var.positive(), var.negative()] {
            if self.weight(lit) == 0.0 {
                continue;
            }
            if let Some((rest, factor)) = self.assign(&clauses, &vars, &[lit]) {
                result += factor * self.count(rest);
            }
        }
        self.cache.insert(clauses, result);
        result
    }

    /// Makes `lits` true and propagates units. Returns the clauses left (none satisfied, none
    /// empty) and the weight of everything decided: each assigned literal's weight, and
    /// `w(v) + w(¬v)` for each variable of `vars` that no longer occurs and was not assigned.
    /// `None` on a conflict.
    fn assign(
        &mut self,
        clauses: &[Clause],
        vars: &[usize],
        lits: &[Lit],
    ) -> Option<(Vec<Clause>, f64)> {
        let result = self.propagate(clauses, vars, lits);
        for &v in &self.touched {
            self.value[v] = 0;
        }
        self.touched.clear();
        result
    }

    fn propagate(
        &mut self,
        clauses: &[Clause],
        vars: &[usize],
        lits: &[Lit],
    ) -> Option<(Vec<Clause>, f64)> {
        let mut pending: Vec<Lit> = lits.to_vec();
        // The first pass reads the caller's clauses; only reduced copies are made.
        let mut reduced: Option<Vec<Clause>> = None;
        let mut factor = 1.0;
        loop {
            for l in pending.drain(..) {
                let want = if l.is_positive() { 1 } else { 2 };
                match self.value[l.index()] {
                    0 => {
                        self.value[l.index()] = want;
                        self.touched.push(l.index());
                        factor *= if l.is_positive() {
                            self.weights[l.index()].0
                        } else {
                            self.weights[l.index()].1
                        };
                    }
                    v if v != want => return None,
                    _ => {}
                }
            }
            let current: &[Clause] = reduced.as_deref().unwrap_or(clauses);
            let mut next = Vec::with_capacity(current.len());
            for clause in current {
                // Count the open literals first: an untouched clause is shared, not copied.
                let mut open = 0;
                let mut last_open = None;
                let mut satisfied = false;
                for &l in clause.iter() {
                    match self.value[l.index()] {
                        0 => {
                            open += 1;
                            last_open = Some(l);
                        }
                        v if (v == 1) == l.is_positive() => {
                            satisfied = true;
                            break;
                        }
                        _ => {}
                    }
                }
                if satisfied {
                    continue;
                }
                match (open, last_open) {
                    (0, _) | (_, None) => return None,
                    (1, Some(l)) => pending.push(l),
                    _ if open == clause.len() => next.push(clause.clone()),
                    _ => next.push(
                        clause
                            .iter()
                            .copied()
                            .filter(|l| self.value[l.index()] == 0)
                            .collect(),
                    ),
                }
            }
            reduced = Some(next);
            if pending.is_empty() {
                break;
            }
        }
        let current = reduced.unwrap_or_default();
        for clause in &current {
            for l in clause.iter() {
                self.seen[l.index()] = true;
            }
        }
        for &v in vars {
            if self.value[v] == 0 && !self.seen[v] {
                let (t, f) = self.weights[v];
                factor *= t + f;
            }
        }
        for clause in &current {
            for l in clause.iter() {
                self.seen[l.index()] = false;
            }
        }
        Some((current, factor))
    }
}

/// The sorted, distinct variable indices of the clauses.
fn vars_of<C: AsRef<[Lit]>>(clauses: &[C]) -> Vec<usize> {
    let mut vars: Vec<usize> = clauses
        .iter()
        .flat_map(|c| c.as_ref())
        .map(|l| l.index())
        .collect();
    vars.sort_unstable();
    vars.dedup();
    vars
}

/// Splits clauses into groups that share no variable.
fn components(clauses: Vec<Clause>) -> Vec<Vec<Clause>> {
    let vars = vars_of(&clauses);
    let index: HashMap<usize, usize> = vars.iter().enumerate().map(|(i, &v)| (v, i)).collect();
    let mut parent: Vec<usize> = (0..vars.len()).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for c in &clauses {
        let first = find(&mut parent, index[&c[0].index()]);
        for l in &c[1..] {
            let other = find(&mut parent, index[&l.index()]);
            if other != first {
                parent[other] = first;
            }
        }
    }
    let mut groups: HashMap<usize, Vec<Clause>> = HashMap::default();
    for c in clauses {
        let root = find(&mut parent, index[&c[0].index()]);
        groups.entry(root).or_default().push(c);
    }
    let mut out: Vec<Vec<Clause>> = groups.into_values().collect();
    out.sort_by_key(|g| g[0][0].index());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kb::rules::{parse_rules, GRID_RULES};
    use crate::kb::Proofs;
    use crate::topology::{Place, Topology};
    use std::sync::Arc;

    #[test]
    fn binomials() {
        assert_eq!(binomial(5, 2), 10.0);
        assert_eq!(binomial(4, 0), 1.0);
        assert_eq!(binomial(3, 4), 0.0);
    }

    #[test]
    fn counting_matches_enumeration_on_a_small_formula() {
        // (a | b) & (not a | c), weights a: .3, b: .6, c: .5
        let v = |i| varisat::Var::from_index(i).positive();
        let clauses = vec![vec![v(0), v(1)], vec![!v(0), v(2)]];
        let mut counter = ModelCounter::new(vec![(0.3, 0.7), (0.6, 0.4), (0.5, 0.5)]);
        let mut brute = 0.0;
        for m in 0..8u32 {
            let (a, b, c) = (m & 1 == 1, m & 2 == 2, m & 4 == 4);
            if (a || b) && (!a || c) {
                let w = |x: bool, t: f64| if x { t } else { 1.0 - t };
                brute += w(a, 0.3) * w(b, 0.6) * w(c, 0.5);
            }
        }
        assert!((counter.count_under(&clauses, &[]) - brute).abs() < 1e-12);
    }

    #[test]
    fn nothing_known_gives_the_prior() {
        let topo = Arc::new(Topology::grid(4, 4).unwrap());
        let rules = Arc::new(parse_rules(GRID_RULES).unwrap());
        let mut kb =
            KnowledgeBase::new(rules.clone(), topo.clone(), topo.cell(0, 0), Proofs::Fast).unwrap();
        let pit = rules.predicate("pit").unwrap();
        let wumpus = rules.predicate("wumpus").unwrap();
        let prior = Prior::uniform(&rules).bernoulli(pit, 0.2);
        let at = |r, c| Some(topo.cell(r, c).unwrap());
        let p = kb.marginals(&[kb.atom(pit, at(2, 2))], &prior).unwrap()[0];
        assert!((p - 0.2).abs() < 1e-12);
        let w = kb.marginals(&[kb.atom(wumpus, at(3, 3))], &prior).unwrap()[0];
        assert!((w - 1.0 / 15.0).abs() < 1e-12, "{w}");
        let start = kb
            .marginals(&[kb.atom(pit, Some(Place::new(0)))], &prior)
            .unwrap()[0];
        assert_eq!(start, 0.0);
    }
}
