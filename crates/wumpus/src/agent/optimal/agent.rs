//! The optimal player of one game: it tracks its belief from its own actions and the
//! percepts, and plays the plan the solver values most.
//!
//! It must never see the dealt world: only its actions and the percepts that followed.

use super::*;
use crate::agent::common::bits;
use crate::agent::grid::headed::carried_out;
use crate::agent::grid::odds::death_chance;
use crate::agent::{Agent, AgentError, Conclusion, Knowledge, PlaceOdds};
use crate::grid::aima::{AimaSession, AimaShown, HeadedAction};
use crate::grid::{GridSession, Turn};

/// The optimal player of one game.
pub struct OptimalAgent {
    solver: Arc<OptimalSolver>,
    explain: bool,
    belief: Belief,
    /// Moves made plus 10 once the arrow is fired: what every ending but a standard-scoring
    /// death is charged.
    spent: u16,
    /// Where the gold glints, seen and not yet grabbed.
    gold_seen: Option<usize>,
    has_gold: bool,
    /// The rest of the plan under way, and why it was chosen.
    plan: VecDeque<Action>,
    planned: Option<Reason>,
    local: Table,
}

impl OptimalAgent {
    /// A player sharing `solver`'s values. It plays in compass steps and shots; under the
    /// textbook's heading ([`Moves::Heading`]) [`HeadedOptimalAgent`] turns it.
    pub fn new(solver: Arc<OptimalSolver>, explain: bool) -> OptimalAgent {
        let belief = solver.model.start(&Percepts::default());
        OptimalAgent {
            solver,
            explain,
            belief,
            spent: 0,
            gold_seen: None,
            has_gold: false,
            plan: VecDeque::new(),
            planned: None,
            local: Table::default(),
        }
    }

    /// Where the player stands.
    pub fn position(&self) -> Place {
        Place::new(self.solver.model.cell(self.belief.at))
    }

    /// Takes in a turn to face `facing` (the textbook's rules), which costs a move.
    pub(super) fn turned(&mut self, facing: Direction) {
        let m = &self.solver.model;
        let cell = m.cell(self.belief.at);
        self.belief.at = m.facing(cell, facing.index()) as Pose;
        self.spent = self.spent.saturating_add(1);
    }

    /// What the player believes.
    pub fn belief(&self) -> Belief {
        self.belief
    }

    /// The chances of a pit and of the live wumpus in each unvisited cell, from the belief
    /// (cells beyond the fringe at the prior), in cell order.
    pub fn odds(&self) -> Vec<(Place, f64, f64)> {
        let m = &self.solver.model;
        let b = self.belief;
        let pits = m.count_pits(b.visited, b.breeze);
        let live = b.wumpus.count_ones() as f64;
        bits(m.all() & !b.visited)
            .map(|i| {
                let wumpus = if b.wumpus >> i & 1 == 1 {
                    1.0 / live
                } else {
                    0.0
                };
                (Place::new(i), pits.pit[i], wumpus)
            })
            .collect()
    }

    /// Takes in the player's last action (`None` at the start) and the percepts after it.
    pub(super) fn observe_percepts(&mut self, last: Option<Action>, p: &Percepts) {
        let Some(action) = last else {
            *self = OptimalAgent::new(self.solver.clone(), self.explain);
            self.belief = self.solver.model.start(p);
            return;
        };
        let solver = self.solver.clone();
        let m = &solver.model;
        if self.plan.front() == Some(&action) {
            self.plan.pop_front();
        } else {
            self.plan.clear();
            self.planned = None;
        }
        self.spent = self.spent.saturating_add(1);
        let b = &mut self.belief;
        match action {
            Action::Move(dir) => {
                if p.bump {
                    return;
                }
                let at = m.cell(b.at);
                let d = dir.index();
                let next = bits(m.neighbours[at] & m.rays[at][d]).next();
                let Some(next) = next else { return };
                b.at = m.facing(next, d) as Pose;
                if b.visited >> next & 1 == 0 {
                    b.visited |= 1 << next;
                    b.breeze |= (p.breeze as u32) << next;
                    if b.wumpus != 0 {
                        let after = b.wumpus & !(1 << next);
                        b.wumpus = if p.stench {
                            after & m.smells[next]
                        } else {
                            after & !m.smells[next]
                        };
                    }
                    if p.glint {
                        self.gold_seen = Some(next);
                    }
                }
            }
            Action::Fire(dir) => {
                if b.arrow {
                    b.arrow = false;
                    self.spent = self.spent.saturating_add(10);
                    let d = dir.index();
                    let cell = m.cell(b.at);
                    b.at = m.facing(cell, d) as Pose;
                    b.wumpus = if p.scream {
                        0
                    } else {
                        b.wumpus & !m.rays[cell][d]
                    };
                }
            }
            Action::Grab => {
                if self.gold_seen == Some(m.cell(b.at)) {
                    self.has_gold = true;
                    self.gold_seen = None;
                }
            }
            Action::Climb => {}
        }
    }

    /// The next action and why, with every plan weighed and its expected final score.
    pub(super) fn choose(&mut self) -> Decision<Action> {
        let m = &self.solver.model;
        let b = self.belief;
        let reason = |rule, target: Option<usize>, steps: usize, text: String| Reason {
            rule,
            target: target.map(Place::new),
            steps,
            text,
        };
        let simple = |action, reason| Decision {
            action,
            reason,
            choices: Vec::new(),
            depth: None,
        };
        let here = m.cell(b.at);
        if self.has_gold {
            if here == 0 {
                return simple(
                    Action::Climb,
                    reason(Rule::Climb, None, 0, "climb out with the gold".into()),
                );
            }
            let route = m.route_to_cell(b.at, 0, b.visited);
            return simple(
                route[0],
                reason(
                    Rule::ReturnWithGold,
                    Some(0),
                    route.len(),
                    "carry the gold home the shortest way over visited cells".into(),
                ),
            );
        }
        if let Some(g) = self.gold_seen {
            if g == here {
                return simple(
                    Action::Grab,
                    reason(Rule::GrabGold, Some(g), 0, "grab the gold".into()),
                );
            }
            let route = m.route_to_cell(b.at, g, b.visited);
            return simple(
                route[0],
                reason(
                    Rule::GrabGold,
                    Some(g),
                    route.len(),
                    "walk back to the gold".into(),
                ),
            );
        }
        if let (Some(&action), Some(reason)) = (self.plan.front(), &self.planned) {
            // On the way over visited cells nothing new is learnt: the plan chosen stands, and
            // its choices were shown when it was chosen (their values have moved by the moves
            // made since).
            return Decision {
                action,
                reason: Reason {
                    steps: self.plan.len(),
                    text: format!("on the way: {}", reason.text),
                    ..reason.clone()
                },
                choices: Vec::new(),
                depth: None,
            };
        }
        let candidates = self.solver.candidates(&b, self.spent, &mut self.local);
        let chosen = best(&candidates);
        let label = |i: usize| format!("{},{}", i / m.cols, i % m.cols);
        let words = |c: &Candidate| match c.plan {
            Plan::Climb => "walk home and climb out".to_string(),
            Plan::Step { into, .. } => format!("step into {}", label(into as usize)),
            Plan::Shoot { from, dir } => format!("shoot {dir} from {}", label(from as usize)),
        };
        let c = candidates[chosen];
        let (mut actions, rule, target) = match c.plan {
            Plan::Climb => {
                let mut a = m.route_to_cell(b.at, 0, b.visited);
                a.push(Action::Climb);
                let rule = if here == 0 {
                    Rule::Climb
                } else {
                    Rule::ReturnEmptyHanded
                };
                (a, rule, Some(0))
            }
            Plan::Step { into, from } => {
                let dir = m.direction(from as usize, into as usize);
                let mut a = m.route(b.at, m.facing(from as usize, dir.index()), b.visited);
                a.push(Action::Move(dir));
                let safe = c.pit <= 0.0 && c.wumpus <= 0.0;
                (
                    a,
                    if safe { Rule::Explore } else { Rule::Gamble },
                    Some(into as usize),
                )
            }
            Plan::Shoot { from, dir } => {
                let mut a = m.route(b.at, m.facing(from as usize, dir.index()), b.visited);
                a.push(Action::Fire(dir));
                let rule = if c.kill >= 1.0 {
                    Rule::ShootWumpus
                } else {
                    Rule::ProbeShot
                };
                (a, rule, Some(from as usize))
            }
        };
        let text = format!(
            "{}: the best expected final score, {:.2} (wins {:.1}%, dies {:.1}%), by exact \
             look-ahead to the end of the game",
            words(&c),
            c.value.score,
            100.0 * c.value.win,
            100.0 * c.value.death
        );
        let why = reason(rule, target, actions.len(), text);
        let choices = if self.explain {
            candidates
                .iter()
                .enumerate()
                .map(|(k, x)| Choice {
                    place: match x.plan {
                        Plan::Climb => Some(Place::new(0)),
                        Plan::Step { into, .. } => Some(Place::new(into as usize)),
                        Plan::Shoot { from, .. } => Some(Place::new(from as usize)),
                    },
                    expected: Some(x.value.score),
                    risk: matches!(x.plan, Plan::Step { .. })
                        .then_some(1.0 - (1.0 - x.pit) * (1.0 - x.wumpus)),
                    pit: matches!(x.plan, Plan::Step { .. }).then_some(x.pit),
                    wumpus: matches!(x.plan, Plan::Step { .. }).then_some(x.wumpus),
                    kill: matches!(x.plan, Plan::Shoot { .. }).then_some(x.kill),
                    chosen: k == chosen,
                    ..Choice::new(words(x))
                })
                .collect()
        } else {
            Vec::new()
        };
        let action = actions[0];
        self.plan = actions.drain(..).collect();
        self.planned = Some(why.clone());
        Decision {
            action,
            reason: why,
            choices,
            depth: None,
        }
    }
}

impl Agent<GridSession> for OptimalAgent {
    fn observe(
        &mut self,
        last: Option<&Action>,
        shown: &Turn,
    ) -> Result<Vec<Conclusion>, AgentError> {
        self.observe_percepts(last.copied(), &shown.percepts);
        Ok(Vec::new())
    }

    fn decide(&mut self) -> Decision<Action> {
        self.choose()
    }

    fn knowledge(&mut self) -> Knowledge {
        let b = self.belief();
        let places = |set: u32| {
            (0..32)
                .filter(|i| set >> i & 1 == 1)
                .map(Place::new)
                .collect::<Vec<_>>()
        };
        let visited = places(b.visited);
        let mut k = Knowledge {
            at: Some(self.position()),
            safe: visited.clone(),
            visited,
            wumpus_alive: b.wumpus != 0,
            ..Knowledge::default()
        };
        // What the exact posterior makes certain is proven; the rest are odds.
        for (place, pit, wumpus) in self.odds() {
            if pit <= 0.0 && wumpus <= 0.0 {
                k.safe.push(place);
            } else if pit >= 1.0 {
                k.pit.push(place);
            } else if wumpus >= 1.0 {
                k.wumpus.push(place);
            } else {
                k.odds.push(PlaceOdds {
                    place,
                    pit,
                    wumpus,
                    bats: 0.0,
                    death: death_chance(pit, wumpus),
                });
            }
        }
        k.safe.sort();
        k
    }
}

/// The optimal player of the textbook's rules: [`OptimalAgent`] over a solver of
/// [`Moves::Heading`], its compass steps and shots carried out with the fewest quarter turns
/// (the walks the solver costs).
pub struct HeadedOptimalAgent {
    inner: OptimalAgent,
    facing: Direction,
}

impl HeadedOptimalAgent {
    /// A player of the textbook's rules sharing `solver`'s values (solved with a heading).
    pub fn new(solver: Arc<OptimalSolver>, explain: bool) -> HeadedOptimalAgent {
        debug_assert_eq!(solver.model.moves, Moves::Heading);
        HeadedOptimalAgent {
            inner: OptimalAgent::new(solver, explain),
            facing: Direction::East,
        }
    }
}

impl Agent<AimaSession> for HeadedOptimalAgent {
    fn observe(
        &mut self,
        last: Option<&HeadedAction>,
        shown: &AimaShown,
    ) -> Result<Vec<Conclusion>, AgentError> {
        let compass = last.map(|a| a.compass(self.facing));
        self.facing = shown.facing;
        if compass == Some(None) {
            self.inner.turned(shown.facing);
        } else {
            self.inner
                .observe_percepts(compass.flatten(), &shown.turn.percepts);
        }
        Ok(Vec::new())
    }

    fn decide(&mut self) -> Decision<HeadedAction> {
        carried_out(self.inner.choose(), self.facing)
    }

    fn knowledge(&mut self) -> Knowledge {
        Agent::<GridSession>::knowledge(&mut self.inner)
    }
}
