//! The maze agents through the one interface: [`MazeAgent`] (given the map) and
//! [`DiscoveredMazeAgent`] (learning it) are [`Agent`]s of the maze, each adding to its one
//! [`Decision`], when explanations are on, every way on stepped into or tossed into with its
//! chances.
//!
//! It must never be handed anything but the agent's own last action and what the game showed.

use super::discovered::DiscoveredMazeAgent;
use super::{MazeAgent, TunnelOdds};
use crate::agent::{Agent, AgentError, Choice, Conclusion, Decision, Insight, Knowledge};
use crate::cave::maze::MazeAction;
use crate::cave::{MazeSession, MazeShown};
use crate::kb::KnowledgeBase;

/// Every way on, stepped into or tossed into, with its chances: what `action` was weighed
/// against (each agent's priorities are in its `decide` module); `words` names a tunnel.
fn tunnel_choices(
    action: &MazeAction,
    tunnels: &[TunnelOdds],
    words: impl Fn(usize) -> String,
) -> Vec<Choice> {
    let mut choices = Vec::new();
    for t in tunnels {
        choices.push(Choice {
            pit: Some(t.pit),
            wumpus: Some(t.wumpus),
            risk: Some(super::death_chance(t.pit, t.wumpus)),
            chosen: *action == MazeAction::Move(t.tunnel),
            ..Choice::new(format!("move {}", words(t.tunnel)))
        });
    }
    for t in tunnels {
        choices.push(Choice {
            kill: Some(t.wumpus),
            // Without the map the chance of a startled wumpus running in is not counted: no
            // figure rather than a wrong one.
            risk: (!t.estimated).then_some(t.devour),
            chosen: *action == MazeAction::Toss(t.tunnel),
            ..Choice::new(format!("toss {}", words(t.tunnel)))
        });
    }
    choices
}

impl Agent<MazeSession> for MazeAgent {
    fn observe(
        &mut self,
        last: Option<&MazeAction>,
        shown: &MazeShown,
    ) -> Result<Vec<Conclusion>, AgentError> {
        // A contradiction leaves the agent walking blind; it shows in its reasons.
        Ok(self
            .observe_turn(last.copied(), shown.result, &shown.view)
            .unwrap_or_default())
    }

    fn decide(&mut self) -> Decision<MazeAction> {
        let mut d = self.choose();
        if self.insight == Insight::Explained {
            d.choices = tunnel_choices(&d.action, &self.tunnels(), |t| self.through(t));
        }
        d
    }

    fn knowledge(&mut self) -> Knowledge {
        self.known()
    }

    fn solver_calls(&self) -> u64 {
        self.solver_calls_made()
    }

    fn knowledge_base(&self) -> Option<&KnowledgeBase> {
        self.kb()
    }
}

impl Agent<MazeSession> for DiscoveredMazeAgent {
    fn observe(
        &mut self,
        last: Option<&MazeAction>,
        shown: &MazeShown,
    ) -> Result<Vec<Conclusion>, AgentError> {
        self.observe_turn(last.copied(), shown.result, &shown.view);
        Ok(Vec::new())
    }

    fn decide(&mut self) -> Decision<MazeAction> {
        let mut d = self.choose();
        if self.explain {
            d.choices = tunnel_choices(&d.action, &self.tunnels(), |t| self.through(t));
        }
        d
    }

    fn knowledge(&mut self) -> Knowledge {
        self.known()
    }
}
