//! The library's description of itself ([`catalogue`]): the rule sets, the options each
//! takes with their defaults, and the agents each offers. The live page builds its form and
//! menus from it, Python its spaces and keywords, the command line its help; it is served as
//! JSON (`GET /api/catalogue`) and printed by `wumpus catalogue`.

use super::options::{OptionInfo, OPTIONS};
use super::{agents_of, facts};
use crate::agent::AgentKind;
use crate::game::RuleSet;
use serde::Serialize;

/// The rule sets, their options and their agents.
#[derive(Serialize)]
pub struct Catalogue {
    /// Every rule set, the default first.
    pub rules: Vec<RuleInfo>,
    /// Every option but the rule set, in the command line's order.
    pub options: &'static [OptionInfo],
    /// Every agent.
    pub agents: Vec<AgentInfo>,
}

/// One rule set.
#[derive(Serialize)]
pub struct RuleInfo {
    /// Its name: `grid`, `aima`, `cave`, `maze`.
    pub name: &'static str,
    /// What it is, in a few words.
    pub title: &'static str,
    /// What it is, in a sentence.
    pub summary: &'static str,
    /// What the player must do.
    pub goal: &'static str,
    /// How a player gives actions: `compass` (north, east, south, west), `heading` (forward,
    /// turn left, turn right), `rooms` (a room by number) or `tunnels` (a tunnel by number).
    pub input: &'static str,
    /// What a shot is called, one and many.
    pub shot: [&'static str; 2],
    /// True when the rule set keeps a score.
    pub scored: bool,
    /// What a learner is paid a point of score, by default.
    pub reward_scale: f64,
    /// What a game's file holds: `world` (the whole world) or `hazards` (on a map).
    pub file: &'static str,
    /// Its agents, the default first.
    pub agents: Vec<&'static str>,
    /// The options it takes, each with its default here (`None`: not set, or the built-in
    /// file).
    pub options: Vec<OptionDefault>,
}

/// An option a rule set takes, with its default there.
#[derive(Serialize)]
pub struct OptionDefault {
    /// The option's name.
    pub name: &'static str,
    /// Its default, in words a form can show.
    pub default: Option<&'static str>,
}

/// One agent.
#[derive(Serialize)]
pub struct AgentInfo {
    /// Its name.
    pub name: &'static str,
    /// What it does.
    pub help: &'static str,
}

/// What a game file of `rules` holds, as the file is called: `world` (the grid's whole world)
/// or `hazards` (a cave's, on a map).
pub fn file_of(rules: RuleSet) -> &'static str {
    facts(rules).file
}

/// The catalogue of this library.
pub fn catalogue() -> Catalogue {
    let rules = RuleSet::ALL
        .into_iter()
        .map(|r| {
            let f = facts(r);
            RuleInfo {
                name: r.name(),
                title: f.title,
                summary: f.summary,
                goal: f.goal,
                input: f.input,
                shot: f.shot,
                scored: f.scored,
                reward_scale: f.learner_scale,
                file: f.file,
                agents: agents_of(r).iter().map(|a| a.name()).collect(),
                options: OPTIONS
                    .iter()
                    .filter(|o| o.fits(r))
                    .map(|o| OptionDefault {
                        name: o.name,
                        default: (o.default)(r),
                    })
                    .collect(),
            }
        })
        .collect();
    Catalogue {
        rules,
        options: &OPTIONS,
        agents: AgentKind::ALL
            .into_iter()
            .map(|a| AgentInfo {
                name: a.name(),
                help: a.help(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_lists_every_rule_set_agent_and_option() {
        let c = catalogue();
        assert_eq!(c.rules.len(), RuleSet::ALL.len());
        let json = serde_json::to_value(&c).unwrap();
        let grid = &json["rules"][0];
        assert_eq!(grid["name"], "grid");
        assert_eq!(
            grid["agents"],
            serde_json::json!(["risk", "logic", "optimal", "random"])
        );
        let size = grid["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "size")
            .unwrap();
        assert_eq!(size["default"], "5x5");
        let depth = json["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "depth")
            .unwrap();
        assert_eq!(depth["kind"], "count");
        assert_eq!(depth["max"], 6);
        assert_eq!(depth["rules"], serde_json::json!(["grid", "aima", "cave"]));
    }
}
