//! The knowledge base checked against brute force: at every step of many random games on small
//! grids, the cells the agent calls proven safe, proven pit and proven wumpus must be exactly
//! the cells that hold so in *every* world consistent with what the agent perceived, found by
//! enumerating all pit layouts and wumpus positions. Not a subset: exactly.

use std::sync::Arc;
use wumpus::agent::grid::GridAgent;
use wumpus::agent::Agent;
use wumpus::agent::Insight;
use wumpus::grid::{Action, GridGame, GridWorld};
use wumpus::rng::seeded;
use wumpus::topology::{Link, Place, Topology};

/// What the agent has perceived, as a player would write it down.
#[derive(Default)]
struct Notes {
    /// (cell, breeze, stench, wumpus alive when entered)
    visits: Vec<(usize, bool, bool, bool)>,
    /// Cells the arrow flew through without a scream.
    missed: Vec<usize>,
    alive: bool,
    arrow: bool,
}

/// The entailed sets: (safe, pit, wumpus), each as a sorted list of cell indices.
fn entailed(topology: &Topology, notes: &Notes) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let (safe, pit, wumpus, _) = enumerate(topology, notes, 0.2);
    (safe, pit, wumpus)
}

type Odds = Vec<(f64, f64)>;

/// Enumerates every world consistent with the notes: the entailed sets, and each cell's
/// probability of a pit and of the live wumpus with pits dealt independently at `pit_prob`
/// and the wumpus uniform over the cells other than the start.
fn enumerate(
    topology: &Topology,
    notes: &Notes,
    pit_prob: f64,
) -> (Vec<usize>, Vec<usize>, Vec<usize>, Odds) {
    let n = topology.len();
    let neighbours: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            topology
                .neighbours(Place::new(i))
                .map(|p| p.index())
                .collect()
        })
        .collect();
    let mut always_safe = vec![true; n];
    let mut always_pit = vec![true; n];
    let mut always_wumpus = vec![true; n];
    let mut worlds = 0u64;
    let mut total = 0.0;
    let mut weight_pit = vec![0.0; n];
    let mut weight_wumpus = vec![0.0; n];
    // Pits are a bitmask over cells 1..n (the start never holds one).
    for mask in 0u32..(1 << (n - 1)) {
        let pit = |c: usize| c != 0 && mask >> (c - 1) & 1 == 1;
        let pits_ok = notes
            .visits
            .iter()
            .all(|&(v, breeze, _, _)| !pit(v) && neighbours[v].iter().any(|&m| pit(m)) == breeze);
        if !pits_ok {
            continue;
        }
        for w in 1..n {
            let ok = notes.visits.iter().all(|&(v, _, stench, alive)| {
                (!alive || v != w) && (v == w || neighbours[v].contains(&w)) == stench
            }) && !notes.missed.contains(&w);
            if !ok {
                continue;
            }
            worlds += 1;
            let pits = (1..n).filter(|&c| pit(c)).count() as i32;
            let weight = pit_prob.powi(pits) * (1.0 - pit_prob).powi(n as i32 - 1 - pits);
            total += weight;
            for c in 0..n {
                if pit(c) {
                    weight_pit[c] += weight;
                }
                if notes.alive && c == w {
                    weight_wumpus[c] += weight;
                }
                always_safe[c] &= !pit(c) && (!notes.alive || c != w);
                always_pit[c] &= pit(c);
                always_wumpus[c] &= notes.alive && c == w;
            }
        }
    }
    assert!(worlds > 0, "the real world is always consistent");
    let list = |v: Vec<bool>| (0..n).filter(|&c| v[c]).collect::<Vec<_>>();
    let odds = (0..n)
        .map(|c| (weight_pit[c] / total, weight_wumpus[c] / total))
        .collect();
    (
        list(always_safe),
        list(always_pit),
        list(always_wumpus),
        odds,
    )
}

/// Plays the logic agent on a random world, keeping a player's notes of what it perceives,
/// and calls `check` after every observation. Returns the number of steps.
fn play_with_notes(
    rows: usize,
    cols: usize,
    pit_prob: f64,
    seed: u64,
    insight: Insight,
    mut check: impl FnMut(&mut GridAgent, &Topology, &Notes, String),
) -> usize {
    let topology = Arc::new(Topology::grid(rows, cols).unwrap());
    let world = GridWorld::random(topology.clone(), pit_prob, &mut seeded(seed));
    let mut game = GridGame::new(world);
    let mut agent = GridAgent::new(topology.clone(), None, insight).unwrap();
    let mut notes = Notes {
        alive: true,
        arrow: true,
        ..Notes::default()
    };
    let mut percepts = game.start().percepts;
    let mut last: Option<Action> = None;
    let mut position = Place::new(0);
    let mut steps = 0;
    while game.outcome().is_none() {
        // The test keeps its own notes of what a player perceives.
        match last {
            Some(Action::Move(d)) if !percepts.bump => {
                position = topology.follow(position, Link::Step(d)).unwrap();
            }
            Some(Action::Fire(d)) if notes.arrow => {
                notes.arrow = false;
                if percepts.scream {
                    notes.alive = false;
                } else {
                    notes
                        .missed
                        .extend(topology.ray(position, d).iter().map(|p| p.index()));
                }
            }
            _ => {}
        }
        if !notes.visits.iter().any(|v| v.0 == position.index()) {
            notes.visits.push((
                position.index(),
                percepts.breeze,
                percepts.stench,
                notes.alive,
            ));
        }
        agent.observe_percepts(last, &percepts).unwrap();
        check(
            &mut agent,
            &topology,
            &notes,
            format!("{rows}x{cols} seed {seed} step {steps}"),
        );
        let decision = agent.decide();
        percepts = game.act(decision.action).percepts;
        last = Some(decision.action);
        steps += 1;
        assert!(steps < 500, "the game ends");
    }
    assert!(
        !game.outcome().unwrap().is_death(),
        "the logic agent never dies ({rows}x{cols} seed {seed})"
    );
    steps
}

/// At every step, the agent's proven sets equal brute-force entailment.
fn play_and_compare(rows: usize, cols: usize, pit_prob: f64, seed: u64) -> usize {
    play_with_notes(
        rows,
        cols,
        pit_prob,
        seed,
        Insight::Explained,
        |agent, topology, notes, at| {
            let (safe, pit, wumpus) = entailed(topology, notes);
            let idx = |v: Vec<Place>| v.into_iter().map(|p| p.index()).collect::<Vec<_>>();
            assert_eq!(idx(agent.proven_safe()), safe, "proven safe, {at}");
            assert_eq!(idx(agent.proven_pits()), pit, "proven pits, {at}");
            assert_eq!(
                idx(agent.proven_wumpus().into_iter().collect()),
                wumpus,
                "proven wumpus, {at}"
            );
        },
    )
}

/// At every step, the agent's exact odds for every cell equal the probabilities over all
/// consistent worlds.
fn odds_match(rows: usize, cols: usize, pit_prob: f64, seed: u64) -> usize {
    let mut compared = 0;
    play_with_notes(
        rows,
        cols,
        pit_prob,
        seed,
        Insight::Decisions,
        |agent, topology, notes, at| {
            let (_, _, _, odds) = enumerate(topology, notes, pit_prob);
            let places: Vec<Place> = topology.places().collect();
            let kb_odds = agent.hazard_odds(&places, pit_prob).unwrap();
            for (c, (&(bp, bw), &(kp, kw))) in odds.iter().zip(&kb_odds).enumerate() {
                assert!(
                    (bp - kp).abs() < 1e-9 && (bw - kw).abs() < 1e-9,
                    "cell {c}: brute force ({bp}, {bw}) vs KB ({kp}, {kw}); {at}"
                );
                compared += 1;
            }
        },
    );
    compared
}

#[test]
fn odds_equal_brute_force_probabilities() {
    let mut compared = 0;
    for seed in 0..60 {
        compared += odds_match(3, 3, 0.2, seed);
        compared += odds_match(3, 4, 0.3, seed + 500);
    }
    for seed in 0..4 {
        compared += odds_match(4, 4, 0.2, seed + 900);
    }
    assert!(compared > 2000, "{compared}");
}

#[test]
fn proven_sets_equal_brute_force_entailment_on_3x3() {
    let steps: usize = (0..300).map(|seed| play_and_compare(3, 3, 0.2, seed)).sum();
    assert!(steps > 1000, "games long enough to test something: {steps}");
}

#[test]
fn proven_sets_equal_brute_force_entailment_on_3x4_and_2x5() {
    for seed in 0..120 {
        play_and_compare(3, 4, 0.2, seed);
        play_and_compare(2, 5, 0.15, seed + 1000);
    }
}

#[test]
fn proven_sets_equal_brute_force_entailment_on_4x4() {
    for seed in 0..6 {
        play_and_compare(4, 4, 0.2, seed);
    }
}
