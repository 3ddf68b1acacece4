//! How much better could the risk agent gamble? At every point where logic runs
//! out, estimate each option (step into each frontier cell, shoot from here, or go home and
//! climb) by playing the rest of the game with the risk agent itself in worlds sampled from the
//! posterior (random worlds that give the same percepts), take the best, and compare with the
//! plain agent on the same worlds (seeds from 2,000,000 up).
//!
//! `cargo run --release --example rollout -- GAMES SIZE standard|aima SAMPLES` (set `SHOOT=1`
//! to offer shots too). See docs/agents.md for what it measured.
use rayon::prelude::*;
use std::sync::Arc;
use wumpus::agent::grid::{default_rules, CellView, GridAgent, Strategy};
use wumpus::agent::Agent;
use wumpus::agent::Insight;
use wumpus::agent::Rule;
use wumpus::grid::{Action, GridGame, GridWorld, Percepts, Scoring};
use wumpus::kb::Grounding;
use wumpus::planner;
use wumpus::rng::seeded;
use wumpus::topology::{Link, Place, Topology};

const LIMIT: u32 = 400;

struct Ctx {
    topo: Arc<Topology>,
    grounding: Arc<Grounding>,
    strategy: Strategy,
    scoring: Scoring,
    pit: f64,
    k: usize,
}

fn percepts_eq(a: &Percepts, b: &Percepts) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

/// Plays `prefix` then `forced` then the base policy in `world`; the final score.
fn rollout(ctx: &Ctx, world: GridWorld, prefix: &[Action], forced: &[Action]) -> i64 {
    let mut agent = GridAgent::with_grounding(ctx.grounding.clone(), Insight::Decisions)
        .unwrap()
        .with_strategy(ctx.strategy);
    let mut game = GridGame::new(world);
    let mut percepts = game.start().percepts;
    let mut last = None;
    for &a in prefix.iter().chain(forced) {
        if game.outcome().is_some() {
            break;
        }
        agent.observe_percepts(last, &percepts).unwrap();
        percepts = game.act(a).percepts;
        last = Some(a);
    }
    while game.outcome().is_none() && game.moves() < LIMIT {
        agent.observe_percepts(last, &percepts).unwrap();
        let a = agent.decide().action;
        percepts = game.act(a).percepts;
        last = Some(a);
    }
    match game.outcome() {
        Some(o) => ctx.scoring.score(o, game.moves(), game.fired()),
        None => 0,
    }
}

fn route(ctx: &Ctx, agent: &GridAgent, to: Place, then: Option<Action>) -> Option<Vec<Action>> {
    let walk = |p: Place| matches!(agent.view(p), CellView::Visited | CellView::Safe);
    let r = planner::nearest(
        &ctx.topo,
        agent.position(),
        |p| walk(p) || p == to,
        |p| p == to,
    )?;
    let mut v: Vec<Action> = r
        .links
        .iter()
        .map(|l| match l {
            Link::Step(d) => Action::Move(*d),
            _ => unreachable!(),
        })
        .collect();
    v.extend(then);
    Some(v)
}

fn play(ctx: &Ctx, seed: u64) -> (i64, i64, bool) {
    let world = GridWorld::random(ctx.topo.clone(), ctx.pit, &mut seeded(seed));
    let base_score = rollout(ctx, world.clone(), &[], &[]);
    let mut agent = GridAgent::with_grounding(ctx.grounding.clone(), Insight::Decisions)
        .unwrap()
        .with_strategy(ctx.strategy);
    let mut game = GridGame::new(world.clone());
    let mut percepts = game.start().percepts;
    let mut seen: Vec<Percepts> = vec![percepts];
    let mut history: Vec<Action> = Vec::new();
    let mut last = None;
    let mut queue: std::collections::VecDeque<Action> = Default::default();
    let mut prev: Option<(Rule, Option<Place>)> = None;
    let mut changed = false;
    let mut rng = seeded(seed ^ 0x9e37_79b9);
    while game.outcome().is_none() && game.moves() < LIMIT {
        agent.observe_percepts(last, &percepts).unwrap();
        let d = agent.decide();
        let mut action = d.action;
        if let Some(a) = queue.pop_front() {
            action = a;
        } else {
            let key = (d.reason.rule, d.reason.target);
            let point = matches!(
                d.reason.rule,
                Rule::Gamble | Rule::ReturnEmptyHanded | Rule::Climb
            ) && prev != Some(key);
            prev = Some(key);
            if point && !game.has_gold() {
                // Options: each frontier cell, and home.
                let mut options: Vec<Vec<Action>> = vec![];
                for p in ctx.topo.places() {
                    if agent.view(p) != CellView::Unknown {
                        continue;
                    }
                    if !ctx
                        .topo
                        .neighbours(p)
                        .any(|n| agent.view(n) == CellView::Visited)
                    {
                        continue;
                    }
                    if let Some(r) = route(ctx, &agent, p, None) {
                        options.push(r);
                    }
                }
                if !game.fired() && std::env::var("SHOOT").is_ok() {
                    for dir in wumpus::topology::Direction::ALL {
                        options.push(vec![Action::Fire(dir)]);
                    }
                }
                if let Some(r) = route(
                    ctx,
                    &agent,
                    ctx.topo.cell(0, 0).unwrap(),
                    Some(Action::Climb),
                ) {
                    options.push(r);
                }
                // Samples consistent with what was seen.
                let mut samples = Vec::new();
                let mut tries = 0;
                while samples.len() < ctx.k && tries < 200_000 {
                    tries += 1;
                    let w = GridWorld::random(ctx.topo.clone(), ctx.pit, &mut rng);
                    let mut g = GridGame::new(w.clone());
                    let mut ok = percepts_eq(&g.start().percepts, &seen[0]);
                    for (i, &a) in history.iter().enumerate() {
                        if !ok {
                            break;
                        }
                        let t = g.act(a);
                        ok = g.outcome().is_none() && percepts_eq(&t.percepts, &seen[i + 1]);
                    }
                    if ok {
                        samples.push(w);
                    }
                }
                if !samples.is_empty() && options.len() > 1 {
                    let q: Vec<f64> = options
                        .iter()
                        .map(|f| {
                            samples
                                .iter()
                                .map(|w| rollout(ctx, w.clone(), &history, f) as f64)
                                .sum::<f64>()
                                / samples.len() as f64
                        })
                        .collect();
                    let best = (0..options.len())
                        .max_by(|&a, &b| q[a].total_cmp(&q[b]))
                        .unwrap();
                    let chosen = &options[best];
                    if !chosen.is_empty() {
                        queue = chosen.iter().copied().collect();
                        action = queue.pop_front().unwrap_or(d.action);
                        if action != d.action {
                            changed = true;
                        }
                    }
                }
            }
        }
        let t = game.act(action);
        percepts = t.percepts;
        seen.push(percepts);
        history.push(action);
        last = Some(action);
    }
    let s = match game.outcome() {
        Some(o) => ctx.scoring.score(o, game.moves(), game.fired()),
        None => 0,
    };
    (base_score, s, changed)
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n: usize = a[1].parse().unwrap();
    let size: usize = a[2].parse().unwrap();
    let scoring = if a[3] == "aima" {
        Scoring::Aima
    } else {
        Scoring::Standard
    };
    let k: usize = a[4].parse().unwrap();
    let topo = Arc::new(Topology::grid(size, size).unwrap());
    let grounding = Grounding::new(default_rules(), topo.clone(), topo.cell(0, 0)).unwrap();
    let ctx = Ctx {
        topo,
        grounding,
        strategy: Strategy::Risk {
            pit_prob: 0.2,
            scoring,
        },
        scoring,
        pit: 0.2,
        k,
    };
    let r: Vec<(i64, i64, bool)> = (0..n as u64)
        .into_par_iter()
        .map(|i| play(&ctx, 2_000_000 + i))
        .collect();
    let base: f64 = r.iter().map(|x| x.0 as f64).sum::<f64>() / n as f64;
    let roll: f64 = r.iter().map(|x| x.1 as f64).sum::<f64>() / n as f64;
    let wins_b = r.iter().filter(|x| x.0 > 500).count();
    let wins_r = r.iter().filter(|x| x.1 > 500).count();
    let ch = r.iter().filter(|x| x.2).count();
    let diffs: Vec<f64> = r.iter().map(|x| (x.1 - x.0) as f64).collect();
    let mean = diffs.iter().sum::<f64>() / n as f64;
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n as f64 - 1.0);
    let se = (var / n as f64).sqrt();
    println!(
        "base {base:.1} ({wins_b} wins) rollout {roll:.1} ({wins_r} wins) changed {ch}/{n}; \
         difference {mean:+.1} +- {se:.1} (one standard error)"
    );
}
