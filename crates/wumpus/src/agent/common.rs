//! What every agent shares: how much it explains ([`Insight`]), how it looks up the
//! predicates of its rules (`Vocabulary`), how it writes a chance for people ([`percent`]),
//! and how it walks the cells of a bit set (`bits`).
//!
//! It must never hold anything of one rule set: an agent's own names and numbers stay in its
//! module, and sibling agents meet here rather than importing each other.

use crate::kb::rules::{require, EventId, PredKind, Rules};
use crate::kb::KbError;

/// How much an agent works out each turn beyond what it needs to decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Insight {
    /// Only what decisions need (safe places, the wumpus when shooting matters): fastest.
    Decisions,
    /// Also every provable hazard, with the observations behind each conclusion: for
    /// `trace` and `hint`.
    Explained,
}

impl Insight {
    /// [`Insight::Explained`] when explanations are asked for, else [`Insight::Decisions`].
    pub fn of(explain: bool) -> Insight {
        if explain {
            Insight::Explained
        } else {
            Insight::Decisions
        }
    }
}

/// The predicates (hidden ones, then percepts) and the event of an agent's rules that the
/// agent names, looked up once by name: `H` hidden predicates, `P` percepts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vocabulary<const H: usize, const P: usize> {
    /// The hidden predicates, in the order asked for.
    pub hidden: [usize; H],
    /// The percept predicates, in the order asked for.
    pub percepts: [usize; P],
    /// The event asked for, if one was.
    pub event: Option<EventId>,
}

impl<const H: usize, const P: usize> Vocabulary<H, P> {
    /// Looks up `hidden`, `percepts` and `event` in `rules`; a missing one is reported through
    /// `missing` (each agent names the error its callers expect).
    pub(crate) fn of(
        rules: &Rules,
        hidden: [&str; H],
        percepts: [&str; P],
        event: Option<&str>,
        missing: fn(String) -> KbError,
    ) -> Result<Self, KbError> {
        let wanted: Vec<(&str, PredKind, bool)> = hidden
            .iter()
            .map(|&name| (name, PredKind::Hidden, true))
            .chain(percepts.iter().map(|&name| (name, PredKind::Percept, true)))
            .collect();
        let found = require(rules, &wanted).map_err(|e| missing(e.message))?;
        let event = match event {
            None => None,
            Some(name) => Some(
                rules
                    .event(name)
                    .ok_or_else(|| missing(format!("the event '{name}'")))?,
            ),
        };
        Ok(Vocabulary {
            hidden: hidden.map(|name| found[name]),
            percepts: percepts.map(|name| found[name]),
            event,
        })
    }
}

/// A chance for people: `0%`, `<1%`, `37%`, `>99%`, `100%`.
pub fn percent(p: f64) -> String {
    if p <= 0.0 {
        "0%".to_string()
    } else if p >= 1.0 {
        "100%".to_string()
    } else if p < 0.005 {
        "<1%".to_string()
    } else if p > 0.995 {
        ">99%".to_string()
    } else {
        format!("{:.0}%", p * 100.0)
    }
}
/// The cells of a bit set, lowest first (a set of up to 64 cells; smaller sets widen into it).
pub(crate) fn bits(set: impl Into<u64>) -> impl Iterator<Item = usize> {
    let mut set: u64 = set.into();
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}
