//! Many games stepped in one call ([`Worlds`], Python: `wumpus_logic._core.Worlds`): the
//! library's worlds ([`wumpus::run::worlds::Worlds`]) over numpy arrays the caller owns. The
//! worlds are stepped on every core, each share of them on a thread of its own; this file only
//! checks and converts the arrays.

use crate::options::spec;
use numpy::{PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArray2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use wumpus::game_spec::Spelling;
use wumpus::run::worlds::{Obs, Out, ReportOut, WorldsError};

/// The caller's arrays: observations (`int8` percepts or `float32` arrays), rewards,
/// terminations, truncations, masks, and where each world stands.
type Outs<'py> = (
    Bound<'py, PyAny>,
    PyReadwriteArray1<'py, f64>,
    PyReadwriteArray1<'py, bool>,
    PyReadwriteArray1<'py, bool>,
    Option<PyReadwriteArray2<'py, bool>>,
    Option<Reports<'py>>,
);

/// Each world's seed, score, whether the score is known, and outcome code
/// ([`wumpus::run::worlds::ReportOut`]).
type Reports<'py> = (
    PyReadwriteArray1<'py, i64>,
    PyReadwriteArray1<'py, i64>,
    PyReadwriteArray1<'py, bool>,
    PyReadwriteArray1<'py, u8>,
);

fn worlds_error(e: WorldsError) -> PyErr {
    match e {
        WorldsError::Input(why) => PyValueError::new_err(why),
        WorldsError::Game(e) => PyValueError::new_err(e.to_string()),
        WorldsError::Helper(why) => PyRuntimeError::new_err(why),
    }
}

/// Runs `f` on the caller's arrays as slices (their shapes are checked by the library).
fn with_outs<R>(outs: Outs<'_>, f: impl FnOnce(Out<'_>) -> Result<R, WorldsError>) -> PyResult<R> {
    let (obs, mut rewards, mut terminated, mut truncated, mut masks, mut reports) = outs;
    let shape = |what: &str| {
        PyValueError::new_err(format!(
            "{what} has the wrong shape or type, or is not contiguous"
        ))
    };
    let mut obs_i8 = obs.cast::<PyArrayDyn<i8>>().ok().map(|a| a.readwrite());
    let mut obs_f32 = obs.cast::<PyArrayDyn<f32>>().ok().map(|a| a.readwrite());
    let obs = match (&mut obs_i8, &mut obs_f32) {
        (Some(a), _) => Obs::Percepts(a.as_slice_mut().map_err(|_| shape("obs"))?),
        (_, Some(a)) => Obs::Arrays(a.as_slice_mut().map_err(|_| shape("obs"))?),
        _ => return Err(shape("obs")),
    };
    let masks = match masks.as_mut() {
        Some(m) => Some(m.as_slice_mut().map_err(|_| shape("masks"))?),
        None => None,
    };
    let report = match reports.as_mut() {
        Some((seeds, scores, scored, outcomes)) => Some(ReportOut {
            seeds: seeds.as_slice_mut().map_err(|_| shape("seeds"))?,
            scores: scores.as_slice_mut().map_err(|_| shape("scores"))?,
            scored: scored.as_slice_mut().map_err(|_| shape("scored"))?,
            outcomes: outcomes.as_slice_mut().map_err(|_| shape("outcomes"))?,
        }),
        None => None,
    };
    f(Out {
        obs,
        rewards: rewards.as_slice_mut().map_err(|_| shape("rewards"))?,
        terminated: terminated.as_slice_mut().map_err(|_| shape("terminated"))?,
        truncated: truncated.as_slice_mut().map_err(|_| shape("truncated"))?,
        masks,
        report,
    })
    .map_err(worlds_error)
}

/// Many games of one rule set stepped in one call (Python: `wumpus_logic._core.Worlds`).
#[pyclass(unsendable, module = "wumpus_logic._core")]
pub struct Worlds {
    worlds: wumpus::run::worlds::Worlds,
}

#[pymethods]
impl Worlds {
    /// `n` worlds of `rules` (set up by `options`, the catalogue's names), each game cut off
    /// after `max_steps` actions, observed as `observation` (`"percepts"`, `"memory"`,
    /// `"knowledge"`); with `mask` (`"harmless"`, or `"useful"`, which also leaves out what the
    /// player can tell does nothing), a logic agent follows each world to write its action
    /// mask. The worlds give no hints: `agent` and `depth` are refused.
    #[new]
    #[pyo3(signature = (rules, n, max_steps, mask=None, observation="percepts", threads=None, **options))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        rules: &str,
        n: usize,
        max_steps: u32,
        mask: Option<&str>,
        observation: &str,
        threads: Option<usize>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Worlds> {
        let spec = spec(rules, options)?;
        if spec.agent.is_some() || spec.depth.is_some() {
            return Err(PyValueError::new_err(
                "the vector environment gives no hints (its masks and knowledge come from the \
                 logic agent, which looks no steps ahead): agent and depth are for \
                 WumpusEnv's hint()",
            ));
        }
        let mode = crate::game::mode(observation)?;
        let mask = mask.map(crate::game::mask_kind).transpose()?;
        let worlds = wumpus::run::worlds::Worlds::new(&spec, n, max_steps, mask, mode, threads)
            .map_err(|e| PyValueError::new_err(e.spelled(Spelling::Keywords)))?;
        Ok(Worlds { worlds })
    }

    /// The layout of the memory or knowledge arrays: their channels and one world's shape
    /// (None for the percepts).
    fn layout(&self) -> Option<(Vec<&'static str>, Vec<usize>, Vec<&'static str>)> {
        self.worlds
            .layout()
            .map(|l| (l.channels.clone(), l.shape(), l.scalars.clone()))
    }

    /// Deals every world's first game (world `i` from seed `base + i`) into the arrays.
    #[pyo3(signature = (base, obs, rewards, terminated, truncated, masks=None, reports=None))]
    #[allow(clippy::too_many_arguments)]
    fn reset<'py>(
        &mut self,
        base: u64,
        obs: Bound<'py, PyAny>,
        rewards: PyReadwriteArray1<'py, f64>,
        terminated: PyReadwriteArray1<'py, bool>,
        truncated: PyReadwriteArray1<'py, bool>,
        masks: Option<PyReadwriteArray2<'py, bool>>,
        reports: Option<Reports<'py>>,
    ) -> PyResult<()> {
        let worlds = &mut self.worlds;
        with_outs(
            (obs, rewards, terminated, truncated, masks, reports),
            |out| worlds.reset(base, out),
        )
    }

    /// One action a world; a world whose game ended on the last call is reset instead.
    #[pyo3(signature = (actions, obs, rewards, terminated, truncated, masks=None, reports=None))]
    #[allow(clippy::too_many_arguments)]
    fn step<'py>(
        &mut self,
        actions: PyReadonlyArray1<'py, i64>,
        obs: Bound<'py, PyAny>,
        rewards: PyReadwriteArray1<'py, f64>,
        terminated: PyReadwriteArray1<'py, bool>,
        truncated: PyReadwriteArray1<'py, bool>,
        masks: Option<PyReadwriteArray2<'py, bool>>,
        reports: Option<Reports<'py>>,
    ) -> PyResult<()> {
        let actions = actions
            .as_slice()
            .map_err(|_| PyValueError::new_err("actions is not contiguous"))?;
        let worlds = &mut self.worlds;
        with_outs(
            (obs, rewards, terminated, truncated, masks, reports),
            |out| worlds.step(actions, out),
        )
    }

    /// Deals the next game of every world whose game ended on the last call, now, writing
    /// those worlds' rows; returns which were dealt.
    #[pyo3(signature = (obs, rewards, terminated, truncated, masks=None, reports=None))]
    fn reset_finished<'py>(
        &mut self,
        obs: Bound<'py, PyAny>,
        rewards: PyReadwriteArray1<'py, f64>,
        terminated: PyReadwriteArray1<'py, bool>,
        truncated: PyReadwriteArray1<'py, bool>,
        masks: Option<PyReadwriteArray2<'py, bool>>,
        reports: Option<Reports<'py>>,
    ) -> PyResult<Vec<bool>> {
        let worlds = &mut self.worlds;
        with_outs(
            (obs, rewards, terminated, truncated, masks, reports),
            |out| worlds.reset_finished(out),
        )
    }

    /// The seeds of the games the worlds play now.
    fn seeds(&mut self) -> Vec<Option<u64>> {
        self.worlds.report().iter().map(|r| r.seed).collect()
    }

    /// Each world's score so far (the final score once its game is over; None in the maze).
    fn scores(&mut self) -> Vec<Option<i64>> {
        self.worlds.report().iter().map(|r| r.score).collect()
    }

    /// How each world's game ended (`unfinished` when it was cut off), or None.
    fn outcomes(&mut self) -> Vec<Option<&'static str>> {
        self.worlds.report().iter().map(|r| r.outcome()).collect()
    }

    /// The names of the outcome codes the reports hold: `None` (code 0, the game goes on),
    /// then every ending.
    #[staticmethod]
    fn outcome_names() -> Vec<Option<&'static str>> {
        std::iter::once(None)
            .chain(wumpus::game::Ending::ALL.iter().map(|e| Some(e.name())))
            .collect()
    }
}
