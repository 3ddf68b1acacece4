//! The grid agent through the one interface: [`GridAgent`] is an [`Agent`] of the grid with
//! compass moves, and puts what its priorities chose in the one [`Decision`], with the
//! choices it weighed in a player's words when explanations are on.
//!
//! It must never be handed anything but the agent's own last action and what the game showed.

use super::odds::death_chance;
use super::GridAgent;
use crate::agent::{Agent, AgentError, Choice, Conclusion, Decision, Insight, Knowledge, Rule};
use crate::grid::{Action, GridSession, Turn};
use crate::kb::KnowledgeBase;

impl Agent<GridSession> for GridAgent {
    fn observe(
        &mut self,
        last: Option<&Action>,
        shown: &Turn,
    ) -> Result<Vec<Conclusion>, AgentError> {
        Ok(self.observe_percepts(last.copied(), &shown.percepts)?)
    }

    fn decide(&mut self) -> Decision<Action> {
        let d = self.chosen();
        let mut choices = Vec::new();
        if let (Insight::Explained, Some(odds)) = (self.settings.insight, &d.odds) {
            for c in &odds.candidates {
                choices.push(Choice {
                    what: format!("step into {}", self.topology.label(c.place)),
                    place: Some(c.place),
                    expected: Some(c.expected),
                    bound: c.bound,
                    pit: Some(c.pit),
                    wumpus: Some(c.wumpus),
                    risk: Some(death_chance(c.pit, c.wumpus)),
                    chosen: d.reason.rule == Rule::Gamble && d.reason.target == Some(c.place),
                    ..Choice::new("")
                });
            }
            for shot in &odds.shots {
                choices.push(Choice {
                    place: Some(shot.from),
                    expected: Some(shot.expected),
                    kill: Some(shot.kill),
                    chosen: shot.chosen,
                    ..Choice::new(format!(
                        "fire {} from {}",
                        shot.dir,
                        self.topology.label(shot.from)
                    ))
                });
            }
            choices.push(Choice {
                expected: Some(odds.climb),
                chosen: d.reason.rule != Rule::Gamble && !odds.shots.iter().any(|s| s.chosen),
                ..Choice::new("walk home and climb out")
            });
        }
        Decision {
            action: d.action,
            reason: d.reason,
            choices,
            depth: d.odds.as_ref().map(|o| o.depth),
        }
    }

    fn knowledge(&mut self) -> Knowledge {
        Knowledge {
            odds: self.frontier_odds(),
            route: self.planned_route(),
            ..self.proofs()
        }
    }

    fn proofs(&mut self) -> Knowledge {
        Knowledge {
            at: Some(self.position()),
            visited: self.visited(),
            safe: self.proven_safe(),
            pit: self.proven_pits(),
            wumpus: self.proven_wumpus().into_iter().collect(),
            bats: Vec::new(),
            odds: Vec::new(),
            whereabouts: Vec::new(),
            wumpus_alive: self.wumpus_alive(),
            ways: Vec::new(),
            route: Vec::new(),
        }
    }

    fn solver_calls(&self) -> u64 {
        self.kb().solver_calls()
    }

    fn knowledge_base(&self) -> Option<&KnowledgeBase> {
        Some(self.kb())
    }

    fn places_on(&self) -> Option<std::sync::Arc<crate::topology::Topology>> {
        self.learns_size().then(|| self.topology().clone())
    }
}
