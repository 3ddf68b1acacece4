//! Where nothing is proven safe, the classic cave agent's steps into rooms that may kill (rule
//! 6 of [`super`]): every way in from a proven-safe room ([`CaveAgent::ways_in`]), the
//! least-risk one (the default), and, with the map known and `--depth 2`
//! ([`super::Policy::step_lookahead`]), the one-level look-ahead that weighs each by what may be
//! felt there and the best shot after it.

use super::layouts::{flight_death, Evidence, Odds};
use super::shoot::{best_shot, Stakes, Weighing};
use super::{CaveAgent, OddsSource, MOVE_LIMIT};
use crate::planner;
use crate::topology::{Place, Topology};

impl CaveAgent {
    /// With the map known: the step into a room not proven safe (after a walk over
    /// proven-safe rooms) worth most by a one-level expectimax, and its worth. Dying is worth
    /// nothing, a bat flight survived `explore_share` of a kill, and each combination of
    /// warnings felt in the room (its chance a ratio of layout weights) the better of the best
    /// shot from there and `explore_share` of surviving the least-risk step on. Returns the
    /// route, the chance of dying on the step, the room and the worth, and every room weighed
    /// with its chance of dying and its worth.
    #[allow(clippy::type_complexity)]
    pub(super) fn best_step(
        &self,
        known: &Topology,
        here: Place,
        odds: &Odds,
    ) -> Option<(planner::Route, f64, Place, f64, Vec<(Place, f64, f64)>)> {
        if !self.map.whole() || self.config.odds != OddsSource::Layouts {
            return None;
        }
        let evidence = self.evidence.as_ref()?;
        let (_, z) = Odds::compute_weighed(evidence, &self.map).ok()?;
        // The nearest proven-safe room each candidate is entered from.
        let mut entry: Vec<Option<(u32, Place)>> = vec![None; known.len()];
        for (d, from, to) in self.ways_in(known, here) {
            if entry[to.index()].is_none_or(|(bd, bf)| (d, from) < (bd, bf)) {
                entry[to.index()] = Some((d, from));
            }
        }
        let share = self.explore_share_now();
        let full = f64::from(MOVE_LIMIT - self.moves);
        let mut best: Option<(f64, Place, Place)> = None;
        let mut steps = Vec::new();
        for (i, e) in entry.iter().enumerate() {
            let Some((d, from)) = *e else { continue };
            let to = Place::new(i);
            let after = (full - f64::from(d) - 1.0).max(0.0);
            let worth = self.step_worth(known, evidence, odds, z, to, after, share);
            steps.push((to, odds.death_on_entering(to), worth));
            if best.is_none_or(|(b, ..)| worth > b + 1e-9) {
                best = Some((worth, from, to));
            }
        }
        let (worth, from, to) = best?;
        let route = self.step_route(known, here, from, to)?;
        Some((route, odds.death_on_entering(to), to, worth, steps))
    }

    /// The worth of stepping into `to` with `full` points for a kill after the step.
    #[allow(clippy::too_many_arguments)]
    fn step_worth(
        &self,
        known: &Topology,
        evidence: &Evidence,
        odds: &Odds,
        z: f64,
        to: Place,
        full: f64,
        share: f64,
    ) -> f64 {
        let flown = odds.snatch_on_entering(to) * (1.0 - flight_death(known.len()));
        let mut worth = flown * share * full;
        let near = self.map.linked(to);
        let smell = self.smell_near(to);
        let mut base = evidence.clone();
        base.survived(to);
        let fresh = !self.warned[to.index()];
        let felt: &[bool] = if fresh { &[false, true] } else { &[false] };
        for &draft in felt {
            for &bats in felt {
                for stench in [false, true] {
                    let mut e = base.clone();
                    if fresh {
                        e.draft(&near, draft);
                        e.flapping(&near, bats);
                    }
                    e.stench(&smell, stench);
                    let Ok((o, w)) = Odds::compute_weighed(&e, &self.map) else {
                        continue;
                    };
                    let p = w / z;
                    if p <= 1e-12 {
                        continue;
                    }
                    // Walking on: the least deadly room not yet visited next to a visited one.
                    let mut risk: f64 = 1.0;
                    for r in known.places() {
                        if r == to || self.map.visited(r) {
                            continue;
                        }
                        let reachable = self
                            .map
                            .linked(r)
                            .iter()
                            .any(|&f| f == to || self.map.visited(f));
                        if reachable {
                            risk = risk.min(o.death_on_entering(r));
                        }
                    }
                    let shot = if self.arrows > 0 {
                        let stakes = Stakes {
                            arrows: self.arrows,
                            full,
                            walk_on: self.walk_on_share(risk),
                            tail_trust: self.config.policy.tail_trust,
                        };
                        best_shot(
                            known,
                            to,
                            &o,
                            &self.map,
                            &smell,
                            stakes,
                            Weighing::FirstArrow,
                        )
                        .map_or(0.0, |s| s.value)
                    } else {
                        0.0
                    };
                    let walk = (1.0 - risk) * share * (full - 1.0).max(0.0);
                    worth += p * shot.max(walk);
                }
            }
        }
        worth
    }

    /// The route over proven-safe rooms to `from`, then the step into `to`.
    fn step_route(
        &self,
        known: &Topology,
        here: Place,
        from: Place,
        to: Place,
    ) -> Option<planner::Route> {
        let mut route = if from == here {
            planner::Route {
                places: vec![here],
                links: Vec::new(),
            }
        } else {
            planner::nearest(known, here, |p| self.is_safe(p), |p| p == from)?
        };
        let link = known
            .exits(from)
            .find(|&(_, t)| t == to)
            .map(|(l, _)| l)
            .expect("a known tunnel");
        route.places.push(to);
        route.links.push(link);
        Some(route)
    }

    /// Every way into a room not proven safe: the walk over proven-safe rooms from here to a
    /// room leading into it (its length, that room) and the room.
    fn ways_in(&self, known: &Topology, here: Place) -> Vec<(u32, Place, Place)> {
        let dist = planner::distances(known, here, |p| self.is_safe(p));
        let mut ways = Vec::new();
        for from in known.places() {
            let Some(d) = dist[from.index()] else {
                continue;
            };
            if from != here && !self.is_safe(from) {
                continue;
            }
            for to in known.neighbours(from) {
                if to != from && to != here && !self.is_safe(to) {
                    ways.push((d, from, to));
                }
            }
        }
        ways
    }

    /// The least-risk way into a room not yet known safe: a walk over proven-safe rooms to one
    /// next to it, then the step. Returns the route, the chance of dying on the step, and the
    /// room stepped into.
    pub(super) fn least_risk_step(
        &self,
        known: &Topology,
        here: Place,
        odds: &Odds,
    ) -> Option<(planner::Route, f64, Place)> {
        let mut best: Option<(f64, u32, Place, Place)> = None;
        let penalty = self.flight_penalty_now();
        let stranding = self.no_way_back_now();
        for (d, from, to) in self.ways_in(known, here) {
            let risk = odds.death_on_entering(to) + penalty * odds.snatch_on_entering(to);
            // An unvisited room's known out-tunnels are exactly those into visited rooms.
            let no_way_back = self.map.outs(to).is_empty();
            let cost = risk + 0.002 * d as f64 + if no_way_back { stranding } else { 0.0 };
            let better = match best {
                None => true,
                Some((c, bd, _, bt)) => {
                    cost < c - 1e-12 || (cost <= c + 1e-12 && (d, to) < (bd, bt))
                }
            };
            if better {
                best = Some((cost, d, from, to));
            }
        }
        let (_, _, from, to) = best?;
        let route = self.step_route(known, here, from, to)?;
        Some((route, odds.death_on_entering(to), to))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CaveAgentConfig, Policy};
    use super::*;
    use crate::cave::classic::{Action, MoveResult, Status, TurnResult};

    fn room(i: usize) -> Place {
        Place::new(i)
    }

    fn rooms(list: &[usize]) -> Vec<Place> {
        list.iter().map(|&i| room(i)).collect()
    }

    /// Walks a discovering agent, with `policy`, through a start in room 0 that warns of
    /// nothing, room 1 (a draft; its tunnels in and out differ, so a one-way tunnel is seen)
    /// and, back through 0, room 2 (bats). Returns the room its least-risk step goes into.
    fn least_risk_room(policy: Policy) -> Place {
        least_risk_room_with(policy, &[0, 4, 6, 9, 10, 11], &[0, 7])
    }

    /// [`least_risk_room`] with the tunnels into room 1 and into room 2 as given.
    fn least_risk_room_with(policy: Policy, ins_1: &[usize], ins_2: &[usize]) -> Place {
        let mut config = CaveAgentConfig::discovering(20);
        config.policy = policy;
        let mut agent = CaveAgent::new(config).unwrap();
        let status = |at: usize, outs: &[usize], ins: &[usize], pit: bool, bats: bool| Status {
            room: room(at),
            outs: rooms(outs),
            ins: rooms(ins),
            pit,
            bats,
            wumpus: false,
            arrows: 5,
            moves: 0,
        };
        let moved = TurnResult::Move(MoveResult::Moved);
        let at_0 = status(0, &[1, 2, 3], &[1, 2, 3], false, false);
        agent.observe_turn(None, None, &at_0).unwrap();
        let at_1 = status(1, &[0, 4, 5], ins_1, true, false);
        agent
            .observe_turn(Some(&Action::Move(room(1))), Some(&moved), &at_1)
            .unwrap();
        agent
            .observe_turn(Some(&Action::Move(room(0))), Some(&moved), &at_0)
            .unwrap();
        let at_2 = status(2, &[0, 7, 8], ins_2, false, true);
        agent
            .observe_turn(Some(&Action::Move(room(2))), Some(&moved), &at_2)
            .unwrap();
        assert!(agent.map.one_way_seen());
        let known = agent.known();
        let odds = agent.odds.clone().unwrap();
        let (_, _, into) = agent.least_risk_step(&known, room(2), &odds).unwrap();
        into
    }

    #[test]
    fn where_tunnels_go_one_way_a_likely_bat_room_beats_a_likelier_pit() {
        // Rooms 7 and 8 hold bats about half the time each (a flight kills 3 times in 18);
        // rooms 4 and 5 hold a pit about one time in five. Counting a flight at the two-way
        // share of 0.3 the pit is the lesser risk; at the one-way share, the bats.
        let one_way = least_risk_room(Policy::default());
        assert!([room(7), room(8)].contains(&one_way), "{one_way:?}");
        let two_way_penalty = Policy {
            one_way_flight_penalty: Policy::default().flight_penalty,
            ..Policy::default()
        };
        let pit = least_risk_room(two_way_penalty);
        assert!([room(4), room(5)].contains(&pit), "{pit:?}");
    }

    #[test]
    fn where_tunnels_go_one_way_a_room_with_a_way_back_beats_one_without() {
        // Rooms 7 and 8, next to the bats' warning in room 2, are alike in risk; a tunnel is
        // known from 8 back into 2 and none from 7. The step goes into 8; without the
        // penalty, into 7 (the lower number among equals).
        let (ins_1, ins_2) = ([0, 5, 6, 9, 10, 11], [0, 8]);
        assert_eq!(
            least_risk_room_with(Policy::default(), &ins_1, &ins_2),
            room(8)
        );
        let no_penalty = Policy {
            one_way_no_way_back: 0.0,
            ..Policy::default()
        };
        assert_eq!(least_risk_room_with(no_penalty, &ins_1, &ins_2), room(7));
    }
}
