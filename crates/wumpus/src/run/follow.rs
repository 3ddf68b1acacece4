//! One agent kept in step with a player's game ([`Follower`]): told the player's own actions
//! and what the game showed after each, exactly as the player was told them, so that at any
//! moment it can say what it knows and what it would do. `play`'s `hint`, the live page and
//! the Python package each hold one; none keeps an agent in step its own way.
//!
//! A follower never sees the session's hidden world: it is handed what the session shows,
//! and its hint is worked out from the game as it stands now, never kept from an earlier
//! moment.

use super::event::{hint_event, StepEvent};
use crate::agent::{Agent, AgentError, AgentFactory, Conclusion, Decision, Knowledge};
use crate::game::Session;
use crate::kb::KbError;
use crate::rng::Dice;

/// An agent following a player's game.
pub struct Follower<S: Session> {
    /// The agent, or why it stopped reasoning (rules it cannot use, a contradiction).
    agent: Result<Box<dyn Agent<S>>, String>,
    /// What the game showed last.
    shown: S::Shown,
    /// What the last observation proved.
    learned: Vec<Conclusion>,
    /// Observations told: 1 once told the start.
    steps: usize,
}

impl<S: Session> Follower<S> {
    /// A follower of `session`, which has just begun, played by the agent `agents` makes for
    /// it, throwing `dice` for its own draws. An agent that cannot be made leaves the
    /// follower with the reason ([`Follower::failure`]).
    pub fn new(agents: &dyn AgentFactory<S>, session: &S, dice: Dice) -> Follower<S> {
        Follower::from_start(agents, &session.briefing(), session.start(), dice)
    }

    /// A follower of a game whose player was told `briefing` and shown `start` at its start
    /// (for a follower made after the game began, told its actions since).
    pub fn from_start(
        agents: &dyn AgentFactory<S>,
        briefing: &crate::game::Briefing,
        start: S::Shown,
        dice: Dice,
    ) -> Follower<S> {
        let agent = agents.make(briefing, dice).map_err(|e| failure(&e));
        let mut follower = Follower {
            agent,
            shown: start,
            learned: Vec::new(),
            steps: 0,
        };
        follower.observe(None);
        follower
    }

    /// Tells the agent the player's `action` and what the game showed after it.
    pub fn tell(&mut self, action: &S::Action, shown: &S::Shown) {
        self.shown = shown.clone();
        self.observe(Some(action));
    }

    fn observe(&mut self, action: Option<&S::Action>) {
        self.steps += 1;
        if let Ok(agent) = &mut self.agent {
            match agent.observe(action, &self.shown) {
                Ok(learned) => self.learned = learned,
                Err(e) => self.agent = Err(failure(&e)),
            }
        }
    }

    /// What the agent would do next in `session` (the game it follows, as it stands now) and
    /// why, with what it knows of each place: the step a hint shows.
    pub fn hint(&mut self, session: &S) -> Result<StepEvent, String> {
        let (steps, shown) = (self.steps, &self.shown);
        let learned = &self.learned;
        let agent = self.agent.as_mut().map_err(|why| why.clone())?;
        Ok(hint_event(session, steps, shown, learned, agent.as_mut()))
    }

    /// The agent's next action and its reason.
    pub fn decide(&mut self) -> Result<Decision<S::Action>, String> {
        Ok(self.agent_mut()?.decide())
    }

    /// What the agent knows of each place now.
    pub fn knowledge(&mut self) -> Result<Knowledge, String> {
        Ok(self.agent_mut()?.knowledge())
    }

    /// What the agent has proven of each place now, without the odds ([`Agent::proofs`]).
    pub fn proofs(&mut self) -> Result<Knowledge, String> {
        Ok(self.agent_mut()?.proofs())
    }

    /// The agent, or why it stopped reasoning.
    pub fn agent_mut(&mut self) -> Result<&mut dyn Agent<S>, String> {
        match &mut self.agent {
            Ok(agent) => Ok(agent.as_mut()),
            Err(why) => Err(why.clone()),
        }
    }

    /// Why the agent stopped reasoning, if it did.
    pub fn failure(&self) -> Option<&str> {
        self.agent.as_ref().err().map(String::as_str)
    }

    /// What the last observation proved, with the observations behind each conclusion when
    /// the agent explains.
    pub fn learned(&self) -> &[Conclusion] {
        &self.learned
    }

    /// What the game showed last.
    pub fn shown(&self) -> &S::Shown {
        &self.shown
    }

    /// Observations told so far: the step number of the next hint (1 at the start).
    pub fn steps(&self) -> usize {
        self.steps
    }
}

/// Why an agent stopped reasoning, in a player's words. A contradiction is reported as such:
/// the knowledge base never goes on to "prove" everything from it.
fn failure(e: &AgentError) -> String {
    match e {
        AgentError::Kb(KbError::Contradiction(why)) => format!(
            "what you have perceived contradicts the rules ({why}), so nothing can be proven \
             any more"
        ),
        e => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::{AgentKind, AgentOptions, Roster};
    use crate::grid::{parse_world, GridSession, Scoring};

    #[test]
    fn a_follower_told_every_action_hints_as_the_runners_agent_decides() {
        let world = parse_world("PIT 0 2\nWUMPUS 2 0\nGOLD 3 2\n").unwrap();
        let mut game = GridSession::new(world, Scoring::Standard, 0.2);
        let options = AgentOptions::default();
        let agents = GridSession::prepare(AgentKind::Logic, &game.setup(), &options).unwrap();
        let mut follower = Follower::new(agents.as_ref(), &game, Dice::for_game(0));
        let mut moves = 0;
        while game.ending().is_none() && moves < 100 {
            let hint = follower.hint(&game).unwrap();
            assert_eq!(hint.step, moves + 1);
            let action = follower.decide().unwrap().action;
            assert_eq!(hint.action, game.action_text(&action));
            let shown = game.act(&action);
            follower.tell(&action, &shown);
            moves += 1;
        }
        assert_eq!(game.ending(), Some(crate::game::Ending::Won));
    }

    /// What a mask reads of an agent's proofs is what its whole knowledge says, at every
    /// step of games that wander off the agent's plan.
    fn proofs_agree_with_knowledge<S: Roster + crate::numbered::Numbered>(mut game: S, seed: u64) {
        use rand::{Rng, SeedableRng};
        let options = AgentOptions::default();
        let agents = S::prepare(AgentKind::Logic, &game.setup(), &options).unwrap();
        let mut follower = Follower::new(agents.as_ref(), &game, Dice::for_game(seed));
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut shown = game.start();
        for _ in 0..80 {
            if game.ending().is_some() {
                break;
            }
            let (proofs, whole) = (follower.proofs().unwrap(), follower.knowledge().unwrap());
            assert_eq!(proofs.at, whole.at);
            assert_eq!(proofs.visited, whole.visited);
            assert_eq!(proofs.safe, whole.safe);
            assert_eq!(proofs.pit, whole.pit);
            assert_eq!(proofs.wumpus, whole.wumpus);
            assert_eq!(proofs.bats, whole.bats);
            assert_eq!(proofs.wumpus_alive, whole.wumpus_alive);
            let action = if rng.random_bool(0.3) {
                game.action(&shown, rng.random_range(0..S::ACTIONS.len()))
            } else {
                follower.decide().unwrap().action
            };
            shown = game.act(&action);
            follower.tell(&action, &shown);
        }
    }

    #[test]
    fn proofs_are_what_the_whole_knowledge_proves() {
        use rand::SeedableRng;
        let topology = std::sync::Arc::new(crate::topology::Topology::grid(4, 4).unwrap());
        for seed in 0..40 {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let world = crate::grid::GridWorld::random(topology.clone(), 0.2, &mut rng);
            let grid = GridSession::new(world.clone(), Scoring::Standard, 0.2);
            proofs_agree_with_knowledge(grid, seed);
            let aima = GridSession::new(world, Scoring::Standard, 0.2);
            proofs_agree_with_knowledge(crate::grid::AimaSession::new(aima), seed);
        }
    }
}
