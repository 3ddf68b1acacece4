//! The rule-file language: readable schemas over a world's graph, parsed into a checked [`Rules`].
//!
//! A rule file declares what the world hides, states facts and cardinalities about it, and
//! gives each percept its meaning. The language is small on purpose: propositional formulas
//! over atoms `name(X)` or `name`, `not`, `&`, `|`, `->`, `<->`, neighbour sets `any N in
//! adj(X): ...` / `all N in adj(X): ...`, and counting over all places. `docs/kb.md` is the
//! reference; `kb/grid.kb` is the example.
//!
//! ```text
//! hidden pit(X).                                     # a per-place secret
//! not pit(start).                                    # a fact
//! exactly 1 X: wumpus(X).                            # a cardinality over all places
//! percept breeze(X) <-> any N in adj(X): pit(N).     # what observing breeze at X means
//! ```
//!
//! Worlds that change (a wumpus that wanders) declare **events**: `event wake.` or
//! `event blast(B).` (an event at a place). An event's rules, `wake: FORMULA.`, relate the
//! world before the event to the world after it, where `next p(X)` is `p` after the event and
//! plain `p(X)` is `p` before; the knowledge base gives every predicate that appears under
//! `next` a fresh set of atoms (an *epoch*) each time the event happens. Conditions on places,
//! `X in out(Y)` and `X = Y`, ground to true or false.
//!
//! ```text
//! event wake.
//! wake: next wumpus(X) -> wumpus(X) | any N in in(X): wumpus(N).
//! ```
//!
//! Parsing checks everything that can be checked without a world: unknown predicates, wrong
//! arity, unbound ("unsafe") variables, percepts used inside formulas, `next` outside an event's
//! rules, and duplicate meanings. Every error carries its line.

use crate::files::LineError;
use std::collections::HashMap;
use std::fmt;

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

/// A rule-file error with its line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RuleError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl LineError for RuleError {
    fn line(&self) -> Option<usize> {
        Some(self.line)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Int(usize),
    Punct(&'static str),
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Word(w) => write!(f, "'{w}'"),
            Tok::Int(n) => write!(f, "'{n}'"),
            Tok::Punct(p) => write!(f, "'{p}'"),
        }
    }
}

fn lex(text: &str) -> Result<Vec<(Tok, usize)>, RuleError> {
    const PUNCT: [&str; 11] = ["<->", "->", "(", ")", ".", ":", "|", "&", "/", ",", "="];
    let mut toks = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("");
        let mut rest = content;
        while let Some(c) = rest.chars().next() {
            if c.is_whitespace() {
                rest = &rest[c.len_utf8()..];
            } else if let Some(p) = PUNCT.iter().find(|p| rest.starts_with(**p)) {
                toks.push((Tok::Punct(p), line));
                rest = &rest[p.len()..];
            } else if c.is_ascii_digit() {
                let end = rest
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(rest.len());
                let n = rest[..end].parse().map_err(|_| RuleError {
                    line,
                    message: format!("number '{}' is too large", &rest[..end]),
                })?;
                toks.push((Tok::Int(n), line));
                rest = &rest[end..];
            } else if c.is_ascii_alphabetic() || c == '_' {
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                toks.push((Tok::Word(rest[..end].to_string()), line));
                rest = &rest[end..];
            } else {
                return Err(RuleError {
                    line,
                    message: format!(
                        "unexpected character {}",
                        crate::files::quoted(&c.to_string())
                    ),
                });
            }
        }
    }
    Ok(toks)
}

const KEYWORDS: [&str; 13] = [
    "hidden", "percept", "not", "any", "all", "in", "exactly", "atmost", "atleast", "start",
    "places", "event", "next",
];

fn is_var(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
}

/// How deeply formulas may nest (`not`, parentheses, quantifiers). Real rules nest a few
/// levels; the limit turns a pathological file into an error instead of a stack overflow in
/// the parser or the grounder, which both recurse over the formula.
pub const MAX_NESTING: usize = 64;

struct Parser {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    last_line: usize,
    preds: Vec<Predicate>,
    depth: usize,
    events: Vec<EventDecl>,
    /// The event whose rule is being parsed (`next` is allowed only there).
    in_event: Option<EventId>,
}

/// Parses and checks a rule file.
pub fn parse_rules(text: &str) -> Result<Rules, RuleError> {
    let toks = lex(text)?;
    let last_line = toks.last().map(|t| t.1).unwrap_or(1);
    let mut p = Parser {
        toks,
        pos: 0,
        last_line,
        preds: Vec::new(),
        depth: 0,
        events: Vec::new(),
        in_event: None,
    };
    // Declarations first, so formulas may mention predicates declared further down.
    p.collect_declarations()?;
    let mut rules = Rules {
        predicates: Vec::new(),
        facts: Vec::new(),
        cardinalities: Vec::new(),
        percepts: Vec::new(),
        events: Vec::new(),
        transitions: Vec::new(),
    };
    while p.pos < p.toks.len() {
        p.statement(&mut rules)?;
    }
    for (id, pred) in p.preds.iter().enumerate() {
        if pred.kind == PredKind::Percept && rules.percept_rule(id).is_none() {
            return Err(RuleError {
                line: pred.line,
                message: format!("percept '{}' has no meaning", pred.name),
            });
        }
    }
    for event in &p.events {
        if event.changes.is_empty() {
            return Err(RuleError {
                line: event.line,
                message: format!(
                    "event '{}' changes nothing: its rules must mention some 'next p(X)'",
                    event.name
                ),
            });
        }
    }
    rules.predicates = p.preds;
    rules.events = p.events;
    Ok(rules)
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }

    fn line(&self) -> usize {
        self.toks
            .get(self.pos)
            .map(|t| t.1)
            .unwrap_or(self.last_line)
    }

    fn err<T>(&self, message: impl Into<String>) -> Result<T, RuleError> {
        Err(RuleError {
            line: self.line(),
            message: message.into(),
        })
    }

    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).map(|t| t.0.clone());
        self.pos += 1;
        t
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(q)) if *q == p)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(v)) if v == w)
    }

    fn expect_punct(&mut self, p: &'static str) -> Result<(), RuleError> {
        if self.is_punct(p) {
            self.pos += 1;
            Ok(())
        } else {
            self.unexpected(&format!("'{p}'"))
        }
    }

    fn unexpected<T>(&self, wanted: &str) -> Result<T, RuleError> {
        match self.peek() {
            Some(t) => self.err(format!("expected {wanted}, found {t}")),
            None => self.err(format!("expected {wanted}, found the end of the file")),
        }
    }

    fn word(&mut self, wanted: &str) -> Result<String, RuleError> {
        match self.peek() {
            Some(Tok::Word(w)) => {
                let w = w.clone();
                self.pos += 1;
                Ok(w)
            }
            _ => self.unexpected(wanted),
        }
    }

    fn collect_declarations(&mut self) -> Result<(), RuleError> {
        let mut at_start = true;
        while self.pos < self.toks.len() {
            if at_start && (self.is_word("hidden") || self.is_word("percept")) {
                let kind = if self.is_word("hidden") {
                    PredKind::Hidden
                } else {
                    PredKind::Percept
                };
                self.pos += 1;
                let line = self.line();
                let name = self.word("a predicate name")?;
                if KEYWORDS.contains(&name.as_str()) || is_var(&name) {
                    return self.err(format!(
                        "'{name}' cannot name a predicate (names are lowercase and not keywords)"
                    ));
                }
                let per_place = self.is_punct("(");
                if let Some(prev) = self.preds.iter().find(|p| p.name == name) {
                    return Err(RuleError {
                        line,
                        message: format!(
                            "'{name}' is declared twice (first on line {})",
                            prev.line
                        ),
                    });
                }
                self.preds.push(Predicate {
                    name,
                    kind,
                    per_place,
                    line,
                });
            } else if at_start && self.is_word("event") {
                self.pos += 1;
                let line = self.line();
                let name = self.word("an event name")?;
                if KEYWORDS.contains(&name.as_str()) || is_var(&name) {
                    return self.err(format!(
                        "'{name}' cannot name an event (names are lowercase and not keywords)"
                    ));
                }
                let param = if self.is_punct("(") {
                    match self.toks.get(self.pos + 1) {
                        Some((Tok::Word(v), _)) if is_var(v) => Some(v.clone()),
                        _ => None,
                    }
                } else {
                    None
                };
                if let Some(prev) = self.events.iter().find(|e| e.name == name) {
                    return Err(RuleError {
                        line,
                        message: format!(
                            "event '{name}' is declared twice (first on line {})",
                            prev.line
                        ),
                    });
                }
                self.events.push(EventDecl {
                    name,
                    param,
                    changes: Vec::new(),
                    line,
                });
            }
            at_start = self.is_punct(".");
            self.pos += 1;
        }
        self.pos = 0;
        for event in &self.events {
            if let Some(pred) = self.preds.iter().find(|p| p.name == event.name) {
                return Err(RuleError {
                    line: event.line,
                    message: format!(
                        "'{}' names both an event and a predicate (line {})",
                        event.name, pred.line
                    ),
                });
            }
        }
        Ok(())
    }

    /// The event a statement's first word names, if any.
    fn event_named(&self) -> Option<EventId> {
        match self.peek() {
            Some(Tok::Word(w)) => self.events.iter().position(|e| &e.name == w),
            _ => None,
        }
    }

    /// `event NAME.` or `event NAME(V).` (already collected; checked here).
    fn event_declaration(&mut self) -> Result<(), RuleError> {
        self.pos += 1;
        self.word("an event name")?;
        if self.is_punct("(") {
            self.pos += 1;
            let var = self.word("a variable")?;
            if !is_var(&var) {
                return self.err(format!(
                    "'{var}' is not a variable (variables start with a capital)"
                ));
            }
            self.expect_punct(")")?;
        }
        self.expect_punct(".")
    }

    /// `NAME: FORMULA.` or `NAME(V): FORMULA.`: a rule of an event.
    fn transition(&mut self, event: EventId, rules: &mut Rules) -> Result<(), RuleError> {
        let line = self.line();
        let name = self.word("an event name")?;
        let mut bound = Vec::new();
        let declared = self.events[event].param.clone();
        if self.is_punct("(") {
            self.pos += 1;
            let var = self.word("a variable")?;
            if declared.as_deref() != Some(var.as_str()) {
                return self.err(match &declared {
                    Some(d) => format!("event '{name}' names its place '{d}', not '{var}'"),
                    None => format!("event '{name}' happens at no place; write '{name}:'"),
                });
            }
            self.expect_punct(")")?;
            bound.push(var);
        } else if let Some(d) = &declared {
            return self.err(format!(
                "event '{name}' happens at a place: write '{name}({d}):'"
            ));
        }
        self.expect_punct(":")?;
        let free = self.free_var_of_fact(&bound);
        if let Some(v) = &free {
            bound.push(v.clone());
        }
        self.in_event = Some(event);
        let formula = self.formula(&mut bound);
        self.in_event = None;
        let formula = formula?;
        self.expect_punct(".")?;
        rules.transitions.push(Transition {
            event,
            var: free,
            formula,
            line,
        });
        Ok(())
    }

    fn statement(&mut self, rules: &mut Rules) -> Result<(), RuleError> {
        let line = self.line();
        if self.is_word("event") {
            return self.event_declaration();
        }
        if let Some(event) = self.event_named() {
            return self.transition(event, rules);
        }
        if self.is_word("hidden") {
            self.pos += 1;
            let name = self.word("a predicate name")?;
            if self.is_punct("(") {
                self.pos += 1;
                let var = self.word("a variable")?;
                if !is_var(&var) {
                    return self.err(format!(
                        "'{var}' is not a variable (variables start with a capital)"
                    ));
                }
                self.expect_punct(")")?;
            }
            let _ = name;
            return self.expect_punct(".");
        }
        if self.is_word("percept") {
            self.pos += 1;
            let name = self.word("a predicate name")?;
            let pred = self
                .preds
                .iter()
                .position(|p| p.name == name)
                .expect("declared");
            let mut bound = Vec::new();
            let var = if self.is_punct("(") {
                self.pos += 1;
                let v = self.word("a variable")?;
                if !is_var(&v) {
                    return self.err(format!(
                        "'{v}' is not a variable (variables start with a capital)"
                    ));
                }
                self.expect_punct(")")?;
                bound.push(v.clone());
                Some(v)
            } else {
                None
            };
            let iff = if self.is_punct("<->") {
                true
            } else if self.is_punct("->") {
                false
            } else {
                return self.unexpected("'<->' or '->' after the percept");
            };
            self.pos += 1;
            let body = self.formula(&mut bound)?;
            self.expect_punct(".")?;
            if let Some(prev) = rules.percepts.iter().find(|r| r.pred == pred) {
                return Err(RuleError {
                    line,
                    message: format!(
                        "percept '{name}' already has a meaning (line {})",
                        prev.line
                    ),
                });
            }
            rules.percepts.push(PerceptRule {
                pred,
                var,
                iff,
                body,
                line,
            });
            return Ok(());
        }
        for (kw, lower, upper) in [
            ("exactly", true, true),
            ("atmost", false, true),
            ("atleast", true, false),
        ] {
            if self.is_word(kw) {
                self.pos += 1;
                let count = self.count()?;
                let var = self.word("a variable")?;
                if !is_var(&var) {
                    return self.err(format!("'{var}' is not a variable"));
                }
                self.expect_punct(":")?;
                let name = self.word("a predicate name")?;
                let pred = self.lookup(&name)?;
                if self.preds[pred].kind != PredKind::Hidden || !self.preds[pred].per_place {
                    return self.err(format!(
                        "'{kw}' counts a hidden per-place predicate; '{name}' is not one"
                    ));
                }
                self.expect_punct("(")?;
                let v2 = self.word("a variable")?;
                if v2 != var {
                    return self.err(format!("'{v2}' is not bound here (expected '{var}')"));
                }
                self.expect_punct(")")?;
                self.expect_punct(".")?;
                rules.cardinalities.push(Cardinality {
                    pred,
                    at_least: lower.then_some(count),
                    at_most: upper.then_some(count),
                    line,
                });
                return Ok(());
            }
        }
        // A fact: any free variable is universally quantified over all places.
        let mut bound = Vec::new();
        let free = self.free_var_of_fact(&[]);
        if let Some(v) = &free {
            bound.push(v.clone());
        }
        let formula = self.formula(&mut bound)?;
        self.expect_punct(".")?;
        rules.facts.push(Fact {
            var: free,
            formula,
            line,
        });
        Ok(())
    }

    /// The first variable in a fact that is not bound by a quantifier (nor in `bound`): the
    /// fact's free one.
    fn free_var_of_fact(&self, bound: &[String]) -> Option<String> {
        let mut quantified = bound.to_vec();
        let mut i = self.pos;
        while let Some((tok, _)) = self.toks.get(i) {
            match tok {
                Tok::Punct(".") => break,
                Tok::Word(w) if w == "any" || w == "all" => {
                    if let Some((Tok::Word(v), _)) = self.toks.get(i + 1) {
                        quantified.push(v.clone());
                    }
                }
                Tok::Word(w) if is_var(w) && !quantified.contains(w) => return Some(w.clone()),
                _ => {}
            }
            i += 1;
        }
        None
    }

    fn count(&mut self) -> Result<Count, RuleError> {
        match self.peek() {
            Some(Tok::Int(n)) => {
                let n = *n;
                self.pos += 1;
                Ok(Count::Fixed(n))
            }
            Some(Tok::Word(w)) if w == "places" => {
                self.pos += 1;
                self.expect_punct("/")?;
                match self.next() {
                    Some(Tok::Int(d)) if d > 0 => Ok(Count::PlacesOver(d)),
                    _ => {
                        self.pos -= 1;
                        self.unexpected("a positive whole number after 'places/'")
                    }
                }
            }
            _ => self.unexpected("a count (a number or places/N)"),
        }
    }

    fn lookup(&self, name: &str) -> Result<PredId, RuleError> {
        self.preds
            .iter()
            .position(|p| p.name == name)
            .map_or_else(|| self.err(format!("unknown predicate '{name}'")), Ok)
    }

    fn formula(&mut self, bound: &mut Vec<String>) -> Result<Formula, RuleError> {
        let left = self.disjunction(bound)?;
        if self.is_punct("->") {
            self.pos += 1;
            let right = self.disjunction(bound)?;
            return Ok(Formula::Implies(Box::new(left), Box::new(right)));
        }
        if self.is_punct("<->") {
            self.pos += 1;
            let right = self.disjunction(bound)?;
            return Ok(Formula::Iff(Box::new(left), Box::new(right)));
        }
        Ok(left)
    }

    fn disjunction(&mut self, bound: &mut Vec<String>) -> Result<Formula, RuleError> {
        let mut parts = vec![self.conjunction(bound)?];
        while self.is_punct("|") {
            self.pos += 1;
            parts.push(self.conjunction(bound)?);
        }
        Ok(if parts.len() == 1 {
            parts.pop().expect("one")
        } else {
            Formula::Or(parts)
        })
    }

    fn conjunction(&mut self, bound: &mut Vec<String>) -> Result<Formula, RuleError> {
        let mut parts = vec![self.unary(bound)?];
        while self.is_punct("&") {
            self.pos += 1;
            parts.push(self.unary(bound)?);
        }
        Ok(if parts.len() == 1 {
            parts.pop().expect("one")
        } else {
            Formula::And(parts)
        })
    }

    fn unary(&mut self, bound: &mut Vec<String>) -> Result<Formula, RuleError> {
        if self.depth >= MAX_NESTING {
            return self.err(format!(
                "the formula nests more than {MAX_NESTING} levels deep (not, parentheses, quantifiers)"
            ));
        }
        self.depth += 1;
        let result = self.unary_inner(bound);
        self.depth -= 1;
        result
    }

    fn unary_inner(&mut self, bound: &mut Vec<String>) -> Result<Formula, RuleError> {
        if self.is_word("not") {
            self.pos += 1;
            return Ok(Formula::Not(Box::new(self.unary(bound)?)));
        }
        if self.is_punct("(") {
            self.pos += 1;
            let f = self.formula(bound)?;
            self.expect_punct(")")?;
            return Ok(f);
        }
        if self.is_word("any") || self.is_word("all") {
            let all = self.is_word("all");
            self.pos += 1;
            let var = self.word("a variable")?;
            if !is_var(&var) {
                return self.err(format!("'{var}' is not a variable"));
            }
            if bound.contains(&var) {
                return self.err(format!("'{var}' is already bound"));
            }
            if !self.is_word("in") {
                return self.unexpected("'in'");
            }
            self.pos += 1;
            let (set, of) = self.neighbour_set(bound)?;
            self.expect_punct(":")?;
            bound.push(var.clone());
            let body = self.unary(bound);
            bound.pop();
            return Ok(Formula::Quant {
                all,
                var,
                set,
                of,
                body: Box::new(body?),
            });
        }
        if matches!(self.peek(), Some(Tok::Word(w)) if is_var(w) || w == "start") {
            return self.condition(bound);
        }
        let next = self.is_word("next");
        if next {
            if self.in_event.is_none() {
                return self.err(
                    "'next' speaks of the world after an event: use it only in an event's rules",
                );
            }
            self.pos += 1;
        }
        let name = self.word("a formula")?;
        if KEYWORDS.contains(&name.as_str()) {
            self.pos -= 1;
            return self.err(format!("'{name}' cannot start a formula here"));
        }
        self.pos -= 1;
        let pred = self.lookup(&name)?;
        self.pos += 1;
        if self.preds[pred].kind == PredKind::Percept {
            self.pos -= 1;
            return self.err(format!(
                "percept '{name}' cannot appear inside a formula; formulas speak of hidden predicates"
            ));
        }
        let term = if self.is_punct("(") {
            self.pos += 1;
            let t = self.term(bound)?;
            self.expect_punct(")")?;
            Some(t)
        } else {
            None
        };
        match (self.preds[pred].per_place, &term) {
            (true, None) => self.err(format!("'{name}' takes a place: write {name}(X)")),
            (false, Some(_)) => self.err(format!("'{name}' takes no place argument")),
            _ if next => {
                let event = self.in_event.expect("checked above");
                let changes = &mut self.events[event].changes;
                if !changes.contains(&pred) {
                    changes.push(pred);
                }
                Ok(Formula::Next(pred, term))
            }
            _ => Ok(Formula::Atom(pred, term)),
        }
    }

    /// `set(T)` after `in`: a neighbour set of a place.
    fn neighbour_set(&mut self, bound: &[String]) -> Result<(NeighbourSet, Term), RuleError> {
        let set = match self.word("adj, out or in")?.as_str() {
            "adj" => NeighbourSet::Adj,
            "out" => NeighbourSet::Out,
            "in" => NeighbourSet::In,
            other => {
                self.pos -= 1;
                return self.err(format!(
                    "unknown neighbour set '{other}' (expected adj, out or in)"
                ));
            }
        };
        self.expect_punct("(")?;
        let of = self.term(bound)?;
        self.expect_punct(")")?;
        Ok((set, of))
    }

    /// A condition on places: `T in set(U)` or `T = U`.
    fn condition(&mut self, bound: &[String]) -> Result<Formula, RuleError> {
        let item = self.term(bound)?;
        if self.is_word("in") {
            self.pos += 1;
            let (set, of) = self.neighbour_set(bound)?;
            return Ok(Formula::Member { item, set, of });
        }
        if self.is_punct("=") {
            self.pos += 1;
            let other = self.term(bound)?;
            return Ok(Formula::Equal(item, other));
        }
        self.pos -= 1;
        let name = self.word("a term")?;
        self.err(format!(
            "'{name}' is a place, not a formula: compare it with 'in adj(Y)' or '= Y'"
        ))
    }

    fn term(&mut self, bound: &[String]) -> Result<Term, RuleError> {
        let w = self.word("a variable or 'start'")?;
        if w == "start" {
            return Ok(Term::Start);
        }
        if !is_var(&w) {
            self.pos -= 1;
            return self.err(format!(
                "'{w}' is not a variable (variables start with a capital) or 'start'"
            ));
        }
        if !bound.contains(&w) {
            self.pos -= 1;
            return self.err(format!("variable '{w}' is not bound (unsafe)"));
        }
        Ok(Term::Var(w))
    }
}

/// The built-in rules of the grid Wumpus World (`kb/grid.kb`).
pub const GRID_RULES: &str = include_str!("../../kb/grid.kb");

/// The built-in rules of the classic cave (`kb/cave.kb`).
pub const CAVE_RULES: &str = include_str!("../../kb/cave.kb");

/// Names of the predicates in a rule set, for checking that a rule file offers what an agent
/// needs.
pub fn require(
    rules: &Rules,
    needs: &[(&str, PredKind, bool)],
) -> Result<HashMap<String, PredId>, RuleError> {
    let mut found = HashMap::new();
    for &(name, kind, per_place) in needs {
        let id = rules.predicate(name).ok_or_else(|| RuleError {
            line: 1,
            message: format!(
                "the agent needs a {} predicate '{name}{}', which the rules do not declare",
                if kind == PredKind::Hidden {
                    "hidden"
                } else {
                    "percept"
                },
                if per_place { "(X)" } else { "" }
            ),
        })?;
        let p = &rules.predicates[id];
        if p.kind != kind || p.per_place != per_place {
            return Err(RuleError {
                line: p.line,
                message: format!(
                    "'{name}' must be a {} predicate{}",
                    if kind == PredKind::Hidden {
                        "hidden"
                    } else {
                        "percept"
                    },
                    if per_place {
                        " of a place"
                    } else {
                        " without a place"
                    }
                ),
            });
        }
        found.insert(name.to_string(), id);
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cave_rules_parse() {
        let r = parse_rules(CAVE_RULES).unwrap();
        let wumpus = r.predicate("wumpus").unwrap();
        assert_eq!(r.events[r.event("wake").unwrap()].changes, [wumpus]);
        assert_eq!(r.cardinalities.len(), 3);
    }

    #[test]
    fn grid_rules_parse() {
        let r = parse_rules(GRID_RULES).unwrap();
        assert!(r.predicate("pit").is_some());
        assert!(r.percept_rule(r.predicate("breeze").unwrap()).unwrap().iff);
        assert_eq!(r.cardinalities.len(), 1);
    }

    fn error(text: &str) -> RuleError {
        parse_rules(text).unwrap_err()
    }

    #[test]
    fn errors_name_line_and_reason() {
        let e = error("hidden pit(X).\n\nnot pt(start).\n");
        assert_eq!(e.line, 3);
        assert!(e.message.contains("unknown predicate 'pt'"), "{e}");
        let e = error("hidden pit(X).\nnot pit.\n");
        assert!(e.message.contains("takes a place"), "{e}");
        let e = error("hidden dead.\nnot dead(start).\n");
        assert!(e.message.contains("no place"), "{e}");
        let e = error("hidden pit(X).\npercept b(X) <-> pit(Y).\n");
        assert!(e.message.contains("not bound"), "{e}");
        assert_eq!(e.line, 2);
        let e = error("hidden pit(X).\npercept b(X) <-> b(X).\n");
        assert!(e.message.contains("cannot appear inside"), "{e}");
        let e = error("hidden pit(X).\npercept b(X).\n");
        assert!(e.message.contains("'<->' or '->'"), "{e}");
        let e = error("hidden pit(X).\nhidden pit(X).\n");
        assert!(e.message.contains("declared twice"), "{e}");
        let e = error("hidden pit(X).\nexactly 1 X: pit(Y).\n");
        assert!(e.message.contains("not bound"), "{e}");
        let e = error("hidden pit(X).\nnot pit(start)\n");
        assert!(e.message.contains("expected '.'"), "{e}");
        let e = error("hidden pit(X).\nnot pit(start) $ .\n");
        assert!(e.message.contains("unexpected character"), "{e}");
        let e = error("hidden pit(X).\nany N in near(start): pit(N).\n");
        assert!(e.message.contains("neighbour set"), "{e}");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        // Found by tests/parser_fuzz.rs's reasoning: 200,000 nested `not`s or parentheses
        // overflowed the parser's stack and aborted the program.
        let nots = format!("hidden pit(X).\n{}pit(start).\n", "not ".repeat(200_000));
        let e = error(&nots);
        assert_eq!(e.line, 2);
        assert!(e.message.contains("nests more than"), "{e}");
        let parens = format!(
            "hidden pit(X).\n\n{}pit(start){}.\n",
            "(".repeat(200_000),
            ")".repeat(200_000)
        );
        assert_eq!(error(&parens).line, 3);
        // Up to the limit is fine.
        let ok = format!(
            "hidden pit(X).\n{}pit(start).\n",
            "not ".repeat(MAX_NESTING - 1)
        );
        assert!(parse_rules(&ok).is_ok());
    }

    #[test]
    fn every_kind_of_bad_rule_names_its_line() {
        // (file, line, words the message must hold): the cases errors_name_line_and_reason
        // leaves out, one per check the parser makes.
        let cases = [
            ("hidden a(X).\npercept p(X) <-> any N in adj(Y): a(N).\n", 2, "'Y' is not bound (unsafe)"),
            ("hidden a(X).\nnot a(X) & any X in adj(X): a(X).\n", 2, "'X' is already bound"),
            ("hidden a(X).\n\npercept p(X).\n", 3, "'<->' or '->'"),
            ("hidden a(X).\npercept p(X) -> a(X).\npercept p(X) -> a(X).\n", 3, "declared twice (first on line 2)"),
            ("hidden a(X).\npercept p(X) -> a(X).\nexactly 1 X: p(X).\n", 3, "counts a hidden per-place"),
            ("hidden a.\nexactly 1 X: a(X).\n", 2, "counts a hidden per-place"),
            ("hidden a(X).\nhidden b(X).\npercept q(X) -> a(X).\npercept r(X).\n", 4, "'<->' or '->'"),
            ("hidden a(X).\npercept lonely(X).\n", 2, "'<->' or '->'"),
            ("hidden a(X).\n\n\npercept lonely(X)", 4, "'<->' or '->'"),
            ("hidden a(X).\nhidden b(X).\n\npercept q(X) -> a(X).\npercept never(X) -> b(X).\npercept z(X) <-> a(X).\n", 0, ""),
            ("hidden not(X).\n", 1, "cannot name a predicate"),
            ("hidden Pit(X).\n", 1, "cannot name a predicate"),
            ("hidden a(x).\n", 1, "not a variable"),
            ("hidden a(X).\nexactly places/0 X: a(X).\n", 2, "positive whole number"),
            ("hidden a(X).\nX.\n", 2, "is a place, not a formula"),
            ("hidden a(X).\na(X) & a(Y).\n", 2, "'Y' is not bound (unsafe)"),
            ("hidden a(X).\nnot a(start) a(start).\n", 2, "expected '.'"),
            ("hidden a(X).\nexactly 99999999999999999999999 X: a(X).\n", 2, "too large"),
            ("hidden a(X).\nnot a(start)", 2, "expected '.', found the end"),
            ("hidden a(X).\nexactly 1 X: b(X).\n", 2, "unknown predicate 'b'"),
            ("hidden a(X).\npercept p(X) -> a(X, X).\n", 2, "expected ')'"),
        ];
        for (text, line, words) in cases {
            match parse_rules(text) {
                Ok(_) => assert_eq!(line, 0, "{text:?} parsed"),
                Err(e) => {
                    assert_eq!(e.line, line, "{text:?}: {e}");
                    assert!(e.message.contains(words), "{text:?}: {e}");
                }
            }
        }
    }

    #[test]
    fn facts_with_a_free_variable_are_schemas() {
        let r = parse_rules("hidden a(X).\nhidden b(X).\nnot (a(X) & b(X)).\n").unwrap();
        assert_eq!(r.facts[0].var.as_deref(), Some("X"));
        let r = parse_rules("hidden a(X).\nany N in adj(start): a(N).\n").unwrap();
        assert_eq!(r.facts[0].var, None);
    }

    #[test]
    fn counts() {
        let r =
            parse_rules("hidden w(X).\natleast 1 X: w(X).\natmost places/4 X: w(X).\n").unwrap();
        assert_eq!(r.cardinalities[1].at_most, Some(Count::PlacesOver(4)));
        assert_eq!(Count::PlacesOver(4).value(20), 5);
    }

    #[test]
    fn events_and_their_rules() {
        let r = parse_rules(
            "hidden w(X).\nhidden pit(X).\nevent wake.\nevent blast(B).\n\
             wake: next w(X) -> w(X) | any N in in(X): w(N).\n\
             blast(B): w(X) & not X in out(B) & not X = B -> next w(X).\n\
             blast(B): not (next w(X) & pit(X)).\n",
        )
        .unwrap();
        assert_eq!(r.events.len(), 2);
        let w = r.predicate("w").unwrap();
        assert_eq!(r.events[0].changes, [w]);
        assert_eq!(r.events[1].param.as_deref(), Some("B"));
        assert_eq!(r.transitions.len(), 3);
        assert_eq!(r.transitions[1].var.as_deref(), Some("X"));
        assert!(r.changes(w) && !r.changes(r.predicate("pit").unwrap()));
        assert_eq!(r.event("blast"), Some(1));
    }

    #[test]
    fn event_errors_name_line_and_reason() {
        let e = error("hidden w(X).\nnext w(start).\n");
        assert!(e.message.contains("only in an event's rules"), "{e}");
        let e = error("hidden w(X).\nevent wake.\nwake: w(start).\n");
        assert!(e.message.contains("changes nothing"), "{e}");
        let e = error("hidden w(X).\nevent w.\n");
        assert!(e.message.contains("both an event and a predicate"), "{e}");
        let e = error("hidden w(X).\nevent wake.\nevent wake.\n");
        assert!(e.message.contains("declared twice"), "{e}");
        let e = error("hidden w(X).\nevent blast(B).\nblast: next w(start).\n");
        assert!(e.message.contains("happens at a place"), "{e}");
        let e = error("hidden w(X).\nevent wake.\nwake(B): next w(B).\n");
        assert!(e.message.contains("at no place"), "{e}");
        let e = error("hidden w(X).\nw(X) -> X.\n");
        assert!(e.message.contains("is a place, not a formula"), "{e}");
        assert_eq!(e.line, 2);
        let e = error("hidden w(X).\nw(X) -> X = Y.\n");
        assert!(e.message.contains("not bound"), "{e}");
    }

    #[test]
    fn require_checks_kind_and_arity() {
        let r = parse_rules(GRID_RULES).unwrap();
        assert!(require(&r, &[("pit", PredKind::Hidden, true)]).is_ok());
        assert!(require(&r, &[("pit", PredKind::Percept, true)]).is_err());
        assert!(require(&r, &[("gold", PredKind::Hidden, true)]).is_err());
    }
}
