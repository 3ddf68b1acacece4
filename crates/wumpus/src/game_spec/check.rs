//! The refusals of a game's description ([`GameSpec::check`]): an option its rule set does
//! not take, a value out of its limits, an agent that does not play the rule set, and the
//! combinations that do not fit, one message each, its options marked so that each door
//! spells them as its users write them.

use super::{agents_of, and_list, option, DoorOption, GameSpec, GridSizes, SpecError, OPTIONS};
use crate::agent::AgentKind;
use crate::cave::classic::Variant;
use crate::game::RuleSet;
use crate::grid::Deal;

impl GameSpec {
    /// Refuses every option given that the rule set does not take, and every value or agent
    /// that does not fit the others.
    pub fn check(&self) -> Result<(), SpecError> {
        self.check_with(&[])
    }

    /// [`GameSpec::check`], with a door's own options checked and listed beside the spec's.
    pub fn check_with(&self, door: &[DoorOption<'_>]) -> Result<(), SpecError> {
        self.check_game_with(door)?;
        self.check_agent()
    }

    /// [`GameSpec::check_with`] but for the agent: what a door that plays without one (a
    /// person playing, hints optional) checks. The agent is checked when it is prepared
    /// ([`super::Prepared::agents`]).
    pub fn check_game_with(&self, door: &[DoorOption<'_>]) -> Result<(), SpecError> {
        let rules = self.rules;
        let mut all: Vec<(&str, bool, bool)> = OPTIONS
            .iter()
            .map(|o| (o.name, (o.get)(self).is_some(), o.fits(rules)))
            .collect();
        all.extend(door.iter().map(|d| (d.name, d.given, (d.fits)(rules))));
        let refused: Vec<String> = all
            .iter()
            .filter(|(_, given, fits)| *given && !fits)
            .map(|(n, _, _)| format!("{{{n}}}"))
            .collect();
        if !refused.is_empty() {
            let fitting: Vec<String> = all
                .iter()
                .filter(|(_, _, fits)| *fits)
                .map(|(n, _, _)| format!("{{{n}}}"))
                .collect();
            let (what, verb) = if refused.len() == 1 {
                ("option", "does")
            } else {
                ("options", "do")
            };
            return Err(SpecError::refused(format!(
                "the {what} {} {verb} not apply to {} ({{rules={}}}); its options are {}",
                refused.join(", "),
                super::facts(rules).title,
                rules.name(),
                fitting.join(", ")
            )));
        }
        if self.size.is_some() && self.deal == Some(Deal::Course) {
            return Err(SpecError::refused(
                "the course's deal ({deal=course}) draws its own sizes: give {size} or {deal}, \
                 not both",
            ));
        }
        let most = self.limits.max_side;
        if let Some(size) = self
            .size
            .filter(|s| s.largest().0.max(s.largest().1) > most)
        {
            return Err(SpecError::refused(format!(
                "{{size}}: {size} is larger than this door plays ({most}x{most} at most)"
            )));
        }
        Ok(())
    }

    /// Refuses an agent that does not play the rule set, or options it cannot take.
    pub fn check_agent(&self) -> Result<(), SpecError> {
        let (rules, kind) = (self.rules, self.agent_kind());
        let agents = agents_of(rules);
        if !agents.contains(&kind) {
            let names: Vec<String> = agents.iter().map(|a| a.name().to_string()).collect();
            return Err(SpecError::refused(format!(
                "the {kind} agent does not play {} ({{rules={}}}); its agents are {}",
                super::facts(rules).title,
                rules.name(),
                and_list(&names)
            )));
        }
        if let (AgentKind::Optimal, Some(GridSizes::One(rows, cols))) =
            (kind, self.size_or_default())
        {
            let most = self.limits.max_optimal_cells;
            if rows * cols > most && most < crate::agent::optimal::MAX_CELLS {
                return Err(SpecError::refused(format!(
                    "here the optimal agent plays grids of at most {most} cells ({rows}x{cols} \
                     has {}): a larger one takes a minute and GBs to solve; give {{size}} \
                     3x4 or smaller, or play it from the command line",
                    rows * cols
                )));
            }
        }
        let map_known = self.map_known.unwrap_or(false);
        let deep = self.depth.is_some_and(|d| d > 1);
        let refusal = match (rules, kind) {
            (RuleSet::Grid | RuleSet::Aima, AgentKind::Optimal)
                if matches!(self.size, Some(GridSizes::Range(_)))
                    || self.deal == Some(Deal::Course) =>
            {
                Some(
                    "the optimal agent solves one grid size exactly: give {size} one size, not \
                     a range or the course's deal",
                )
            }
            (RuleSet::Cave, AgentKind::Logic) if self.variant == Some(Variant::Yob) => Some(
                "the logic agent plays the tournament rules ({variant=event}); use \
                 {agent=random} for {variant=yob}",
            ),
            (RuleSet::Cave, AgentKind::Logic) if deep && !map_known => Some(
                "in the classic cave the look-ahead ({depth}) needs the map ({map_known}): \
                 where a room's tunnels are unknown, what may be felt there is not weighed",
            ),
            (RuleSet::Cave, AgentKind::Logic) if self.rollouts.is_some() && !map_known => Some(
                "rollouts ({rollouts}) need the map ({map_known}): what lies behind tunnels \
                 not yet seen cannot be drawn",
            ),
            (RuleSet::Cave, AgentKind::Random) if self.rollouts.is_some() => Some(
                "the random player does not weigh its choices: {rollouts} is for the logic \
                 agent",
            ),
            (RuleSet::Cave, AgentKind::Random) if self.depth.is_some() => {
                Some("the random player does not look ahead: {depth} is for the logic agent")
            }
            (RuleSet::Grid | RuleSet::Aima, AgentKind::Random)
                if self.depth.is_some() || self.kb.is_some() =>
            {
                Some("the random player does not reason: {depth} and {kb} are for the risk agent")
            }
            (RuleSet::Grid, AgentKind::Optimal) if self.depth.is_some() || self.kb.is_some() => {
                Some(
                    "the optimal agent plays the exact policy of the grid's own rules: {depth} \
                     and {kb} are for the risk agent",
                )
            }
            (RuleSet::Grid | RuleSet::Aima, AgentKind::Logic) if self.depth.is_some() => Some(
                "the logic agent steps only where it proved safe and never weighs a risk: \
                 {depth} is for the risk agent",
            ),
            _ => None,
        };
        match refusal {
            Some(r) => Err(SpecError::refused(r)),
            None => Ok(()),
        }
    }

    /// The grid's size or sizes, given or the option table's default; `None` off the grid.
    fn size_or_default(&self) -> Option<GridSizes> {
        let size = option("size").expect("an option");
        if !size.fits(self.rules) {
            return None;
        }
        self.size
            .or_else(|| (size.default)(self.rules).and_then(|d| GridSizes::parse(d).ok()))
    }
}
