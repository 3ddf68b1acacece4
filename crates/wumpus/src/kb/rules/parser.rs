//! The rule language's parser: declarations first (so formulas may mention predicates
//! declared further down), then each statement, checked as it is read.
//!
//! Every error carries its line; the parser must never panic or overflow its stack, whatever
//! the text (formulas nest at most [`MAX_NESTING`] deep). The formulas' grammar is in
//! `formula.rs`.

use super::ast::{
    Cardinality, Count, EventDecl, EventId, Fact, PerceptRule, PredId, PredKind, Predicate, Rules,
    Transition,
};
use super::lexer::{is_var, lex, Tok, KEYWORDS};
use super::RuleError;

/// How deeply formulas may nest (`not`, parentheses, quantifiers). Real rules nest a few
/// levels; the limit turns a pathological file into an error instead of a stack overflow in
/// the parser or the grounder, which both recurse over the formula.
pub const MAX_NESTING: usize = 64;

pub(super) struct Parser {
    pub(super) toks: Vec<(Tok, usize)>,
    pub(super) pos: usize,
    pub(super) last_line: usize,
    pub(super) preds: Vec<Predicate>,
    pub(super) depth: usize,
    pub(super) events: Vec<EventDecl>,
    /// The event whose rule is being parsed (`next` is allowed only there).
    pub(super) in_event: Option<EventId>,
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
    // Bounded before anything is grounded: a rule whose quantifiers nest so that grounding it
    // would build millions of clauses is refused on its line.
    if let Some((line, message)) = rules.too_large(super::ast::READ_DEGREE) {
        return Err(RuleError { line, message });
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
    pub(super) fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }

    pub(super) fn line(&self) -> usize {
        self.toks
            .get(self.pos)
            .map(|t| t.1)
            .unwrap_or(self.last_line)
    }

    pub(super) fn err<T>(&self, message: impl Into<String>) -> Result<T, RuleError> {
        Err(RuleError {
            line: self.line(),
            message: message.into(),
        })
    }

    pub(super) fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).map(|t| t.0.clone());
        self.pos += 1;
        t
    }

    pub(super) fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(q)) if *q == p)
    }

    pub(super) fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(v)) if v == w)
    }

    pub(super) fn expect_punct(&mut self, p: &'static str) -> Result<(), RuleError> {
        if self.is_punct(p) {
            self.pos += 1;
            Ok(())
        } else {
            self.unexpected(&format!("'{p}'"))
        }
    }

    pub(super) fn unexpected<T>(&self, wanted: &str) -> Result<T, RuleError> {
        match self.peek() {
            Some(t) => self.err(format!("expected {wanted}, found {t}")),
            None => self.err(format!("expected {wanted}, found the end of the file")),
        }
    }

    pub(super) fn word(&mut self, wanted: &str) -> Result<String, RuleError> {
        match self.peek() {
            Some(Tok::Word(w)) => {
                let w = w.clone();
                self.pos += 1;
                Ok(w)
            }
            _ => self.unexpected(wanted),
        }
    }

    pub(super) fn collect_declarations(&mut self) -> Result<(), RuleError> {
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
    pub(super) fn event_named(&self) -> Option<EventId> {
        match self.peek() {
            Some(Tok::Word(w)) => self.events.iter().position(|e| &e.name == w),
            _ => None,
        }
    }

    /// `event NAME.` or `event NAME(V).` (already collected; checked here).
    pub(super) fn event_declaration(&mut self) -> Result<(), RuleError> {
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
    pub(super) fn transition(
        &mut self,
        event: EventId,
        rules: &mut Rules,
    ) -> Result<(), RuleError> {
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

    pub(super) fn statement(&mut self, rules: &mut Rules) -> Result<(), RuleError> {
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
    pub(super) fn free_var_of_fact(&self, bound: &[String]) -> Option<String> {
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

    pub(super) fn count(&mut self) -> Result<Count, RuleError> {
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

    pub(super) fn lookup(&self, name: &str) -> Result<PredId, RuleError> {
        self.preds
            .iter()
            .position(|p| p.name == name)
            .map_or_else(|| self.err(format!("unknown predicate '{name}'")), Ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_file_is_bounded_as_a_whole_not_rule_by_rule() {
        // One rule of some 256 clauses a place is allowed; a hundred copies of it are not.
        let rule =
            "all N in adj(X): all M in adj(N): all K in adj(M): all L in adj(K): a(L) | b(X).\n";
        let one = format!("hidden a(X).\nhidden b(X).\n{rule}");
        assert!(parse_rules(&one).is_ok());
        let many = format!("hidden a(X).\nhidden b(X).\n{}", rule.repeat(100));
        let e = error(&many);
        assert!(e.message.contains("a whole rule file"), "{e}");
        assert!(
            e.line > 3 && e.line < 102,
            "the rule that crosses the bound: {e}"
        );
        // The built-in rules are well within.
        for text in [
            include_str!("../../../../../kb/grid.kb"),
            include_str!("../../../../../kb/cave.kb"),
            include_str!("../../../../../kb/maze.kb"),
            include_str!("../../../../../kb/maze-seen.kb"),
        ] {
            parse_rules(text).unwrap();
        }
    }
}
