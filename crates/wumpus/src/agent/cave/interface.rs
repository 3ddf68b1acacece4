//! The classic cave agent through the one interface: [`CaveAgent`] is an [`Agent`] of the
//! classic cave, and puts what its rules chose in the one [`Decision`], with the choices it
//! weighed in a player's words when explanations are on.
//!
//! It must never be handed anything but the agent's own last action and what the game showed.

use super::{CaveAgent, Chosen, RoomView, Weighed};
use crate::agent::{
    Agent, AgentError, Choice, Conclusion, Decision, Insight, Knowledge, PlaceOdds,
};
use crate::cave::classic::Action;
use crate::cave::{CaveShown, ClassicSession};
use crate::kb::KnowledgeBase;
use crate::topology::Place;

impl CaveAgent {
    /// The chosen action in the player's words: `move 5`, `shoot 5 6 7`.
    fn action_words(&self, action: &Action) -> String {
        match action {
            Action::Move(r) => format!("move {}", self.label(*r)),
            Action::Shoot(path) => {
                let rooms: Vec<String> = path.rooms().iter().map(|&r| self.label(r)).collect();
                format!("shoot {}", rooms.join(" "))
            }
        }
    }

    /// One option of the look-ahead as a choice: a step with its chance of dying, or the best
    /// shot (`shot`: the shot in words, when it was the one taken) with its chance of a kill.
    fn weighed_choice(&self, w: &Weighed, shot: &str) -> Choice {
        match w.step {
            Some(room) => Choice {
                place: Some(room),
                risk: Some(w.chance),
                expected: Some(w.worth),
                chosen: w.chosen,
                ..Choice::new(format!("step into {}", self.label(room)))
            },
            None => Choice {
                kill: Some(w.chance),
                expected: Some(w.worth),
                chosen: w.chosen,
                ..Choice::new(if w.chosen {
                    shot
                } else {
                    "the best shot from here"
                })
            },
        }
    }

    /// The choices behind `d`, in a player's words: every option weighed, or the one taken
    /// with its chances (the rules weigh by fixed priorities and report the one they take).
    fn choices(&self, d: &Chosen) -> Vec<Choice> {
        let what = self.action_words(&d.action);
        if !d.weighed.is_empty() {
            return d
                .weighed
                .iter()
                .map(|w| self.weighed_choice(w, &what))
                .collect();
        }
        if d.kill_chance.is_none() && d.risk.is_none() {
            return Vec::new();
        }
        vec![Choice {
            kill: d.kill_chance,
            risk: d.risk,
            chosen: true,
            ..Choice::new(what)
        }]
    }
}

impl Agent<ClassicSession> for CaveAgent {
    fn observe(
        &mut self,
        last: Option<&Action>,
        shown: &CaveShown,
    ) -> Result<Vec<Conclusion>, AgentError> {
        // A contradiction (a game of another variant) leaves the agent playing on without its
        // knowledge; its reasons say so.
        Ok(self
            .observe_turn(last, shown.result.as_ref(), &shown.status)
            .unwrap_or_default())
    }

    fn decide(&mut self) -> Decision<Action> {
        let d = self.chosen();
        let choices = if self.config.insight == Insight::Explained {
            self.choices(&d)
        } else {
            Vec::new()
        };
        Decision {
            depth: (!d.weighed.is_empty() && d.rollouts == 0).then_some(2),
            action: d.action,
            reason: d.reason,
            choices,
        }
    }

    fn knowledge(&mut self) -> Knowledge {
        let mut k = Knowledge {
            at: self.here(),
            wumpus_alive: true,
            ..Knowledge::default()
        };
        for room in (0..self.map().rooms()).map(Place::new) {
            match self.view(room) {
                RoomView::Here | RoomView::Visited => {
                    k.visited.push(room);
                    k.safe.push(room);
                }
                RoomView::Safe => k.safe.push(room),
                RoomView::Pit => k.pit.push(room),
                RoomView::Bats => k.bats.push(room),
                RoomView::Wumpus => k.wumpus.push(room),
                RoomView::Unknown => {}
            }
        }
        if let Some(o) = self.odds() {
            let open = |x: f64| x > 0.0 && x < 1.0;
            for (i, ((&pit, &wumpus), &bats)) in
                o.pit.iter().zip(&o.wumpus).zip(&o.bats).enumerate()
            {
                if open(pit) || open(wumpus) || open(bats) {
                    k.odds.push(PlaceOdds {
                        place: Place::new(i),
                        pit,
                        wumpus,
                        bats,
                        death: o.death_on_entering(Place::new(i)),
                    });
                }
            }
        }
        k
    }

    fn solver_calls(&self) -> u64 {
        self.kb().map_or(0, |kb| kb.solver_calls())
    }

    fn knowledge_base(&self) -> Option<&KnowledgeBase> {
        self.kb()
    }
}
