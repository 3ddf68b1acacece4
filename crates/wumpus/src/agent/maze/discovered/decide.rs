//! The discovered-maze agent's choice of action, by fixed priorities over what its own map
//! proves and estimates: toss where a wumpus is proven, step into proven-safe caves, toss or
//! step by the estimated odds when nothing safe is left.
//!
//! It must never read the maze's map: only the agent's own map of the caves it stood in.

use super::*;

impl DiscoveredMazeAgent {
    /// Chooses the next action.
    pub(in crate::agent::maze) fn choose(&self) -> Decision<MazeAction> {
        let Some(_) = self.nodes.get(self.at) else {
            return Decision {
                action: MazeAction::Move(1),
                reason: reason(Rule::Gamble, "no view yet: walk on".into()),
                choices: Vec::new(),
                depth: None,
            };
        };
        let assessed = self.assess(self.at);
        // 1. A wumpus proven through a tunnel.
        if let Some(k) = assessed.iter().position(|a| a.wumpus == Hazard::Proven) {
            return toss(
                k + 1,
                Rule::ShootWumpus,
                format!(
                    "a wumpus is proven through {} (see what is proven): toss a grenade",
                    self.through(k + 1)
                ),
            );
        }
        let (way, judged) = self.reachable();
        let guarded = self.moves >= MOVE_GUARD;
        // 2. Explore an unknown tunnel proven free of the pit and wumpi, the nearest first
        // and, among equals, one without bats; failing that, step through a safe tunnel to a
        // visited cave not yet placed on the agent's map, to join it up again.
        if !guarded {
            let rejoin_ok = self.rejoins < REJOIN_CAP_PER_CAVE * self.caves as u32;
            // (rejoin, steps, bats (0 none, 1 maybe, 2 proven), first tunnel, tunnel there)
            let mut best: Option<(bool, usize, u8, usize, usize)> = None;
            for (n, w) in way.iter().enumerate() {
                let Some((first, steps)) = *w else { continue };
                let node = &self.nodes[n];
                for (i, a) in judged[n].iter().enumerate() {
                    if a.pit != Hazard::Free || a.wumpus != Hazard::Free {
                        continue;
                    }
                    let rejoin = !a.unknown && node.edges[i].is_none();
                    if !(a.unknown || (rejoin && rejoin_ok)) {
                        continue;
                    }
                    let bats = match a.bats {
                        Hazard::Free => 0,
                        Hazard::Chance(_) => 1,
                        Hazard::Proven => 2,
                    };
                    let first = if n == self.at { i + 1 } else { first };
                    let key = (rejoin, steps, bats, first, i + 1);
                    if best.is_none_or(|b| key < b) {
                        best = Some(key);
                    }
                }
            }
            if let Some((true, steps, _, mut first, _)) = best {
                if steps == 0 {
                    // Several ways back, and no way to tell them apart: vary the choice, so
                    // that a walk among caves of one name cannot circle for ever.
                    let here = &self.nodes[self.at];
                    let ways: Vec<usize> = assessed
                        .iter()
                        .enumerate()
                        .filter(|(i, a)| {
                            !a.unknown
                                && here.edges[*i].is_none()
                                && a.pit == Hazard::Free
                                && a.wumpus == Hazard::Free
                        })
                        .map(|(i, _)| i + 1)
                        .collect();
                    let mix = (self.moves as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33;
                    first = ways[mix as usize % ways.len()];
                }
                return Decision {
                    action: MazeAction::Move(first),
                    reason: Reason {
                        rule: Rule::Explore,
                        target: None,
                        steps: steps + 1,
                        text: format!(
                            "every unknown tunnel the agent can place is explored or unsafe: \
                             {} leads {}towards a cave already visited that it has not placed \
                             on its own map (proven free of the pit and wumpi), to find the \
                             way back to what it knows",
                            self.through(first),
                            if steps == 0 {
                                ""
                            } else {
                                "over caves already visited "
                            }
                        ),
                    },
                    choices: Vec::new(),
                    depth: None,
                };
            }
            let best = best.map(|(_, steps, bats, first, t)| (steps, bats, first, t));
            if let Some((steps, bats, first, _)) = best {
                let text = if steps == 0 {
                    format!(
                        "explore: {} is proven free of the pit and wumpi{}",
                        self.through(first),
                        match bats {
                            0 => "",
                            1 => "; bats may be there, and they can only drop you in an empty cave",
                            _ =>
                                "; the bats are there, and they can only drop you in an empty cave",
                        }
                    )
                } else {
                    format!(
                        "explore: {} is the way to the nearest unknown tunnel proven free of \
                         the pit and wumpi ({} more step{} over caves already visited)",
                        self.through(first),
                        steps,
                        if steps == 1 { "" } else { "s" }
                    )
                };
                return Decision {
                    action: MazeAction::Move(first),
                    reason: Reason {
                        rule: Rule::Explore,
                        target: None,
                        steps: steps + 1,
                        text,
                    },
                    choices: Vec::new(),
                    depth: None,
                };
            }
        }
        // The best toss and the least-risk unknown tunnel, each anywhere the player can walk
        // to safely: (steps, first tunnel, tunnel there, chance).
        let mut best_toss: Option<(usize, usize, usize, f64)> = None;
        let mut best_step: Option<(usize, usize, usize, f64)> = None;
        for (n, w) in way.iter().enumerate() {
            let Some((first, steps)) = *w else { continue };
            let smelt = self.nodes[n]
                .senses
                .is_some_and(|s| s.smell && s.epoch == self.epoch);
            for (i, a) in judged[n].iter().enumerate() {
                let first = if n == self.at { i + 1 } else { first };
                let kill = a.wumpus.chance();
                if smelt
                    && kill > 0.0
                    && best_toss
                        .is_none_or(|b| (kill, usize::MAX - steps) > (b.3, usize::MAX - b.0))
                {
                    best_toss = Some((steps, first, i + 1, kill));
                }
                let risk = a.pit.chance() + a.wumpus.chance() * (1.0 - a.pit.chance());
                if a.unknown
                    && !guarded
                    && risk < 1.0
                    && best_step.is_none_or(|b| (risk, steps) < (b.3, b.0))
                {
                    best_step = Some((steps, first, i + 1, risk));
                }
            }
        }
        let step_words = |s: &(usize, usize, usize, f64)| {
            if s.0 == 0 {
                format!("{} ({} to die, estimated)", self.through(s.2), percent(s.3))
            } else {
                format!(
                    "a tunnel not yet seen {} step{} away ({} to die, estimated)",
                    s.0,
                    if s.0 == 1 { "" } else { "s" },
                    percent(s.3)
                )
            }
        };
        // 3. A toss where a kill is likely enough, and better than the least-risk step.
        let threshold = super::super::toss_threshold(self.last_grenade());
        if let Some(t) = best_toss {
            let beats_step = best_step.is_none_or(|s| t.3 >= threshold || t.3 >= 1.0 - s.3);
            if beats_step {
                let against = match &best_step {
                    Some(s) => format!("; the least-risk step is {}", step_words(s)),
                    None => "; no unknown tunnel is left to risk".to_string(),
                };
                if t.0 == 0 {
                    return toss(
                        t.2,
                        Rule::BestShot,
                        format!(
                            "nothing safe is left to explore; a wumpus is smelt here and a \
                             grenade through {} kills with chance {} (estimated), at least the \
                             {} a toss needs{against}",
                            self.through(t.2),
                            percent(t.3),
                            percent(threshold)
                        ),
                    );
                }
                return Decision {
                    action: MazeAction::Move(t.1),
                    reason: Reason {
                        rule: Rule::BestShot,
                        target: None,
                        steps: t.0,
                        text: format!(
                            "nothing safe is left to explore: walk {} over caves proven free of \
                             the pit and wumpi to where a wumpus was smelt, {} step{} away, and \
                             toss there (kill chance {}, estimated){against}",
                            self.through(t.1),
                            t.0,
                            if t.0 == 1 { "" } else { "s" },
                            percent(t.3)
                        ),
                    },
                    choices: Vec::new(),
                    depth: None,
                };
            }
        }
        // 4. The least-risk unknown tunnel.
        if let Some(s) = best_step {
            let against = match &best_toss {
                Some(t) => format!(
                    "; the best grenade kills with chance {} (estimated), below the {} a toss \
                     needs",
                    percent(t.3),
                    percent(threshold)
                ),
                None => String::new(),
            };
            return Decision {
                action: MazeAction::Move(s.1),
                reason: Reason {
                    rule: Rule::Gamble,
                    target: None,
                    steps: s.0 + 1,
                    text: if s.0 == 0 {
                        format!(
                            "nothing safe is left to explore: {} is the least risk{against}",
                            step_words(&s)
                        )
                    } else {
                        format!(
                            "nothing safe is left to explore: the least-risk way on is {}; walk \
                             {} towards it{against}",
                            step_words(&s),
                            self.through(s.1)
                        )
                    },
                },
                choices: Vec::new(),
                depth: None,
            };
        }
        // 5. Nothing the agent can place is left to explore, toss at or risk: wander through
        // a tunnel proven free of the pit and wumpi (moves are free), varying the choice, until
        // something new turns up or the guard ends the walk.
        if !guarded {
            let free: Vec<usize> = assessed
                .iter()
                .enumerate()
                .filter(|(_, a)| a.pit == Hazard::Free && a.wumpus == Hazard::Free)
                .map(|(i, _)| i + 1)
                .collect();
            if !free.is_empty() {
                let mix = (self.moves as u64 + 7).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33;
                let k = free[mix as usize % free.len()];
                return Decision {
                    action: MazeAction::Move(k),
                    reason: reason(
                        Rule::Explore,
                        format!(
                            "nothing the agent has placed on its map is left to explore, toss \
                             at or risk: wander through {}, proven free of the pit and wumpi \
                             (moves cost nothing), to find a way on",
                            self.through(k)
                        ),
                    ),
                    choices: Vec::new(),
                    depth: None,
                };
            }
        }
        // 6. Nothing to explore or risk: toss where a kill is likeliest from here.
        let (k, kill) = assessed
            .iter()
            .enumerate()
            .map(|(i, a)| (i + 1, a.wumpus.chance()))
            .fold((1, -1.0), |b, c| if c.1 > b.1 { c } else { b });
        toss(
            k,
            Rule::LastChance,
            format!(
                "no way on is left to explore or risk: toss through {} ({} to kill, estimated)",
                self.through(k),
                percent(kill.max(0.0))
            ),
        )
    }
}
