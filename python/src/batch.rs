//! The project's agents as a library: a traced game (`trace`, the events of `trace --json`),
//! a batch of seeded games or world files (`solve`, the summary of `solve --json`), and a
//! [`Tally`] that sums games an outside agent played into the same summary.
//!
//! Each calls the library's one turn loop and one batch loop (`wumpus::run`); nothing here
//! plays a game its own way.

use crate::game::{to_json, Game};
use crate::options::{refused, spec};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::{Path, PathBuf};

use wumpus::game::RuleSet;
use wumpus::game_spec::{OnRules, Playable, Prepared};
use wumpus::run::event::{trace_end, TraceStart};
use wumpus::run::{play_to_end, Batch, BatchId, Flow, Quiet, Shard, StepEvent, Summary};

fn run_error(e: impl std::fmt::Display) -> PyErr {
    PyRuntimeError::new_err(e.to_string())
}

/// The lines of `trace --json` for the game dealt from `seed` (or on `world`).
struct TraceLines<'a> {
    seed: Option<u64>,
    world: Option<&'a Path>,
}

impl OnRules for TraceLines<'_> {
    type Out = PyResult<Vec<String>>;

    fn run<S: Playable>(self, game: Prepared<S>) -> PyResult<Vec<String>> {
        let dealt = game
            .deal(self.seed, self.world)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let (mut session, seed) = (dealt.session, dealt.seed);
        let own = session.setup();
        let agents = game.agents_for(&own).map_err(refused)?;
        let dice = seed.map_or_else(wumpus::rng::Dice::fresh, wumpus::rng::Dice::for_game);
        let mut agent = agents.make(&session.briefing(), dice).map_err(run_error)?;
        let start = TraceStart {
            rules: S::RULES,
            title: session.title(),
            seed,
            agent: game.agent.name().to_string(),
            setup: game.describe_setup(&own),
        };
        let mut lines = vec![to_json(&start)?];
        let mut failure = None;
        let mut watch = |_: &S, e: StepEvent| {
            match serde_json::to_string(&e) {
                Ok(line) => lines.push(line),
                Err(err) => failure = Some(err.to_string()),
            }
            Flow::Go
        };
        let done = play_to_end(
            &mut session,
            seed,
            agent.as_mut(),
            &|| false,
            Some(&mut watch),
        )
        .map_err(run_error)?
        .ok_or_else(|| run_error("the game stopped before its end"))?;
        if let Some(why) = failure {
            return Err(run_error(why));
        }
        lines.push(to_json(&trace_end(&session, done.steps, Some(&done.last)))?);
        Ok(lines)
    }
}

/// A batch's summary: `worlds` games dealt from `seed + i`, or one game a file.
struct SolveBatch {
    worlds: u64,
    seed: u64,
    threads: Option<usize>,
    shard: Option<Shard>,
    files: Option<Vec<PathBuf>>,
}

impl OnRules for SolveBatch {
    type Out = PyResult<Summary>;

    fn run<S: Playable>(self, game: Prepared<S>) -> PyResult<Summary> {
        let agents = game.agents().map_err(refused)?;
        let worlds = self.files.as_ref().map_or(self.worlds, |f| f.len() as u64);
        let batch = Batch {
            worlds,
            seed: self.seed,
            threads: self.threads,
            shard: self.shard,
        };
        let mut id = BatchId {
            rules: S::RULES,
            agent: game.agent.name().to_string(),
            setup: game.describe(),
            seed: self.seed,
            worlds,
            shard: self.shard,
        };
        let summary = match &self.files {
            Some(files) => {
                id.setup = game.describe_files();
                wumpus::run::solve_files::<S>(
                    &game.setup,
                    files,
                    agents.as_ref(),
                    &batch,
                    id,
                    &mut Quiet,
                )
            }
            None => wumpus::run::solve::<S>(&game.setup, agents.as_ref(), &batch, id, &mut Quiet),
        };
        summary.map_err(run_error)
    }
}

/// The JSON lines `wumpus trace --json` prints for the same game: a start line, one line a
/// step, an end line.
#[pyfunction]
#[pyo3(signature = (rules="aima", seed=None, world=None, **options))]
pub fn trace(
    py: Python<'_>,
    rules: &str,
    seed: Option<u64>,
    world: Option<PathBuf>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<String>> {
    let spec = spec(rules, options)?;
    py.detach(|| {
        let lines = TraceLines {
            seed,
            world: world.as_deref(),
        };
        spec.dispatch(lines, true).map_err(refused)?
    })
}

/// The summary `wumpus solve --json` prints for the same batch, as JSON; `shard="K/N"` plays
/// only the K-th of N contiguous parts (`wumpus merge` adds them up).
#[pyfunction]
#[pyo3(signature = (rules="aima", worlds=1000, seed=0, files=None, threads=None, shard=None, **options))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    rules: &str,
    worlds: u64,
    seed: u64,
    files: Option<Vec<PathBuf>>,
    threads: Option<usize>,
    shard: Option<&str>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let spec = spec(rules, options)?;
    if worlds == 0 {
        return Err(PyValueError::new_err("worlds must be at least 1"));
    }
    let shard = shard
        .map(|s| s.parse::<Shard>())
        .transpose()
        .map_err(|e| PyValueError::new_err(format!("shard: {e}")))?;
    let batch = SolveBatch {
        worlds,
        seed,
        threads,
        shard,
        files,
    };
    let summary = py.detach(|| spec.dispatch(batch, false).map_err(refused)?)?;
    to_json(&summary)
}

/// A setup's parameters as `solve --json` gives them.
struct Describe;

impl OnRules for Describe {
    type Out = serde_json::Map<String, serde_json::Value>;

    fn run<S: Playable>(self, game: Prepared<S>) -> Self::Out {
        game.describe()
    }
}

/// Games an outside agent played, summed into the summary `solve --json` gives the
/// project's agents (Python: `wumpus_logic._core.Tally`).
#[pyclass(module = "wumpus_logic._core")]
pub struct Tally {
    rules: RuleSet,
    setup: serde_json::Map<String, serde_json::Value>,
    agent: String,
    seed: u64,
    /// The whole batch's games, when the tally is of a shard of it.
    worlds: Option<u64>,
    shard: Option<Shard>,
    totals: wumpus::run::Tally,
}

fn parse_shard(shard: Option<&str>) -> PyResult<Option<Shard>> {
    shard
        .map(|s| s.parse::<Shard>())
        .transpose()
        .map_err(|e| PyValueError::new_err(format!("shard: {e}")))
}

/// The games `start..end` (indices from 0) of a batch of `worlds` that `shard` (`"K/N"`)
/// plays, as `wumpus solve --shard K/N` plays them.
#[pyfunction]
pub fn shard_range(worlds: u64, shard: &str) -> PyResult<(u64, u64)> {
    let shard = parse_shard(Some(shard))?.expect("given");
    let r = shard.range(worlds);
    Ok((r.start, r.end))
}

/// The shards' summaries (`solve --json --shard K/N` lines, or `Tally.summary` of shards)
/// added up into the whole batch's, as `wumpus merge` adds them, checked alike.
#[pyfunction]
pub fn merge(summaries: Vec<String>) -> PyResult<String> {
    let mut parts = Vec::with_capacity(summaries.len());
    for (i, text) in summaries.iter().enumerate() {
        let part: Summary = serde_json::from_str(text)
            .map_err(|e| PyValueError::new_err(format!("summary {}: {e}", i + 1)))?;
        parts.push(part);
    }
    let whole = wumpus::run::merge(&parts).map_err(|e| PyValueError::new_err(e.to_string()))?;
    to_json(&whole)
}

#[pymethods]
impl Tally {
    /// An empty tally of games of `rules` set up by the same options, played by `agent`; of
    /// the shard `shard` (`"K/N"`) of a batch of `worlds` games, when given.
    #[new]
    #[pyo3(signature = (agent, rules="aima", seed=0, worlds=None, shard=None, **options))]
    fn py_new(
        agent: String,
        rules: &str,
        seed: u64,
        worlds: Option<u64>,
        shard: Option<&str>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Tally> {
        let spec = spec(rules, options)?;
        let setup = spec.dispatch(Describe, false).map_err(refused)?;
        let shard = parse_shard(shard)?;
        if shard.is_some() && worlds.is_none() {
            return Err(PyValueError::new_err(
                "a shard is of a batch: give its worlds",
            ));
        }
        Ok(Tally {
            rules: spec.rules,
            setup,
            agent,
            seed,
            worlds,
            shard,
            totals: wumpus::run::Tally::default(),
        })
    }

    /// Adds a finished game, played on the world file `file` if one, its agent having
    /// taken `agent_seconds` deciding.
    #[pyo3(signature = (game, agent_seconds, file=None))]
    fn add(
        &mut self,
        game: PyRef<'_, Game>,
        agent_seconds: f64,
        file: Option<String>,
    ) -> PyResult<()> {
        if game.rule_set() != self.rules {
            return Err(PyValueError::new_err(
                "the game is of other rules than the tally",
            ));
        }
        let mut record = game.game_record();
        if file.is_some() {
            record.seed = None;
            record.file = file;
        }
        record.agent_time = std::time::Duration::from_secs_f64(agent_seconds.max(0.0));
        self.totals.add(&record);
        Ok(())
    }

    /// The summary of the games added, played in `seconds`, as JSON.
    fn summary(&self, seconds: f64) -> PyResult<String> {
        let id = BatchId {
            rules: self.rules,
            agent: self.agent.clone(),
            setup: self.setup.clone(),
            seed: self.seed,
            worlds: self.worlds.unwrap_or(self.totals.games),
            shard: self.shard,
        };
        to_json(&Summary::new(id, self.totals, seconds, 1))
    }
}
