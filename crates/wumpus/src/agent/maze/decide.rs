//! The map-known maze agent's choice of action, by the chances mixed over its tracks: toss
//! where a wumpus is proven, walk to the nearest proven-safe cave, toss where a kill is
//! likeliest when that is likely enough, else the least-risk step.
//!
//! It must never read the hidden hazards: only its tracks' knowledge bases and odds.

use super::*;

impl MazeAgent {
    /// Chooses the next action.
    pub(super) fn choose(&mut self) -> Decision<MazeAction> {
        if self.tracks.is_empty() || self.lost.is_some() {
            return Decision {
                action: MazeAction::Move(1),
                reason: reason(
                    Rule::Gamble,
                    format!(
                        "what happened contradicts the rules ({}): walk on blind",
                        self.lost.as_deref().unwrap_or("no view yet")
                    ),
                ),
                choices: Vec::new(),
                depth: None,
            };
        }
        let mut tunnels = self.tunnel_odds(false);
        if tunnels.iter().any(|t| t.proven_wumpus) {
            tunnels = self.tunnel_odds(true);
        }
        let last = self.odds_last_grenade();
        // 1. A wumpus proven through a tunnel.
        if let Some(t) = tunnels
            .iter()
            .filter(|t| t.proven_wumpus)
            .min_by_key(|t| (level(t.devour), t.tunnel))
        {
            return self.toss(
                t,
                Rule::ShootWumpus,
                format!(
                    "a wumpus is proven through {}: toss a grenade",
                    self.through(t.tunnel)
                ),
            );
        }
        // 2. Explore caves proven safe.
        if let Some((tunnel, goal, steps)) = self.explore_step() {
            // The goal is a cave the player has not stood in, so it is named only in the
            // agent's own words (tests and traces), not in the reason a player reads.
            let _ = goal;
            let text = format!(
                "explore: {} leads towards the nearest cave not yet visited that is proven \
                 free of the pit and wumpi{} (bats are accepted: they can only drop you in an \
                 empty cave)",
                self.through(tunnel),
                if steps > 1 {
                    format!(" ({steps} steps to go)")
                } else {
                    String::new()
                }
            );
            return Decision {
                action: MazeAction::Move(tunnel),
                reason: Reason {
                    rule: Rule::Explore,
                    target: None,
                    steps,
                    text,
                },
                choices: Vec::new(),
                depth: None,
            };
        }
        // 3. The best grenade, when likely enough.
        let tunnels = self.tunnel_odds(true);
        let best_toss = tunnels
            .iter()
            .max_by(|a, b| {
                level(toss_value(a))
                    .cmp(&level(toss_value(b)))
                    .then(b.tunnel.cmp(&a.tunnel))
            })
            .expect("three tunnels");
        let step = tunnels
            .iter()
            .min_by(|a, b| {
                level(step_risk(a))
                    .cmp(&level(step_risk(b)))
                    .then(a.tunnel.cmp(&b.tunnel))
            })
            .expect("three tunnels");
        let threshold = toss_threshold(last);
        if best_toss.wumpus >= threshold && toss_value(best_toss) > 0.0 {
            return self.toss(
                best_toss,
                Rule::BestShot,
                format!(
                    "nothing safe is left to explore; a grenade through {} kills with chance \
                     {}, at least the {} a toss needs{} (the least-risk step, through {}, dies \
                     with chance {})",
                    self.through(best_toss.tunnel),
                    percent(best_toss.wumpus),
                    percent(threshold),
                    if last > 0.5 {
                        " with the last grenade"
                    } else {
                        ""
                    },
                    self.through(step.tunnel),
                    percent(step_risk(step))
                ),
            );
        }
        // 4. The least-risk step towards the unknown, unless a grenade is the better bet.
        if let Some((tunnel, cave, risk)) = self.frontier_step() {
            if toss_value(best_toss) > 0.0 && toss_value(best_toss) >= 1.0 - risk {
                return self.toss(
                    best_toss,
                    Rule::BestShot,
                    format!(
                        "every step is dangerous: the least-risk way on, through {}, dies with \
                         chance {}; a grenade through {} kills with chance {} ({} once the \
                         chance that a startled wumpus runs in is taken off), which is worth \
                         more",
                        self.through(tunnel),
                        percent(risk),
                        self.through(best_toss.tunnel),
                        percent(best_toss.wumpus),
                        percent(toss_value(best_toss))
                    ),
                );
            }
            let _ = cave;
            let text = if tunnel == step.tunnel && risk == step_risk(step) {
                format!(
                    "nothing safe is left to explore: {} is the least risk ({} to die)",
                    self.through(tunnel),
                    percent(risk)
                )
            } else {
                format!(
                    "nothing safe is left to explore: the least-risk cave not yet visited ({} \
                     to die) is reached through {}",
                    percent(risk),
                    self.through(tunnel)
                )
            };
            return Decision {
                action: MazeAction::Move(tunnel),
                reason: reason(Rule::Gamble, text),
                choices: Vec::new(),
                depth: None,
            };
        }
        // 5. Nothing left to learn nor to risk: the maze cannot be won from here.
        self.toss(
            best_toss,
            Rule::BestShot,
            format!(
                "no cave is left to explore and every way on is deadly: toss through {} ({} to \
                 kill)",
                self.through(best_toss.tunnel),
                percent(best_toss.wumpus)
            ),
        )
    }

    /// The least-risk step into a cave not proven safe and not certainly deadly, walking over
    /// proven-safe caves to reach it (on the likeliest track when the player's cave is
    /// certain; a single step otherwise): the first tunnel, the cave, the chance of dying.
    pub(super) fn frontier_step(&self) -> Option<(usize, String, f64)> {
        let risk_of = |t: &Track, c: Place| {
            let o = t.odds.as_ref().expect("counted");
            o.pit[c.index()] + o.wumpus[c.index()]
        };
        if self.tracks.len() == 1 {
            let t = &self.tracks[0];
            let mut seen = vec![false; self.map.len()];
            let mut queue = VecDeque::new();
            seen[t.pos.index()] = true;
            queue.push_back((t.pos, 0usize, 0usize));
            let mut best: Option<(f64, usize, usize, Place)> = None;
            while let Some((c, first, steps)) = queue.pop_front() {
                for (k, &d) in self.map.outs(c).iter().enumerate() {
                    let first = if steps == 0 { k + 1 } else { first };
                    if t.safe[d.index()] {
                        if !seen[d.index()] {
                            seen[d.index()] = true;
                            queue.push_back((d, first, steps + 1));
                        }
                        continue;
                    }
                    let risk = risk_of(t, d);
                    if MazeOdds::sure(risk) {
                        continue;
                    }
                    let cost = risk + 1e-3 * steps as f64;
                    if best.is_none_or(|(b, ..)| cost < b - 1e-12) {
                        best = Some((cost, first, steps + 1, d));
                    }
                }
            }
            return best.map(|(_, first, _, d)| (first, self.cave_name(d), risk_of(t, d)));
        }
        let weights = self.weights();
        (1..=3)
            .filter_map(|k| {
                let mut risk = 0.0;
                let mut unknown = false;
                for (t, w) in self.tracks.iter().zip(&weights) {
                    let c = self.map.outs(t.pos)[k - 1];
                    risk += w * risk_of(t, c);
                    unknown |= !t.safe[c.index()] || !t.been[c.index()];
                }
                (unknown && !MazeOdds::sure(risk)).then_some((k, risk))
            })
            .min_by_key(|&(k, risk)| (level(risk), k))
            .map(|(k, risk)| {
                let c = self.map.outs(self.tracks[0].pos)[k - 1];
                (k, self.cave_name(c), risk)
            })
    }

    pub(super) fn toss(&self, t: &TunnelOdds, rule: Rule, text: String) -> Decision<MazeAction> {
        let text = if t.devour > 0.0 {
            format!(
                "{text} ({} that a startled wumpus runs in)",
                percent(t.devour)
            )
        } else {
            text
        };
        Decision {
            action: MazeAction::Toss(t.tunnel),
            reason: reason(rule, text),
            choices: Vec::new(),
            depth: None,
        }
    }

    /// The chance, mixed over the tracks, that one grenade is left.
    pub(super) fn odds_last_grenade(&self) -> f64 {
        self.tracks
            .iter()
            .zip(self.weights())
            .map(|(t, w)| w * t.odds.as_ref().map_or(0.0, |o| o.last_grenade))
            .sum()
    }

    /// The first tunnel on the way to the nearest cave proven safe and not yet stood in, the
    /// cave's name and the steps to it: over proven-safe caves on the likeliest track when the
    /// player's cave is certain, else one step that is safe on every track.
    pub(super) fn explore_step(&self) -> Option<(usize, String, usize)> {
        if self.tracks.len() == 1 {
            let t = &self.tracks[0];
            let mut seen = vec![false; self.map.len()];
            let mut queue = VecDeque::new();
            seen[t.pos.index()] = true;
            for (k, &c) in self.map.outs(t.pos).iter().enumerate() {
                if t.safe[c.index()] && !seen[c.index()] {
                    seen[c.index()] = true;
                    queue.push_back((c, k + 1, 1));
                }
            }
            while let Some((c, first, steps)) = queue.pop_front() {
                if !t.been[c.index()] {
                    return Some((first, self.cave_name(c), steps));
                }
                for &d in self.map.outs(c) {
                    if t.safe[d.index()] && !seen[d.index()] {
                        seen[d.index()] = true;
                        queue.push_back((d, first, steps + 1));
                    }
                }
            }
            return None;
        }
        // Several caves are possible: a step safe on every track to a cave new on one.
        (1..=3).find_map(|k| {
            let all_safe = self
                .tracks
                .iter()
                .all(|t| t.safe[self.map.outs(t.pos)[k - 1].index()]);
            let new_somewhere = self
                .tracks
                .iter()
                .any(|t| !t.been[self.map.outs(t.pos)[k - 1].index()]);
            (all_safe && new_somewhere).then(|| {
                let mut names: Vec<String> = Vec::new();
                for t in &self.tracks {
                    let name = self.cave_name(self.map.outs(t.pos)[k - 1]);
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
                (k, names.join(" or "), 1)
            })
        })
    }
}

/// A chance on a grid of 1e-9, to compare by: two chances equal but for the rounding of sums
/// taken in another order compare equal, and the tie goes the same way every time.
fn level(chance: f64) -> i64 {
    (chance * 1e9).round() as i64
}
