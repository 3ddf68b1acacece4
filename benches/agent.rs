//! Benchmarks of the agents end to end and of the knowledge base.
//!
//! `cargo bench` runs them. Whole games on random 5×5 worlds measure the games-per-second
//! target (10,000 a second on one core for the logic agent); a whole game on a 64×64 world with
//! few pits, divided by its decisions, measures the per-decision target (200 µs). `wumpus solve`
//! prints the same figures from a `--release` run.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;
use std::sync::Arc;
use wumpus::grid::GridWorld;
use wumpus::kb::rules::parse_rules;
use wumpus::kb::rules::GRID_RULES;
use wumpus::kb::{Grounding, KnowledgeBase, Proofs};
use wumpus::rng::seeded;
use wumpus::run::{run_grid_game_on, AgentKind, GameOptions};
use wumpus::topology::Topology;

fn games(c: &mut Criterion) {
    let topology = Arc::new(Topology::grid(5, 5).unwrap());
    let rules = Arc::new(parse_rules(GRID_RULES).unwrap());
    let grounding = Grounding::new(rules, topology.clone(), topology.cell(0, 0)).unwrap();
    for agent in [AgentKind::Logic, AgentKind::Risk] {
        let options = GameOptions {
            agent,
            ..GameOptions::default()
        };
        let mut seed = 0u64;
        c.bench_function(&format!("5x5 game, {} agent", agent.name()), |b| {
            b.iter_batched(
                || {
                    seed += 1;
                    GridWorld::random(topology.clone(), 0.2, &mut seeded(seed))
                },
                |world| {
                    black_box(run_grid_game_on(world, None, &options, &grounding, |_| {}).unwrap())
                },
                BatchSize::SmallInput,
            )
        });
    }
}

fn big_world(c: &mut Criterion) {
    let topology = Arc::new(Topology::grid(64, 64).unwrap());
    let rules = Arc::new(parse_rules(GRID_RULES).unwrap());
    let grounding = Grounding::new(rules, topology.clone(), topology.cell(0, 0)).unwrap();
    let world = GridWorld::random(topology.clone(), 0.05, &mut seeded(3));
    let options = GameOptions {
        agent: AgentKind::Logic,
        ..GameOptions::default()
    };
    let decisions = run_grid_game_on(world.clone(), None, &options, &grounding, |_| {})
        .unwrap()
        .decisions;
    let mut group = c.benchmark_group("64x64");
    group.sample_size(10);
    group.bench_function(
        format!("whole game, logic agent ({decisions} decisions)"),
        |b| {
            b.iter(|| {
                black_box(
                    run_grid_game_on(world.clone(), None, &options, &grounding, |_| {}).unwrap(),
                )
            })
        },
    );
    group.finish();
}

fn knowledge_base(c: &mut Criterion) {
    let topology = Arc::new(Topology::grid(5, 5).unwrap());
    let rules = Arc::new(parse_rules(GRID_RULES).unwrap());
    let grounding = Grounding::new(rules.clone(), topology.clone(), topology.cell(0, 0)).unwrap();
    let breeze = rules.predicate("breeze").unwrap();
    let pit = rules.predicate("pit").unwrap();
    c.bench_function("kb: tell a breeze and prove a neighbour", |b| {
        b.iter(|| {
            let mut kb = KnowledgeBase::from_grounding(grounding.clone(), Proofs::Fast);
            kb.tell(breeze, topology.cell(0, 0), false).unwrap();
            kb.tell(breeze, topology.cell(0, 1), true).unwrap();
            let p = kb.atom(pit, topology.cell(1, 1));
            black_box(kb.entails((p, false)).unwrap())
        })
    });
}

criterion_group!(benches, games, big_world, knowledge_base);
criterion_main!(benches);
