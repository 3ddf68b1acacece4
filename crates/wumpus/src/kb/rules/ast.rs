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

impl Formula {
    /// True for a test of places alone (membership, equality, their negations and
    /// combinations): it grounds to a constant.
    pub fn is_place_test(&self) -> bool {
        match self {
            Formula::Member { .. } | Formula::Equal(..) => true,
            Formula::Not(g) => g.is_place_test(),
            Formula::And(parts) | Formula::Or(parts) => parts.iter().all(Formula::is_place_test),
            _ => false,
        }
    }
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

/// An upper bound on what grounding a formula can build, before anything is built: the clauses
/// of its conjunctive normal form under each polarity, and the literals of its negation normal
/// form, with every quantifier expanded over `degree` places (the largest neighbourhood of the
/// world). Saturates rather than overflows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expansion {
    /// Clauses of the formula asserted.
    pub positive: u128,
    /// Clauses of the formula denied.
    pub negative: u128,
    /// Literals of the formula, either way.
    pub literals: u128,
}

impl Expansion {
    /// The bound of `f` over neighbourhoods of at most `degree` places.
    pub fn of(f: &Formula, degree: u128) -> Expansion {
        let e = |c: u128| c.min(u128::MAX / 2);
        let pow = |base: u128, n: u128| -> u128 {
            let mut out: u128 = 1;
            for _ in 0..n {
                out = e(out.saturating_mul(base));
            }
            out
        };
        match f {
            Formula::Atom(..) | Formula::Next(..) => Expansion {
                positive: 1,
                negative: 1,
                literals: 1,
            },
            Formula::Member { .. } | Formula::Equal(..) => Expansion {
                positive: 1,
                negative: 1,
                literals: 0,
            },
            Formula::Not(g) => {
                let g = Expansion::of(g, degree);
                Expansion {
                    positive: g.negative,
                    negative: g.positive,
                    literals: g.literals,
                }
            }
            Formula::And(parts) | Formula::Or(parts) => {
                // A test of places (`X in out(B)`, `X = B`) is true or false once grounded, and
                // simplifies away: it adds nothing to the clauses of the rest.
                let kids: Vec<Expansion> = parts
                    .iter()
                    .filter(|g| !g.is_place_test())
                    .map(|g| Expansion::of(g, degree))
                    .collect();
                if kids.is_empty() {
                    return Expansion {
                        positive: 1,
                        negative: 1,
                        literals: 0,
                    };
                }
                let sum = |get: fn(&Expansion) -> u128| {
                    kids.iter().fold(0u128, |a, k| e(a.saturating_add(get(k))))
                };
                let product = |get: fn(&Expansion) -> u128| {
                    kids.iter().fold(1u128, |a, k| e(a.saturating_mul(get(k))))
                };
                let literals = sum(|k| k.literals);
                if matches!(f, Formula::And(_)) {
                    Expansion {
                        positive: sum(|k| k.positive),
                        negative: product(|k| k.negative),
                        literals,
                    }
                } else {
                    Expansion {
                        positive: product(|k| k.positive),
                        negative: sum(|k| k.negative),
                        literals,
                    }
                }
            }
            Formula::Implies(a, b) => {
                let (a, b) = (Expansion::of(a, degree), Expansion::of(b, degree));
                Expansion {
                    positive: e(a.negative.saturating_mul(b.positive)),
                    negative: e(a.positive.saturating_add(b.negative)),
                    literals: e(a.literals.saturating_add(b.literals)),
                }
            }
            Formula::Iff(a, b) => {
                let (a, b) = (Expansion::of(a, degree), Expansion::of(b, degree));
                let both = |x: u128, y: u128, z: u128, w: u128| {
                    e(e(x.saturating_mul(y)).saturating_add(e(z.saturating_mul(w))))
                };
                Expansion {
                    positive: both(a.negative, b.positive, a.positive, b.negative),
                    negative: both(a.negative, b.negative, a.positive, b.positive),
                    literals: e(e(a.literals.saturating_add(b.literals)).saturating_mul(2)),
                }
            }
            Formula::Quant { all, body, .. } => {
                let b = Expansion::of(body, degree);
                let expand = |c: u128| (e(c.saturating_mul(degree)), pow(c, degree));
                let (pos_and, pos_or) = expand(b.positive);
                let (neg_and, neg_or) = expand(b.negative);
                Expansion {
                    positive: if *all { pos_and } else { pos_or },
                    negative: if *all { neg_or } else { neg_and },
                    literals: e(b.literals.saturating_mul(degree)),
                }
            }
        }
    }

    /// Why grounding would build too much, if it would: over [`MAX_GROUND_CLAUSES`] clauses,
    /// or over [`MAX_GROUND_LITERALS`] literals in all.
    pub fn too_large(&self, both: bool) -> Option<String> {
        let clauses = if both {
            self.positive.max(self.negative)
        } else {
            self.positive
        };
        let literals = clauses.saturating_mul(self.literals.max(1));
        if clauses > MAX_GROUND_CLAUSES as u128 || literals > MAX_GROUND_LITERALS as u128 {
            Some(format!(
                "this rule could ground to {} {} of up to {} literals at one place, more than \
                 the {} clauses and {} literals allowed: split it into smaller rules",
                shown(clauses),
                if clauses == 1 { "clause" } else { "clauses" },
                shown(self.literals),
                MAX_GROUND_CLAUSES,
                MAX_GROUND_LITERALS
            ))
        } else {
            None
        }
    }
}

/// A large count in words a person reads (`more than 10^30`).
fn shown(n: u128) -> String {
    if n >= u128::MAX / 2 {
        "astronomically many".to_string()
    } else if n > 1_000_000_000 {
        format!("about 10^{}", n.ilog10())
    } else {
        n.to_string()
    }
}

/// The most clauses one rule may ground to at one place.
pub const MAX_GROUND_CLAUSES: usize = 4096;

/// The most literals, in all its clauses, one rule may ground to at one place.
pub const MAX_GROUND_LITERALS: usize = 1 << 18;

/// The most clauses all the rules of one file may ground to at one place, together: four
/// rules at the one-rule limit. Grounding time and memory follow the file's total, so it is
/// bounded as a whole.
pub const MAX_FILE_CLAUSES: usize = 4 * MAX_GROUND_CLAUSES;

/// The most literals, in all the clauses of all the rules of one file, at one place.
pub const MAX_FILE_LITERALS: usize = 4 * MAX_GROUND_LITERALS;

/// The largest neighbourhood a rule file is checked for when it is read: a grid cell's four
/// neighbours, and a cave's three tunnels either way (grounding checks again on the world it
/// is grounded on).
pub const READ_DEGREE: u128 = 4;

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
    /// The first rule that would ground to too much over neighbourhoods of `degree` places,
    /// alone or with the rules before it (the whole file is bounded, not only each rule): its
    /// line and why.
    pub fn too_large(&self, degree: u128) -> Option<(usize, String)> {
        let facts = self.facts.iter().map(|f| (&f.formula, false, f.line));
        let percepts = self.percepts.iter().map(|p| (&p.body, p.iff, p.line));
        let transitions = self.transitions.iter().map(|t| (&t.formula, false, t.line));
        let (mut clauses, mut literals) = (0u128, 0u128);
        for (f, both, line) in facts.chain(percepts).chain(transitions) {
            let e = Expansion::of(f, degree);
            if let Some(why) = e.too_large(both) {
                return Some((line, why));
            }
            let mine = if both {
                e.positive.max(e.negative)
            } else {
                e.positive
            };
            clauses = clauses.saturating_add(mine);
            literals = literals.saturating_add(mine.saturating_mul(e.literals.max(1)));
            if clauses > MAX_FILE_CLAUSES as u128 || literals > MAX_FILE_LITERALS as u128 {
                return Some((
                    line,
                    format!(
                        "with the rules before it, this rule brings the file to {} clauses of \
                         {} literals in all at one place, more than the {MAX_FILE_CLAUSES} \
                         clauses and {MAX_FILE_LITERALS} literals a whole rule file may ground \
                         to: merge or drop rules",
                        shown(clauses),
                        shown(literals)
                    ),
                ));
            }
        }
        None
    }

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
