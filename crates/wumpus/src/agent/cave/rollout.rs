//! Rollouts (`--rollouts N`, the map known): the classic cave agent's choice between shooting
//! and walking, weighed by playing the game on.
//!
//! The rules of [`super`] weigh shooting by an exact look-ahead, but walking on by a fixed
//! share of a kill (`shoot_share`, `explore_share`): walking has no closed form. A rollout
//! gives it one by simulation. From the agent's exact posterior ([`LayoutSampler`]) it draws a
//! layout of the hazards as they may be now, resumes the game there
//! ([`ClassicGame::resume`]), takes one candidate action and lets a copy of the agent, rules
//! only, play to the end. Each candidate is played on the same draws and the same random
//! events (common random numbers), so their averages differ by their choices rather than by
//! luck, and the candidate that averages most is taken: one step of policy improvement over
//! the rules.
//!
//! The candidates are the rules' own choice, the best shot from here and the walk the rules
//! would take instead of shooting (the nearest proven-safe room, else the least-risk room).
//! The draws come from a generator seeded by what the agent has seen, so a game still replays
//! from its seed. Rollouts need the whole map: what lies behind unknown tunnels cannot be
//! drawn from the odds' assumption alone.

use super::layouts::LayoutSampler;
use super::rules::reason;
use super::shoot::{best_shot, Stakes, Weighing};
use super::{CaveAgent, Chosen, Weighed, MOVE_LIMIT};
use crate::agent::Rule;
use crate::cave::classic::{Action, ArrowPath, ClassicGame, Status, Variant};
use crate::rng::seeded;
use crate::topology::Place;
use rand::Rng;

/// One action weighed by rollouts.
struct Candidate {
    action: Action,
    rule: Rule,
    /// Where a walk heads, and in how many steps.
    target: Option<Place>,
    steps: usize,
    /// The chance of a kill (a shot) or of death on arriving (a step into a room not proven
    /// safe).
    chance: f64,
    /// The rollouts' final scores, one a draw, while it is still in the race.
    scores: Vec<f64>,
    alive: bool,
}

impl Candidate {
    fn new(action: Action, rule: Rule, target: Option<Place>, steps: usize, chance: f64) -> Self {
        Candidate {
            action,
            rule,
            target,
            steps,
            chance,
            scores: Vec::new(),
            alive: true,
        }
    }
}

/// Draws are played in rounds of this many; after each, candidates clearly worse than the
/// leader stop being played.
const ROUND: u32 = 32;

/// How many standard errors under the leader, on the same draws, a candidate must fall to be
/// dropped: about one good candidate in a thousand is lost this way.
const DROP_AT: f64 = 3.0;

/// Drops the candidates whose scores, paired draw by draw with the leader's, fall clearly
/// short of it.
fn drop_the_clearly_worse(candidates: &mut [Candidate]) {
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let Some(leader) = (0..candidates.len())
        .filter(|&i| candidates[i].alive)
        .max_by(|&a, &b| mean(&candidates[a].scores).total_cmp(&mean(&candidates[b].scores)))
    else {
        return;
    };
    let lead = candidates[leader].scores.clone();
    for (i, c) in candidates.iter_mut().enumerate() {
        if i == leader || !c.alive {
            continue;
        }
        let d: Vec<f64> = c.scores.iter().zip(&lead).map(|(a, b)| a - b).collect();
        let m = mean(&d);
        let var = d.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (d.len().max(2) - 1) as f64;
        let se = (var / d.len().max(1) as f64).sqrt();
        if m + DROP_AT * se < 0.0 {
            c.alive = false;
        }
    }
}

impl CaveAgent {
    /// A copy of the agent for one rollout: the same knowledge, no knowledge base (the odds
    /// are exact with the map known, and the base proves exactly what they call certain), no
    /// explanations and no rollouts of its own.
    fn rollout_copy(&self) -> CaveAgent {
        let mut config = self.config.clone();
        config.policy.rollouts = 0;
        config.insight = super::Insight::Decisions;
        config.odds = super::OddsSource::Layouts;
        CaveAgent {
            config,
            words: self.words,
            rules: self.rules.clone(),
            map: self.map.clone(),
            kb: None,
            kb_map_version: self.kb_map_version,
            evidence: self.evidence.clone(),
            odds: self.odds.clone(),
            here: self.here,
            arrows: self.arrows,
            moves: self.moves,
            facts: self.facts.clone(),
            warned: self.warned.clone(),
            learned: Vec::new(),
            lost: None,
            shown_outs: self.shown_outs.clone(),
            known_cache: self.known_cache.clone(),
            trust_odds: true,
            history: self.history,
            shooting_step: None,
            left_for_a_shot: self.left_for_a_shot.clone(),
        }
    }

    /// Whether this decision is one rollouts weigh: they are on, the map is known, the
    /// knowledge holds, and the rules did not act on a certainty or on the move limit.
    pub(super) fn rollouts_apply(&self, ruled: &Chosen) -> bool {
        self.config.policy.rollouts > 0
            && !self.trust_odds
            && self.config.map.is_some()
            && self.map.whole()
            && self.lost.is_none()
            && self.arrows > 0
            && !matches!(ruled.reason.rule, Rule::LastChance | Rule::ShootWumpus)
    }

    /// The rules' choice `ruled`, or the candidate the rollouts find better.
    pub(super) fn weigh_by_rollouts(&mut self, ruled: Chosen) -> Chosen {
        let mut candidates = self.candidates(&ruled);
        let (Some(evidence), Some(map), Some(here)) =
            (self.evidence.as_ref(), self.config.map.clone(), self.here)
        else {
            return ruled;
        };
        if candidates.len() < 2 {
            return ruled;
        }
        let Ok(sampler) = LayoutSampler::new(evidence, &self.map) else {
            return ruled;
        };
        let most = self.config.policy.rollouts;
        let mut draws =
            seeded(self.history ^ (u64::from(self.moves) << 32) ^ u64::from(self.arrows));
        let mut played = 0;
        while played < most && candidates.iter().filter(|c| c.alive).count() > 1 {
            for _ in 0..ROUND.min(most - played) {
                let layout = sampler.sample(&mut draws);
                let events: u64 = draws.random();
                for c in candidates.iter_mut().filter(|c| c.alive) {
                    let Ok(mut game) = ClassicGame::resume(
                        map.clone(),
                        Variant::Event,
                        here,
                        layout.wumpus,
                        &layout.pits,
                        &layout.bats,
                        self.arrows,
                        self.moves,
                        seeded(events),
                    ) else {
                        return ruled;
                    };
                    c.scores
                        .push(f64::from(self.play_out(&mut game, &c.action)));
                }
                played += 1;
            }
            drop_the_clearly_worse(&mut candidates);
        }
        let mean = |c: &Candidate| c.scores.iter().sum::<f64>() / c.scores.len().max(1) as f64;
        // The rules' choice is first and kept on a tie.
        let best = (1..candidates.len()).fold(0, |b, i| {
            if candidates[i].alive
                && (!candidates[b].alive || mean(&candidates[i]) > mean(&candidates[b]) + 1e-9)
            {
                i
            } else {
                b
            }
        });
        let mut weighed: Vec<Weighed> = candidates
            .iter()
            .enumerate()
            .map(|(i, c)| Weighed {
                step: match &c.action {
                    Action::Move(_) => c.target,
                    Action::Shoot(_) => None,
                },
                chance: c.chance,
                worth: mean(c),
                chosen: i == best,
            })
            .collect();
        weighed.sort_by(|a, b| b.worth.total_cmp(&a.worth));
        let summary = format!(
            "{played} rollouts: {} averages {:.1} points{}",
            self.action_text(&candidates[best].action),
            mean(&candidates[best]),
            candidates
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != best)
                .map(|(_, c)| format!(", {} {:.1}", self.action_text(&c.action), mean(c)))
                .collect::<String>()
        );
        let mut decision = if best == 0 {
            let mut ruled = ruled;
            ruled.reason.text = format!("{}; {summary}", ruled.reason.text);
            ruled
        } else {
            let c = &candidates[best];
            let (kill_chance, risk) = match c.action {
                Action::Shoot(_) => (Some(c.chance), None),
                Action::Move(_) => (None, Some(c.chance)),
            };
            Chosen {
                action: c.action.clone(),
                reason: reason(c.rule, c.target, c.steps, summary),
                kill_chance,
                risk,
                weighed: Vec::new(),
                rollouts: 0,
            }
        };
        decision.weighed = weighed;
        decision.rollouts = played;
        decision
    }

    /// The rules' choice, the best shot from here, and the walk the rules would take rather
    /// than shoot, each once.
    fn candidates(&mut self, ruled: &Chosen) -> Vec<Candidate> {
        let (Some(here), Some(odds)) = (self.here, self.odds.clone()) else {
            return Vec::new();
        };
        let known = self.known();
        let mut out = vec![Candidate::new(
            ruled.action.clone(),
            ruled.reason.rule,
            ruled.reason.target,
            ruled.reason.steps,
            ruled.kill_chance.or(ruled.risk).unwrap_or(0.0),
        )];
        let full = f64::from(MOVE_LIMIT - self.moves);
        let near = self.smell_near(here);
        let stakes = Stakes {
            arrows: self.arrows,
            full,
            walk_on: self.walk_on_after_miss(&known, here, &odds),
            tail_trust: self.config.policy.tail_trust,
        };
        if let Some(s) = best_shot(
            &known,
            here,
            &odds,
            &self.map,
            &near,
            stakes,
            Weighing::FirstArrow,
        ) {
            if let Ok(arrow) = ArrowPath::new(s.path.clone()) {
                out.push(Candidate::new(
                    Action::Shoot(arrow),
                    Rule::BestShot,
                    s.path.first().copied(),
                    0,
                    s.chance,
                ));
            }
        }
        let walk = match self.explore_route(&known, here) {
            Some(route) => Some((route, Rule::Explore, 0.0)),
            None => self
                .least_risk_step(&known, here, &odds)
                .map(|(route, risk, _)| (route, Rule::Gamble, risk)),
        };
        if let Some((route, rule, risk)) = walk {
            if route.places.len() > 1 {
                out.push(Candidate::new(
                    Action::Move(route.places[1]),
                    rule,
                    Some(route.goal()),
                    route.len(),
                    risk,
                ));
            }
        }
        let mut seen: Vec<Action> = Vec::new();
        out.retain(|c| {
            if seen.contains(&c.action) {
                false
            } else {
                seen.push(c.action.clone());
                true
            }
        });
        out
    }

    /// Plays `first` in `game`, then the rules to the end: the final score.
    fn play_out(&self, game: &mut ClassicGame, first: &Action) -> u32 {
        let mut agent = self.rollout_copy();
        let mut last = first.clone();
        let mut turn = game.act(&last);
        // Every move counts towards the limit and every miss spends an arrow, so a game ends;
        // the bound only guards against a copy refused over and over.
        for _ in 0..4 * MOVE_LIMIT {
            if let Some(ending) = game.ending() {
                return ending.score();
            }
            let _ = agent.observe_turn(Some(&last), Some(&turn.result), &game.status());
            last = agent.chosen().action;
            turn = game.act(&last);
        }
        game.ending().map_or(0, |e| e.score())
    }

    fn action_text(&self, action: &Action) -> String {
        match action {
            Action::Move(r) => format!("move {}", self.label(*r)),
            Action::Shoot(path) => format!("shoot {}", self.rooms_text(path.rooms())),
        }
    }
}

/// `seed` mixed with what a status says (SplitMix64 steps), for the rollouts' draws.
pub(super) fn digest(seed: u64, status: &Status) -> u64 {
    let mut h = seed;
    let words = [
        status.room.index() as u64,
        u64::from(status.pit),
        u64::from(status.bats),
    ]
    .into_iter()
    .chain([
        u64::from(status.wumpus),
        u64::from(status.arrows),
        u64::from(status.moves),
    ])
    .chain(status.outs.iter().map(|r| r.index() as u64));
    for w in words {
        h = h.wrapping_add(w).wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = h;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h = z ^ (z >> 31);
    }
    h
}
