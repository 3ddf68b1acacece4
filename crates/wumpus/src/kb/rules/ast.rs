//! The rule language's syntax tree: predicates, formulas, facts, cardinalities, percept
//! meanings, events and their rules, gathered in a checked [`Rules`].
//!
//! Plain data with a few lookups: the parser builds and checks a `Rules`; nothing here reads
//! text, and it must never know of a world's places (the grounder puts the two together).

/// Index of a predicate in [`Rules::predicates`].
pub type PredId = usize;

/// Whether a predicate is part of the hidden world or something the player observes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredKind {
    /// A secret of the world, solved for.
    Hidden,
    /// An observation; its meaning is given by a `percept` rule.
    Percept,
}

/// A declared predicate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Predicate {
    /// Its name.
    pub name: String,
    /// Hidden or percept.
    pub kind: PredKind,
    /// True when it takes a place argument; false for a proposition.
    pub per_place: bool,
    /// Line of its declaration.
    pub line: usize,
}

/// A term: a variable or the start place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// A variable, bound by a rule head, a quantifier or a fact's free variable.
    Var(String),
    /// The start place of the game.
    Start,
}

/// A neighbour set of a place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NeighbourSet {
    /// Places joined by an edge either way.
    Adj,
    /// Targets of outgoing edges.
    Out,
    /// Sources of incoming edges.
    In,
}

/// A formula over atoms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Formula {
    /// `pred(term)` or `pred`.
    Atom(PredId, Option<Term>),
    /// `next pred(term)`: the predicate after the event (only in an event's rules).
    Next(PredId, Option<Term>),
    /// `item in set(of)`: true when `item` is among `of`'s neighbours; grounds to a constant.
    Member {
        /// The place tested.
        item: Term,
        /// Which neighbours.
        set: NeighbourSet,
        /// Whose neighbours.
        of: Term,
    },
    /// `a = b`: the same place; grounds to a constant.
    Equal(Term, Term),
    /// `not f`.
    Not(Box<Formula>),
    /// `f & g & ...`.
    And(Vec<Formula>),
    /// `f | g | ...`.
    Or(Vec<Formula>),
    /// `f -> g`.
    Implies(Box<Formula>, Box<Formula>),
    /// `f <-> g`.
    Iff(Box<Formula>, Box<Formula>),
    /// `any V in set(T): f` (a disjunction) or `all V in set(T): f` (a conjunction).
    Quant {
        /// True for `all`.
        all: bool,
        /// The bound variable.
        var: String,
        /// Which neighbours.
        set: NeighbourSet,
        /// Whose neighbours.
        of: Term,
        /// The body.
        body: Box<Formula>,
    },
}

/// The meaning of a percept: observing it at a place adds `body` (and, for `<->`, observing
/// it absent adds `not body`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerceptRule {
    /// The percept predicate.
    pub pred: PredId,
    /// The head's variable, for a per-place percept.
    pub var: Option<String>,
    /// `<->` (absence is informative) rather than `->`.
    pub iff: bool,
    /// The meaning, over hidden predicates.
    pub body: Formula,
    /// Line of the rule.
    pub line: usize,
}

/// A fact that holds in every world: ground, or for every place when it has a free variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// The free variable, when the fact is a schema over all places.
    pub var: Option<String>,
    /// The formula, over hidden predicates.
    pub formula: Formula,
    /// Line of the fact.
    pub line: usize,
}

/// A bound in a cardinality constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// A fixed number.
    Fixed(usize),
    /// The number of places divided by this (rounded down), e.g. `places/4`.
    PlacesOver(usize),
}

impl Count {
    /// The bound for a world of `places` places.
    pub fn value(self, places: usize) -> usize {
        match self {
            Count::Fixed(n) => n,
            Count::PlacesOver(d) => places / d,
        }
    }
}

/// `exactly K X: p(X)`, `atmost K X: p(X)` or `atleast K X: p(X)` over all places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cardinality {
    /// The predicate counted.
    pub pred: PredId,
    /// The least count, if bounded below.
    pub at_least: Option<Count>,
    /// The greatest count, if bounded above.
    pub at_most: Option<Count>,
    /// Line of the constraint.
    pub line: usize,
}

/// Index of an event in [`Rules::events`].
pub type EventId = usize;

/// A declared event: something that changes the hidden world, `event wake.` or
/// `event blast(B).`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventDecl {
    /// Its name.
    pub name: String,
    /// The variable naming where it happens, for an event at a place.
    pub param: Option<String>,
    /// The predicates it changes: those its rules mention under `next`, in declaration order.
    pub changes: Vec<PredId>,
    /// Line of its declaration.
    pub line: usize,
}

/// One rule of an event, `wake: FORMULA.`: it holds between the world before and after each
/// time the event happens; a free variable other than the event's place ranges over all places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transition {
    /// The event.
    pub event: EventId,
    /// The free variable, when the rule is a schema over all places.
    pub var: Option<String>,
    /// The formula, over hidden predicates before (`p(X)`) and after (`next p(X)`).
    pub formula: Formula,
    /// Line of the rule.
    pub line: usize,
}

/// A parsed and checked rule file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Every declared predicate.
    pub predicates: Vec<Predicate>,
    /// Facts.
    pub facts: Vec<Fact>,
    /// Cardinality constraints.
    pub cardinalities: Vec<Cardinality>,
    /// Percept meanings, indexed by nothing in particular; see [`Rules::percept_rule`].
    pub percepts: Vec<PerceptRule>,
    /// Declared events.
    pub events: Vec<EventDecl>,
    /// The events' rules.
    pub transitions: Vec<Transition>,
}

impl Rules {
    /// The predicate called `name`.
    pub fn predicate(&self, name: &str) -> Option<PredId> {
        self.predicates.iter().position(|p| p.name == name)
    }

    /// The meaning of percept `pred`.
    pub fn percept_rule(&self, pred: PredId) -> Option<&PerceptRule> {
        self.percepts.iter().find(|r| r.pred == pred)
    }

    /// The event called `name`.
    pub fn event(&self, name: &str) -> Option<EventId> {
        self.events.iter().position(|e| e.name == name)
    }

    /// True when some event changes `pred` (it has epochs).
    pub fn changes(&self, pred: PredId) -> bool {
        self.events.iter().any(|e| e.changes.contains(&pred))
    }
}
