//! The propositional knowledge base: rules grounded over the world's graph, observations told
//! as they arrive, and questions answered by SAT.
//!
//! A [`KnowledgeBase`] holds the clauses of a whole game, solved incrementally (see sat/mod.rs).
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
//! [`Proofs::Fast`] adds observations as plain clauses. [`Proofs::Explained`] answers questions
//! the same way, and keeps beside it an explainer told the same observations, each guarded by
//! a selector variable and passed as an assumption, so [`KnowledgeBase::explain`] can name the
//! observations a conclusion rests on: the minimal set keeping the oldest observations
//! (explain.rs), searched among the observations that can bear on it (relevance.rs).
//!
//! The files, one concept each: `knowledge.rs` ([`KnowledgeBase`]: atoms, telling, asking),
//! `grounding.rs` ([`Grounding`], shared by a batch), `counter.rs` (cardinalities),
//! `epoch.rs` (events and a growing map), `watch.rs` (what changed since), `explain.rs`
//! (minimal explanations), `relevance.rs` (which observations an explanation can name),
//! `drivers.rs` (the observations behind a place's odds), `dimacs.rs` (the export); `sat/` is
//! the only door to varisat.

pub mod ground;
pub mod odds;
pub mod rules;
mod sat;

mod counter;
mod dimacs;
mod drivers;
mod epoch;
mod explain;
#[cfg(test)]
pub(crate) use explain::reference;
mod grounding;
mod knowledge;
mod relevance;
mod watch;

use counter::Bit;
use ground::GroundError;
pub use grounding::Grounding;
pub use knowledge::KnowledgeBase;
use rules::PredId;

use crate::topology::Place;

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
