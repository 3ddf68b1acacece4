//! The propositional knowledge base: rules grounded over the world's graph, observations told
//! as they arrive, and questions answered by SAT.
//!
//! A [`KnowledgeBase`] holds one incremental solver for a whole game. A fact is *entailed* when
//! the knowledge base together with its negation is unsatisfiable; a place is proven safe when
//! "danger there" is impossible. Every "no" comes from the solver; every "yes" from a model.
//!
//! Grounding is lazy, and exact. A hidden atom gets a solver variable only when some clause
//! mentions it. A percept's meaning is grounded at a place only when that percept is observed
//! there: an unobserved percept atom is defined by its meaning and occurs nowhere else, so
//! leaving it out changes no answer about hidden atoms. A cardinality constraint ("exactly one
//! wumpus") is an incremental sequential counter over the atoms mentioned so far, with the
//! unmentioned places standing for "the rest": at most *k* among the mentioned, and at least
//! *k − rest* of them. So a 1024×1024 grid costs only what the agent has explored.
//!
//! In [`Proofs::Explained`] mode each observation is guarded by a selector variable and passed
//! as an assumption, so [`KnowledgeBase::explain`] can name the observations a conclusion rests
//! on (the solver's failed assumptions, then minimised one by one). [`Proofs::Fast`] adds
//! observations as plain clauses, which is quicker when no one asks why.

pub mod ground;
pub mod rules;
mod sat;

use ground::{Atom, Ground, GroundError, GroundLit};
use rules::{PredId, PredKind, Rules};
use sat::Sat;
use std::collections::HashSet;
use std::sync::Arc;
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
struct Counter {
    pred: PredId,
    places: usize,
    at_least: usize,
    at_most: Option<usize>,
    regs: Vec<Bit>,
    mentioned: usize,
}

/// The knowledge base of one game.
pub struct KnowledgeBase {
    rules: Arc<Rules>,
    topology: Arc<Topology>,
    start: Option<Place>,
    proofs: Proofs,
    sat: Sat,
    atoms: Vec<Vec<Option<Lit>>>,
    counters: Vec<Counter>,
    observations: Vec<Observation>,
    told: HashSet<Observation>,
    selectors: Vec<Lit>,
    consistent_at: Option<u64>,
}

impl KnowledgeBase {
    /// A knowledge base for `rules` on `topology`; `start` is what the rules call `start`.
    pub fn new(
        rules: Arc<Rules>,
        topology: Arc<Topology>,
        start: Option<Place>,
        proofs: Proofs,
    ) -> Result<KnowledgeBase, KbError> {
        let atoms = rules
            .predicates
            .iter()
            .map(|p| match (p.kind, p.per_place) {
                (PredKind::Hidden, true) => vec![None; topology.len()],
                (PredKind::Hidden, false) => vec![None],
                (PredKind::Percept, _) => Vec::new(),
            })
            .collect();
        let places = topology.len();
        let counters = rules
            .cardinalities
            .iter()
            .map(|c| {
                let at_least = c.at_least.map_or(0, |k| k.value(places));
                let at_most = c.at_most.map(|k| k.value(places));
                let width = at_least.max(at_most.unwrap_or(0));
                Counter {
                    pred: c.pred,
                    places,
                    at_least,
                    at_most,
                    regs: vec![Bit::False; width],
                    mentioned: 0,
                }
            })
            .collect();
        let mut kb = KnowledgeBase {
            rules,
            topology,
            start,
            proofs,
            sat: Sat::new(),
            atoms,
            counters,
            observations: Vec::new(),
            told: HashSet::new(),
            selectors: Vec::new(),
            consistent_at: None,
        };
        for counter in &kb.counters {
            if counter.at_least > counter.places
                || counter.at_most.is_some_and(|m| m < counter.at_least)
            {
                kb.sat.add_clause(&[]);
            }
        }
        let rules = kb.rules.clone();
        for fact in &rules.facts {
            match &fact.var {
                None => kb.assert_formula(&fact.formula, &mut Vec::new())?,
                Some(v) => {
                    for place in kb.topology.clone().places() {
                        kb.assert_formula(&fact.formula, &mut vec![(v.clone(), place)])?;
                    }
                }
            }
        }
        Ok(kb)
    }

    fn assert_formula(
        &mut self,
        formula: &rules::Formula,
        env: &mut Vec<(String, Place)>,
    ) -> Result<(), KbError> {
        let ground = Ground {
            topology: &self.topology,
            start: self.start,
        };
        for clause in ground.clauses(formula, env, true)? {
            let lits: Vec<Lit> = clause.iter().map(|&l| self.lit(l)).collect();
            self.sat.add_clause(&lits);
        }
        Ok(())
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The world's graph.
    pub fn topology(&self) -> &Arc<Topology> {
        &self.topology
    }

    /// Everything told so far, in order.
    pub fn observations(&self) -> &[Observation] {
        &self.observations
    }

    /// Solver calls made so far.
    pub fn solver_calls(&self) -> u64 {
        self.sat.calls
    }

    /// Solver variables allocated so far.
    pub fn variables(&self) -> usize {
        self.sat.var_count()
    }

    /// An observation in words: `breeze at 1,1`, `no stench at 0,0`, `scream`.
    pub fn describe(&self, obs: &Observation) -> String {
        let name = &self.rules.predicates[obs.pred].name;
        let not = if obs.present { "" } else { "no " };
        match obs.place {
            Some(p) => format!("{not}{name} at {}", self.topology.label(p)),
            None => format!("{not}{name}"),
        }
    }

    /// The solver literal of a ground literal, allocating the atom's variable (and extending
    /// its counters) on first mention.
    fn lit(&mut self, (atom, positive): GroundLit) -> Lit {
        let slot = atom.place.map_or(0, |p| p.index());
        let lit = match self.atoms[atom.pred][slot] {
            Some(l) => l,
            None => {
                let l = self.sat.new_lit();
                self.atoms[atom.pred][slot] = Some(l);
                for i in 0..self.counters.len() {
                    if self.counters[i].pred == atom.pred {
                        self.extend_counter(i, l);
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

    fn extend_counter(&mut self, index: usize, x: Lit) {
        let width = self.counters[index].regs.len();
        let old = self.counters[index].regs.clone();
        let mut new = Vec::with_capacity(width);
        for j in 0..width {
            let b = if j == 0 { Bit::True } else { old[j - 1] };
            let s = self.or_and(old[j], x, b);
            new.push(s);
        }
        let counter = &mut self.counters[index];
        counter.mentioned += 1;
        let (at_most, at_least) = (counter.at_most, counter.at_least);
        let rest = counter.places - counter.mentioned;
        // "At most k": the (k+1)-th true atom may not appear: not (x and at least k before).
        if let Some(k) = at_most {
            let before = if k == 0 { Bit::True } else { old[k - 1] };
            match before {
                Bit::False => {}
                Bit::True => self.sat.add_clause(&[!x]),
                Bit::Lit(b) => self.sat.add_clause(&[!x, !b]),
            }
        }
        // "At least k": the unmentioned rest can make up at most `rest` of them.
        let need = at_least.saturating_sub(rest);
        if need > 0 {
            match new[need - 1] {
                Bit::True => {}
                Bit::False => self.sat.add_clause(&[]),
                Bit::Lit(l) => self.sat.add_clause(&[l]),
            }
        }
        self.counters[index].regs = new;
    }

    /// A bit equal to `a ∨ (x ∧ b)`.
    fn or_and(&mut self, a: Bit, x: Lit, b: Bit) -> Bit {
        match (a, b) {
            (Bit::True, _) => Bit::True,
            (Bit::False, Bit::False) => Bit::False,
            (Bit::False, Bit::True) => Bit::Lit(x),
            _ => {
                let s = self.sat.new_lit();
                let mut a_lits = Vec::new();
                if let Bit::Lit(a) = a {
                    self.sat.add_clause(&[!a, s]);
                    a_lits.push(a);
                }
                match b {
                    Bit::True => {
                        self.sat.add_clause(&[!x, s]);
                        let mut c = vec![!s, x];
                        c.extend(&a_lits);
                        self.sat.add_clause(&c);
                    }
                    Bit::Lit(b) => {
                        self.sat.add_clause(&[!x, !b, s]);
                        let mut c = vec![!s, x];
                        c.extend(&a_lits);
                        self.sat.add_clause(&c);
                        let mut c = vec![!s, b];
                        c.extend(&a_lits);
                        self.sat.add_clause(&c);
                    }
                    Bit::False => {
                        let mut c = vec![!s];
                        c.extend(&a_lits);
                        self.sat.add_clause(&c);
                    }
                }
                Bit::Lit(s)
            }
        }
    }

    /// The ground atom of `pred` at `place` (or the proposition `pred`).
    pub fn atom(&self, pred: PredId, place: Option<Place>) -> Atom {
        Atom { pred, place }
    }

    /// Tells the knowledge base that percept `pred` was observed present or absent at `place`.
    /// Telling the same observation twice changes nothing.
    pub fn tell(
        &mut self,
        pred: PredId,
        place: Option<Place>,
        present: bool,
    ) -> Result<(), KbError> {
        let rules = self.rules.clone();
        let p = &rules.predicates[pred];
        let rule = rules
            .percept_rule(pred)
            .filter(|_| p.kind == PredKind::Percept && p.per_place == place.is_some())
            .ok_or_else(|| KbError::NotObservable(p.name.clone()))?;
        let obs = Observation {
            pred,
            place,
            present,
        };
        if !self.told.insert(obs) {
            return Ok(());
        }
        self.observations.push(obs);
        // Absence of a one-way percept says nothing.
        let clauses = if present || rule.iff {
            let ground = Ground {
                topology: &self.topology,
                start: self.start,
            };
            let mut env = match (&rule.var, place) {
                (Some(v), Some(at)) => vec![(v.clone(), at)],
                _ => Vec::new(),
            };
            ground.clauses(&rule.body, &mut env, present)?
        } else {
            Vec::new()
        };
        let selector = match self.proofs {
            Proofs::Explained => {
                let s = self.sat.new_lit();
                self.selectors.push(s);
                Some(s)
            }
            Proofs::Fast => None,
        };
        for clause in clauses {
            let mut lits: Vec<Lit> = clause.iter().map(|&l| self.lit(l)).collect();
            if let Some(s) = selector {
                lits.push(!s);
            }
            self.sat.add_clause(&lits);
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
                core.iter()
                    .map(|&i| self.describe(&self.observations[i]))
                    .collect::<Vec<_>>()
                    .join("; ")
            }
            Proofs::Fast => format!("{} observations cannot all hold", self.observations.len()),
        };
        Err(KbError::Contradiction(why))
    }

    /// True when the ground literals can all hold together with everything known.
    pub fn possible(&mut self, conj: &[GroundLit]) -> Result<bool, KbError> {
        let mut lits = Vec::with_capacity(conj.len());
        for (i, &(atom, positive)) in conj.iter().enumerate() {
            if self.is_free(atom) {
                // Nothing constrains this atom: any value will do, unless the question asks
                // for both values at once.
                if conj[..i].contains(&(atom, !positive)) {
                    return Ok(false);
                }
                continue;
            }
            lits.push(self.lit((atom, positive)));
        }
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

    /// An atom no clause mentions and no counter counts: it can take either value.
    fn is_free(&self, atom: Atom) -> bool {
        let slot = atom.place.map_or(0, |p| p.index());
        self.atoms[atom.pred][slot].is_none() && !self.counters.iter().any(|c| c.pred == atom.pred)
    }

    /// The current time, for [`KnowledgeBase::changed_since`].
    pub fn now(&self) -> u64 {
        self.sat.now()
    }

    /// True when something learnt after time `since` can bear on `atom`. An answer about the
    /// atom obtained at `since` still stands when this is false.
    pub fn changed_since(&mut self, atom: Atom, since: u64) -> bool {
        let slot = atom.place.map_or(0, |p| p.index());
        match self.atoms[atom.pred][slot] {
            Some(l) => self.sat.changed_since(l, since),
            // A counted atom not yet mentioned is still constrained through its counter.
            None => self.counters.iter().any(|c| c.pred == atom.pred),
        }
    }

    /// The value of `atom` in the most recent model, if one is known and the atom is mentioned.
    pub fn model_value(&self, atom: Atom) -> Option<bool> {
        let slot = atom.place.map_or(0, |p| p.index());
        let lit = self.atoms[atom.pred][slot]?;
        self.sat.last_model()?.value(lit)
    }

    /// The observations (as indices into [`KnowledgeBase::observations`]) that make `conj`
    /// impossible: a set from which no observation can be dropped. `None` when `conj` is
    /// possible.
    pub fn explain(&mut self, conj: &[GroundLit]) -> Result<Option<Vec<usize>>, KbError> {
        if self.proofs != Proofs::Explained {
            return Err(KbError::NotExplaining);
        }
        if self.possible(conj)? {
            return Ok(None);
        }
        let lits: Vec<Lit> = conj.iter().map(|&l| self.lit(l)).collect();
        Ok(Some(self.minimal_core(&lits)))
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

    /// The grounded formula in DIMACS CNF, with a comment table naming each atom's variable.
    /// In explained mode the observations are added as unit clauses of their selectors.
    pub fn to_dimacs(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(out, "c wumpus knowledge base");
        for (pred, slots) in self.atoms.iter().enumerate() {
            for (slot, lit) in slots.iter().enumerate() {
                if let Some(l) = lit {
                    let name = &self.rules.predicates[pred].name;
                    let place = if self.rules.predicates[pred].per_place {
                        format!("({})", self.topology.label(Place::new(slot)))
                    } else {
                        String::new()
                    };
                    let _ = writeln!(out, "c var {} {name}{place}", l.to_dimacs());
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
            self.sat.var_count(),
            clauses.len() + self.selectors.len()
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
