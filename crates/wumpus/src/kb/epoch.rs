//! A world that changes: events, each moving the predicates it changes to a fresh *epoch* of
//! atoms tied to the previous one by the event's rules, and a topology that grows as a map is
//! learnt.
//!
//! Old observations keep constraining the old epoch and, through the rules, the new one. What
//! was grounded stands: an event or a new map must never rewrite an earlier clause.

use std::sync::Arc;

use super::counter::Counter;
use super::ground::{Atom, GroundClause};
use super::rules::{EventId, PredId};
use super::{Grounding, KbError, KnowledgeBase};
use crate::topology::{Place, Topology};

/// The events told and the epochs they began: which knowledge-base predicate holds each of the
/// rules' predicates now, and before. It must never rename an epoch once begun: clauses
/// grounded earlier name its atoms.
pub(super) struct Epochs {
    /// For each predicate of the rules, the knowledge base's predicate of its current epoch.
    pub(super) current: Vec<PredId>,
    /// For each predicate of the knowledge base: the rules' predicate and its epoch.
    pub(super) epoch_of: Vec<(PredId, u32)>,
    /// For each predicate of the rules, its epochs' predicates, oldest first.
    pub(super) history: Vec<Vec<PredId>>,
    /// Events told so far.
    pub(super) time: u32,
}

impl Epochs {
    /// Each of the `n` predicates of the rules in its first epoch, no event told.
    pub(super) fn new(n: usize) -> Epochs {
        Epochs {
            current: (0..n).collect(),
            epoch_of: (0..n).map(|p| (p, 0)).collect(),
            history: (0..n).map(|p| vec![p]).collect(),
            time: 0,
        }
    }

    /// Begins a new epoch of the rules' predicate `pred`, held by the knowledge base's
    /// predicate `id`.
    pub(super) fn begin(&mut self, pred: PredId, id: PredId) {
        self.epoch_of.push((pred, self.history[pred].len() as u32));
        self.history[pred].push(id);
        self.current[pred] = id;
    }
}

impl KnowledgeBase {
    /// Events told so far.
    pub fn time(&self) -> u32 {
        self.epochs.time
    }

    /// The current epoch of the rules' predicate `pred`: how many times an event changed it.
    pub fn epoch(&self, pred: PredId) -> u32 {
        self.epochs.history[pred].len() as u32 - 1
    }

    /// The rules' predicate behind a knowledge-base predicate (itself but for later epochs).
    pub(crate) fn base_pred(&self, pred: PredId) -> PredId {
        self.epochs.epoch_of[pred].0
    }

    /// The rules' predicate and the epoch behind a predicate of an [`Atom`].
    pub fn epoch_of(&self, atom: Atom) -> (PredId, u32) {
        self.epochs.epoch_of[atom.pred]
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
        if let Some(explainer) = &mut self.explaining.explainer {
            explainer.happen(event, at)?;
        }
        let places = grounding.topology.len();
        let old = self.epochs.current.clone();
        for &pred in &decl.changes {
            let id = self.atoms.add_predicate();
            self.counting.counted.push(self.counting.counted[pred]);
            self.epochs.begin(pred, id);
            for c in rules.cardinalities.iter().filter(|c| c.pred == pred) {
                self.counting.counters.push(Counter::new(c, id, places));
                self.start_counter(self.counting.counters.len() - 1);
            }
        }
        self.epochs.time += 1;
        let new = self.epochs.current.clone();
        let n = old.len();
        let epoch_of = |pred: PredId| if pred < n { old[pred] } else { new[pred - n] };
        for (index, _) in rules
            .transitions
            .iter()
            .enumerate()
            .filter(|(_, t)| t.event == event)
        {
            for clause in grounding.transition(index, at)?.iter() {
                let mut clause: GroundClause = clause
                    .iter()
                    .map(|&(atom, value)| {
                        let pred = epoch_of(atom.pred);
                        (Atom { pred, ..atom }, value)
                    })
                    .collect();
                // Predicates the event leaves alone are one before and after: tidy what that
                // merges, as grounding them directly would have.
                clause.sort();
                clause.dedup();
                if clause.windows(2).any(|w| w[0].0 == w[1].0) {
                    continue;
                }
                self.add_ground(&clause, None);
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
        if let Some(explainer) = &mut self.explaining.explainer {
            explainer.set_topology(topology.clone())?;
        }
        if let Some(relevance) = &mut self.explaining.relevance {
            // Observations told from now on are grounded on the new graph; a knowledge base
            // told them again would ground the earlier ones on it too.
            relevance.valid = false;
        }
        self.grounding = Arc::new(Grounding {
            rules: old.rules.clone(),
            topology,
            start: old.start,
            facts: Vec::new(),
            percept_slot: old.percept_slot.clone(),
            cache: None,
            transitions: None,
        });
        Ok(())
    }

    /// The ground atom of `pred` at `place` in epoch `epoch` (0: as dealt), if that epoch has
    /// begun.
    pub fn atom_at(&self, pred: PredId, epoch: u32, place: Option<Place>) -> Option<Atom> {
        let id = *self.epochs.history[pred].get(epoch as usize)?;
        Some(Atom { pred: id, place })
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::parse_rules;
    use super::super::{KbError, KnowledgeBase, Proofs};
    use crate::topology::{Place, Topology};
    use std::sync::Arc;

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
}
