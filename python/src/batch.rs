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
use std::path::PathBuf;

use wumpus::game_spec::{GameSpec, OnRules, Playable, Prepared, Spelling};
use wumpus::run::trace::TraceLines;
use wumpus::run::{BatchId, BatchJob, JobError, Quiet, Shard, Summary};

/// A job's failure as Python sees it: bad input is a `ValueError`, the rest a
/// `RuntimeError`, its options spelled as keywords.
fn job_error(e: JobError) -> PyErr {
    let text = e.spelled(Spelling::Keywords);
    if e.is_bad_input() {
        PyValueError::new_err(text)
    } else {
        PyRuntimeError::new_err(text)
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
            file: world.as_deref(),
        };
        spec.dispatch(lines, true)
            .map_err(refused)?
            .map_err(job_error)
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
    let shard = parse_shard(shard)?;
    let files = files.unwrap_or_default();
    let job = BatchJob::new(&spec, worlds, seed, threads, shard, &files).map_err(job_error)?;
    let solved = py.detach(|| job.run(&spec, &mut Quiet).map_err(job_error))?;
    to_json(&solved.summary)
}

/// The description of a spec's batch, resolved, as `solve --json` gives it.
struct Describe;

impl OnRules for Describe {
    type Out = GameSpec;

    fn run<S: Playable>(self, game: Prepared<S>) -> GameSpec {
        game.game
    }
}

/// Games an outside agent played, summed into the summary `solve --json` gives the
/// project's agents (Python: `wumpus_logic._core.Tally`).
#[pyclass(module = "wumpus_logic._core")]
pub struct Tally {
    game: GameSpec,
    /// The outside agent's name.
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
        let mut game = spec.dispatch(Describe, false).map_err(refused)?;
        // The outside agent is named by its own name; the spec's agent is the project's.
        game.agent = None;
        let shard = parse_shard(shard)?;
        if shard.is_some() && worlds.is_none() {
            return Err(PyValueError::new_err(
                "a shard is of a batch: give its worlds",
            ));
        }
        Ok(Tally {
            game,
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
        if game.rule_set() != self.game.rules {
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
            game: self.game.clone(),
            files: None,
            player: Some(self.agent.clone()),
            seed: self.seed,
            worlds: self.worlds.unwrap_or(self.totals.games),
            shard: self.shard,
        };
        to_json(&Summary::new(id, self.totals, seconds, 1))
    }
}

/// The game files `paths` name, in the order every door plays them: each folder's regular
/// files (not those whose names start with a dot) in the order of their names, and each file
/// given (`wumpus solve --files` lists them so).
#[pyfunction]
pub fn game_files(paths: Vec<PathBuf>) -> PyResult<Vec<String>> {
    wumpus::files::game_files(&paths)
        .map(|files| files.iter().map(|f| f.display().to_string()).collect())
        .map_err(|e| PyValueError::new_err(e.to_string()))
}
