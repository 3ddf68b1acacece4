//! Benchmarks of the agents end to end, of the one batch loop for each rule set, and of the
//! knowledge base.
//!
//! `cargo bench` runs them. Whole games on random 5×5 worlds measure the games-per-second
//! target (10,000 a second on one core for the logic agent); a whole game on a 64×64 world with
//! few pits, divided by its decisions, measures the per-decision target (200 µs); the `batch`
//! group plays a small seeded batch of each rule set through `run::solve` on one thread, the
//! path `wumpus solve` takes. `wumpus solve` prints the same figures from a `--release` run.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;
use std::sync::Arc;
use wumpus::agent::{AgentFactory, AgentKind, AgentOptions, Dice, Roster};
use wumpus::cave::{self, ClassicSession, ClassicSetup, MazeSession, MazeSetup, Variant};
use wumpus::game::Session;
use wumpus::grid::{GridSession, GridSetup, GridWorld, Scoring};
use wumpus::kb::rules::parse_rules;
use wumpus::kb::rules::GRID_RULES;
use wumpus::kb::{Grounding, KnowledgeBase, Proofs};
use wumpus::rng::seeded;
use wumpus::run::{Batch, BatchId, GameRecord, Quiet};
use wumpus::topology::Topology;

/// One grid game on `world` with a fresh agent from `agents`.
fn grid_game(world: GridWorld, agents: &dyn AgentFactory<GridSession>) -> GameRecord {
    let mut session = GridSession::new(world, Scoring::Standard, 0.2);
    let mut agent = agents.make(&session.briefing(), Dice::for_game(0)).unwrap();
    wumpus::run::play(&mut session, None, agent.as_mut(), &|| false, None)
        .unwrap()
        .unwrap()
}

fn games(c: &mut Criterion) {
    let setup = GridSetup::new(5, 5, 0.2, Scoring::Standard).unwrap();
    for kind in [AgentKind::Logic, AgentKind::Risk] {
        let agents = GridSession::prepare(kind, &setup, &AgentOptions::default()).unwrap();
        let mut seed = 0u64;
        c.bench_function(&format!("5x5 game, {} agent", kind.name()), |b| {
            b.iter_batched(
                || {
                    seed += 1;
                    GridWorld::random(setup.topology.clone(), 0.2, &mut seeded(seed))
                },
                |world| black_box(grid_game(world, agents.as_ref())),
                BatchSize::SmallInput,
            )
        });
    }
}

fn big_world(c: &mut Criterion) {
    let setup = GridSetup::new(64, 64, 0.05, Scoring::Standard).unwrap();
    let world = GridWorld::random(setup.topology.clone(), 0.05, &mut seeded(3));
    let agents = GridSession::prepare(AgentKind::Logic, &setup, &AgentOptions::default()).unwrap();
    let decisions = grid_game(world.clone(), agents.as_ref()).decisions;
    let mut group = c.benchmark_group("64x64");
    group.sample_size(10);
    group.bench_function(
        format!("whole game, logic agent ({decisions} decisions)"),
        |b| b.iter(|| black_box(grid_game(world.clone(), agents.as_ref()))),
    );
    group.finish();
}

/// A seeded batch of `games` games of `S` on one thread, through the one batch loop.
fn batch_of<S: Roster>(
    setup: &S::Setup,
    kind: AgentKind,
    options: &AgentOptions,
    games: u64,
) -> u64 {
    let agents = S::prepare(kind, setup, options).unwrap();
    let batch = Batch {
        worlds: games,
        seed: 0,
        threads: Some(1),
        shard: None,
    };
    let id = BatchId {
        game: wumpus::game_spec::GameSpec::new(S::RULES).resolved(),
        files: None,
        player: None,
        seed: 0,
        worlds: games,
        shard: None,
    };
    wumpus::run::solve(setup, agents.as_ref(), &batch, id, &mut Quiet)
        .unwrap()
        .wins
}

fn batches(c: &mut Criterion) {
    let mut group = c.benchmark_group("batch");
    group.sample_size(10);
    let grid = GridSetup::new(5, 5, 0.2, Scoring::Standard).unwrap();
    let options = AgentOptions::default();
    group.bench_function("grid 5x5, risk agent, 500 games", |b| {
        b.iter(|| {
            black_box(batch_of::<GridSession>(
                &grid,
                AgentKind::Risk,
                &options,
                500,
            ))
        })
    });
    // The look-ahead: its target is 10,000 5x5 games a second on the 2-core
    // machine, so about 5,000 on this one thread (200 µs a game).
    let deeper = AgentOptions {
        depth: Some(2),
        ..AgentOptions::default()
    };
    group.bench_function("grid 5x5, risk agent, --depth 2, 500 games", |b| {
        b.iter(|| {
            black_box(batch_of::<GridSession>(
                &grid,
                AgentKind::Risk,
                &deeper,
                500,
            ))
        })
    });
    let map = Arc::new(cave::parse_map(cave::STANDARD_MAP).unwrap());
    let classic = ClassicSetup {
        map,
        map_name: "the standard dodecahedron".into(),
        variant: Variant::Event,
    };
    for known in [false, true] {
        let options = AgentOptions {
            map_known: known,
            ..AgentOptions::default()
        };
        let what = if known { "known" } else { "discovered" };
        group.bench_function(format!("cave, logic agent, map {what}, 50 games"), |b| {
            b.iter(|| {
                black_box(batch_of::<ClassicSession>(
                    &classic,
                    AgentKind::Logic,
                    &options,
                    50,
                ))
            })
        });
    }
    let maze = MazeSetup {
        map: Arc::new(cave::parse_map(cave::STANDARD_CAVES_DAT).unwrap()),
        map_name: "the standard caves.dat".into(),
    };
    group.bench_function("maze, logic agent, 20 games", |b| {
        b.iter(|| {
            black_box(batch_of::<MazeSession>(
                &maze,
                AgentKind::Logic,
                &options,
                20,
            ))
        })
    });
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

criterion_group!(benches, games, big_world, batches, knowledge_base);
criterion_main!(benches);
