//! The one table from a rule set to its types ([`for_rules`]): the only place in the library's
//! front that names each rule set's session, so that a command written once over [`Playable`]
//! runs for every rule set, and a rule set's facts and agents are read through it.
//!
//! A new rule set is its own module (its session, with its [`RuleFacts`]), its agents' roster,
//! an `impl Playable` that sets it up from a [`GameSpec`] (in `setups.rs`), and one line here.

use super::{GameSpec, SpecError};
use crate::agent::{AgentKind, Roster};
use crate::cave::{ClassicSession, MazeSession};
use crate::game::{Files, RuleFacts, RuleSet, Words};
use crate::grid::{AimaSession, GridSession};
use crate::numbered::Numbered;

/// A rule set every door can play: its sessions (rules, files and words), its actions and
/// observations by number, its agents, and how a [`GameSpec`] sets up its games.
pub trait Playable: Roster + Files + Words + Numbered {
    /// The setup of the games `spec` describes: `spec` is resolved (every option at its value,
    /// [`GameSpec::resolved`]) and checked.
    fn setup_of(spec: &GameSpec) -> Result<Self::Setup, SpecError>;
}

/// Code written once for every rule set, run for one by [`for_rules`].
pub trait ForRules {
    /// What it returns.
    type Out;
    /// Runs it for rule set `S`.
    fn run<S: Playable>(self) -> Self::Out;
}

/// Runs `code` for the rule set `rules`: the one table from a rule set to its session type.
pub fn for_rules<C: ForRules>(rules: RuleSet, code: C) -> C::Out {
    match rules {
        RuleSet::Grid => code.run::<GridSession>(),
        RuleSet::Aima => code.run::<AimaSession>(),
        RuleSet::Cave => code.run::<ClassicSession>(),
        RuleSet::Maze => code.run::<MazeSession>(),
    }
}

/// What every game of `rules` shares ([`crate::game::Session::FACTS`]).
pub fn facts(rules: RuleSet) -> &'static RuleFacts {
    struct Facts;
    impl ForRules for Facts {
        type Out = &'static RuleFacts;
        fn run<S: Playable>(self) -> &'static RuleFacts {
            S::FACTS
        }
    }
    for_rules(rules, Facts)
}

/// The agents of `rules`, its default first.
pub fn agents_of(rules: RuleSet) -> &'static [AgentKind] {
    struct Agents;
    impl ForRules for Agents {
        type Out = &'static [AgentKind];
        fn run<S: Playable>(self) -> &'static [AgentKind] {
            S::AGENTS
        }
    }
    for_rules(rules, Agents)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_set_is_found_at_its_own_types() {
        struct Named;
        impl ForRules for Named {
            type Out = RuleSet;
            fn run<S: Playable>(self) -> RuleSet {
                S::RULES
            }
        }
        for rules in RuleSet::ALL {
            assert_eq!(for_rules(rules, Named), rules);
        }
        assert!(facts(RuleSet::Grid).on_grid && !facts(RuleSet::Maze).scored);
    }
}
