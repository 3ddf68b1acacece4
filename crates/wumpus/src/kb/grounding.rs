//! Rules grounded over one topology, shared by every game of a batch played on it: the facts
//! grounded once, and each percept's meaning at each place and each event's transition at each
//! place at most once (cached on small worlds).
//!
//! A grounding is read-only once built (games share it across threads); it must never hold
//! anything learnt in one game.

use std::sync::{Arc, OnceLock};

use super::ground::{Ground, GroundClause};
use super::rules::{PredId, PredKind, Rules};
use super::KbError;
use crate::topology::{Place, Topology};

/// Rules grounded over one topology, shared by every game played on it: facts are grounded
/// once, and each percept's meaning at each place at most once (on small worlds).
pub struct Grounding {
    pub(super) rules: Arc<Rules>,
    pub(super) topology: Arc<Topology>,
    pub(super) start: Option<Place>,
    pub(super) facts: Vec<GroundClause>,
    pub(super) percept_slot: Vec<Option<usize>>,
    pub(super) cache: Option<Vec<OnceLock<Vec<GroundClause>>>>,
    /// Each transition rule's clauses at each place of its event (the last slot: an event
    /// without a place), grounded with the predicates of the epochs before and after as
    /// placeholders ([`Grounding::transition`]); on small worlds.
    pub(super) transitions: Option<Vec<OnceLock<Vec<GroundClause>>>>,
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
        // The largest neighbourhood of this world, in- and out-tunnels counted apart: every rule
        // is bounded on it before anything is grounded.
        let degree = topology
            .places()
            .map(|p| {
                let ins = topology
                    .graph()
                    .neighbors_directed(p, petgraph::Direction::Incoming)
                    .count();
                topology.linked(p).len().max(ins)
            })
            .max()
            .unwrap_or(0);
        if let Some((line, why)) = rules.too_large(degree as u128) {
            return Err(super::ground::GroundError::RuleTooLarge(line, why).into());
        }
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
        let moves = rules.transitions.len() * (topology.len() + 1);
        let transitions =
            (moves <= CACHE_LIMIT).then(|| (0..moves).map(|_| OnceLock::new()).collect());
        Ok(Arc::new(Grounding {
            rules,
            topology,
            start,
            facts,
            percept_slot,
            cache,
            transitions,
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
    pub(super) fn percept(
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

    /// The clauses of transition rule `index` for its event at `at`, over every place of the
    /// rule's variable, with each rule predicate `p` standing for its epoch before the event
    /// and `p + n` for its epoch after (`n`: the rules' predicates); the caller maps both to
    /// the knowledge base's own. A substitution after grounding is one before it, so the
    /// clauses mean the same as grounding with the epochs' predicates directly.
    pub(super) fn transition(
        &self,
        index: usize,
        at: Option<Place>,
    ) -> Result<std::borrow::Cow<'_, [GroundClause]>, KbError> {
        let rule = &self.rules.transitions[index];
        let decl = &self.rules.events[rule.event];
        let compute = || -> Result<Vec<GroundClause>, KbError> {
            let n = self.rules.predicates.len();
            let before: Vec<PredId> = (0..n).collect();
            let after: Vec<PredId> = (n..2 * n).collect();
            let ground = Ground {
                topology: &self.topology,
                start: self.start,
                now: Some(&before),
                next: Some(&after),
            };
            let mut env: Vec<(String, Place)> = match (&decl.param, at) {
                (Some(v), Some(p)) => vec![(v.clone(), p)],
                _ => Vec::new(),
            };
            let mut out = Vec::new();
            match &rule.var {
                None => out.extend(ground.clauses(&rule.formula, &mut env, true)?),
                Some(v) => {
                    for place in self.topology.places() {
                        env.push((v.clone(), place));
                        let clauses = ground.clauses(&rule.formula, &mut env, true);
                        env.pop();
                        out.extend(clauses?);
                    }
                }
            }
            Ok(out)
        };
        let slot = at.map_or(self.topology.len(), |p| p.index());
        match &self.transitions {
            Some(cells) => {
                let cell = &cells[index * (self.topology.len() + 1) + slot];
                if cell.get().is_none() {
                    let _ = cell.set(compute()?);
                }
                Ok(std::borrow::Cow::Borrowed(cell.get().expect("set above")))
            }
            None => Ok(std::borrow::Cow::Owned(compute()?)),
        }
    }
}
