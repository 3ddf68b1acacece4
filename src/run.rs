//! Running agents on games: one game step by step, or a batch of seeded worlds with statistics.
//! The classic cave's reasoning agent runs here too, one traced game at a time
//! ([`run_cave_game`]); its batches go through [`crate::cave::batch`].
//!
//! The runner is the only code that holds both a simulator and an agent, and it hands the agent
//! turns only. One game is [`run_grid_game`], which reports each decision through a callback so
//! that `trace` can show it; [`solve_grid`] plays a batch (in parallel with rayon; game `i` uses
//! seed `base + i`, so results do not depend on the number of threads) and sums it up.

use crate::agent::grid::{default_rules, GridAgent, Insight, Odds, Strategy};
use crate::agent::{Conclusion, Reason};
use crate::grid::{Action, GridGame, GridWorld, Outcome, Percepts, Scoring};
use crate::kb::rules::Rules;
use crate::kb::{Grounding, KbError};
use crate::rng::{game_seed, seeded};
use crate::topology::{Place, Topology};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Which agent plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentKind {
    /// The logic agent: proven-safe moves only.
    Logic,
    /// The risk-aware agent: logic first, then exact odds and expected score.
    #[default]
    Risk,
}

impl AgentKind {
    /// The agent's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Logic => "logic",
            AgentKind::Risk => "risk",
        }
    }
}

/// How to run a game.
#[derive(Clone, Debug)]
pub struct GameOptions {
    /// Which agent plays.
    pub agent: AgentKind,
    /// How much the agent explains.
    pub explain: bool,
    /// The scoring rules.
    pub scoring: Scoring,
    /// Other rules than the built-in `kb/grid.kb`.
    pub rules: Option<Arc<Rules>>,
    /// The pit probability the risk agent assumes (the world's, for random worlds).
    pub pit_prob: f64,
}

impl Default for GameOptions {
    fn default() -> GameOptions {
        GameOptions {
            agent: AgentKind::default(),
            explain: false,
            scoring: Scoring::default(),
            rules: None,
            pit_prob: 0.2,
        }
    }
}

/// One decision of a game, as `trace` shows it.
#[derive(Clone, Debug)]
pub struct StepReport {
    /// The agent's cell when it decided.
    pub position: Place,
    /// The percepts it had just received.
    pub percepts: Percepts,
    /// What became proven this step.
    pub learned: Vec<Conclusion>,
    /// All cells proven safe so far, visited ones included.
    pub proven_safe: Vec<Place>,
    /// All cells proven to hold a pit.
    pub proven_pit: Vec<Place>,
    /// The cell proven to hold the live wumpus.
    pub proven_wumpus: Vec<Place>,
    /// The action chosen.
    pub action: Action,
    /// Why.
    pub reason: Reason,
    /// The risks weighed, when the agent gambled.
    pub odds: Option<Odds>,
}

/// How a game went.
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    /// The world's seed, for a random world.
    pub seed: Option<u64>,
    /// How it ended.
    pub outcome: GameEnd,
    /// The final score.
    pub score: i64,
    /// Actions taken.
    pub moves: u32,
    /// Whether an all-knowing player could have won this world.
    pub winnable: bool,
    /// Whether the arrow was fired.
    pub fired: bool,
    /// Solver calls the agent made.
    pub solver_calls: u64,
    /// Decisions the agent made.
    pub decisions: u32,
    /// Time spent in the agent (observing and deciding).
    #[serde(skip)]
    pub agent_time: Duration,
}

/// How a game ended: as the rules say, or cut off because the agent would not stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GameEnd {
    /// The game's own ending.
    Over(Outcome),
    /// The agent took more actions than the world could need.
    CutOff,
}

impl GameEnd {
    /// The ending's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            GameEnd::Over(o) => o.name(),
            GameEnd::CutOff => "cut_off",
        }
    }
}

/// Plays one game on `world` with the agent `options` name, reporting each decision.
pub fn run_grid_game(
    world: GridWorld,
    seed: Option<u64>,
    options: &GameOptions,
    on_step: impl FnMut(&StepReport),
) -> Result<GameRecord, KbError> {
    let rules = options.rules.clone().unwrap_or_else(default_rules);
    let grounding = Grounding::new(rules, world.topology().clone(), Some(world.start()))?;
    run_grid_game_on(world, seed, options, &grounding, on_step)
}

/// [`run_grid_game`] on a grounding shared by many games on the same grid.
pub fn run_grid_game_on(
    world: GridWorld,
    seed: Option<u64>,
    options: &GameOptions,
    grounding: &Arc<Grounding>,
    mut on_step: impl FnMut(&StepReport),
) -> Result<GameRecord, KbError> {
    let topology = world.topology().clone();
    let winnable = world.winnable();
    let insight = if options.explain {
        Insight::Explained
    } else {
        Insight::Decisions
    };
    let strategy = match options.agent {
        AgentKind::Logic => Strategy::Logic,
        AgentKind::Risk => Strategy::Risk {
            pit_prob: options.pit_prob,
            scoring: options.scoring,
        },
    };
    let mut agent = GridAgent::with_grounding(grounding.clone(), insight)?.with_strategy(strategy);
    let mut game = GridGame::new(world);
    let mut percepts = game.start().percepts;
    let mut last: Option<Action> = None;
    let limit = move_limit(&topology);
    let mut agent_time = Duration::ZERO;
    let mut decisions = 0u32;
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break GameEnd::Over(outcome);
        }
        if game.moves() >= limit {
            break GameEnd::CutOff;
        }
        let t = Instant::now();
        let learned = agent.observe(last, &percepts)?;
        let decision = agent.decide();
        agent_time += t.elapsed();
        decisions += 1;
        if options.explain {
            on_step(&StepReport {
                position: agent.position(),
                percepts,
                learned,
                proven_safe: agent.proven_safe(),
                proven_pit: agent.proven_pits(),
                proven_wumpus: agent.proven_wumpus().into_iter().collect(),
                action: decision.action,
                reason: decision.reason.clone(),
                odds: decision.odds.clone(),
            });
        }
        percepts = game.act(decision.action).percepts;
        last = Some(decision.action);
    };
    let score = match outcome {
        GameEnd::Over(o) => options.scoring.score(o, game.moves(), game.fired()),
        GameEnd::CutOff => 0,
    };
    Ok(GameRecord {
        seed,
        outcome,
        score,
        moves: game.moves(),
        winnable,
        fired: game.fired(),
        solver_calls: agent.kb().solver_calls(),
        decisions,
        agent_time,
    })
}

/// More actions than any sensible play of this world needs.
fn move_limit(topology: &Topology) -> u32 {
    let cells = topology.len() as u64;
    (cells * 8 + 1000).min(u32::MAX as u64) as u32
}

/// A batch of random grid worlds.
#[derive(Clone, Debug)]
pub struct Batch {
    /// How many worlds.
    pub worlds: u64,
    /// Seed of world 0; world `i` has seed `seed + i`.
    pub seed: u64,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Pit probability.
    pub pit_prob: f64,
    /// How to play each game.
    pub game: GameOptions,
    /// Threads to use (`None`: all cores).
    pub threads: Option<usize>,
}

/// What a batch came to.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The agent.
    pub agent: AgentKind,
    /// The scoring.
    pub scoring: Scoring,
    /// Grid size as `RxC`.
    pub size: String,
    /// Pit probability.
    pub pit_prob: f64,
    /// Seed of the first world.
    pub seed: u64,
    /// Games played.
    pub games: u64,
    /// Climbed out with the gold.
    pub wins: u64,
    /// Died.
    pub deaths: u64,
    /// Climbed out without the gold.
    pub climbed_out_without_gold: u64,
    /// Games cut off for taking too long (0 for a sound agent).
    pub cut_off: u64,
    /// Mean final score.
    pub mean_score: f64,
    /// Mean actions a game.
    pub mean_moves: f64,
    /// Share of worlds an all-knowing player could win.
    pub ceiling: f64,
    /// Wins as a share of the winnable worlds.
    pub wins_of_ceiling: f64,
    /// Share of games won.
    pub win_rate: f64,
    /// Mean solver calls a game.
    pub solver_calls_per_game: f64,
    /// Mean time the agent took a decision, in microseconds.
    pub mean_decision_us: f64,
    /// Wall-clock seconds for the batch.
    pub seconds: f64,
    /// Games a second, wall clock.
    pub games_per_second: f64,
    /// Threads used.
    pub threads: usize,
}

/// Plays a batch and sums it up. Same batch, same numbers (but for the timings).
pub fn solve_grid(batch: &Batch) -> Result<Summary, KbError> {
    let topology = Arc::new(
        Topology::grid(batch.rows, batch.cols)
            .map_err(|e| KbError::NotObservable(e.to_string()))?,
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(batch.threads.unwrap_or(0))
        .build()
        .expect("a thread pool");
    let threads = pool.current_num_threads();
    let rules = batch.game.rules.clone().unwrap_or_else(default_rules);
    let grounding = Grounding::new(rules, topology.clone(), topology.cell(0, 0))?;
    let start = Instant::now();
    let records: Result<Vec<GameRecord>, KbError> = pool.install(|| {
        (0..batch.worlds)
            .into_par_iter()
            .map(|i| {
                let seed = game_seed(batch.seed, i);
                let world = GridWorld::random(topology.clone(), batch.pit_prob, &mut seeded(seed));
                run_grid_game_on(world, Some(seed), &batch.game, &grounding, |_| {})
            })
            .collect()
    });
    let records = records?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(summarise(batch, &records, seconds, threads))
}

fn summarise(batch: &Batch, records: &[GameRecord], seconds: f64, threads: usize) -> Summary {
    let games = records.len() as u64;
    let count = |f: &dyn Fn(&GameRecord) -> bool| records.iter().filter(|r| f(r)).count() as u64;
    let wins = count(&|r| r.outcome == GameEnd::Over(Outcome::Won));
    let winnable = count(&|r| r.winnable);
    let n = games.max(1) as f64;
    let decisions: u64 = records.iter().map(|r| r.decisions as u64).sum();
    let agent_time: f64 = records.iter().map(|r| r.agent_time.as_secs_f64()).sum();
    Summary {
        agent: batch.game.agent,
        scoring: batch.game.scoring,
        size: format!("{}x{}", batch.rows, batch.cols),
        pit_prob: batch.pit_prob,
        seed: batch.seed,
        games,
        wins,
        deaths: count(&|r| matches!(r.outcome, GameEnd::Over(o) if o.is_death())),
        climbed_out_without_gold: count(&|r| r.outcome == GameEnd::Over(Outcome::ClimbedOut)),
        cut_off: count(&|r| r.outcome == GameEnd::CutOff),
        mean_score: records.iter().map(|r| r.score as f64).sum::<f64>() / n,
        mean_moves: records.iter().map(|r| r.moves as f64).sum::<f64>() / n,
        ceiling: winnable as f64 / n,
        wins_of_ceiling: if winnable == 0 {
            0.0
        } else {
            wins as f64 / winnable as f64
        },
        win_rate: wins as f64 / n,
        solver_calls_per_game: records.iter().map(|r| r.solver_calls as f64).sum::<f64>() / n,
        mean_decision_us: if decisions == 0 {
            0.0
        } else {
            agent_time * 1e6 / decisions as f64
        },
        seconds,
        games_per_second: games as f64 / seconds.max(1e-9),
        threads,
    }
}

/// One decision of a classic cave game, as `trace` shows it.
#[derive(Clone, Debug)]
pub struct CaveStepReport {
    /// What the hunter knew (with the game's true arrows and moves).
    pub status: crate::cave::Status,
    /// What the last action caused, in order (empty at the start).
    pub events: Vec<crate::cave::Event>,
    /// What became proven this step.
    pub learned: Vec<Conclusion>,
    /// The odds of each hazard in each room.
    pub odds: Option<crate::agent::cave::layouts::Odds>,
    /// What the agent believes of each room, by room.
    pub views: Vec<crate::agent::cave::RoomView>,
    /// The action and why.
    pub decision: crate::agent::cave::Decision,
}

/// How a traced cave game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaveGameEnd {
    /// How it ended (`None`: the agent was stopped after [`crate::cave::batch::MAX_ACTIONS`]).
    pub ending: Option<crate::cave::Ending>,
    /// Moves made.
    pub moves: u32,
    /// Arrows shot.
    pub shots: u32,
}

/// Plays `game` with a fresh reasoning agent set up by `config`, reporting each decision.
pub fn run_cave_game(
    mut game: crate::cave::ClassicGame,
    config: crate::agent::cave::CaveAgentConfig,
    mut on_step: impl FnMut(&CaveStepReport),
) -> Result<CaveGameEnd, crate::agent::cave::CaveAgentError> {
    use crate::agent::cave::CaveAgent;
    let mut agent = CaveAgent::new(config)?;
    let rooms = game.map().len();
    let (mut last, mut result, mut events) = (None, None, Vec::new());
    let mut actions = 0;
    while game.ending().is_none() && actions < crate::cave::batch::MAX_ACTIONS {
        let status = game.status();
        let learned = agent.perceive(last.as_ref(), result.as_ref(), &status)?;
        let decision = agent.decide();
        on_step(&CaveStepReport {
            status,
            events: std::mem::take(&mut events),
            learned,
            odds: agent.odds().cloned(),
            views: (0..rooms).map(|r| agent.view(Place::new(r))).collect(),
            decision: decision.clone(),
        });
        let turn = game.act(&decision.action);
        events = turn.events;
        last = Some(decision.action);
        result = Some(turn.result);
        actions += 1;
    }
    Ok(CaveGameEnd {
        ending: game.ending(),
        moves: game.moves(),
        shots: game.shots(),
    })
}

/// One decision of a maze game, as `trace` shows it.
#[derive(Clone, Debug)]
pub struct MazeStepReport {
    /// What the player was shown.
    pub view: crate::cave::MazeView,
    /// What the last action caused, in order.
    pub events: Vec<crate::cave::maze::MazeEvent>,
    /// What became proven this step (when the player's cave is certain).
    pub learned: Vec<Conclusion>,
    /// Where the player may be, most likely first.
    pub whereabouts: Vec<(Place, f64)>,
    /// The odds of each tunnel's cave.
    pub tunnels: Vec<crate::agent::maze::TunnelOdds>,
    /// The action and why.
    pub decision: crate::agent::maze::MazeDecision,
}

/// How a maze game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MazeRecord {
    /// The game's seed.
    pub seed: u64,
    /// How it ended (`None`: stopped after [`MAZE_ACTION_LIMIT`] actions).
    #[serde(skip)]
    pub ending: Option<crate::cave::MazeEnding>,
    /// Moves made.
    pub moves: u32,
    /// Grenades tossed.
    pub grenades: u32,
}

/// A maze game whose agent has taken this many actions is stopped (the maze has no move
/// limit).
pub const MAZE_ACTION_LIMIT: u32 = 2_000;

/// Plays `game` (dealt from `seed`) with a fresh maze agent, reporting each decision when
/// `explain` is set.
pub fn run_maze_game(
    mut game: crate::cave::MazeGame,
    seed: u64,
    explain: bool,
    mut on_step: impl FnMut(&MazeStepReport),
) -> Result<MazeRecord, crate::agent::maze::MazeAgentError> {
    use crate::agent::maze::MazeAgent;
    let insight = if explain {
        Insight::Explained
    } else {
        Insight::Decisions
    };
    let mut agent = MazeAgent::new(game.map().clone(), insight)?;
    let (mut last, mut result, mut events) = (None, None, Vec::new());
    let mut actions = 0;
    while game.ending().is_none() && actions < MAZE_ACTION_LIMIT {
        let view = game.view();
        // A contradiction leaves the agent walking blind; it shows in its reasons.
        let learned = agent.perceive(last, result, &view).unwrap_or_default();
        let decision = agent.decide();
        if explain {
            on_step(&MazeStepReport {
                view,
                events: std::mem::take(&mut events),
                learned,
                whereabouts: agent.whereabouts(),
                tunnels: agent.tunnels(),
                decision: decision.clone(),
            });
        }
        let turn = game.act(decision.action);
        events = turn.events;
        last = Some(decision.action);
        result = Some(turn.result);
        actions += 1;
    }
    Ok(MazeRecord {
        seed,
        ending: game.ending(),
        moves: game.moves(),
        grenades: game.tosses(),
    })
}

/// What a batch of maze games came to.
#[derive(Clone, Debug, Serialize)]
pub struct MazeSummary {
    /// Games played.
    pub games: u64,
    /// The seed of game 0; game `i` has seed `seed + i`.
    pub seed: u64,
    /// Games won (every wumpus dead).
    pub wins: u64,
    /// `wins / games`.
    pub win_rate: f64,
    /// Fell into the pit.
    pub pit: u64,
    /// Eaten by a wumpus (walked in, or one ran in).
    pub wumpus: u64,
    /// The last grenade gone with wumpi alive.
    pub out_of_grenades: u64,
    /// Stopped after [`MAZE_ACTION_LIMIT`] actions.
    pub unfinished: u64,
    /// Grenades tossed a game.
    pub grenades_per_game: f64,
    /// Grenades tossed a won game.
    pub grenades_per_win: f64,
    /// Moves a game.
    pub moves_per_game: f64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Games a second.
    pub games_per_second: f64,
}

/// Plays `games` maze games on `map` from seeds `seed`, `seed + 1`, ... with the maze agent.
pub fn solve_maze(
    map: &Arc<crate::cave::CaveMap>,
    games: u64,
    seed: u64,
) -> Result<MazeSummary, crate::agent::maze::MazeAgentError> {
    use crate::cave::maze::{MazeEnding, MazeLoss};
    let start = Instant::now();
    let records: Result<Vec<MazeRecord>, _> = (0..games)
        .into_par_iter()
        .map(|i| {
            let s = game_seed(seed, i);
            let game = crate::cave::MazeGame::new(map.clone(), s)
                .map_err(|e| KbError::NotObservable(e.to_string()))?;
            run_maze_game(game, s, false, |_| {})
        })
        .collect();
    let records = records?;
    let seconds = start.elapsed().as_secs_f64();
    let n = games.max(1) as f64;
    let count = |f: &dyn Fn(&MazeRecord) -> bool| records.iter().filter(|r| f(r)).count() as u64;
    let wins = count(&|r| r.ending == Some(MazeEnding::Won));
    let won_grenades: u64 = records
        .iter()
        .filter(|r| r.ending == Some(MazeEnding::Won))
        .map(|r| r.grenades as u64)
        .sum();
    Ok(MazeSummary {
        games,
        seed,
        wins,
        win_rate: wins as f64 / n,
        pit: count(&|r| r.ending == Some(MazeEnding::Lost(MazeLoss::Pit))),
        wumpus: count(&|r| r.ending == Some(MazeEnding::Lost(MazeLoss::Wumpus))),
        out_of_grenades: count(&|r| r.ending == Some(MazeEnding::Lost(MazeLoss::OutOfGrenades))),
        unfinished: count(&|r| r.ending.is_none()),
        grenades_per_game: records.iter().map(|r| r.grenades as f64).sum::<f64>() / n,
        grenades_per_win: if wins == 0 {
            0.0
        } else {
            won_grenades as f64 / wins as f64
        },
        moves_per_game: records.iter().map(|r| r.moves as f64).sum::<f64>() / n,
        seconds,
        games_per_second: games as f64 / seconds.max(1e-9),
    })
}
