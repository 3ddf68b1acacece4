//! The classic cave agent's rules (rule 1 to rule 6 of [`super`]): what to do next, given what
//! the agent has proved and the odds it has counted. [`CaveAgent::decide`] asks
//! `decide_by_rules` first; with `--rollouts` it then weighs that choice against the others
//! by playing on ([`super::rollout`]).
//!
//! This file is the decision's order and its words: each rule asks a specialist for its
//! number (the shooting look-ahead in `shoot`, arrows past the known tunnels in
//! [`super::blind`], the steps into rooms that may kill in `steps`, paths over proven-safe
//! rooms in [`crate::planner`]), compares it with the policy's shares ([`super::Policy`]), and
//! writes the reason `trace` and `hint` show.

use super::blind;
use super::layouts::Odds;
use super::shoot::{best_shot, Shot, Stakes, Weighing};
use super::{percent, CaveAgent, Chosen, Weighed, MOVE_LIMIT};
use crate::agent::{Reason, Rule};
use crate::cave::classic::{Action, ArrowPath};
use crate::planner;
use crate::topology::{Place, Topology};

impl CaveAgent {
    /// The rules' choice of the next action.
    pub(super) fn decide_by_rules(&mut self) -> Chosen {
        let Some(here) = self.here else {
            return Chosen {
                action: Action::Move(Place::new(0)),
                reason: reason(Rule::Gamble, None, 0, "no status yet".to_string()),
                kill_chance: None,
                risk: None,
                weighed: Vec::new(),
                rollouts: 0,
            };
        };
        let Some(odds) = self.odds.clone() else {
            return self.blind(here);
        };
        let known = self.known();
        // Where walking on from here goes is asked once: the shooting look-ahead weighs it
        // (with the map known), and rules 5 and 6 take it.
        let explore = self.explore_route(&known, here);
        let mut least_risk = None;
        let aim = (self.arrows > 0).then(|| {
            let near = self.smell_near(here);
            let walk_on = self.walk_on_weighed(
                || explore.is_some(),
                || {
                    let step = least_risk.insert(self.least_risk_step(&known, here, &odds));
                    step.as_ref().map(|(_, risk, _)| *risk)
                },
            );
            let stakes = Stakes {
                arrows: self.arrows,
                full: f64::from(MOVE_LIMIT - self.moves),
                walk_on,
                tail_trust: self.config.policy.tail_trust,
            };
            (near, stakes)
        });
        let shot = aim.as_ref().and_then(|(near, stakes)| {
            best_shot(
                &known,
                here,
                &odds,
                &self.map,
                near,
                *stakes,
                Weighing::FirstArrow,
            )
        });
        // Once a rule decides to shoot, the arrow is aimed two arrows deep, with the map known.
        // While it is discovered, where a woken wumpus walks is known only as far as the
        // tunnels seen, too little to plan a second arrow on.
        let aimed = |s: &Shot| {
            aim.as_ref()
                .filter(|_| self.map.whole())
                .and_then(|(near, stakes)| {
                    let deeper = Weighing::FirstTwoArrows;
                    best_shot(&known, here, &odds, &self.map, near, *stakes, deeper)
                })
                .unwrap_or_else(|| s.clone())
        };
        // 1. The next move would be the hundredth.
        if self.moves + 1 >= MOVE_LIMIT {
            if let Some(s) = &shot.as_ref().map(aimed) {
                let text = format!(
                    "the next move would be the {MOVE_LIMIT}th: shoot {} ({} to kill)",
                    self.rooms_text(&s.path),
                    percent(s.chance)
                );
                return self.shoot(&s.path, s.chance, Rule::LastChance, text);
            }
        }
        // 2. Proven.
        if let Some(s) = &shot {
            let epoch = self.epoch();
            if let Some(&w) = s
                .path
                .iter()
                .find(|r| self.facts[r.index()].wumpus == Some(epoch))
            {
                let text = format!(
                    "the wumpus is proven in room {}: shoot {}",
                    self.label(w),
                    self.rooms_text(&s.path)
                );
                return self.shoot(&s.path, s.chance, Rule::ShootWumpus, text);
            }
        }
        // 3. Shooting from here, or from a proven-safe room a step or two away, is worth
        // enough (a step back can put a room between the hunter and a wumpus it may wake).
        let full = f64::from(MOVE_LIMIT - self.moves);
        let value = shot.as_ref().map_or(0.0, |s| s.value);
        let shoot_share = self.shoot_share_now();
        if let Some((route, there)) = self.better_shooting_room(&known, here, &odds, value) {
            // While the map is being discovered, each step shows new tunnels and the values
            // move with them; a walk that would lead back to a room it left is going round,
            // spending moves on estimates, so the hunter shoots from here instead.
            let going_round = !self.map.whole() && self.left_for_a_shot.contains(&route.goal());
            if there.value >= shoot_share * full && !going_round {
                let text = format!(
                    "walk to room {} to shoot {} from there: worth {:.0} points against {:.0} from here",
                    self.label(route.goal()),
                    self.rooms_text(&there.path),
                    there.value,
                    value
                );
                return self.walk(&route, Rule::BestShot, text, None);
            }
        }
        if let Some(shallow) = &shot {
            if value >= shoot_share * full {
                let s = &aimed(shallow);
                let text = format!(
                    "shoot {}: {} to kill{}; shooting from here is worth {:.0} points{}",
                    self.rooms_text(&s.path),
                    percent(s.chance),
                    if s.eaten > 0.0 {
                        format!(", {} to be eaten after a miss", percent(s.eaten))
                    } else {
                        String::new()
                    },
                    value,
                    self.aim_note(shallow, s)
                );
                return self.shoot(&s.path, s.chance, Rule::BestShot, text);
            }
        }
        // 4. Shoot into the unseen. Only while the wumpus cannot be next door: the wake a miss
        // causes cannot then bring it into the hunter's room.
        let calm = self
            .map
            .linked(here)
            .iter()
            .all(|r| odds.wumpus[r.index()] == 0.0);
        // Planned at most once a decision: rule 6 may ask again for the arrow rule 4 declined.
        let blind = std::cell::OnceCell::new();
        let blind_shot = || {
            blind
                .get_or_init(|| blind::blind_shot(&self.map, &known, here, &odds.wumpus))
                .as_ref()
        };
        if calm && self.arrows > self.config.policy.blind_arrows_kept {
            if let Some(b) = blind_shot() {
                if b.chance >= self.config.policy.blind_chance {
                    let text = format!(
                        "shoot {}. The rule: while the map is being discovered, no wumpus can \
                         be next door to wake into this room and more than {} arrows are left, \
                         a blind shot with at least {} to kill comes before walking on",
                        self.blind_text(b),
                        self.config.policy.blind_arrows_kept,
                        percent(self.config.policy.blind_chance)
                    );
                    return self.shoot(&b.path, b.chance, Rule::BlindShot, text);
                }
            }
        }
        // 5. Explore proven-safe rooms.
        if let Some(route) = explore {
            let target = route.goal();
            let which = if self.discovering_one_way() {
                "the proven-safe room not yet visited with the shortest walk there and on to \
                 the next (tunnels go one way)"
            } else {
                "the nearest proven-safe room not yet visited"
            };
            let text = format!("explore room {}, {which}", self.label(target));
            return self.walk(&route, Rule::Explore, text, None);
        }
        // 6. Nothing safe is left: the best arrow or the step worth most.
        if self.config.policy.step_lookahead {
            if let Some((route, risk, target, worth, steps)) = self.best_step(&known, here, &odds) {
                let fire = shot.as_ref().filter(|_| value >= worth);
                let mut weighed: Vec<Weighed> = steps
                    .into_iter()
                    .map(|(room, risk, worth)| Weighed {
                        step: Some(room),
                        chance: risk,
                        worth,
                        chosen: fire.is_none() && room == target,
                    })
                    .collect();
                if let Some(s) = &shot {
                    weighed.push(Weighed {
                        step: None,
                        chance: s.chance,
                        worth: value,
                        chosen: fire.is_some(),
                    });
                }
                weighed.sort_by(|a, b| b.worth.total_cmp(&a.worth));
                if let Some(s) = fire.map(aimed) {
                    let text = format!(
                        "nothing safe is left to explore; shoot {}: {} to kill, worth {:.0} \
                         points against {:.0} for the best step (room {})",
                        self.rooms_text(&s.path),
                        percent(s.chance),
                        value,
                        worth,
                        self.label(target)
                    );
                    let mut decision = self.shoot(&s.path, s.chance, Rule::BestShot, text);
                    decision.weighed = weighed;
                    return decision;
                }
                let text = format!(
                    "nothing safe is left to explore: room {} is the step worth most ({:.0} \
                     points, {} to die)",
                    self.label(target),
                    worth,
                    percent(risk)
                );
                let mut decision = self.walk(&route, Rule::Gamble, text, Some(risk));
                decision.weighed = weighed;
                return decision;
            }
        }
        let step = least_risk.unwrap_or_else(|| self.least_risk_step(&known, here, &odds));
        match (&shot, &step) {
            (Some(s), Some((_, risk, _)))
                if value >= (1.0 - *risk) * self.explore_share_now() * (full - 1.0) =>
            {
                let (shallow, s) = (s, &aimed(s));
                let text = format!(
                    "nothing safe is left to explore; shoot {}: {} to kill, worth {:.0} points{}",
                    self.rooms_text(&s.path),
                    percent(s.chance),
                    value,
                    self.aim_note(shallow, s)
                );
                self.shoot(&s.path, s.chance, Rule::BestShot, text)
            }
            (_, Some((route, risk, target))) => {
                if calm && self.arrows > 1 && *risk >= self.config.policy.blind_before_gamble {
                    if let Some(b) = blind_shot() {
                        let text = format!(
                            "nothing safe is left to explore and room {}, the least risk, has {} \
                             to die, so an arrow flies first: shoot {}. The rule: while the map is being \
                             discovered, no wumpus can be next door and two arrows or more are \
                             left, a blind shot comes before a step with at least {} to die",
                            self.label(*target),
                            percent(*risk),
                            self.blind_text(b),
                            percent(self.config.policy.blind_before_gamble)
                        );
                        return self.shoot(&b.path, b.chance, Rule::BlindShot, text);
                    }
                }
                let text = format!(
                    "nothing safe is left to explore: room {} is the least risk ({} to die)",
                    self.label(*target),
                    percent(*risk)
                );
                let route = route.clone();
                self.walk(&route, Rule::Gamble, text, Some(*risk))
            }
            (Some(s), None) => {
                let s = &aimed(s);
                let text = format!(
                    "nowhere is left to walk: shoot {} ({} to kill)",
                    self.rooms_text(&s.path),
                    percent(s.chance)
                );
                self.shoot(&s.path, s.chance, Rule::BestShot, text)
            }
            (None, None) => self.blind(here),
        }
    }

    /// What a blind shot is, for a reason: its rooms, where the known tunnels end, its
    /// estimated chance.
    fn blind_text(&self, b: &blind::BlindShot) -> String {
        format!(
            "{}, to room {} by known tunnels, then on into tunnels not yet seen (where a named \
             room is not joined, a random tunnel): about {} to kill, and it cannot come back",
            self.rooms_text(&b.path),
            self.label(b.path[b.known - 1]),
            percent(b.chance)
        )
    }

    /// The walk over proven-safe rooms to the proven-safe room not yet visited that rule 5
    /// explores (the nearest, or where tunnels go one way the one with the shortest walk there
    /// and on), if there is one.
    pub(super) fn explore_route(&self, known: &Topology, here: Place) -> Option<planner::Route> {
        let safe = |p: Place| self.is_safe(p);
        let unexplored = |p: Place| p != here && !self.map.visited(p) && self.is_safe(p);
        // Once a tunnel is seen to go one way, the nearest proven-safe room can be a trap: a
        // step into it may shut the hunter off from the others, or leave them a long way
        // round. So explore the room that makes the walk there and on to the next such room
        // shortest. On two-way maps, and with the map given, the nearest room is explored.
        if self.discovering_one_way() {
            planner::nearest_with_walk_on(known, here, safe, unexplored)
        } else {
            planner::nearest(known, here, safe, unexplored)
        }
    }

    /// A proven-safe room at most [`Policy::shooting_walk`](super::Policy::shooting_walk) steps away from which shooting is worth
    /// more than from here, the walk counted: the route there and the shot from there.
    fn better_shooting_room(
        &self,
        known: &Topology,
        here: Place,
        odds: &Odds,
        value_here: f64,
    ) -> Option<(planner::Route, Shot)> {
        if self.arrows == 0 {
            return None;
        }
        let dist = planner::distances_dense(known, here, |p| self.is_safe(p));
        let mut best: Option<(f64, Place, Shot)> = None;
        for i in 0..known.len() {
            let room = Place::new(i);
            let Some(d) = dist[i] else { continue };
            if d == 0 || d as usize > self.config.policy.shooting_walk || !self.is_safe(room) {
                continue;
            }
            // The walk costs its moves and one point more, a margin against estimates that
            // move as the walk shows new tunnels.
            let full = f64::from(MOVE_LIMIT.saturating_sub(self.moves + d + 1));
            let near = self.smell_near(room);
            let stakes = Stakes {
                arrows: self.arrows,
                full,
                walk_on: self.walk_on_after_miss(known, room, odds),
                tail_trust: self.config.policy.tail_trust,
            };
            let Some(s) = best_shot(
                known,
                room,
                odds,
                &self.map,
                &near,
                stakes,
                Weighing::FirstArrow,
            ) else {
                continue;
            };
            if s.value > value_here + 0.5 && best.as_ref().is_none_or(|(v, ..)| s.value > *v) {
                best = Some((s.value, room, s));
            }
        }
        let (_, room, shot) = best?;
        let route = planner::nearest(known, here, |p| self.is_safe(p), |p| p == room)?;
        Some((route, shot))
    }

    /// What aiming two arrows deep changed, for the reason given: nothing when it kept the
    /// arrow the shooting look-ahead chose.
    fn aim_note(&self, chosen: &Shot, aimed: &Shot) -> String {
        if chosen.path == aimed.path {
            return String::new();
        }
        format!(
            "; aimed weighing every second arrow too ({:.0} points that way), not {} ({} to kill)",
            aimed.value,
            self.rooms_text(&chosen.path),
            percent(chosen.chance)
        )
    }

    pub(super) fn rooms_text(&self, rooms: &[Place]) -> String {
        rooms
            .iter()
            .map(|&r| self.label(r))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Shoot `path`. While the map is being discovered, a path along known tunnels that ends
    /// in an unvisited room not next to the hunter flies on past them ([`blind::with_tail`]):
    /// the tail can only add a kill (it cannot come back), and a miss proves what the known
    /// part proved.
    fn shoot(&self, path: &[Place], chance: f64, rule: Rule, mut text: String) -> Chosen {
        let tail = match (self.here, &self.odds) {
            (Some(here), Some(odds)) => blind::with_tail(&self.map, here, path, &odds.wumpus),
            _ => None,
        };
        let path = match &tail {
            Some(t) => {
                text.push_str(&format!(
                    "; past room {} it flies on into tunnels not yet seen, as {} (about {} more \
                     to kill, and it cannot come back)",
                    self.label(path[path.len() - 1]),
                    self.rooms_text(&t.path[path.len()..]),
                    percent((t.chance - chance).max(0.0))
                ));
                &t.path[..]
            }
            None => path,
        };
        // What the arrow aims at: the room on its way the wumpus most likely holds.
        let aim = match &self.odds {
            Some(odds) => path
                .iter()
                .copied()
                .max_by(|a, b| odds.wumpus[a.index()].total_cmp(&odds.wumpus[b.index()])),
            None => path.first().copied(),
        };
        Chosen {
            action: Action::Shoot(ArrowPath::new(path.to_vec()).expect("1 to 5 rooms")),
            reason: reason(rule, aim, 0, text),
            kill_chance: Some(chance),
            risk: None,
            weighed: Vec::new(),
            rollouts: 0,
        }
    }

    fn walk(&self, route: &planner::Route, rule: Rule, text: String, risk: Option<f64>) -> Chosen {
        let steps = route.len();
        let text = match steps {
            0 | 1 => text,
            n => format!("{text} ({n} steps to go)"),
        };
        Chosen {
            action: Action::Move(route.places[1]),
            reason: reason(rule, Some(route.goal()), steps, text),
            kill_chance: None,
            risk,
            weighed: Vec::new(),
            rollouts: 0,
        }
    }

    /// With no knowledge to go on: the first tunnel out.
    fn blind(&self, here: Place) -> Chosen {
        // The tunnels the last status showed: the map may be what clashed.
        let to = self.shown_outs.first().copied().unwrap_or(here);
        Chosen {
            action: Action::Move(to),
            reason: reason(
                Rule::Gamble,
                Some(to),
                1,
                format!(
                    "what happened contradicts the rules ({}): walk on blind",
                    self.lost.as_deref().unwrap_or("no odds")
                ),
            ),
            kill_chance: None,
            risk: None,
            weighed: Vec::new(),
            rollouts: 0,
        }
    }
}

/// How likely an arrow is to kill, and how it could go wrong.
pub(super) fn reason(rule: Rule, target: Option<Place>, steps: usize, text: String) -> Reason {
    Reason {
        rule,
        target,
        steps,
        text,
    }
}
