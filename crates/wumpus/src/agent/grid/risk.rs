//! The risk agent's weighing, when logic runs out on the grid: each frontier cell is valued by
//! expected final score against climbing out (the one-step estimate), or, with `--depth 2` and
//! up, every step and shot is valued by the look-ahead search of [`super::lookahead`].
//!
//! It is the one place where the grid agent takes a risk: [`GridAgent`]'s logic calls
//! `gamble` only when no proven-safe cell is left to explore and no shot proves one safe, and
//! the odds it weighs are the knowledge base's exact ones (or the search's, which equal them).

use super::lookahead::{Sight, REACH_DISCOUNT, REACH_RADIUS};
use super::odds::death_chance;
use super::{Chosen, Goal, GridAgent, Question};
use crate::agent::common::percent;
use crate::agent::Rule;
use crate::grid::{Action, Scoring};
use crate::kb::ground::{Atom, GroundLit};
use crate::kb::odds::Prior;
use crate::kb::KbError;
use crate::planner;
use crate::topology::{Direction, Link, Place};
use std::collections::VecDeque;

/// The risks a risk-taking agent weighed when nothing was proven safe.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    /// Each frontier cell it could step into.
    pub candidates: Vec<Candidate>,
    /// The expected final score of walking home and climbing out now.
    pub climb: f64,
    /// How many steps deep the values were searched (1: the one-step estimate).
    pub depth: u32,
    /// The shots weighed with the steps (only when looking more than one step ahead).
    pub shots: Vec<ShotCandidate>,
}

/// One shot a risk-taking agent looking ahead weighed when nothing was proven safe.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShotCandidate {
    /// The visited cell it is fired from.
    pub from: Place,
    /// The way the arrow flies.
    pub dir: Direction,
    /// The chance that it kills the wumpus.
    pub kill: f64,
    /// The expected final score of walking there, firing and going on.
    pub expected: f64,
    /// True for the shot taken.
    pub chosen: bool,
}

/// One cell a risk-taking agent considered stepping into.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The cell.
    pub place: Place,
    /// Probability of a pit there.
    pub pit: f64,
    /// Probability of the live wumpus there.
    pub wumpus: f64,
    /// The expected final score of stepping in (and going on).
    pub expected: f64,
    /// True when `expected` is only an upper bound: the exact value could not have changed
    /// the choice, so it was not counted.
    pub bound: bool,
}

/// What the risk agent made of the risks open to it.
pub(super) enum Gamble {
    /// A step (or, looking ahead, a shot) worth more than climbing out.
    Take(Chosen),
    /// Climbing out is worth most; what was weighed against it, when anything was.
    Climb(Option<Odds>),
}

impl GridAgent {
    /// Weighs stepping into each frontier cell against climbing out, by expected final score.
    ///
    /// Surviving a step into `c` is worth climbing out from there later, plus the gold bonus
    /// times the chance of finding the gold: it lies uniformly in one of the `u` unvisited
    /// cells, and the step shows `c` and, one step ahead, opens `c`'s unknown neighbours when
    /// `c` turns out clear (no breeze, no stench), so about `1 + P(clear) · n` cells of `u`.
    /// Dying scores 0 under the standard scoring and −1000 (plus costs) under the textbook's.
    pub(super) fn gamble(&mut self, pit_prob: f64, scoring: Scoring) -> Result<Gamble, KbError> {
        let candidates: Vec<Place> = self
            .frontier
            .places
            .iter()
            .copied()
            .filter(|&p| {
                let c = &self.map.cells[p.index()];
                // (Cells that left the frontier are safe, so the test below drops them.)
                let known_deadly = c.proven[Question::Pit as usize]
                    || (self.status.wumpus_alive && self.map.wumpus_at == Some(p));
                !self.is_safe(p) && !known_deadly
            })
            .collect();
        if candidates.is_empty() {
            return Ok(Gamble::Climb(None));
        }
        if self.status.wumpus_alive {
            let asked: Vec<Atom> = candidates
                .iter()
                .map(|&p| self.atom(self.settings.words.wumpus, p))
                .collect();
            self.kb.mention(&asked);
        }
        let start = Place::new(0);
        let dist = planner::distances(&self.topology, self.status.position, |p| self.is_safe(p));
        let home = planner::distances(&self.topology, start, |p| self.is_safe(p));
        // With a heading, every walk is priced in actions, turns counted.
        let headed = self.status.facing.map(|facing| {
            planner::headed_costs(
                &self.topology,
                self.status.position,
                facing,
                |p| self.is_safe(p),
                |_| false,
            )
        });
        let unseen = self.map.cells.iter().filter(|c| !c.visited).count().max(1) as f64;
        let costs = -(self.status.moves as f64) - if self.status.has_arrow { 0.0 } else { 10.0 };
        let (out_bonus, gold_bonus) = match scoring {
            Scoring::Standard => (100.0, 900.0),
            Scoring::Aima => (0.0, 1000.0),
        };
        let here_home = match &headed {
            Some(h) => h.to_place(start),
            None => home[self.status.position.index()],
        }
        .unwrap_or(0) as f64;
        let mut climb = costs - here_home - 1.0 + out_bonus;
        // The search plans walks and gambles a few steps ahead without counting an action
        // budget: it is used while the actions left are far beyond any such plan (8 a cell).
        let roomy = self
            .budget_left()
            .is_none_or(|left| left as usize >= 8 * self.topology.len());
        let search = match (&self.foresight.lookahead, self.foresight.sight) {
            (Some((l, d)), Some(sight)) if roomy => {
                let facing = self.status.facing.map_or(0, |f| f.index() as u8);
                let sight = Sight {
                    arrow: self.status.has_arrow,
                    at: self.status.position.index(),
                    facing,
                    spent: self.status.moves + if self.status.has_arrow { 0 } else { 10 },
                    ..sight
                };
                Some((l.clone(), *d, sight))
            }
            _ => None,
        };
        // The exact odds of each candidate: the search counts them from what the agent has
        // seen (a unit test holds them equal to the knowledge base's), so where it runs the
        // knowledge base's slower count is not asked for.
        let odds = match &search {
            Some((l, _, sight)) => l.odds_of(sight, candidates.iter().map(|c| c.index())),
            None => self.hazard_odds(&candidates, pit_prob)?,
        };
        let rules = self.kb.rules().clone();
        let prior = Prior::uniform(&rules).bernoulli(self.settings.words.pit, pit_prob);
        struct Choice {
            place: Place,
            entry: Place,
            /// With a heading, the way the step from `entry` into `place` goes.
            entry_way: Option<Direction>,
            pit: f64,
            wumpus: f64,
            survive: f64,
            unknown: Vec<Place>,
            value: Box<dyn Fn(f64) -> f64>,
        }
        let dead_after = |to_c: f64| match scoring {
            Scoring::Standard => 0.0,
            Scoring::Aima => -1000.0 + costs - to_c,
        };
        let mut options = Vec::new();
        for (&c, &(pit, wumpus)) in candidates.iter().zip(&odds) {
            // Enter from the walkable neighbour nearest to us.
            let (entry, entry_way, to_c, c_home) = match &headed {
                None => {
                    let entry = self
                        .topology
                        .neighbours(c)
                        .filter(|&n| self.is_safe(n) && dist[n.index()].is_some())
                        .min_by_key(|&n| (dist[n.index()], home[n.index()], n));
                    let Some(entry) = entry else { continue };
                    let to_c = dist[entry.index()].unwrap_or(0) as f64 + 1.0;
                    let c_home = home[entry.index()].unwrap_or(0) as f64 + 1.0;
                    (entry, None, to_c, c_home)
                }
                Some(h) => {
                    let Some((entry, way, to_c, c_home)) = self.headed_entry(h, c) else {
                        continue;
                    };
                    (entry, Some(way), to_c as f64, c_home as f64)
                }
            };
            if self
                .budget_left()
                .is_some_and(|left| to_c + c_home + 1.0 > left as f64)
            {
                // Stepping in would leave no way home within the actions left.
                continue;
            }
            let survive = (1.0 - pit) * (1.0 - wumpus);
            let unknown: Vec<Place> = self
                .topology
                .neighbours(c)
                .filter(|&n| !self.map.cells[n.index()].visited)
                .collect();
            let opened = unknown.iter().filter(|&&n| !self.is_safe(n)).count() as f64;
            let beyond = self.reachable_beyond(c, pit_prob);
            let dead = dead_after(to_c);
            // The expected final score as a function of P(clear | c safe).
            let value = move |clear: f64| {
                let found = ((1.0 + clear * opened + beyond) / unseen).min(1.0);
                let alive = costs - to_c - c_home - 1.0 + out_bonus + found * gold_bonus;
                survive * alive + (1.0 - survive) * dead
            };
            options.push(Choice {
                place: c,
                entry,
                entry_way,
                pit,
                wumpus,
                survive,
                unknown,
                value: Box::new(value),
            });
        }
        // The value grows with P(clear), so value(1) bounds it: count the exact P(clear) only
        // for candidates whose bound could still beat the best so far (and climbing out).
        options.sort_by(|a, b| (b.value)(1.0).total_cmp(&(a.value)(1.0)));
        let mut weighed = Vec::new();
        let mut best: Option<(f64, Place, Place, Option<Direction>)> = None;
        let mut depth = 1;
        let deeper = search.map(|(l, d, sight)| l.weigh(&sight, d));
        let searched = deeper.is_some();
        let mut shots: Vec<ShotCandidate> = Vec::new();
        if let Some(valued) = deeper {
            // Every candidate valued by the search, as deep as it went.
            depth = valued.depth;
            climb = valued.climb;
            shots = valued
                .shots
                .iter()
                .map(|&(from, dir, kill, expected)| ShotCandidate {
                    from,
                    dir,
                    kill,
                    expected,
                    chosen: false,
                })
                .collect();
            for option in &options {
                let Some(&(_, expected)) = valued.steps.iter().find(|s| s.0 == option.place) else {
                    continue;
                };
                weighed.push(Candidate {
                    place: option.place,
                    pit: option.pit,
                    wumpus: option.wumpus,
                    expected,
                    bound: false,
                });
                if best.is_none_or(|(e, _, _, _)| expected > e) {
                    best = Some((expected, option.place, option.entry, option.entry_way));
                }
            }
        }
        // Without the look-ahead, the one-step estimate, with the exact odds of the knowledge base.
        for option in options.iter().filter(|_| !searched) {
            let bound = (option.value)(1.0);
            let floor = best.map_or(climb, |(e, _, _, _)| e.max(climb));
            if bound <= floor {
                weighed.push(Candidate {
                    place: option.place,
                    pit: option.pit,
                    wumpus: option.wumpus,
                    expected: bound,
                    bound: true,
                });
                continue;
            }
            // P(c safe and clear): no pit or live wumpus at c or next to it.
            let mut clear_conj: Vec<GroundLit> = Vec::new();
            for &p in std::iter::once(&option.place).chain(&option.unknown) {
                clear_conj.push((self.atom(self.settings.words.pit, p), false));
                if self.status.wumpus_alive {
                    clear_conj.push((self.atom(self.settings.words.wumpus, p), false));
                }
            }
            let clear_and_safe = self.kb.probability(&clear_conj, &prior)?;
            let clear = if option.survive > 0.0 {
                (clear_and_safe / option.survive).min(1.0)
            } else {
                0.0
            };
            let expected = (option.value)(clear);
            weighed.push(Candidate {
                place: option.place,
                pit: option.pit,
                wumpus: option.wumpus,
                expected,
                bound: false,
            });
            if best.is_none_or(|(e, _, _, _)| expected > e) {
                best = Some((expected, option.place, option.entry, option.entry_way));
            }
        }
        let step_value = best.map_or(f64::NEG_INFINITY, |(e, _, _, _)| e);
        let best_shot = shots
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.expected.total_cmp(&b.1.expected).then(b.0.cmp(&a.0)))
            .map(|(i, s)| (i, *s));
        let fired = best_shot.filter(|(_, s)| s.expected > step_value && s.expected > climb);
        if let Some((i, _)) = fired {
            shots[i].chosen = true;
        }
        // What was weighed, best first, for trace and hint: the same whichever is taken.
        weighed.sort_by(|a, b| b.expected.total_cmp(&a.expected));
        let odds = Odds {
            candidates: weighed,
            climb,
            depth,
            shots,
        };
        if let Some((_, shot)) = fired {
            return Ok(self
                .gamble_shot(shot, odds)
                .map_or(Gamble::Climb(None), Gamble::Take));
        }
        let Some((expected, target, entry, entry_way)) = best.filter(|b| b.0 > climb) else {
            return Ok(Gamble::Climb(Some(odds)));
        };
        let chosen = odds
            .candidates
            .iter()
            .find(|k| k.place == target)
            .copied()
            .expect("the best is among the weighed");
        let route = match (&headed, entry_way) {
            (Some(h), Some(way)) => h.route(entry, way),
            _ => self.walk_to(Goal::At(entry)),
        }
        .expect("the entry was reached by the distances");
        let mut links = route.links.clone();
        let step = self
            .topology
            .exits(entry)
            .find(|&(_, to)| to == target)
            .map(|(link, _)| link)
            .expect("the entry neighbours the target");
        links.push(step);
        let mut places = route.places.clone();
        places.push(target);
        let what = format!(
            "nothing is proven safe: step into {} ({} to die: a pit {}, the wumpus {}; expected score {:.0} against {:.0} for climbing out{})",
            self.topology.label(target),
            percent(death_chance(chosen.pit, chosen.wumpus)),
            percent(chosen.pit),
            percent(chosen.wumpus),
            expected,
            climb,
            if depth > 1 {
                format!(", looking {depth} steps ahead")
            } else {
                String::new()
            }
        );
        let mut decision =
            self.plan
                .follow(planner::Route { places, links }, None, Rule::Gamble, what);
        decision.odds = Some(odds);
        Ok(Gamble::Take(decision))
    }

    /// Walks to where `shot` is fired from and fires it: the look-ahead valued it above every
    /// step and climbing out.
    fn gamble_shot(&mut self, shot: ShotCandidate, odds: Odds) -> Option<Chosen> {
        let (climb, depth) = (odds.climb, odds.depth);
        let route = self.walk_to(Goal::At(shot.from))?;
        let what = format!(
            "nothing is proven safe: fire {} from {} (kill {:.3}; expected score {:.0} against \
             {:.0} for climbing out, looking {depth} steps ahead)",
            shot.dir,
            self.topology.label(shot.from),
            shot.kill,
            shot.expected,
            climb,
        );
        let mut decision =
            self.plan
                .follow(route, Some(Action::Fire(shot.dir)), Rule::ProbeShot, what);
        decision.odds = Some(odds);
        Some(decision)
    }
}

impl GridAgent {
    /// With a heading: the cheapest way to step into frontier cell `c` from the walkable
    /// neighbour it is entered from, given the costs `from_here` of reaching each state: the
    /// neighbour, the way of the step, its cost in actions from here (the step included), and
    /// the cost of walking home from `c` after it (turns counted, the climb not). Ties go to
    /// the cheaper way home, then to the lower place.
    fn headed_entry(
        &self,
        from_here: &planner::HeadedCosts,
        c: Place,
    ) -> Option<(Place, Direction, u32, u32)> {
        let start = Place::new(0);
        let (map, alive) = (&self.map, self.status.wumpus_alive);
        self.topology
            .neighbours(c)
            .filter(|&n| self.is_safe(n))
            .filter_map(|n| {
                let way = self.topology.exits(n).find_map(|(link, to)| match link {
                    Link::Step(d) if to == c => Some(d),
                    _ => None,
                })?;
                let to_c = from_here.to(n, way)? + 1;
                let (_, home) = planner::nearest_headed(
                    &self.topology,
                    c,
                    way,
                    |p| map.safe(alive, p),
                    |(p, _)| p == start,
                )?;
                Some((n, way, to_c, home))
            })
            .min_by_key(|&(n, _, to_c, home)| (to_c, home, n))
    }
}

impl GridAgent {
    /// The expected number of unseen cells beyond `c` and its neighbours that further
    /// exploration would reach: each counted with its prior chance of being pit-free,
    /// discounted by [`REACH_DISCOUNT`] per step beyond the neighbours.
    fn reachable_beyond(&self, c: Place, pit_prob: f64) -> f64 {
        // Sparse: the radius holds a few hundred cells whatever the grid's size.
        let mut depth: rustc_hash::FxHashMap<usize, u32> =
            [(c.index(), 0u32)].into_iter().collect();
        let mut queue = VecDeque::from([c]);
        let mut total = 0.0;
        while let Some(p) = queue.pop_front() {
            let d = depth[&p.index()];
            if d >= 2 && !self.map.cells[p.index()].visited && !self.is_safe(p) {
                total += (1.0 - pit_prob) * REACH_DISCOUNT.powi(d as i32 - 1);
            }
            if d == REACH_RADIUS {
                continue;
            }
            for n in self.topology.neighbours(p) {
                if let std::collections::hash_map::Entry::Vacant(e) = depth.entry(n.index()) {
                    e.insert(d + 1);
                    queue.push_back(n);
                }
            }
        }
        total
    }
}
