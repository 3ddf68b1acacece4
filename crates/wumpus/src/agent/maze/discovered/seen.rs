//! The discovered-maze agent's knowledge base: the rules of `kb/maze-seen.kb` grounded over the
//! agent's own map, so that every pit, wumpus and bat colony it calls proven is proven by the
//! SAT layer from what the player was told, and can be explained observation by observation.
//!
//! The places are the agent's: one per cave it has stood in (or been carried off in) as it knows
//! it, and one per tunnel of those caves for the cave that tunnel leads to, until the agent
//! learns which of its caves that is (then the tunnel's place and the cave's both stand for it).
//! A place's tunnels are fixed when the player first stands there, before anything sensed there
//! is told, so what was grounded never needs the graph to change under it. The number of places
//! grows as the map does: the knowledge base is made for a capacity and made again, from what it
//! was told, at twice the size when that runs out.
//!
//! It must never be told anything but what the player was shown or sensed, or the results of
//! its own actions: it does not read the maze.

use super::super::{Told, Vocabulary};
use crate::agent::common;
use crate::kb::rules::{parse_rules, Rules};
use crate::kb::{KbError, KnowledgeBase, Observation, Proofs};
use crate::topology::{Place, Topology};
use std::sync::{Arc, OnceLock};

/// The rules of the maze as its player knows it (`kb/maze-seen.kb`).
pub const MAZE_SEEN_RULES: &str = include_str!("../../../../../../kb/maze-seen.kb");

/// The rules, parsed once.
fn seen_rules() -> Arc<Rules> {
    static RULES: OnceLock<Arc<Rules>> = OnceLock::new();
    RULES
        .get_or_init(|| Arc::new(parse_rules(MAZE_SEEN_RULES).expect("kb/maze-seen.kb is valid")))
        .clone()
}

/// The predicates and event the agent tells and asks about: the map-known maze agent's, and
/// `entered`.
#[derive(Clone, Copy, Debug)]
pub(super) struct SeenWords {
    maze: Vocabulary,
    pub(super) entered: usize,
}

impl SeenWords {
    fn of(rules: &Rules) -> Result<SeenWords, KbError> {
        let entered =
            common::Vocabulary::<0, 1>::of(rules, [], ["entered"], None, KbError::Vocabulary)?;
        Ok(SeenWords {
            maze: Vocabulary::of(rules)?,
            entered: entered.percepts[0],
        })
    }
}

impl std::ops::Deref for SeenWords {
    type Target = Vocabulary;

    fn deref(&self) -> &Vocabulary {
        &self.maze
    }
}

/// What the knowledge base proves of one place: `Some(v)` when it entails the hazard's presence
/// (`true`) or absence (`false`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Proven {
    pub(super) pit: Option<bool>,
    pub(super) bats: Option<bool>,
    /// In the current epoch (since the last blast).
    pub(super) wumpus: Option<bool>,
}

impl Proven {
    /// What either proves (of one cave).
    pub(super) fn or(self, other: Proven) -> Proven {
        Proven {
            pit: self.pit.or(other.pit),
            bats: self.bats.or(other.bats),
            wumpus: self.wumpus.or(other.wumpus),
        }
    }

    /// What both prove alike (of caves one of which is the one asked about).
    pub(super) fn alike(self, other: Proven) -> Proven {
        let same = |a: Option<bool>, b: Option<bool>| a.filter(|_| a == b);
        Proven {
            pit: same(self.pit, other.pit),
            bats: same(self.bats, other.bats),
            wumpus: same(self.wumpus, other.wumpus),
        }
    }
}

/// The knowledge base over the agent's own map.
pub(super) struct Seen {
    /// Made when first told something: an agent that never plays costs nothing.
    kb: Option<KnowledgeBase>,
    pub(super) words: SeenWords,
    proofs: Proofs,
    /// The places each place's tunnels lead to (empty until the player stands there).
    outs: Vec<Vec<Place>>,
    /// Places handed out so far.
    used: usize,
    log: Vec<Told>,
    /// What is proven of each place, as of `counted_at`: the observations, blasts and places
    /// then.
    proven: Vec<Proven>,
    counted_at: (usize, u32, usize),
    /// Why the knowledge base stopped answering, if it did (it proves nothing from then on).
    broken: Option<String>,
}

impl std::fmt::Debug for Seen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seen")
            .field("places", &self.used)
            .field("told", &self.log.len())
            .field("broken", &self.broken)
            .finish()
    }
}

impl Seen {
    /// An empty knowledge base with room for `capacity` places.
    pub(super) fn with_capacity(capacity: usize, proofs: Proofs) -> Result<Seen, KbError> {
        let words = SeenWords::of(&seen_rules())?;
        let capacity = capacity.max(4);
        Ok(Seen {
            kb: None,
            words,
            proofs,
            outs: vec![Vec::new(); capacity],
            used: 0,
            log: Vec::new(),
            proven: vec![Proven::default(); capacity],
            counted_at: (usize::MAX, 0, 0),
            broken: None,
        })
    }

    fn graph(outs: &[Vec<Place>], capacity: usize) -> Topology {
        let mut tunnels: Vec<Vec<usize>> = outs
            .iter()
            .map(|o| o.iter().map(|p| p.index()).collect())
            .collect();
        tunnels.resize(capacity, Vec::new());
        Topology::cave(&tunnels, 1, vec![None; capacity], vec![None; capacity])
    }

    /// A new place.
    pub(super) fn place(&mut self) -> Place {
        if self.used == self.outs.len() {
            self.grow();
        }
        self.used += 1;
        Place::new(self.used - 1)
    }

    /// The same knowledge at twice the capacity. What was proven is worked out again at the
    /// next [`Seen::prove`], which every turn calls before anything reads it.
    fn grow(&mut self) {
        let capacity = self.outs.len() * 2;
        let mut bigger = Seen::with_capacity(capacity, self.proofs)
            .expect("the built-in rules ground on any map");
        bigger.used = self.used;
        bigger.outs = self.outs.clone();
        bigger.outs.resize(capacity, Vec::new());
        bigger.broken = self.broken.take();
        let log = std::mem::take(&mut self.log);
        bigger.replay(&log);
        *self = bigger;
    }

    fn replay(&mut self, log: &[Told]) {
        let topology = Arc::new(Self::graph(&self.outs, self.outs.len()));
        if let Some(Err(e)) = self.kb.as_mut().map(|kb| kb.set_topology(topology)) {
            self.broken.get_or_insert(e.to_string());
        }
        for &told in log {
            match told {
                Told::Percept(pred, place, present) => self.tell(pred, place, present),
                Told::Event(_, place) => self.blast(place),
            }
        }
    }

    /// Fixes where `place`'s tunnels lead: once, before anything sensed there is told.
    pub(super) fn set_tunnels(&mut self, place: Place, tunnels: Vec<Place>) {
        debug_assert!(self.outs[place.index()].is_empty(), "tunnels fixed once");
        self.outs[place.index()] = tunnels;
        let topology = Arc::new(Self::graph(&self.outs, self.outs.len()));
        if let Some(Err(e)) = self.kb.as_mut().map(|kb| kb.set_topology(topology)) {
            self.broken.get_or_insert(e.to_string());
        }
    }

    /// The knowledge base, made on the map so far when first needed.
    fn kb(&mut self) -> &mut KnowledgeBase {
        let (outs, proofs) = (&self.outs, self.proofs);
        self.kb.get_or_insert_with(|| {
            let topology = Arc::new(Self::graph(outs, outs.len()));
            KnowledgeBase::new(seen_rules(), topology, None, proofs)
                .expect("the built-in rules ground on any map")
        })
    }

    /// Tells percept `pred` at `place`.
    pub(super) fn tell(&mut self, pred: usize, place: Place, present: bool) {
        if self.broken.is_some() {
            return;
        }
        let before = self.kb().observations().len();
        if let Err(e) = self.kb().tell(pred, Some(place), present) {
            self.broken = Some(e.to_string());
        }
        // The knowledge base keeps an observation told again once; so does the log.
        if self.kb().observations().len() > before {
            self.log.push(Told::Percept(pred, place, present));
        }
    }

    /// A grenade blasted `place`.
    pub(super) fn blast(&mut self, place: Place) {
        if self.broken.is_some() {
            return;
        }
        self.log.push(Told::Event(self.words.blast, place));
        let blast = self.words.blast;
        if let Err(e) = self.kb().happen(blast, Some(place)) {
            self.broken = Some(e.to_string());
        }
    }

    /// Why the knowledge base stopped answering, if it did.
    pub(super) fn broken(&self) -> Option<&str> {
        self.broken.as_deref()
    }

    /// Works out what is proven of every place not yet settled, once per new observation or
    /// blast.
    pub(super) fn prove(&mut self) {
        let Some(kb) = &self.kb else {
            return;
        };
        let now = (kb.observations().len(), kb.time(), self.used);
        if now.1 != self.counted_at.1 {
            for p in &mut self.proven {
                p.wumpus = None;
            }
        }
        if self.broken.is_some() {
            self.proven.fill(Proven::default());
            return;
        }
        if now == self.counted_at {
            return;
        }
        self.counted_at = now;
        let w = self.words;
        for i in 0..self.used {
            let place = Place::new(i);
            let mut p = self.proven[i];
            let outcome = (|| -> Result<(), KbError> {
                if p.pit.is_none() {
                    p.pit = self.value(w.pit, place)?;
                }
                if p.wumpus.is_none() {
                    p.wumpus = self.value(w.wumpus, place)?;
                }
                if p.bats.is_none() {
                    p.bats = self.value(w.bats, place)?;
                }
                Ok(())
            })();
            if let Err(e) = outcome {
                self.broken = Some(e.to_string());
                self.proven.fill(Proven::default());
                return;
            }
            self.proven[i] = p;
        }
    }

    /// The value everything known gives `pred` at `place` now, if it gives one.
    fn value(&mut self, pred: usize, place: Place) -> Result<Option<bool>, KbError> {
        let atom = self.kb().atom(pred, Some(place));
        if let Some(v) = self.kb().fixed(atom) {
            self.kb().check_consistent()?;
            return Ok(Some(v));
        }
        if !self.kb().possible(&[(atom, true)])? {
            return Ok(Some(false));
        }
        if !self.kb().possible(&[(atom, false)])? {
            return Ok(Some(true));
        }
        Ok(None)
    }

    /// What is proven of `place` (as of the last [`Seen::prove`]).
    pub(super) fn proven(&self, place: Place) -> Proven {
        self.proven.get(place.index()).copied().unwrap_or_default()
    }

    /// The observations that prove `pred` at `place` present (`value`) or absent, in the order
    /// told; empty when the knowledge base cannot explain (built for speed, or broken).
    pub(super) fn why(&mut self, pred: usize, place: Place, value: bool) -> Vec<Observation> {
        if self.broken.is_some() || self.proofs != Proofs::Explained {
            return Vec::new();
        }
        // One observation at the place itself that the rules make enough, when there is one:
        // the player stood there (since the last blast, for a wumpus), entered it (no pit) or
        // was carried off there (the bats). A player reads that sooner than the proof the
        // search keeping the oldest observations finds.
        let w = self.words;
        let Some(kb) = &self.kb else {
            return Vec::new();
        };
        let now = kb.time();
        let direct = kb.observations().iter().find(|o| {
            o.place == Some(place)
                && o.present
                && match (pred, value) {
                    (p, false) if p == w.pit => o.pred == w.stood || o.pred == w.entered,
                    (p, false) if p == w.bats => o.pred == w.stood,
                    (p, false) if p == w.wumpus => o.pred == w.stood && o.time == now,
                    (p, true) if p == w.bats => o.pred == w.carried,
                    _ => false,
                }
        });
        if let Some(&o) = direct {
            return vec![o];
        }
        let atom = self.kb().atom(pred, Some(place));
        match self.kb().explain(&[(atom, !value)]) {
            Ok(Some(ids)) => ids
                .into_iter()
                .map(|i| self.kb().observations()[i])
                .collect(),
            _ => Vec::new(),
        }
    }
}
