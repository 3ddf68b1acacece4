//! The rules the game ships with (`kb/grid.kb`, `kb/cave.kb`), and [`require`], which checks
//! that a rule set offers the predicates an agent needs.
//!
//! The built-in rules are text like any user's file, parsed by the same parser: nothing here
//! may build a `Rules` by hand.

use std::collections::HashMap;

use super::ast::{PredId, PredKind, Rules};
use super::RuleError;

/// The built-in rules of the grid Wumpus World (`kb/grid.kb`).
pub const GRID_RULES: &str = include_str!("../../../../../kb/grid.kb");

/// The built-in rules of the classic cave (`kb/cave.kb`).
pub const CAVE_RULES: &str = include_str!("../../../../../kb/cave.kb");

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
    use super::super::parse_rules;
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

    #[test]
    fn require_checks_kind_and_arity() {
        let r = parse_rules(GRID_RULES).unwrap();
        assert!(require(&r, &[("pit", PredKind::Hidden, true)]).is_ok());
        assert!(require(&r, &[("pit", PredKind::Percept, true)]).is_err());
        assert!(require(&r, &[("gold", PredKind::Hidden, true)]).is_err());
    }
}
