//! The grid agent's choice of action, by fixed priorities: grab a glint; with the gold, go
//! home and climb; walk to the nearest proven-safe cell not yet visited; shoot when a kill or
//! a miss would prove new cells safe; when logic runs out, gamble (the risk agent) or go home.
//! Routes run over visited and proven-safe cells only.
//!
//! It must never step into a cell that is neither visited nor proven safe, unless it gambles
//! and its reason says so.

use super::*;

/// What the agent set out to do: the actions planned and what they are for, the decision given
/// and not yet taken, and the route finder's tables. It holds what was chosen and never
/// chooses; it must never outlive a surprise: the steps are dropped when the player did
/// something other than planned, or when new safe ground or the wumpus's cell was proven.
pub(super) struct Plan {
    /// The actions still to take, in order.
    pub(super) steps: VecDeque<Action>,
    /// What the steps are for: the rule, the cell they lead to, and in words.
    pub(super) goal: Option<(Rule, Place, String)>,
    /// The decision given and not yet taken.
    pub(super) pending: Option<Chosen>,
    /// The route finder, with its tables kept between the many searches of a game.
    pub(super) searcher: planner::Searcher,
}

impl Plan {
    /// Nothing planned.
    pub(super) fn new() -> Plan {
        Plan {
            steps: VecDeque::new(),
            goal: None,
            pending: None,
            searcher: planner::Searcher::new(),
        }
    }

    /// Drops the plan for one action alone, `text` saying why.
    pub(super) fn single(&mut self, action: Action, rule: Rule, text: &str) -> Chosen {
        self.steps.clear();
        self.goal = None;
        Chosen {
            action,
            reason: Reason {
                rule,
                target: None,
                steps: 0,
                text: text.to_string(),
            },
            odds: None,
        }
    }

    /// Starts following `route`, then `last` (a shot or a climb) if given; `what` says what
    /// the plan is for.
    pub(super) fn follow(
        &mut self,
        route: planner::Route,
        last: Option<Action>,
        rule: Rule,
        what: String,
    ) -> Chosen {
        self.steps = route
            .links
            .iter()
            .map(|link| match link {
                Link::Step(d) => Action::Move(*d),
                Link::Tunnel(_) => unreachable!("grid routes follow steps"),
            })
            .chain(last)
            .collect();
        self.goal = Some((rule, route.goal(), what));
        self.next()
    }

    /// The plan's next action, with the steps still to go in its reason.
    pub(super) fn next(&mut self) -> Chosen {
        let to_go = self
            .steps
            .iter()
            .filter(|a| matches!(a, Action::Move(_)))
            .count();
        let action = self.steps.pop_front().expect("a plan with an action left");
        let (rule, target, what) = self.goal.clone().expect("a plan has a goal");
        let text = match to_go {
            0 => what,
            1 => format!("{what} (1 step to go)"),
            n => format!("{what} ({n} steps to go)"),
        };
        Chosen {
            action,
            reason: Reason {
                rule,
                target: Some(target),
                steps: to_go,
                text,
            },
            odds: None,
        }
    }
}

impl GridAgent {
    pub(super) fn is_safe(&self, place: Place) -> bool {
        self.map.safe(self.status.wumpus_alive, place)
    }

    /// The shortest walk over safe cells from where the agent stands to the nearest `goal`
    /// (exactly [`planner::nearest`]'s route, from the agent's reusable searcher).
    pub(super) fn walk_to(&mut self, goal: Goal) -> Option<planner::Route> {
        let (map, alive) = (&self.map, self.status.wumpus_alive);
        if let Some(facing) = self.status.facing {
            // With a heading the nearest goal is the cheapest in actions, turns counted.
            return planner::nearest_headed(
                &self.topology,
                self.status.position,
                facing,
                |p| map.safe(alive, p),
                |(p, _)| match goal {
                    Goal::SafeUnvisited => !map.cells[p.index()].visited && map.safe(alive, p),
                    Goal::At(place) => p == place,
                },
            )
            .map(|(route, _)| route);
        }
        self.plan.searcher.nearest(
            &self.topology,
            self.status.position,
            |p| map.safe(alive, p),
            |p| match goal {
                Goal::SafeUnvisited => !map.cells[p.index()].visited && map.safe(alive, p),
                Goal::At(place) => p == place,
            },
        )
    }

    /// Actions left before the budget runs out, where there is one.
    pub(super) fn budget_left(&self) -> Option<u32> {
        let spent = self.status.moves + if self.status.has_arrow { 0 } else { 10 };
        self.settings.action_budget.map(|b| b.saturating_sub(spent))
    }

    /// The cost in actions of following `route` from here (turns counted, with a heading),
    /// and the way the agent then faces.
    pub(super) fn route_cost(&self, route: &planner::Route) -> (u32, Option<Direction>) {
        let Some(mut facing) = self.status.facing else {
            return (route.len() as u32, None);
        };
        let mut cost = 0;
        for link in &route.links {
            if let Link::Step(d) = *link {
                cost += facing.turns_to(d) + 1;
                facing = d;
            }
        }
        (cost, Some(facing))
    }

    /// True when `cost` more actions, ending at `place` (facing `facing`, with a heading),
    /// still leave the walk home over safe cells and the climb within the budget; always true
    /// without a budget.
    pub(super) fn affordable(&self, cost: u32, place: Place, facing: Option<Direction>) -> bool {
        let Some(left) = self.budget_left() else {
            return true;
        };
        let start = Place::new(0);
        let (map, alive) = (&self.map, self.status.wumpus_alive);
        let safe = |p| map.safe(alive, p);
        let home = match facing {
            Some(f) => planner::nearest_headed(&self.topology, place, f, safe, |(p, _)| p == start)
                .map(|(_, c)| c),
            None => planner::distances(&self.topology, place, safe)[start.index()],
        };
        // The walk home, then the climb: one action more.
        home.is_some_and(|home| cost + home < left)
    }

    /// Chooses the next action. The agent assumes the action will be taken; if another is
    /// taken instead, [`GridAgent::observe_percepts`] notices and replans. Asking again before the next
    /// observation gives the same decision.
    pub(super) fn chosen(&mut self) -> Chosen {
        if let Some(decision) = &self.plan.pending {
            return decision.clone();
        }
        let decision = self.choose();
        self.plan.pending = Some(decision.clone());
        decision
    }

    pub(super) fn choose(&mut self) -> Chosen {
        if self.status.glint_here && !self.status.has_gold {
            self.plan.steps.clear();
            return self.plan.single(
                Action::Grab,
                Rule::GrabGold,
                "the gold glints here: grab it",
            );
        }
        if !self.plan.steps.is_empty() {
            return self.plan.next();
        }
        let start = Place::new(0);
        if self.status.has_gold {
            return self.go_home(Rule::ReturnWithGold, "carrying the gold");
        }
        // Explore: the nearest proven-safe cell not yet visited.
        let route = self.walk_to(Goal::SafeUnvisited);
        if let Some(route) = route {
            let target = route.goal();
            let (cost, facing) = self.route_cost(&route);
            if !self.affordable(cost, target, facing) {
                return self.go_home(
                    Rule::ReturnEmptyHanded,
                    "the actions left before the game ends would not bring it back from the \
                     nearest unexplored cell",
                );
            }
            let what = format!(
                "explore {}, the nearest proven-safe unvisited cell",
                self.topology.label(target)
            );
            return self.plan.follow(route, None, Rule::Explore, what);
        }
        if let Some(decision) = self.plan_shot() {
            return decision;
        }
        let mut weighed = None;
        if let Strategy::Risk { pit_prob, scoring } = self.settings.strategy {
            // A failure to count (never expected) falls back to the safe choice below.
            match self.gamble(pit_prob, scoring) {
                Ok(Gamble::Take(decision)) => return decision,
                Ok(Gamble::Climb(odds)) => weighed = odds,
                Err(_) => {}
            }
        }
        let mut decision = if self.status.position == start {
            self.plan.single(
                Action::Climb,
                Rule::Climb,
                "no proven-safe cell is left to explore: climb out",
            )
        } else {
            self.go_home(
                Rule::ReturnEmptyHanded,
                "no proven-safe cell is left to explore",
            )
        };
        // What climbing out was weighed against, for trace and hint to show.
        decision.odds = weighed;
        decision
    }

    pub(super) fn go_home(&mut self, rule: Rule, why: &str) -> Chosen {
        let start = Place::new(0);
        if self.status.position == start {
            return self
                .plan
                .single(Action::Climb, Rule::Climb, &format!("{why}: climb out"));
        }
        let route = self
            .walk_to(Goal::At(start))
            .expect("the way back over visited cells is always open");
        let what = format!("{why}: walk home to 0,0 and climb out");
        self.plan.follow(route, Some(Action::Climb), rule, what)
    }

    /// The walk planned: from the agent's cell through each cell its decided action and the
    /// plan after it step into; empty when neither moves it.
    pub(super) fn planned_route(&self) -> Vec<Place> {
        let mut route = vec![self.status.position];
        let decided = self.plan.pending.iter().map(|c| &c.action);
        for action in decided.chain(self.plan.steps.iter()) {
            if let Action::Move(d) = action {
                let at = *route.last().expect("starts with the agent's cell");
                match self.topology.follow(at, Link::Step(*d)) {
                    Some(next) => route.push(next),
                    None => break,
                }
            }
        }
        if route.len() == 1 {
            route.clear();
        }
        route
    }

    /// A shot that proves new cells safe whether it kills or misses, from the nearest cell it
    /// can be fired from. Targets are cells proven pit-free where the wumpus may be.
    pub(super) fn plan_shot(&mut self) -> Option<Chosen> {
        if !self.status.has_arrow || !self.status.wumpus_alive {
            return None;
        }
        let targets: Vec<Place> = match self.map.wumpus_at {
            Some(w) if self.map.cells[w.index()].proven[Question::NoPit as usize] => vec![w],
            Some(_) => Vec::new(),
            None => self
                .frontier
                .places
                .iter()
                .copied()
                .filter(|&p| {
                    let c = &self.map.cells[p.index()];
                    self.in_frontier_now(p)
                        && c.proven[Question::NoPit as usize]
                        && !c.proven[Question::NoWumpus as usize]
                })
                .collect(),
        };
        if targets.is_empty() {
            return None;
        }
        let (dist, headed) = match self.status.facing {
            // With a heading, a firing place costs the walk there and the turns to face the
            // target.
            Some(facing) => (
                planner::Distances::Dense(Vec::new()),
                Some(planner::headed_costs(
                    &self.topology,
                    self.status.position,
                    facing,
                    |p| self.is_safe(p),
                    |_| false,
                )),
            ),
            None => (
                planner::distances(&self.topology, self.status.position, |p| self.is_safe(p)),
                None,
            ),
        };
        let is_target: std::collections::HashSet<Place> = targets.iter().copied().collect();
        // Candidate firing cells: walkable cells in line with a target.
        let mut best: Option<(usize, u32, Place, Direction)> = None;
        for &t in &targets {
            for dir in Direction::ALL {
                let back = dir.opposite();
                for from in self.topology.ray(t, back) {
                    let cost = match &headed {
                        Some(h) => h.to(from, dir),
                        None => dist[from.index()],
                    };
                    let Some(d) = cost else {
                        continue;
                    };
                    let opened = self
                        .topology
                        .ray(from, dir)
                        .into_iter()
                        .filter(|c| is_target.contains(c))
                        .count();
                    let better = match best {
                        None => true,
                        Some((o, bd, bp, _)) => {
                            opened > o || (opened == o && (d < bd || (d == bd && from < bp)))
                        }
                    };
                    if better {
                        best = Some((opened, d, from, dir));
                    }
                }
            }
        }
        let (opened, cost, from, dir) = best?;
        // The shot is an action and costs 10 more.
        if !self.affordable(cost + 11, from, self.status.facing.map(|_| dir)) {
            return None;
        }
        let (rule, what) = match self.map.wumpus_at {
            Some(w) => (
                Rule::ShootWumpus,
                format!("the wumpus is proven at {}", self.topology.label(w)),
            ),
            None => (
                Rule::ProbeShot,
                format!(
                    "{opened} pit-free cell{} may hold the wumpus; a kill or a miss proves {} safe",
                    if opened == 1 { "" } else { "s" },
                    if opened == 1 { "it" } else { "them" }
                ),
            ),
        };
        let route = match &headed {
            Some(h) => h.route(from, dir)?,
            None => self.walk_to(Goal::At(from))?,
        };
        // With a heading the textbook's words: the arrow flies the way the player faces.
        let fire = if self.status.facing.is_some() {
            "shoot facing"
        } else {
            "fire"
        };
        let what = format!("{what}: {fire} {dir} from {}", self.topology.label(from));
        Some(self.plan.follow(route, Some(Action::Fire(dir)), rule, what))
    }
}
