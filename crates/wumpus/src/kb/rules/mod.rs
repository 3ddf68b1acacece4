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
//!
//! The files: `ast.rs` (the syntax tree, [`Rules`]), `lexer.rs` (tokens), `parser.rs`
//! ([`parse_rules`] and the statements), `formula.rs` (the grammar of formulas), `builtin.rs`
//! (the built-in rules and [`require`]).

mod ast;
mod builtin;
mod formula;
mod lexer;
mod parser;

pub use ast::{
    Cardinality, Count, EventDecl, EventId, Fact, Formula, NeighbourSet, PerceptRule, PredId,
    PredKind, Predicate, Rules, Term, Transition,
};
pub use builtin::{require, CAVE_RULES, GRID_RULES};
pub use parser::{parse_rules, MAX_NESTING};

use crate::files::LineError;

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
