//! The project's agents as a library: a traced game (`trace`, the events of `trace --json`),
//! a batch of seeded games or world files (`solve`, the summary of `solve --json`), and a
//! [`Tally`] that sums games an outside agent played into the same summary.
//!
//! Each calls the library's one turn loop and one batch loop (`wumpus::run`); nothing here
//! plays a game its own way.

use crate::game::{options, to_json, Game};
use crate::offer::Offered;
use crate::setup::{on_rules, Options};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::path::{Path, PathBuf};
use wumpus::agent::{AgentKind, Dice};
use wumpus::game::RuleSet;
use wumpus::run::event::{trace_end, TraceStart};
use wumpus::run::{play_to_end, Batch, BatchId, Flow, Quiet, StepEvent, Summary};

/// The agent asked for, checked against the rule set's roster.
fn kind<S: Offered>(options: &Options) -> PyResult<AgentKind> {
    let kind = options.agent_kind()?.unwrap_or_else(S::default_agent);
    if S::AGENTS.contains(&kind) {
        Ok(kind)
    } else {
        let names: Vec<&str> = S::AGENTS.iter().map(|a| a.name()).collect();
        Err(PyValueError::new_err(format!(
            "the {kind} agent does not play {}; its agents are {}",
            S::RULES.title(),
            names.join(" and ")
        )))
    }
}

/// A setup's parameters as `solve --json` and `trace --json` give them.
fn describe<S: Offered>(
    setup: &S::Setup,
    options: &Options,
) -> serde_json::Map<String, serde_json::Value> {
    let mut map = S::parameters(setup);
    if matches!(S::RULES, RuleSet::Cave | RuleSet::Maze) {
        map.insert("map_known".into(), options.map_known.into());
    }
    map
}

fn run_error(e: impl std::fmt::Display) -> PyErr {
    PyRuntimeError::new_err(e.to_string())
}

/// The lines of `trace --json` for the game dealt from `seed` (or on `world`).
fn trace_lines<S: Offered>(
    setup: S::Setup,
    options: &Options,
    seed: Option<u64>,
    world: Option<&Path>,
) -> PyResult<Vec<String>> {
    let kind = kind::<S>(options)?;
    let seed = seed.unwrap_or_else(wumpus::rng::fresh_seed);
    let (mut session, seed) = match world {
        Some(path) => (
            S::load(&setup, path, seed).map_err(|e| PyValueError::new_err(e.to_string()))?,
            (!S::FILE_HOLDS_ALL).then_some(seed),
        ),
        None => (
            S::deal(&setup, seed).map_err(|e| PyValueError::new_err(e.to_string()))?,
            Some(seed),
        ),
    };
    let own = session.setup();
    let factory = S::prepare(kind, &own, &options.agent_options(true)).map_err(run_error)?;
    let mut agent = factory
        .make(&session.briefing(), Dice::for_game(seed.unwrap_or(0)))
        .map_err(run_error)?;
    let start = TraceStart {
        rules: S::RULES,
        title: session.title(),
        seed,
        agent: kind.name().to_string(),
        setup: describe::<S>(&own, options),
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

/// A batch's summary: `worlds` games dealt from `seed + i`, or one game a file.
fn solve_batch<S: Offered>(
    setup: S::Setup,
    options: &Options,
    worlds: u64,
    seed: u64,
    threads: Option<usize>,
    files: Option<Vec<PathBuf>>,
) -> PyResult<Summary> {
    let kind = kind::<S>(options)?;
    let agents = S::prepare(kind, &setup, &options.agent_options(false)).map_err(run_error)?;
    let worlds = files.as_ref().map_or(worlds, |f| f.len() as u64);
    let batch = Batch {
        worlds,
        seed,
        threads,
        shard: None,
    };
    let id = BatchId {
        rules: S::RULES,
        agent: kind.name().to_string(),
        setup: describe::<S>(&setup, options),
        seed,
        worlds,
        shard: None,
    };
    let summary = match &files {
        Some(files) => {
            wumpus::run::solve_files::<S>(&setup, files, agents.as_ref(), &batch, id, &mut Quiet)
        }
        None => wumpus::run::solve::<S>(&setup, agents.as_ref(), &batch, id, &mut Quiet),
    };
    summary.map_err(run_error)
}

/// The JSON lines `wumpus trace --json` prints for the same game: a start line, one line a
/// step, an end line.
#[pyfunction]
#[pyo3(signature = (rules="aima", seed=None, world=None, *, size=None, deal=None, pit_prob=None, scoring=None, map=None, variant=None, map_known=false, agent=None, depth=None))]
#[allow(clippy::too_many_arguments)]
pub fn trace(
    py: Python<'_>,
    rules: &str,
    seed: Option<u64>,
    world: Option<String>,
    size: Option<String>,
    deal: Option<String>,
    pit_prob: Option<f64>,
    scoring: Option<String>,
    map: Option<String>,
    variant: Option<String>,
    map_known: bool,
    agent: Option<String>,
    depth: Option<u32>,
) -> PyResult<Vec<String>> {
    let o = options(
        rules, size, deal, pit_prob, scoring, map, variant, map_known, agent, depth,
    );
    let world = world.map(PathBuf::from);
    py.detach(|| on_rules!(o, setup, S => trace_lines::<S>(setup, &o, seed, world.as_deref())))
}

/// The summary `wumpus solve --json` prints for the same batch, as JSON.
#[pyfunction]
#[pyo3(signature = (rules="aima", worlds=1000, seed=0, files=None, threads=None, *, size=None, deal=None, pit_prob=None, scoring=None, map=None, variant=None, map_known=false, agent=None, depth=None))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    rules: &str,
    worlds: u64,
    seed: u64,
    files: Option<Vec<String>>,
    threads: Option<usize>,
    size: Option<String>,
    deal: Option<String>,
    pit_prob: Option<f64>,
    scoring: Option<String>,
    map: Option<String>,
    variant: Option<String>,
    map_known: bool,
    agent: Option<String>,
    depth: Option<u32>,
) -> PyResult<String> {
    let o = options(
        rules, size, deal, pit_prob, scoring, map, variant, map_known, agent, depth,
    );
    let files = files.map(|f| f.into_iter().map(PathBuf::from).collect());
    let summary = py.detach(
        || on_rules!(o, setup, S => solve_batch::<S>(setup, &o, worlds, seed, threads, files)),
    )?;
    to_json(&summary)
}

/// Games an outside agent played, summed into the summary `solve --json` gives the
/// project's agents (Python: `wumpus_logic._core.Tally`).
#[pyclass(module = "wumpus_logic._core")]
pub struct Tally {
    rules: RuleSet,
    setup: serde_json::Map<String, serde_json::Value>,
    agent: String,
    seed: u64,
    totals: wumpus::run::Tally,
}

#[pymethods]
impl Tally {
    /// An empty tally of games of `rules` set up by the same options, played by `agent`.
    #[new]
    #[pyo3(signature = (agent, rules="aima", seed=0, *, size=None, deal=None, pit_prob=None, scoring=None, map=None, variant=None, map_known=false))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        agent: String,
        rules: &str,
        seed: u64,
        size: Option<String>,
        deal: Option<String>,
        pit_prob: Option<f64>,
        scoring: Option<String>,
        map: Option<String>,
        variant: Option<String>,
        map_known: bool,
    ) -> PyResult<Tally> {
        let o = options(
            rules, size, deal, pit_prob, scoring, map, variant, map_known, None, None,
        );
        let setup = on_rules!(o, setup, S => describe::<S>(&setup, &o));
        Ok(Tally {
            rules: o.rule_set()?,
            setup,
            agent,
            seed,
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
            worlds: self.totals.games,
            shard: None,
        };
        to_json(&Summary::new(id, self.totals, seconds, 1))
    }
}
