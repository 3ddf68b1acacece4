//! Running agents on games: one game step by step, or a batch of seeded worlds with statistics.
//! The classic cave's and the maze's agents run here too, one traced game at a time
//! ([`run_cave_game`], [`run_maze_game`]) or in batches ([`play_cave_games`],
//! [`play_maze_games`]).
//!
//! The runner is the only code that holds both a simulator and an agent, and it hands the agent
//! turns only. One game is [`run_grid_game`], which reports each decision through a callback so
//! that `trace` can show it; [`solve_grid`] plays a batch (in parallel with rayon; game `i` uses
//! seed `base + i`, so results do not depend on the number of threads) and sums it up. The
//! three rule sets' batches share one loop, so that a [`BatchSink`] (the CLI's progress bar,
//! Ctrl-C and CSV rows) works the same for each: only the game played and the sums differ.

use crate::agent::grid::{default_rules, GridAgent, Insight, Odds, Strategy};
use crate::agent::{Conclusion, Reason};
use crate::grid::{Action, GridGame, GridWorld, Outcome, Percepts, Scoring};
use crate::kb::rules::Rules;
use crate::kb::{Grounding, KbError};
use crate::rng::{game_seed, seeded};
use crate::topology::{Place, Topology};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Which agent plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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
    on_step: impl FnMut(&StepReport),
) -> Result<GameRecord, KbError> {
    let record = play_until(world, seed, options, grounding, on_step, &|| false)?;
    Ok(record.expect("a game nobody stops ends"))
}

/// Plays a game unless `stop` says to give up (checked before each decision): `None` then.
fn play_until(
    world: GridWorld,
    seed: Option<u64>,
    options: &GameOptions,
    grounding: &Arc<Grounding>,
    mut on_step: impl FnMut(&StepReport),
    stop: &dyn Fn() -> bool,
) -> Result<Option<GameRecord>, KbError> {
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
        if stop() {
            return Ok(None);
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
    Ok(Some(GameRecord {
        seed,
        outcome,
        score,
        moves: game.moves(),
        winnable,
        fired: game.fired(),
        solver_calls: agent.kb().solver_calls(),
        decisions,
        agent_time,
    }))
}

/// The agent of a traced game (explanations on, so its knowledge base names every
/// observation) as it stood at decision `step` (1-based, as `trace` numbers them: after that
/// step's percepts were told, before it acted), or at its last decision when `step` is `None`
/// or beyond the game. Returns the agent and the step it stands at.
pub fn grid_agent_at(
    world: GridWorld,
    options: &GameOptions,
    step: Option<usize>,
) -> Result<(GridAgent, usize), KbError> {
    let rules = options.rules.clone().unwrap_or_else(default_rules);
    let grounding = Grounding::new(rules, world.topology().clone(), Some(world.start()))?;
    let strategy = match options.agent {
        AgentKind::Logic => Strategy::Logic,
        AgentKind::Risk => Strategy::Risk {
            pit_prob: options.pit_prob,
            scoring: options.scoring,
        },
    };
    let limit = move_limit(world.topology());
    let mut agent =
        GridAgent::with_grounding(grounding, Insight::Explained)?.with_strategy(strategy);
    let mut game = GridGame::new(world);
    let mut percepts = game.start().percepts;
    let mut last = None;
    let mut number = 0;
    while game.outcome().is_none() && game.moves() < limit {
        agent.observe(last, &percepts)?;
        number += 1;
        let action = agent.decide().action;
        if step == Some(number) {
            break;
        }
        percepts = game.act(action).percepts;
        last = Some(action);
    }
    Ok((agent, number))
}

/// More actions than any sensible play of this world needs.
fn move_limit(topology: &Topology) -> u32 {
    let cells = topology.len() as u64;
    (cells * 8 + 1000).min(u32::MAX as u64) as u32
}

/// A batch of random grid worlds.
#[derive(Clone, Debug)]
pub struct Batch {
    /// How many worlds in the whole batch.
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
    /// Play only this shard of the batch (`None`: all of it).
    pub shard: Option<Shard>,
}

/// Shard `index` of `count` (1-based): a contiguous range of a batch's games, so that a
/// batch can be split across machines and the shards' summaries merged into the whole.
///
/// Contiguous rather than interleaved (game `i` in shard `i mod N`): a shard is then the very
/// same as an unsharded batch of its own (`--seed S+lo --worlds hi-lo`), so any shard can be
/// replayed or checked without the flag, its seeds are one range `S+lo..S+hi`, and the CSV rows
/// of the shards, concatenated in shard order, are the whole batch's rows in seed order. The
/// games of a batch are alike in cost (seeds are random worlds), so ranges balance as well.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, from 1.
    pub index: u64,
    /// How many shards.
    pub count: u64,
}

/// Why a shard is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("shard {index}/{count}: expected K/N with 1 <= K <= N")]
pub struct ShardError {
    index: u64,
    count: u64,
}

impl Shard {
    /// Shard `index` of `count`, checked.
    pub fn new(index: u64, count: u64) -> Result<Shard, ShardError> {
        if count == 0 || index == 0 || index > count {
            return Err(ShardError { index, count });
        }
        Ok(Shard { index, count })
    }

    /// The games `lo..hi` of a batch of `worlds` this shard plays: `worlds·(K−1)/N` up to
    /// `worlds·K/N`, so the shards' sizes differ by at most one.
    pub fn range(self, worlds: u64) -> Range<u64> {
        let at = |k: u64| (worlds as u128 * k as u128 / self.count as u128) as u64;
        at(self.index - 1)..at(self.index)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}' is not a shard like 2/8 (K/N, 1 <= K <= N)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k = k.trim().parse().map_err(|_| bad())?;
        let n = n.trim().parse().map_err(|_| bad())?;
        Shard::new(k, n).map_err(|_| bad())
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Sums over games, from which every figure of a [`Summary`] follows. Sums merge exactly, so
/// the shards of a batch add up to the whole; a batch keeps these, never a record per game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    /// Games played.
    pub games: u64,
    /// Climbed out with the gold.
    pub wins: u64,
    /// Died.
    pub deaths: u64,
    /// Climbed out without the gold.
    pub climbed_out_without_gold: u64,
    /// Cut off for taking too long.
    pub cut_off: u64,
    /// Worlds an all-knowing player could win.
    pub winnable: u64,
    /// Sum of the final scores.
    pub score_sum: i64,
    /// Sum of the actions taken.
    pub moves_sum: u64,
    /// Sum of the solver calls.
    pub solver_calls_sum: u64,
    /// Decisions made.
    pub decisions: u64,
    /// Nanoseconds spent in the agent (a timing: varies from run to run).
    pub agent_nanos: u64,
}

impl Totals {
    /// Counts one game.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        self.wins += (r.outcome == GameEnd::Over(Outcome::Won)) as u64;
        self.deaths += matches!(r.outcome, GameEnd::Over(o) if o.is_death()) as u64;
        self.climbed_out_without_gold += (r.outcome == GameEnd::Over(Outcome::ClimbedOut)) as u64;
        self.cut_off += (r.outcome == GameEnd::CutOff) as u64;
        self.winnable += r.winnable as u64;
        self.score_sum += r.score;
        self.moves_sum += r.moves as u64;
        self.solver_calls_sum += r.solver_calls;
        self.decisions += r.decisions as u64;
        self.agent_nanos += r.agent_time.as_nanos() as u64;
    }

    /// Adds another batch's sums.
    pub fn merge(&mut self, o: &Totals) {
        self.games += o.games;
        self.wins += o.wins;
        self.deaths += o.deaths;
        self.climbed_out_without_gold += o.climbed_out_without_gold;
        self.cut_off += o.cut_off;
        self.winnable += o.winnable;
        self.score_sum += o.score_sum;
        self.moves_sum += o.moves_sum;
        self.solver_calls_sum += o.solver_calls_sum;
        self.decisions += o.decisions;
        self.agent_nanos += o.agent_nanos;
    }
}

/// What a batch came to.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Summary {
    /// The agent.
    pub agent: AgentKind,
    /// The scoring.
    pub scoring: Scoring,
    /// Grid size as `RxC`.
    pub size: String,
    /// Pit probability.
    pub pit_prob: f64,
    /// Seed of the first world of the whole batch.
    pub seed: u64,
    /// Worlds in the whole batch (all shards).
    pub worlds: u64,
    /// The shard this summary covers, if one.
    pub shard: Option<Shard>,
    /// True when the batch was stopped (Ctrl-C) before every game was played.
    pub interrupted: bool,
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
    /// Wall-clock seconds for the batch (for a merge: the shards' seconds added up).
    pub seconds: f64,
    /// Games a second, wall clock.
    pub games_per_second: f64,
    /// Threads used (for a merge: the most any shard used).
    pub threads: usize,
    /// The sums every figure above follows from; what a merge adds up.
    pub totals: Totals,
}

impl Summary {
    /// The games `lo..hi` of the batch this summary covers.
    pub fn range(&self) -> Range<u64> {
        match self.shard {
            Some(shard) => shard.range(self.worlds),
            None => 0..self.worlds,
        }
    }

    fn with_totals(&self, t: Totals) -> Summary {
        let n = t.games.max(1) as f64;
        Summary {
            games: t.games,
            wins: t.wins,
            deaths: t.deaths,
            climbed_out_without_gold: t.climbed_out_without_gold,
            cut_off: t.cut_off,
            mean_score: t.score_sum as f64 / n,
            mean_moves: t.moves_sum as f64 / n,
            ceiling: t.winnable as f64 / n,
            wins_of_ceiling: if t.winnable == 0 {
                0.0
            } else {
                t.wins as f64 / t.winnable as f64
            },
            win_rate: t.wins as f64 / n,
            solver_calls_per_game: t.solver_calls_sum as f64 / n,
            mean_decision_us: if t.decisions == 0 {
                0.0
            } else {
                t.agent_nanos as f64 / 1e3 / t.decisions as f64
            },
            games_per_second: t.games as f64 / self.seconds.max(1e-9),
            totals: t,
            ..self.clone()
        }
    }
}

/// Why shard summaries do not merge.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// Nothing to merge.
    #[error("no summaries to merge")]
    Empty,
    /// Two summaries are of different batches.
    #[error("summary {0} is of another batch than the first ({1} differs)")]
    OtherBatch(usize, &'static str),
    /// A summary is of no shard, in a merge of several.
    #[error("summary {0} is a whole batch, not a shard")]
    NotAShard(usize),
    /// A shard appears twice.
    #[error("shard {0} appears twice")]
    Twice(Shard),
    /// A shard is missing.
    #[error("shard {0} is missing")]
    Missing(Shard),
    /// A shard was interrupted.
    #[error("shard {0} was interrupted after {1} of its games; run it again")]
    Interrupted(String, u64),
}

/// Merges the summaries of the shards of one batch (given in any order) into the whole
/// batch's summary: the same figures, but for timings, as one unsharded run.
///
/// Timings: `seconds` adds the shards' seconds (the machine time spent), `games_per_second`
/// is games over that sum, `threads` the most any shard used.
pub fn merge(parts: &[Summary]) -> Result<Summary, MergeError> {
    let first = parts.first().ok_or(MergeError::Empty)?;
    let mut seen = vec![false; first.shard.map_or(1, |s| s.count) as usize];
    let mut totals = Totals::default();
    let mut seconds = 0.0;
    let mut threads = 0;
    for (i, p) in parts.iter().enumerate() {
        let n = i + 1;
        let same = [
            (p.agent == first.agent, "agent"),
            (p.scoring == first.scoring, "scoring"),
            (p.size == first.size, "size"),
            (p.pit_prob == first.pit_prob, "pit_prob"),
            (p.seed == first.seed, "seed"),
            (p.worlds == first.worlds, "worlds"),
            (
                p.shard.map(|s| s.count) == first.shard.map(|s| s.count),
                "shard count",
            ),
        ];
        claim_part(n, parts.len(), &same, p.shard, &mut seen)?;
        if p.interrupted {
            let name = p.shard.map_or("the batch".to_string(), |s| s.to_string());
            return Err(MergeError::Interrupted(name, p.games));
        }
        totals.merge(&p.totals);
        seconds += p.seconds;
        threads = threads.max(p.threads);
    }
    if let Some(missing) = seen.iter().position(|&s| !s) {
        let count = first.shard.map_or(1, |s| s.count);
        return Err(MergeError::Missing(Shard {
            index: missing as u64 + 1,
            count,
        }));
    }
    let whole = Summary {
        shard: None,
        interrupted: false,
        seconds,
        threads,
        ..first.clone()
    };
    Ok(whole.with_totals(totals))
}

/// What a batch reports as it goes, and how it is stopped: the CLI draws a progress bar,
/// writes CSV rows and listens for Ctrl-C through this; the library prints nothing. `R` is the
/// record of one game: [`GameRecord`] on the grid, [`crate::cave::GameRecord`] in the classic
/// cave, [`MazeRecord`] in the maze, so that one sink serves the three rule sets' batches.
pub trait BatchSink<R = GameRecord>: Sync {
    /// `games` more games finished (called from the worker threads).
    fn progress(&self, games: u64) {
        let _ = games;
    }

    /// True once the batch should stop: games not yet finished are abandoned.
    fn stopped(&self) -> bool {
        false
    }

    /// True when [`BatchSink::record`] should be called for every game.
    fn wants_records(&self) -> bool {
        false
    }

    /// One finished game, in seed order; return false to stop the batch (e.g. the output is
    /// closed). Only records of a chunk of games are held at a time.
    fn record(&mut self, record: &R) -> bool {
        let _ = record;
        true
    }
}

/// A sink that wants nothing and never stops.
pub struct Quiet;

impl<R> BatchSink<R> for Quiet {}

/// Games played between two reports of records; bounds the memory a batch holds.
const CHUNK: u64 = 8192;

/// Sums of games of type `R` that add up in any order: a chunk is summed on many threads and
/// the pieces merged, which must give exactly what one thread summing in seed order gives.
trait Tally<R>: Default + Send {
    /// Counts one game.
    fn count(&mut self, record: &R);
    /// Adds another piece's sums.
    fn absorb(&mut self, other: &Self);
}

impl Tally<GameRecord> for Totals {
    fn count(&mut self, record: &GameRecord) {
        self.add(record);
    }
    fn absorb(&mut self, other: &Totals) {
        self.merge(other);
    }
}

impl Tally<crate::cave::GameRecord> for CaveTally {
    fn count(&mut self, record: &crate::cave::GameRecord) {
        self.add_cave(record);
    }
    fn absorb(&mut self, other: &CaveTally) {
        self.add(other);
    }
}

impl Tally<MazeRecord> for CaveTally {
    fn count(&mut self, record: &MazeRecord) {
        self.add_maze(record);
    }
    fn absorb(&mut self, other: &CaveTally) {
        self.add(other);
    }
}

/// Runs `f` on `pool`, or on the pool the caller is already in.
fn in_pool<T: Send>(pool: Option<&rayon::ThreadPool>, f: impl FnOnce() -> T + Send) -> T {
    match pool {
        Some(pool) => pool.install(f),
        None => f(),
    }
}

/// The one batch loop of every rule set: plays games `range` a chunk at a time in parallel
/// with `play(i, stop)`, which plays game `i` and gives up (`None`) once `stop()` says so, and
/// sums them. `sink` sees progress from the workers, is asked whether to stop before each game
/// (and, through `stop`, as the game goes), and gets the records in seed order when it wants
/// them; without records the sums are folded on the workers, which gives the same integers.
/// A batch that was stopped sums the games that finished: fewer than `range` holds.
fn play_batch<R, T, E>(
    range: Range<u64>,
    pool: Option<&rayon::ThreadPool>,
    sink: &mut dyn BatchSink<R>,
    play: impl Fn(u64, &dyn Fn() -> bool) -> Result<Option<R>, E> + Sync,
) -> Result<T, E>
where
    R: Send,
    T: Tally<R>,
    E: Send,
{
    let mut tally = T::default();
    let mut stopped = false;
    let mut at = range.start;
    while at < range.end && !stopped {
        let end = range.end.min(at.saturating_add(CHUNK));
        let shared: &dyn BatchSink<R> = &*sink;
        let one = |i: u64| -> Result<Option<R>, E> {
            if shared.stopped() {
                return Ok(None);
            }
            let record = play(i, &|| shared.stopped())?;
            if record.is_some() {
                shared.progress(1);
            }
            Ok(record)
        };
        if sink.wants_records() {
            let records: Vec<Option<R>> = in_pool(pool, || {
                (at..end).into_par_iter().map(one).collect::<Result<_, _>>()
            })?;
            for record in records.iter().flatten() {
                tally.count(record);
                if !sink.record(record) {
                    stopped = true;
                    break;
                }
            }
        } else {
            let chunk: T = in_pool(pool, || {
                (at..end)
                    .into_par_iter()
                    .map(one)
                    .try_fold(T::default, |mut t, r| {
                        if let Some(r) = r? {
                            t.count(&r);
                        }
                        Ok::<_, E>(t)
                    })
                    .try_reduce(T::default, |mut a, b| {
                        a.absorb(&b);
                        Ok(a)
                    })
            })?;
            tally.absorb(&chunk);
        }
        stopped |= sink.stopped();
        at = end;
    }
    Ok(tally)
}

/// Plays a batch (or the batch's shard) and sums it up. Same batch, same numbers (but for the
/// timings), whatever the number of threads. Memory stays flat however many games: games are
/// summed as they finish, and records are handed to `sink` a chunk at a time.
pub fn solve_grid(batch: &Batch, sink: &mut dyn BatchSink) -> Result<Summary, KbError> {
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
    let range = match batch.shard {
        Some(shard) => shard.range(batch.worlds),
        None => 0..batch.worlds,
    };
    let totals: Totals = play_batch(range.clone(), Some(&pool), sink, |i, stop| {
        let seed = game_seed(batch.seed, i);
        let world = GridWorld::random(topology.clone(), batch.pit_prob, &mut seeded(seed));
        play_until(world, Some(seed), &batch.game, &grounding, |_| {}, stop).map_err(|e| match e {
            KbError::Contradiction(why) => KbError::Contradiction(format!(
                "{why} in the world of seed {seed} (trace --seed {seed} names them)"
            )),
            e => e,
        })
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let frame = Summary {
        agent: batch.game.agent,
        scoring: batch.game.scoring,
        size: format!("{}x{}", batch.rows, batch.cols),
        pit_prob: batch.pit_prob,
        seed: batch.seed,
        worlds: batch.worlds,
        shard: batch.shard,
        interrupted: totals.games < range.end - range.start,
        games: 0,
        wins: 0,
        deaths: 0,
        climbed_out_without_gold: 0,
        cut_off: 0,
        mean_score: 0.0,
        mean_moves: 0.0,
        ceiling: 0.0,
        wins_of_ceiling: 0.0,
        win_rate: 0.0,
        solver_calls_per_game: 0.0,
        mean_decision_us: 0.0,
        seconds,
        games_per_second: 0.0,
        threads,
        totals: Totals::default(),
    };
    Ok(frame.with_totals(totals))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::MazeGame;

    #[test]
    fn shards_cover_the_batch_once_in_order() {
        for worlds in [0u64, 1, 7, 10, 1000, u64::MAX] {
            for count in 1..9 {
                let mut next = 0;
                for index in 1..=count {
                    let r = Shard::new(index, count).unwrap().range(worlds);
                    assert_eq!(r.start, next);
                    let len = r.end - r.start;
                    assert!(len == worlds / count || len == worlds / count + 1);
                    next = r.end;
                }
                assert_eq!(next, worlds);
            }
        }
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert!("2".parse::<Shard>().is_err());
        assert_eq!(
            "2/3".parse::<Shard>().unwrap(),
            Shard { index: 2, count: 3 }
        );
    }

    fn batch(worlds: u64, shard: Option<Shard>) -> Batch {
        Batch {
            worlds,
            seed: 40,
            rows: 4,
            cols: 4,
            pit_prob: 0.2,
            game: GameOptions::default(),
            threads: Some(2),
            shard,
        }
    }

    #[test]
    fn merged_shards_equal_the_whole_batch() {
        let whole = solve_grid(&batch(101, None), &mut Quiet).unwrap();
        let parts: Vec<Summary> = [3, 1, 2]
            .iter()
            .map(|&k| solve_grid(&batch(101, Some(Shard::new(k, 3).unwrap())), &mut Quiet).unwrap())
            .collect();
        let merged = merge(&parts).unwrap();
        let mut a = whole.totals;
        let mut b = merged.totals;
        a.agent_nanos = 0;
        b.agent_nanos = 0;
        assert_eq!(a, b);
        assert_eq!(whole.mean_score, merged.mean_score);
        assert_eq!(merged.shard, None);
        assert_eq!(merged.games, 101);
        assert!(matches!(merge(&parts[..2]), Err(MergeError::Missing(_))));
        let twice = [parts[0].clone(), parts[0].clone(), parts[1].clone()];
        assert!(matches!(merge(&twice), Err(MergeError::Twice(_))));
        let mut other = parts.clone();
        other[1].seed += 1;
        assert!(matches!(
            merge(&other),
            Err(MergeError::OtherBatch(2, "seed"))
        ));
        // A hand-edited summary naming a shard beyond its count is refused, not a panic.
        let mut beyond = parts.clone();
        beyond[0].shard = Some(Shard { index: 7, count: 3 });
        assert!(matches!(
            merge(&beyond),
            Err(MergeError::OtherBatch(1, "shard index"))
        ));
    }

    /// Counts the games finished and stops the batch after the given number.
    struct StopAfter(std::sync::atomic::AtomicU64, u64);

    impl<R> BatchSink<R> for StopAfter {
        fn progress(&self, games: u64) {
            self.0.fetch_add(games, std::sync::atomic::Ordering::SeqCst);
        }
        fn stopped(&self) -> bool {
            self.0.load(std::sync::atomic::Ordering::SeqCst) >= self.1
        }
    }

    #[test]
    fn a_stopped_batch_sums_the_games_it_finished() {
        let mut sink = StopAfter(Default::default(), 50);
        let s = solve_grid(&batch(100_000, None), &mut sink).unwrap();
        assert!(s.interrupted);
        assert!(s.games >= 50 && s.games < 100_000, "{}", s.games);
        assert_eq!(s.games, sink.0.into_inner());
    }

    /// Keeps every record handed to it, and stops the batch after `stop_after` games.
    struct Recorder<R> {
        records: Vec<R>,
        finished: StopAfter,
    }

    impl<R> Recorder<R> {
        fn stopping_after(games: u64) -> Recorder<R> {
            Recorder {
                records: Vec::new(),
                finished: StopAfter(Default::default(), games),
            }
        }
    }

    impl<R: Clone + Sync> BatchSink<R> for Recorder<R> {
        fn progress(&self, games: u64) {
            BatchSink::<R>::progress(&self.finished, games);
        }
        fn stopped(&self) -> bool {
            BatchSink::<R>::stopped(&self.finished)
        }
        fn wants_records(&self) -> bool {
            true
        }
        fn record(&mut self, record: &R) -> bool {
            self.records.push(record.clone());
            true
        }
    }

    fn cave_map() -> Arc<crate::cave::CaveMap> {
        Arc::new(crate::cave::parse_map(crate::cave::STANDARD_MAP).unwrap())
    }

    fn maze_map() -> Arc<crate::cave::CaveMap> {
        Arc::new(crate::cave::parse_map(crate::cave::STANDARD_CAVES_DAT).unwrap())
    }

    fn random_cave(
        games: Range<u64>,
        sink: &mut dyn BatchSink<crate::cave::GameRecord>,
    ) -> CaveTally {
        let map = cave_map();
        let variant = crate::cave::Variant::Event;
        play_cave_games(
            &map,
            variant,
            40,
            games,
            crate::cave::RandomAgent::for_game,
            sink,
        )
        .unwrap()
    }

    // The cave and maze batches now go through the grid's loop, which folds sums on the
    // workers when no records are wanted: that must give what summing in seed order gives,
    // over several chunks, as the unshared loop did.
    #[test]
    fn cave_and_maze_sums_are_the_same_with_records_or_without() {
        let games = 100..(100 + 2 * CHUNK + 5);
        let quiet = random_cave(games.clone(), &mut Quiet);
        let mut recorder = Recorder::stopping_after(u64::MAX);
        assert_eq!(random_cave(games.clone(), &mut recorder), quiet);
        let seeds: Vec<u64> = recorder.records.iter().map(|r| r.seed).collect();
        let want: Vec<u64> = games.clone().map(|i| game_seed(40, i)).collect();
        assert_eq!(seeds, want);
        let mut alone = CaveTally::default();
        for r in &recorder.records {
            alone.add_cave(r);
        }
        assert_eq!(alone, quiet);
        assert_eq!(quiet.games, games.end - games.start);

        let map = maze_map();
        let quiet = play_maze_games(&map, 7, 0..30, &mut Quiet).unwrap();
        let mut recorder = Recorder::stopping_after(u64::MAX);
        assert_eq!(
            play_maze_games(&map, 7, 0..30, &mut recorder).unwrap(),
            quiet
        );
        let mut alone = CaveTally::default();
        for r in &recorder.records {
            assert_eq!(
                *r,
                run_maze_game(
                    MazeGame::new(map.clone(), r.seed).unwrap(),
                    r.seed,
                    false,
                    |_| {}
                )
                .unwrap()
            );
            alone.add_maze(r);
        }
        assert_eq!(alone, quiet);
        assert_eq!(quiet.games, 30);
    }

    #[test]
    fn a_stopped_cave_or_maze_batch_sums_the_games_it_finished() {
        // Once the sink says stop, no game starts and the games under way are given up at
        // their next action: at most one a thread finishes past the limit.
        let threads = rayon::current_num_threads() as u64;
        let all = 3 * CHUNK;
        let mut sink = StopAfter(Default::default(), 50);
        let tally = random_cave(0..all, &mut sink);
        assert!(
            tally.games >= 50 && tally.games <= 50 + threads,
            "{}",
            tally.games
        );
        assert_eq!(tally.games, sink.0.into_inner());

        // With records: those handed over are the games summed, in seed order.
        let mut recorder = Recorder::stopping_after(50);
        let tally = random_cave(0..all, &mut recorder);
        assert!(
            tally.games >= 50 && tally.games <= 50 + threads,
            "{}",
            tally.games
        );
        assert_eq!(recorder.records.len() as u64, tally.games);
        assert!(recorder.records.windows(2).all(|w| w[0].seed < w[1].seed));

        let map = maze_map();
        let mut sink = StopAfter(Default::default(), 5);
        let tally = play_maze_games(&map, 0, 0..1000, &mut sink).unwrap();
        assert!(
            tally.games >= 5 && tally.games <= 5 + threads,
            "{}",
            tally.games
        );
        assert_eq!(tally.games, sink.0.into_inner());

        // A game is given up between two actions, not only before it starts.
        let game = MazeGame::new(map.clone(), 3).unwrap();
        assert_eq!(
            maze_game_until(game, 3, false, |_| {}, &|| true).unwrap(),
            None
        );
        let cave = cave_map();
        let mut agent = crate::cave::RandomAgent::for_game(3);
        let variant = crate::cave::Variant::Event;
        let given_up = crate::cave::play_game_until(&cave, variant, 3, &mut agent, &|| true);
        assert_eq!(given_up.unwrap(), None);
    }

    #[test]
    fn an_interrupted_cave_shard_does_not_merge() {
        let parts: Vec<CaveBatch> = (1..=2)
            .map(|k| {
                let shard = Shard::new(k, 2).unwrap();
                CaveBatch {
                    rules: "cave".to_string(),
                    map: "the standard dodecahedron".to_string(),
                    agent: "random".to_string(),
                    map_known: false,
                    variant: "event".to_string(),
                    seed: 40,
                    worlds: 100,
                    shard: Some(shard),
                    interrupted: false,
                    totals: random_cave(shard.range(100), &mut Quiet),
                    elapsed_seconds: 0.0,
                }
            })
            .collect();
        let whole = merge_cave(&parts).unwrap();
        assert_eq!(whole.totals, random_cave(0..100, &mut Quiet));
        assert!(!whole.interrupted);

        let mut stopped = parts.clone();
        stopped[1].interrupted = true;
        assert_eq!(
            merge_cave(&stopped),
            Err(MergeError::Interrupted("2/2".to_string(), 50))
        );
        // A summary written before the flag existed reads as not interrupted, and a short
        // count still gives it away.
        let mut old = serde_json::to_value(&parts[0]).unwrap();
        old.as_object_mut().unwrap().remove("interrupted");
        let mut old: CaveBatch = serde_json::from_value(old).unwrap();
        assert!(!old.interrupted);
        old.totals.games -= 1;
        assert_eq!(
            merge_cave(&[old, parts[1].clone()]),
            Err(MergeError::Interrupted("1/2".to_string(), 49))
        );
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
    game: crate::cave::MazeGame,
    seed: u64,
    explain: bool,
    on_step: impl FnMut(&MazeStepReport),
) -> Result<MazeRecord, crate::agent::maze::MazeAgentError> {
    let record = maze_game_until(game, seed, explain, on_step, &|| false)?;
    Ok(record.expect("a game nobody stops ends"))
}

/// [`run_maze_game`], given up (`None`) once `stop` says so. It is asked before each decision,
/// as the grid's games ask it, so that Ctrl-C ends a batch even in the middle of long games.
fn maze_game_until(
    mut game: crate::cave::MazeGame,
    seed: u64,
    explain: bool,
    mut on_step: impl FnMut(&MazeStepReport),
    stop: &dyn Fn() -> bool,
) -> Result<Option<MazeRecord>, crate::agent::maze::MazeAgentError> {
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
        if stop() {
            return Ok(None);
        }
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
    Ok(Some(MazeRecord {
        seed,
        ending: game.ending(),
        moves: game.moves(),
        grenades: game.tosses(),
    }))
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
    let start = Instant::now();
    let tally = play_maze_games(map, seed, 0..games, &mut Quiet)?;
    Ok(tally.maze_summary(seed, start.elapsed().as_secs_f64()))
}

/// Exact, mergeable sums of a batch (or a shard of one) of classic-cave or maze games: what
/// `solve --rules cave|maze --json` carries so that `wumpus merge` can add shards up into the
/// whole batch's summary, to the bit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaveTally {
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// The sum of the scores (classic cave; 0 in the maze, which keeps no score).
    pub total_score: u64,
    /// Games lost, by cause (`pit`, `wumpus`, ...).
    pub losses: std::collections::BTreeMap<String, u64>,
    /// Games stopped by the action limit.
    pub unfinished: u64,
    /// Moves made.
    pub moves: u64,
    /// Arrows shot (classic cave) or grenades tossed (maze).
    pub shots: u64,
    /// Grenades tossed in won games (maze).
    pub won_shots: u64,
}

impl CaveTally {
    /// Adds `other` in.
    pub fn add(&mut self, other: &CaveTally) {
        self.games += other.games;
        self.wins += other.wins;
        self.total_score += other.total_score;
        for (cause, n) in &other.losses {
            *self.losses.entry(cause.clone()).or_default() += n;
        }
        self.unfinished += other.unfinished;
        self.moves += other.moves;
        self.shots += other.shots;
        self.won_shots += other.won_shots;
    }

    fn lost(&mut self, cause: &str) {
        *self.losses.entry(cause.to_string()).or_default() += 1;
    }

    /// Adds one classic-cave game.
    pub fn add_cave(&mut self, r: &crate::cave::GameRecord) {
        use crate::cave::Ending;
        self.games += 1;
        match r.ending {
            Some(Ending::Won { score }) => {
                self.wins += 1;
                self.total_score += u64::from(score);
            }
            Some(Ending::Lost(cause)) => self.lost(cause.name()),
            None => self.unfinished += 1,
        }
        self.moves += u64::from(r.moves);
        self.shots += u64::from(r.shots);
    }

    /// Adds one maze game.
    pub fn add_maze(&mut self, r: &MazeRecord) {
        self.games += 1;
        match r.ending {
            Some(crate::cave::MazeEnding::Won) => {
                self.wins += 1;
                self.won_shots += u64::from(r.grenades);
            }
            Some(crate::cave::MazeEnding::Lost(loss)) => self.lost(maze_loss_name(loss)),
            None => self.unfinished += 1,
        }
        self.moves += u64::from(r.moves);
        self.shots += u64::from(r.grenades);
    }

    fn per_game(&self, x: u64) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            x as f64 / self.games as f64
        }
    }

    fn losses_of(&self, cause: &str) -> u64 {
        self.losses.get(cause).copied().unwrap_or(0)
    }

    /// The classic cave's summary of these games (the same as
    /// [`crate::cave::BatchSummary::from_records`] of their records).
    pub fn cave_summary(
        &self,
        base_seed: u64,
        variant: crate::cave::Variant,
    ) -> crate::cave::BatchSummary {
        crate::cave::BatchSummary {
            games: self.games,
            base_seed,
            variant,
            wins: self.wins,
            win_rate: self.per_game(self.wins),
            total_score: self.total_score,
            mean_score: self.per_game(self.total_score),
            losses: crate::cave::batch::LossCounts {
                pit: self.losses_of("pit"),
                wumpus: self.losses_of("wumpus"),
                own_arrow: self.losses_of("own_arrow"),
                out_of_arrows: self.losses_of("out_of_arrows"),
                exhaustion: self.losses_of("exhaustion"),
            },
            unfinished: self.unfinished,
            arrows_per_game: self.per_game(self.shots),
            moves_per_game: self.per_game(self.moves),
        }
    }

    /// The maze's summary of these games, `seconds` of wall-clock time.
    pub fn maze_summary(&self, seed: u64, seconds: f64) -> MazeSummary {
        MazeSummary {
            games: self.games,
            seed,
            wins: self.wins,
            win_rate: self.per_game(self.wins),
            pit: self.losses_of("pit"),
            wumpus: self.losses_of("wumpus"),
            out_of_grenades: self.losses_of("out_of_grenades"),
            unfinished: self.unfinished,
            grenades_per_game: self.per_game(self.shots),
            grenades_per_win: if self.wins == 0 {
                0.0
            } else {
                self.won_shots as f64 / self.wins as f64
            },
            moves_per_game: self.per_game(self.moves),
            seconds,
            games_per_second: self.games as f64 / seconds.max(1e-9),
        }
    }
}

/// A maze loss's name in reports and CSV rows: `pit`, `wumpus`, `out_of_grenades`.
pub fn maze_loss_name(loss: crate::cave::MazeLoss) -> &'static str {
    match loss {
        crate::cave::MazeLoss::Pit => "pit",
        crate::cave::MazeLoss::Wumpus => "wumpus",
        crate::cave::MazeLoss::OutOfGrenades => "out_of_grenades",
    }
}

/// Plays games `games` (game `i` dealt from seed `seed + i`) of the classic cave with the agent
/// `make_agent(seed)`, in parallel, and returns their sums. `sink` is the grid's
/// ([`solve_grid`]): it sees progress, can stop the batch (the sums then cover the games
/// finished, fewer than `games`) and gets each record in seed order when it wants them.
pub fn play_cave_games<A, F>(
    map: &Arc<crate::cave::CaveMap>,
    variant: crate::cave::Variant,
    seed: u64,
    games: Range<u64>,
    make_agent: F,
    sink: &mut dyn BatchSink<crate::cave::GameRecord>,
) -> Result<CaveTally, crate::cave::HazardError>
where
    A: crate::cave::ClassicAgent,
    F: Fn(u64) -> A + Sync,
{
    play_batch(games, None, sink, |i, stop| {
        let s = game_seed(seed, i);
        crate::cave::play_game_until(map, variant, s, &mut make_agent(s), stop)
    })
}

/// Plays maze games `games` (game `i` from seed `seed + i`) with the maze agent, in parallel,
/// and returns their sums; `sink` as for [`play_cave_games`].
pub fn play_maze_games(
    map: &Arc<crate::cave::CaveMap>,
    seed: u64,
    games: Range<u64>,
    sink: &mut dyn BatchSink<MazeRecord>,
) -> Result<CaveTally, crate::agent::maze::MazeAgentError> {
    play_batch(games, None, sink, |i, stop| {
        let s = game_seed(seed, i);
        let game = crate::cave::MazeGame::new(map.clone(), s)
            .map_err(|e| KbError::NotObservable(e.to_string()))?;
        maze_game_until(game, s, false, |_| {}, stop)
    })
}

/// A batch (or a shard of one) of classic-cave or maze games as `solve --rules cave|maze
/// --json` reports it: what identifies the batch, the shard, and the exact sums. `wumpus merge`
/// adds shards up with [`merge_cave`]. (Other fields of the JSON, such as the summary, are
/// recomputed from these.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaveBatch {
    /// `cave` or `maze`.
    pub rules: String,
    /// The map's name.
    pub map: String,
    /// The agent's name.
    pub agent: String,
    /// The cave agent was given the map.
    #[serde(default)]
    pub map_known: bool,
    /// The classic cave's rules (`event`, `yob`); empty for the maze.
    #[serde(default)]
    pub variant: String,
    /// Seed of the first game of the whole batch.
    pub seed: u64,
    /// Games in the whole batch (all shards).
    pub worlds: u64,
    /// The shard this covers, if one.
    pub shard: Option<Shard>,
    /// True when the batch was stopped (Ctrl-C) before every game was played: `totals` cover
    /// the games finished. (Absent from summaries written before batches could be stopped.)
    #[serde(default)]
    pub interrupted: bool,
    /// The sums.
    pub totals: CaveTally,
    /// Wall-clock seconds.
    pub elapsed_seconds: f64,
}

impl CaveBatch {
    /// The games `lo..hi` of the batch this covers.
    pub fn range(&self) -> Range<u64> {
        self.shard.map_or(0..self.worlds, |s| s.range(self.worlds))
    }
}

/// Checks part `n` (from 1) of `parts` being merged: every field in `same` must agree with
/// the first part's, and its shard must be one not seen yet (marked in `seen`, one flag a
/// shard); a lone part may be a whole batch.
fn claim_part(
    n: usize,
    parts: usize,
    same: &[(bool, &'static str)],
    shard: Option<Shard>,
    seen: &mut [bool],
) -> Result<(), MergeError> {
    if let Some((_, what)) = same.iter().find(|(ok, _)| !ok) {
        return Err(MergeError::OtherBatch(n, what));
    }
    let index = match shard {
        Some(s) => (s.index as usize).wrapping_sub(1),
        None if parts == 1 => 0,
        None => return Err(MergeError::NotAShard(n)),
    };
    // A hand-edited summary may name a shard beyond its count.
    let Some(flag) = seen.get_mut(index) else {
        return Err(MergeError::OtherBatch(n, "shard index"));
    };
    if std::mem::replace(flag, true) {
        return Err(MergeError::Twice(shard.expect("several parts are shards")));
    }
    Ok(())
}

/// Merges the shards of one cave or maze batch (in any order) into the whole batch: the same
/// sums as one unsharded run; `elapsed_seconds` adds the shards' times.
pub fn merge_cave(parts: &[CaveBatch]) -> Result<CaveBatch, MergeError> {
    let first = parts.first().ok_or(MergeError::Empty)?;
    let count = first.shard.map_or(1, |s| s.count);
    let mut seen = vec![false; count as usize];
    let mut totals = CaveTally::default();
    let mut seconds = 0.0;
    for (i, p) in parts.iter().enumerate() {
        let n = i + 1;
        let same = [
            (p.rules == first.rules, "rules"),
            (p.map == first.map, "map"),
            (p.agent == first.agent, "agent"),
            (p.map_known == first.map_known, "map_known"),
            (p.variant == first.variant, "variant"),
            (p.seed == first.seed, "seed"),
            (p.worlds == first.worlds, "worlds"),
            (
                p.shard.map(|s| s.count) == first.shard.map(|s| s.count),
                "shard count",
            ),
        ];
        claim_part(n, parts.len(), &same, p.shard, &mut seen)?;
        // The flag is what the grid's merge goes by; the count also catches a summary from
        // before the flag existed, or one edited by hand.
        let expected = p.range().end - p.range().start;
        if p.interrupted || p.totals.games != expected {
            let name = p.shard.map_or("the batch".to_string(), |s| s.to_string());
            return Err(MergeError::Interrupted(name, p.totals.games));
        }
        totals.add(&p.totals);
        seconds += p.elapsed_seconds;
    }
    if let Some(missing) = seen.iter().position(|&s| !s) {
        return Err(MergeError::Missing(Shard {
            index: missing as u64 + 1,
            count,
        }));
    }
    Ok(CaveBatch {
        shard: None,
        interrupted: false,
        totals,
        elapsed_seconds: seconds,
        ..first.clone()
    })
}
