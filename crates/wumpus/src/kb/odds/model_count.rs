//! Exact weighted model counting over a set of clauses: DPLL with unit propagation, the
//! clauses split into components that share no variable, and a cache of each component's
//! count.
//!
//! It counts the clauses it is given and knows nothing of the knowledge base, its atoms or
//! the prior but each variable's two weights; it must never round or estimate a count.

use rustc_hash::FxHashMap as HashMap;
use varisat::Lit;

/// A clause of a model count: literals sorted, shared between the reductions that leave it
/// untouched.
pub(super) type Clause = std::sync::Arc<[Lit]>;

/// Exact weighted model counting by DPLL with component decomposition and caching.
pub(super) struct ModelCounter {
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
    pub(super) fn new(weights: Vec<(f64, f64)>) -> ModelCounter {
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
    pub(super) fn grow(&mut self, weights: Vec<(f64, f64)>) {
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
    pub(super) fn count_under_vars(
        &mut self,
        clauses: &[Clause],
        vars: &[usize],
        assumptions: &[Lit],
    ) -> f64 {
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
pub(super) fn vars_of<C: AsRef<[Lit]>>(clauses: &[C]) -> Vec<usize> {
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
}
