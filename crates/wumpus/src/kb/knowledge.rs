//! The knowledge base of one game: its atoms (each gets a solver variable when a clause first
//! mentions it, or a value when a unit clause fixes it), the observations told, and the
//! questions asked of it (`possible`, `entails`). It is made of parts, each holding one
//! concern: the atoms and the observations here, the epochs in epoch.rs, the counters in
//! counter.rs, the watches in watch.rs, the odds caches in odds/caches.rs, the explainer in
//! explain.rs.
//!
//! Every "no" comes from the solver, every "yes" from a model. It must never answer a
//! question before checking that the rules and the observations are consistent, and it never
//! talks to varisat but through `sat/`.

use std::collections::HashSet;
use std::sync::Arc;
use varisat::Lit;

use super::counter::Counting;
use super::epoch::Epochs;
use super::explain::Explaining;
use super::ground::{Atom, GroundClause, GroundLit};
use super::odds::OddsCaches;
use super::relevance::Relevance;
use super::rules::{PredId, PredKind, Rules};
use super::sat::Sat;
use super::watch::Watches;
use super::{Grounding, KbError, Observation, Proofs};
use crate::topology::{Place, Topology};

/// What the knowledge base holds of one ground atom.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct AtomState {
    /// Its solver variable, once a clause in the solver mentions it.
    pub(super) lit: Option<Lit>,
    /// Its value, once a unit clause fixed it. Fixed atoms are simplified out of later clauses
    /// and need no solver call; most observations on the grid fix atoms ("no breeze here: no
    /// pit next door"), so the solver sees only what is genuinely uncertain.
    pub(super) fixed: Option<bool>,
    /// When it was fixed.
    pub(super) fixed_at: u64,
}

/// The states of one predicate's atoms, by slot (a place's index, or 0), in blocks of
/// [`SLOT_BLOCK`] allocated when first touched: an explanation builds a knowledge base on a
/// few observations of a board that may have thousands of places, and must not pay for every
/// place.
#[derive(Clone, Debug, Default)]
pub(super) struct AtomSlots {
    blocks: Vec<Option<Box<[AtomState; SLOT_BLOCK]>>>,
}

/// Atoms to a block of [`AtomSlots`].
const SLOT_BLOCK: usize = 64;

impl AtomSlots {
    /// The state of `slot`: the default where nothing was held.
    pub(super) fn get(&self, slot: usize) -> AtomState {
        match self.blocks.get(slot / SLOT_BLOCK) {
            Some(Some(block)) => block[slot % SLOT_BLOCK],
            _ => AtomState::default(),
        }
    }

    /// The state of `slot`, held from now on.
    pub(super) fn get_mut(&mut self, slot: usize) -> &mut AtomState {
        let b = slot / SLOT_BLOCK;
        if b >= self.blocks.len() {
            self.blocks.resize(b + 1, None);
        }
        let block =
            self.blocks[b].get_or_insert_with(|| Box::new([AtomState::default(); SLOT_BLOCK]));
        &mut block[slot % SLOT_BLOCK]
    }

    /// Every slot held, with its state.
    pub(super) fn iter(&self) -> impl Iterator<Item = (usize, &AtomState)> {
        self.blocks.iter().enumerate().flat_map(|(b, block)| {
            block
                .iter()
                .flat_map(|states| states.iter())
                .enumerate()
                .map(move |(i, s)| (b * SLOT_BLOCK + i, s))
        })
    }
}

/// Every atom's state, by predicate of the knowledge base (epochs included), and the lists
/// kept beside the states so that a question need not scan every atom. It only keeps books: it
/// must never add a clause or a variable itself, and never forgets a mentioned atom (the
/// counters count on the places no clause mentions, and `mentioned` says which those are).
pub(super) struct Atoms {
    /// Per predicate, the states of its atoms by slot.
    pub(super) slots: Vec<AtomSlots>,
    /// Per predicate, the atoms that got a variable or a value, in that order.
    pub(super) mentioned: Vec<Vec<Option<Place>>>,
    /// Per predicate, the mentioned atoms fixed true.
    pub(super) fixed_true: Vec<Vec<Option<Place>>>,
    /// Per predicate, mentioned atoms that may still be unfixed (fixed ones are dropped
    /// lazily), so that [`KnowledgeBase::true_in_model`]
    /// need not scan every mentioned atom: on a big grid nearly all of them are fixed false by
    /// the observations.
    pub(super) unfixed: Vec<Vec<Option<Place>>>,
}

impl Atoms {
    /// No atom held, for `preds` predicates.
    pub(super) fn new(preds: usize) -> Atoms {
        Atoms {
            slots: vec![AtomSlots::default(); preds],
            mentioned: vec![Vec::new(); preds],
            fixed_true: vec![Vec::new(); preds],
            unfixed: vec![Vec::new(); preds],
        }
    }

    /// Room for the atoms of one predicate more (an epoch begun); returns its id.
    pub(super) fn add_predicate(&mut self) -> usize {
        let id = self.slots.len();
        self.slots.push(AtomSlots::default());
        self.mentioned.push(Vec::new());
        self.fixed_true.push(Vec::new());
        self.unfixed.push(Vec::new());
        id
    }

    pub(super) fn state(&self, atom: Atom) -> AtomState {
        self.slots[atom.pred].get(atom.place.map_or(0, |p| p.index()))
    }

    /// The state of `atom`, to be given a variable or a value: the atom is mentioned from now
    /// on.
    pub(super) fn state_mut(&mut self, atom: Atom) -> &mut AtomState {
        let state = self.slots[atom.pred].get_mut(atom.place.map_or(0, |p| p.index()));
        if state.lit.is_none() && state.fixed.is_none() {
            self.mentioned[atom.pred].push(atom.place);
            self.unfixed[atom.pred].push(atom.place);
        }
        state
    }

    /// Fixes `atom` to `value` at time `now`; returns its variable, if it has one.
    pub(super) fn fix(&mut self, atom: Atom, value: bool, now: u64) -> Option<Lit> {
        let state = self.state_mut(atom);
        state.fixed = Some(value);
        state.fixed_at = now;
        let lit = state.lit;
        if value {
            self.fixed_true[atom.pred].push(atom.place);
        }
        lit
    }
}

/// What was told, in order, and how it went into the solver. It must never forget or reorder
/// an observation: explanations name observations by their index here, and `selectors[i]`
/// guards `observations[i]`.
pub(super) struct Told {
    /// [`Proofs::Explained`]: each observation is guarded by a selector, passed as an
    /// assumption; [`Proofs::Fast`]: observations are plain clauses (and unit ones fix atoms).
    pub(super) proofs: Proofs,
    /// Everything told, in order.
    pub(super) observations: Vec<Observation>,
    /// The same, as a set: telling an observation again changes nothing.
    pub(super) distinct: HashSet<Observation>,
    /// In [`Proofs::Explained`] mode, the selector of each observation.
    pub(super) selectors: Vec<Lit>,
}

/// The knowledge base of one game: the solver and a few parts, each holding one concern.
pub struct KnowledgeBase {
    /// The rules, the graph and the rules' facts grounded on it.
    pub(super) grounding: Arc<Grounding>,
    /// The solver, the only door to varisat (sat/mod.rs).
    pub(super) sat: Sat,
    /// The solver's time when the formula was last found consistent.
    pub(super) consistent_at: Option<u64>,
    /// Every atom's variable and fixed value.
    pub(super) atoms: Atoms,
    /// The observations told.
    pub(super) told: Told,
    /// The events told, and the epochs of atoms they began.
    pub(super) epochs: Epochs,
    /// The cardinality constraints' counters.
    pub(super) counting: Counting,
    /// The watches on atoms, for [`KnowledgeBase::take_changed`].
    pub(super) watches: Watches,
    /// What odds questions keep between them.
    pub(super) odds: OddsCaches,
    /// The explainer, or in the explainer its index of clauses by atom.
    pub(super) explaining: Explaining,
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
        // One solver per component once the formula is big (see sat/mod.rs), in both modes:
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

    /// A knowledge base solved by `sat`; in explained mode `sat` solves the explainer's
    /// clauses (where the selectors are), and the questions get a solver of their own.
    pub(super) fn on(grounding: Arc<Grounding>, proofs: Proofs, sat: Sat) -> KnowledgeBase {
        #[cfg(test)]
        if proofs == Proofs::Explained && super::explain::reference::on() {
            return KnowledgeBase::bare(grounding, proofs, sat);
        }
        match proofs {
            Proofs::Fast => KnowledgeBase::bare(grounding, Proofs::Fast, sat),
            Proofs::Explained => {
                let explainer = KnowledgeBase::bare(grounding.clone(), Proofs::Explained, sat);
                let mut kb = KnowledgeBase::bare(grounding, Proofs::Fast, Sat::growing());
                kb.explaining.explainer = Some(Box::new(explainer));
                kb
            }
        }
    }

    /// A knowledge base without an explainer: in [`Proofs::Explained`] mode, the explainer
    /// itself (or, in tests, the reference that answers questions under the selectors too).
    pub(super) fn bare(grounding: Arc<Grounding>, proofs: Proofs, sat: Sat) -> KnowledgeBase {
        let rules = grounding.rules.clone();
        let places = grounding.topology.len();
        let n = rules.predicates.len();
        let mut kb = KnowledgeBase {
            grounding: grounding.clone(),
            sat,
            consistent_at: None,
            atoms: Atoms::new(n),
            told: Told {
                proofs,
                observations: Vec::new(),
                distinct: HashSet::new(),
                selectors: Vec::new(),
            },
            epochs: Epochs::new(n),
            counting: Counting::new(&rules, places),
            watches: Watches::default(),
            odds: OddsCaches::default(),
            explaining: Explaining::default(),
        };
        if proofs == Proofs::Explained {
            kb.explaining.relevance = Some(Relevance::new(&grounding.facts, &kb.counting.counted));
        }
        for i in 0..kb.counting.counters.len() {
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
        &self.told.observations
    }

    /// Solver calls made so far.
    pub fn solver_calls(&self) -> u64 {
        self.sat.calls
    }

    /// True once the knowledge base solves one component at a time (see sat/mod.rs).
    #[cfg(test)]
    pub(crate) fn is_split(&self) -> bool {
        match &self.explaining.explainer {
            Some(explainer) => explainer.sat.is_split(),
            None => self.sat.is_split(),
        }
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

    /// The places where `pred` is true in the most recent model, among the atoms mentioned so
    /// far (unmentioned atoms are unconstrained but for their counters), in no particular
    /// order.
    ///
    /// Complexity: the atoms fixed true plus those not fixed, not every mentioned atom.
    pub fn true_in_model(&mut self, pred: PredId) -> Vec<Option<Place>> {
        let pred = self.epochs.current[pred];
        let atoms = &self.atoms.slots[pred];
        self.atoms.unfixed[pred]
            .retain(|&place| atoms.get(place.map_or(0, |p| p.index())).fixed.is_none());
        let open = self.atoms.unfixed[pred]
            .iter()
            .copied()
            .filter(|&place| self.model_value(Atom { pred, place }) == Some(true));
        self.atoms.fixed_true[pred]
            .iter()
            .copied()
            .chain(open)
            .collect()
    }

    /// The places of a per-place predicate that no clause mentions yet, if there is exactly
    /// one (by counting, such a place can still be forced).
    pub fn sole_unmentioned(&self, pred: PredId) -> Option<Place> {
        let pred = self.epochs.current[pred];
        let places = self.topology().len();
        if places - self.atoms.mentioned[pred].len() != 1 {
            return None;
        }
        (0..places).map(Place::new).find(|&p| {
            self.atoms
                .state(Atom {
                    pred,
                    place: Some(p),
                })
                .lit
                .is_none()
                && self
                    .atoms
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
    pub(super) fn add_ground(&mut self, clause: &[GroundLit], selector: Option<Lit>) {
        let mut open: Vec<GroundLit> = Vec::with_capacity(clause.len());
        for &(atom, value) in clause {
            match self.atoms.state(atom).fixed {
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
    pub(super) fn fix(&mut self, atom: Atom, value: bool) {
        let now = self.sat.tick();
        let lit = self.atoms.fix(atom, value, now);
        // A watched atom without a variable changes now; one with a variable is reached
        // through its component, which the unit clause below stamps.
        self.watches.fixed(atom, now);
        match lit {
            Some(l) => self.sat.add_clause(&[if value { l } else { !l }]),
            None => {
                for i in 0..self.counting.counters.len() {
                    if self.counting.counters[i].pred == atom.pred {
                        self.count_fixed(i, value);
                    }
                }
            }
        }
    }

    /// The solver literal of a ground literal, allocating the atom's variable (and extending
    /// its counters) on first mention.
    pub(super) fn lit(&mut self, (atom, positive): GroundLit) -> Lit {
        let state = self.atoms.state(atom);
        let lit = match state.lit {
            Some(l) => l,
            None => {
                let l = self.sat.new_lit();
                self.atoms.state_mut(atom).lit = Some(l);
                self.watches.given_variable(atom, l, &mut self.sat);
                match state.fixed {
                    // Already counted when it was fixed.
                    Some(v) => self.sat.add_clause(&[if v { l } else { !l }]),
                    None => {
                        for i in 0..self.counting.counters.len() {
                            if self.counting.counters[i].pred == atom.pred {
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

    /// The ground atom of the rules' predicate `pred` at `place` (or the proposition `pred`),
    /// in its current epoch.
    pub fn atom(&self, pred: PredId, place: Option<Place>) -> Atom {
        Atom {
            pred: self.epochs.current[pred],
            place,
        }
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
            time: self.epochs.time,
        };
        if !self.told.distinct.insert(obs) {
            return Ok(());
        }
        if let Some(explainer) = &mut self.explaining.explainer {
            explainer.tell(pred, place, present)?;
        }
        self.told.observations.push(obs);
        let selector = match self.told.proofs {
            Proofs::Explained => {
                let s = self.sat.new_lit();
                self.told.selectors.push(s);
                Some(s)
            }
            Proofs::Fast => None,
        };
        // Absence of a one-way percept says nothing.
        if present || rule.iff {
            let clauses = grounding.percept(pred, place, present)?;
            let remap = self.epochs.time > 0;
            let index = self.told.observations.len() - 1;
            if let Some(relevance) = self.explaining.relevance.as_mut().filter(|_| !remap) {
                for clause in clauses.iter() {
                    relevance.add(Some(index), clause, &self.counting.counted);
                }
            }
            for clause in clauses.iter() {
                if remap {
                    let mapped: GroundClause = clause
                        .iter()
                        .map(|&(a, v)| {
                            (
                                Atom {
                                    pred: self.epochs.current[a.pred],
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
        let assumptions = self.told.selectors.clone();
        if self.sat.solve(&assumptions, true) {
            self.consistent_at = Some(self.sat.now());
            return Ok(());
        }
        let explainer = match &mut self.explaining.explainer {
            Some(explainer) => explainer,
            None => self,
        };
        let why = match explainer.told.proofs {
            Proofs::Explained => {
                let core = explainer.oldest_core(&[]).unwrap_or_default();
                if core.is_empty() {
                    "the rules alone cannot all hold, whatever is observed".to_string()
                } else {
                    let words: Vec<String> = core
                        .iter()
                        .map(|&i| explainer.describe(&explainer.told.observations[i]))
                        .collect();
                    format!("these cannot all hold: {}", words.join("; "))
                }
            }
            Proofs::Fast if explainer.told.observations.is_empty() => {
                "the rules alone cannot all hold, whatever is observed".to_string()
            }
            Proofs::Fast => format!(
                "the {} observations of this game cannot all hold",
                explainer.told.observations.len()
            ),
        };
        Err(KbError::Contradiction(why))
    }

    /// The solver literals for a question, with fixed and unconstrained atoms taken out;
    /// `None` when a fixed atom already makes it impossible.
    pub(super) fn question(&mut self, conj: &[GroundLit]) -> Option<Vec<Lit>> {
        let mut lits = Vec::with_capacity(conj.len());
        for (i, &(atom, value)) in conj.iter().enumerate() {
            let state = self.atoms.state(atom);
            match state.fixed {
                Some(v) if v != value => return None,
                Some(_) => continue,
                None => {}
            }
            if state.lit.is_none() && !self.counting.counted[atom.pred] {
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
        let mut assumptions = self.told.selectors.clone();
        assumptions.extend_from_slice(&lits);
        Ok(self.sat.solve(&assumptions, true))
    }

    /// The value unit clauses fix `atom` to, if any: entailed whenever the knowledge base is
    /// consistent, which this does not check (no solver call), so a caller must know that it
    /// is (as [`KnowledgeBase::entails`] checks).
    pub fn fixed(&self, atom: Atom) -> Option<bool> {
        self.atoms.state(atom).fixed
    }

    /// True when everything known entails the ground literal.
    pub fn entails(&mut self, (atom, positive): GroundLit) -> Result<bool, KbError> {
        Ok(!self.possible(&[(atom, !positive)])?)
    }

    /// The value of `atom` in the most recent model, if known.
    pub fn model_value(&self, atom: Atom) -> Option<bool> {
        let state = self.atoms.state(atom);
        if let Some(v) = state.fixed {
            return Some(v);
        }
        self.sat.model_value(state.lit?)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::rules::{parse_rules, GRID_RULES};
    use super::*;

    #[test]
    fn atom_slots_hold_only_the_blocks_touched_and_list_them_in_slot_order() {
        let mut slots = AtomSlots::default();
        assert!(slots.get(4_000).fixed.is_none());
        slots.get_mut(4_000).fixed = Some(true);
        slots.get_mut(3).fixed = Some(false);
        assert_eq!(slots.get(4_000).fixed, Some(true));
        assert_eq!(slots.get(3).fixed, Some(false));
        assert!(slots.get(4_001).fixed.is_none() && slots.get(64).fixed.is_none());
        assert_eq!(slots.blocks.iter().filter(|b| b.is_some()).count(), 2);
        let held: Vec<(usize, Option<bool>)> = slots
            .iter()
            .filter(|(_, s)| s.fixed.is_some())
            .map(|(i, s)| (i, s.fixed))
            .collect();
        assert_eq!(held, [(3, Some(false)), (4_000, Some(true))]);
    }

    pub(in crate::kb) fn grid_kb(rows: usize, cols: usize, proofs: Proofs) -> KnowledgeBase {
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
