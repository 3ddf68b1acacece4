//! The random players, the yardsticks a learner's first steps are measured against. In the
//! classic cave, the event's own random player: when it smells the wumpus it shoots a one-room
//! arrow into a random room joined to this one (any entry of out-tunnels then in-tunnels, as
//! the host lists them); otherwise it walks through a random out-tunnel. On the grid and under
//! the textbook's rules, [`UniformAgent`] takes each of the rule set's actions with the same
//! chance. They see only what a player is shown, like every agent, and throw only their own
//! dice.

use super::{Agent, AgentError, Conclusion, Decision, Knowledge, Reason, Rule};
use crate::cave::classic::{Action, ArrowPath, Status};
use crate::cave::{CaveShown, ClassicSession};
use crate::rng::Dice;
use rand::Rng;

/// The event's random player.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: Dice,
    /// Where the hunter stands, as last shown.
    at: Option<crate::topology::Place>,
    /// This turn's action, drawn when the turn's status is shown (one draw a turn).
    pending: Option<Action>,
}

impl RandomAgent {
    /// A random player throwing `dice`.
    pub fn new(rng: Dice) -> RandomAgent {
        RandomAgent {
            rng,
            at: None,
            pending: None,
        }
    }

    /// The next action for `status`, drawn at random.
    pub fn draw(&mut self, status: &Status) -> Action {
        if status.wumpus {
            let n = status.outs.len() + status.ins.len();
            let pick = self.rng.random_range(0..n);
            let room = if pick < status.outs.len() {
                status.outs[pick]
            } else {
                status.ins[pick - status.outs.len()]
            };
            Action::Shoot(ArrowPath::one(room))
        } else {
            let pick = self.rng.random_range(0..status.outs.len());
            Action::Move(status.outs[pick])
        }
    }
}

impl Agent<ClassicSession> for RandomAgent {
    fn observe(
        &mut self,
        _last: Option<&Action>,
        shown: &CaveShown,
    ) -> Result<Vec<Conclusion>, AgentError> {
        // The turn's one draw is made here, so that nothing of the status need be kept (the
        // cheapest agent's games are a few microseconds: copies would double them).
        self.at = Some(shown.status.room);
        self.pending = Some(self.draw(&shown.status));
        Ok(Vec::new())
    }

    /// Asking again gives the same action: it was drawn once, when the turn was shown.
    fn decide(&mut self) -> Decision<Action> {
        let action = self
            .pending
            .clone()
            .expect("decide after the first observation");
        let (rule, text) = match &action {
            Action::Shoot(_) => (
                Rule::BestShot,
                "the wumpus is smelt: shoot into a random room joined to this one",
            ),
            Action::Move(_) => (Rule::Explore, "walk through a random tunnel"),
        };
        Decision {
            action,
            reason: Reason {
                rule,
                target: None,
                steps: 0,
                text: text.to_string(),
            },
            choices: Vec::new(),
            depth: None,
        }
    }

    fn knowledge(&mut self) -> Knowledge {
        Knowledge {
            at: self.at,
            wumpus_alive: true,
            ..Knowledge::default()
        }
    }
}

/// A player that takes each of a rule set's actions with the same chance, every turn: the
/// grid's ten (four moves, four shots, grab, climb) or the textbook's six.
#[derive(Clone, Debug)]
pub struct UniformAgent<A> {
    dice: Dice,
    actions: Vec<A>,
    /// This turn's action, drawn when the turn is shown.
    pending: Option<A>,
}

impl UniformAgent<crate::grid::Action> {
    /// A random player of the grid with compass moves.
    pub fn grid(dice: Dice) -> Self {
        use crate::grid::Action as G;
        use crate::topology::Direction::{East, North, South, West};
        let ways = [North, East, South, West];
        let mut actions: Vec<G> = ways.iter().map(|&w| G::Move(w)).collect();
        actions.extend(ways.iter().map(|&w| G::Fire(w)));
        actions.extend([G::Grab, G::Climb]);
        UniformAgent {
            dice,
            actions,
            pending: None,
        }
    }
}

impl UniformAgent<crate::grid::HeadedAction> {
    /// A random player under the textbook's rules.
    pub fn headed(dice: Dice) -> Self {
        UniformAgent {
            dice,
            actions: crate::grid::HeadedAction::ALL.to_vec(),
            pending: None,
        }
    }
}

impl<A: Clone> UniformAgent<A> {
    fn draw(&mut self) {
        let pick = self.dice.random_range(0..self.actions.len());
        self.pending = Some(self.actions[pick].clone());
    }

    fn decision(&self) -> Decision<A> {
        Decision {
            action: self
                .pending
                .clone()
                .expect("decide after the first observation"),
            reason: Reason {
                rule: Rule::Gamble,
                target: None,
                steps: 0,
                text: "an action drawn at random, each as likely".to_string(),
            },
            choices: Vec::new(),
            depth: None,
        }
    }
}

impl Agent<crate::grid::GridSession> for UniformAgent<crate::grid::Action> {
    fn observe(
        &mut self,
        _: Option<&crate::grid::Action>,
        _: &crate::grid::Turn,
    ) -> Result<Vec<Conclusion>, AgentError> {
        self.draw();
        Ok(Vec::new())
    }

    fn decide(&mut self) -> Decision<crate::grid::Action> {
        self.decision()
    }

    fn knowledge(&mut self) -> Knowledge {
        Knowledge {
            wumpus_alive: true,
            ..Knowledge::default()
        }
    }
}

impl Agent<crate::grid::AimaSession> for UniformAgent<crate::grid::HeadedAction> {
    fn observe(
        &mut self,
        _: Option<&crate::grid::HeadedAction>,
        _: &crate::grid::AimaShown,
    ) -> Result<Vec<Conclusion>, AgentError> {
        self.draw();
        Ok(Vec::new())
    }

    fn decide(&mut self) -> Decision<crate::grid::HeadedAction> {
        self.decision()
    }

    fn knowledge(&mut self) -> Knowledge {
        Knowledge {
            wumpus_alive: true,
            ..Knowledge::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::Place;

    fn status(wumpus: bool) -> Status {
        Status {
            room: Place::new(0),
            outs: vec![Place::new(1), Place::new(2), Place::new(3)],
            ins: vec![Place::new(4)],
            pit: false,
            bats: false,
            wumpus,
            arrows: 5,
            moves: 0,
        }
    }

    #[test]
    fn moves_through_out_tunnels_uniformly_when_no_wumpus_is_smelled() {
        let mut agent = RandomAgent::new(Dice::for_game(7));
        let mut counts = [0u32; 5];
        for _ in 0..3000 {
            match agent.draw(&status(false)) {
                Action::Move(r) => counts[r.index()] += 1,
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(counts[0] + counts[4], 0);
        assert!(
            counts[1..4].iter().all(|&n| (880..1120).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn shoots_one_room_among_outs_and_ins_when_it_smells_the_wumpus() {
        let mut agent = RandomAgent::new(Dice::for_game(7));
        let mut counts = [0u32; 5];
        for _ in 0..4000 {
            match agent.draw(&status(true)) {
                Action::Shoot(path) => {
                    assert_eq!(path.rooms().len(), 1);
                    counts[path.rooms()[0].index()] += 1;
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(counts[0], 0);
        assert!(
            counts[1..].iter().all(|&n| (880..1120).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn the_agents_stream_is_not_the_games() {
        let mut game_rng = crate::rng::seeded(3);
        let mut agent_rng = Dice::for_game(3);
        let a: Vec<u32> = (0..8).map(|_| game_rng.random()).collect();
        let b: Vec<u32> = (0..8).map(|_| agent_rng.random()).collect();
        assert_ne!(a, b);
    }

    #[test]
    fn asking_twice_draws_once() {
        let mut agent = RandomAgent::new(Dice::for_game(9));
        let shown = CaveShown {
            result: None,
            events: Vec::new(),
            status: status(false),
        };
        Agent::<ClassicSession>::observe(&mut agent, None, &shown).unwrap();
        let first = Agent::<ClassicSession>::decide(&mut agent).action;
        assert_eq!(Agent::<ClassicSession>::decide(&mut agent).action, first);
    }
}
