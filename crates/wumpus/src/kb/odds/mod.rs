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
use super::{Bit, KbError, KnowledgeBase};
use rustc_hash::FxHashMap as HashMap;
use varisat::Lit;

mod caches;
mod model_count;

use caches::OddsCache;
pub(super) use caches::OddsCaches;
use model_count::ModelCounter;

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
