//! The grid agent under the textbook's rules (`--rules aima`): [`HeadedAgent`] decides in
//! compass steps and shots, planned with turns counted ([`GridAgent::headed`]), and carries
//! each out in the textbook's actions, the quarter turns first, telling the agent each turn.
//!
//! It must never decide anything the grid agent did not: it only translates compass
//! decisions into turns and `forward`, and what it is shown back into compass observations.

use super::GridAgent;
use crate::agent::{Agent, AgentError, Conclusion, Decision, Knowledge};
use crate::grid::{Action, AimaSession, AimaShown, GridSession, HeadedAction};
use crate::kb::KnowledgeBase;
use crate::topology::Direction;

/// A grid agent playing the textbook's rules, facing east at the start.
pub struct HeadedAgent {
    grid: GridAgent,
    facing: Direction,
}

impl HeadedAgent {
    /// `grid` playing with a heading, within the textbook's score floor.
    pub fn new(grid: GridAgent) -> HeadedAgent {
        let facing = Direction::East;
        HeadedAgent {
            grid: grid
                .headed(facing)
                .with_action_budget(crate::grid::aima::SCORE_FLOOR.unsigned_abs() as u32),
            facing,
        }
    }
}

impl Agent<AimaSession> for HeadedAgent {
    fn observe(
        &mut self,
        last: Option<&HeadedAction>,
        shown: &AimaShown,
    ) -> Result<Vec<Conclusion>, AgentError> {
        let compass = last.map(|a| a.compass(self.facing));
        if compass == Some(None) {
            self.facing = shown.facing;
            self.grid.turned(shown.facing);
            return Ok(Vec::new());
        }
        Ok(self
            .grid
            .observe_percepts(compass.flatten(), &shown.turn.percepts)?)
    }

    fn decide(&mut self) -> Decision<HeadedAction> {
        carried_out(Agent::<GridSession>::decide(&mut self.grid), self.facing)
    }

    fn knowledge(&mut self) -> Knowledge {
        Agent::<GridSession>::knowledge(&mut self.grid)
    }

    fn proofs(&mut self) -> Knowledge {
        Agent::<GridSession>::proofs(&mut self.grid)
    }

    fn solver_calls(&self) -> u64 {
        Agent::<GridSession>::solver_calls(&self.grid)
    }

    fn knowledge_base(&self) -> Option<&KnowledgeBase> {
        Agent::<GridSession>::knowledge_base(&self.grid)
    }

    fn places_on(&self) -> Option<std::sync::Arc<crate::topology::Topology>> {
        Agent::<GridSession>::places_on(&self.grid)
    }
}

/// A compass agent's decision carried out by a player facing `facing`: its first textbook
/// action, the reason naming the turns before the step or shot.
pub(crate) fn carried_out(d: Decision<Action>, facing: Direction) -> Decision<HeadedAction> {
    let actions = HeadedAction::carrying_out(d.action, facing);
    let words: Vec<&str> = actions.iter().map(|a| a.words()).collect();
    let mut reason = d.reason;
    reason.text = format!("{}: {}", words.join(", then "), reason.text);
    Decision {
        action: actions[0],
        reason,
        choices: d.choices,
        depth: d.depth,
    }
}
