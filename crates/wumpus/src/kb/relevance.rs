//! Which observations can bear on an explanation: an index of the explainer's ground clauses
//! by atom, and the closure that gathers, for a question, every observation that can belong to
//! its explanation, so that the explanation is found by a knowledge base told only those.
//!
//! Why this is exact. Let `A` be the closure of the question's atoms under "shares a ground
//! clause with" (the rules' facts and the observations' clauses, each clause on its own, not
//! each observation as a whole), where for every counted predicate (a cardinality) the atoms of
//! every clause with a positive literal of it are added too; let `R` be the observations with a
//! clause touching `A`. Take a set `S` of observations and a model `ν` of the rules, `S ∩ R`
//! and the question (over every place: the knowledge base's lazy grounding is exact). Keep
//! `ν` on `A`; elsewhere take a model `μ` of the rules and every observation (the knowledge
//! base is consistent) for uncounted predicates, and make counted atoms false. Every clause is
//! wholly inside `A` (satisfied by `ν`) or wholly outside it (satisfied by `μ`, and by a
//! counted atom being false, since every clause with a positive counted literal is inside
//! `A`). "At most" holds, as `ν`'s count on `A` is at most `ν`'s count; "at least" holds by
//! making true some atoms no clause mentions, which `available_rest` checks exist. So `S ∩ R`
//! and the question are satisfiable exactly when `S` and the question are: every solve of the
//! explanation's search gives the same answer on `R` as on all observations, and so does the
//! explanation. It must never leave out an observation that could change an answer; when it
//! cannot show that (events have happened, the map was replaced, the rest is too small) it
//! says so and the explainer searches every observation.

use rustc_hash::{FxHashMap, FxHashSet};

use super::ground::{Atom, GroundClause, GroundLit};
use super::KnowledgeBase;

/// The explainer's ground clauses, by atom.
#[derive(Default)]
pub(super) struct Relevance {
    /// Each clause, with the observation that told it (`None`: a fact of the rules).
    clauses: Vec<(Option<u32>, GroundClause)>,
    /// For each atom, the clauses that mention it.
    uses: FxHashMap<Atom, Vec<u32>>,
    /// The clauses with a positive literal of a counted predicate.
    counted_positive: Vec<u32>,
    /// False once the index no longer covers the formula (an event added clauses, or the map
    /// changed the grounding of later observations).
    pub(super) valid: bool,
}

impl Relevance {
    /// An index of the rules' facts; `counted` says which predicates are counted.
    pub(super) fn new(facts: &[GroundClause], counted: &[bool]) -> Relevance {
        let mut index = Relevance {
            valid: true,
            ..Relevance::default()
        };
        for clause in facts {
            index.add(None, clause, counted);
        }
        index
    }

    /// Adds a clause told by observation `obs` (`None`: a fact).
    pub(super) fn add(&mut self, obs: Option<usize>, clause: &[GroundLit], counted: &[bool]) {
        let id = self.clauses.len() as u32;
        for &(atom, _) in clause {
            let uses = self.uses.entry(atom).or_default();
            if uses.last() != Some(&id) {
                uses.push(id);
            }
        }
        if clause.iter().any(|&(a, v)| v && counted[a.pred]) {
            self.counted_positive.push(id);
        }
        self.clauses.push((obs.map(|o| o as u32), clause.to_vec()));
    }

    /// The observations (indices, in order) that can bear on a question about `atoms`.
    fn relevant(&self, atoms: impl IntoIterator<Item = Atom>) -> Vec<usize> {
        let mut closed: FxHashSet<Atom> = FxHashSet::default();
        let mut todo: Vec<Atom> = atoms.into_iter().collect();
        for &c in &self.counted_positive {
            todo.extend(self.clauses[c as usize].1.iter().map(|&(a, _)| a));
        }
        let mut observations: FxHashSet<u32> = FxHashSet::default();
        while let Some(atom) = todo.pop() {
            if !closed.insert(atom) {
                continue;
            }
            for &c in self.uses.get(&atom).map_or(&[][..], Vec::as_slice) {
                let (obs, clause) = &self.clauses[c as usize];
                if let Some(o) = obs {
                    observations.insert(*o);
                }
                todo.extend(
                    clause
                        .iter()
                        .map(|&(a, _)| a)
                        .filter(|a| !closed.contains(a)),
                );
            }
        }
        let mut ids: Vec<usize> = observations.into_iter().map(|o| o as usize).collect();
        ids.sort_unstable();
        ids
    }
}

impl KnowledgeBase {
    /// True when every counted predicate's "at least" can be made up by atoms no clause
    /// mentions (see the module documentation).
    /// The question's own atoms may be among them, so they are not counted on.
    fn available_rest(&self, asked: usize) -> bool {
        self.counting
            .counters
            .iter()
            .all(|c| c.places - c.mentioned >= c.at_least + asked)
    }

    /// The observations an explanation of `conj` can name, when the index can show it (see
    /// the module documentation); `None` when every observation must be searched.
    pub(super) fn relevant_to(&self, conj: &[GroundLit]) -> Option<Vec<usize>> {
        let index = self.explaining.relevance.as_ref()?;
        if !index.valid || self.epochs.time > 0 || !self.available_rest(conj.len()) {
            return None;
        }
        Some(index.relevant(conj.iter().map(|&(a, _)| a)))
    }
}
