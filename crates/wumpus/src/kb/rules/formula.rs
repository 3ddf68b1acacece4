//! The grammar of formulas: implication and equivalence over disjunctions, conjunctions,
//! `not`, parentheses, neighbour sets (`any N in adj(X): ...`), conditions on places and
//! atoms, with the variables each may use.
//!
//! A formula must never use a variable that nothing binds, nor nest deeper than
//! `MAX_NESTING`.

use super::ast::{Formula, NeighbourSet, PredKind, Term};
use super::lexer::{is_var, Tok, KEYWORDS};
use super::parser::{Parser, MAX_NESTING};
use super::RuleError;

impl Parser {
    pub(super) fn formula(&mut self, bound: &mut Vec<String>) -> Result<Formula, RuleError> {
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

    pub(super) fn disjunction(&mut self, bound: &mut Vec<String>) -> Result<Formula, RuleError> {
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

    pub(super) fn conjunction(&mut self, bound: &mut Vec<String>) -> Result<Formula, RuleError> {
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

    pub(super) fn unary(&mut self, bound: &mut Vec<String>) -> Result<Formula, RuleError> {
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

    pub(super) fn unary_inner(&mut self, bound: &mut Vec<String>) -> Result<Formula, RuleError> {
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
    pub(super) fn neighbour_set(
        &mut self,
        bound: &[String],
    ) -> Result<(NeighbourSet, Term), RuleError> {
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
    pub(super) fn condition(&mut self, bound: &[String]) -> Result<Formula, RuleError> {
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

    pub(super) fn term(&mut self, bound: &[String]) -> Result<Term, RuleError> {
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
