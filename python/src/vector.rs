//! Many games stepped in one call ([`Worlds`], Python: `wumpus_logic._core.Worlds`): the
//! engine of the vector environment. It writes observations (this turn's percepts, or the
//! memory or knowledge arrays of [`wumpus::features`]), rewards, terminations, truncations and
//! (when asked) action masks into numpy arrays the caller owns, and resets a finished game on
//! the call after its end (Gymnasium's next-step autoreset), or at once when asked
//! ([`Worlds::reset_finished`], the same-step autoreset of Stable-Baselines3).
//!
//! World `i`'s `k`-th game is dealt from seed `base + i + k * n` (`n` worlds), so any world
//! can be replayed alone. The games are stepped in parallel with the interpreter's lock
//! released; the logic agents that write masks and knowledge follow each world on the calling
//! thread (an agent's solver stays on the thread that made it).

use crate::game::Core;
use crate::options::{refused, spec};
use numpy::{PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArray2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;
use wumpus::agent::{AgentFactory, AgentKind};
use wumpus::features::{layout, Features, Layout, Mode};
use wumpus::game::GameError;
use wumpus::game_spec::{OnRules, Playable, Prepared};
use wumpus::run::Follower;

/// One world of the vector: its game, its player's memory, and whether it ended on the last
/// call.
struct Slot<S: Playable> {
    core: Core<S>,
    features: Features,
    /// Games dealt in this world so far.
    games: u64,
    /// The game ended (or was cut off) on the last call: the next call resets it.
    pending: bool,
    /// Dealt on this call: its follower starts afresh.
    fresh: bool,
}

impl<S: Playable> Slot<S> {
    fn dealt(setup: &S::Setup, seed: u64) -> Result<Slot<S>, GameError> {
        let core = Core::new(S::deal(setup, seed)?, Some(seed));
        let briefing = core.session.briefing();
        let mut slot = Slot {
            features: Features::new(S::RULES, &briefing),
            core,
            games: 1,
            pending: false,
            fresh: true,
        };
        slot.remember();
        Ok(slot)
    }

    fn remember(&mut self) {
        let observation = self.core.session.observation(&self.core.shown);
        self.features.observe(&self.core.session, &observation);
    }
}

/// The worlds of one rule set.
struct Many<S: Playable> {
    setup: S::Setup,
    slots: Vec<Slot<S>>,
    base: u64,
    max_steps: u32,
    mode: Mode,
    /// The layout of the memory or knowledge arrays (the same for every world).
    layout: Option<Layout>,
    /// The logic agents that follow each world, for its masks and knowledge.
    followers: Option<Followers<S>>,
    /// Masks are written.
    mask: bool,
}

/// The logic agents that follow each world.
struct Followers<S: Playable> {
    factory: Box<dyn AgentFactory<S>>,
    agents: Vec<Option<Follower<S>>>,
}

/// The caller's arrays of one call, as slices.
struct Out<'a> {
    obs: Obs<'a>,
    rewards: &'a mut [f64],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
    masks: Option<&'a mut [bool]>,
}

/// Observations: percepts (`int8`) or arrays (`float32`).
enum Obs<'a> {
    Percepts(&'a mut [i8]),
    Arrays(&'a mut [f32]),
}

impl<S: Playable> Many<S> {
    fn new(game: Prepared<S>, n: usize, max_steps: u32, mask: bool, mode: Mode) -> PyResult<Self> {
        let followers = if mask || mode == Mode::Knowledge {
            let factory = game
                .with_agent(AgentKind::Logic, false)
                .agents()
                .map_err(refused)?;
            Some(Followers {
                factory,
                agents: (0..n).map(|_| None).collect(),
            })
        } else {
            None
        };
        let mut slots: Vec<Slot<S>> = Vec::with_capacity(n);
        for i in 0..n {
            slots.push(Slot::dealt(&game.setup, i as u64).map_err(game_error)?);
        }
        let briefing = slots[0].core.session.briefing();
        let spec = &game.spec;
        let course = spec.deal == Some(wumpus::grid::Deal::Course);
        let varies = course || matches!(spec.size, Some(wumpus::game_spec::GridSizes::Range(_)));
        let told = spec.size_told.unwrap_or(!course);
        if mode != Mode::Percepts && varies && told {
            return Err(PyValueError::new_err(
                "the worlds of one vector share the shape of their arrays: with sizes drawn \
                 from a range, hide the size (size_told=False, the arrays then cover the \
                 largest board) or observe the percepts",
            ));
        }
        Ok(Many {
            layout: layout(S::RULES, &briefing, mode),
            setup: game.setup,
            slots,
            base: 0,
            max_steps,
            mode,
            followers,
            mask,
        })
    }

    fn width(&self) -> usize {
        self.layout
            .as_ref()
            .map_or(S::OBSERVATION.len(), Layout::len)
    }

    fn seed_of(base: u64, n: usize, world: usize, game: u64) -> u64 {
        base.wrapping_add(world as u64)
            .wrapping_add(game.wrapping_mul(n as u64))
    }

    /// Deals every world's first game from `base`.
    fn reset(&mut self, base: u64, out: Out<'_>) -> PyResult<()> {
        self.base = base;
        let n = self.slots.len();
        for i in 0..n {
            self.slots[i] =
                Slot::dealt(&self.setup, Self::seed_of(base, n, i, 0)).map_err(game_error)?;
        }
        out.rewards.fill(0.0);
        out.terminated.fill(false);
        out.truncated.fill(false);
        self.write(out)
    }

    /// Deals the next game of every world whose game ended on the last call, at once, and
    /// writes those worlds' rows (the others' are left as they are).
    fn reset_finished(&mut self, mut out: Out<'_>) -> PyResult<Vec<bool>> {
        let (base, n) = (self.base, self.slots.len());
        let mut done = vec![false; n];
        for (i, slot) in self.slots.iter_mut().enumerate() {
            if slot.pending {
                let games = slot.games;
                *slot = Slot::dealt(&self.setup, Self::seed_of(base, n, i, games))
                    .map_err(game_error)?;
                slot.games = games + 1;
                done[i] = true;
            }
        }
        for (i, &d) in done.iter().enumerate() {
            if d {
                out.rewards[i] = 0.0;
                out.terminated[i] = false;
                out.truncated[i] = false;
            }
        }
        self.write_rows(&mut out, Some(&done))?;
        Ok(done)
    }

    /// One call: each world takes its action, or is reset if its game ended on the last
    /// call.
    fn step(&mut self, actions: &[i64], out: Out<'_>, py: Python<'_>) -> PyResult<()> {
        let n_actions = S::ACTIONS.len() as i64;
        if let Some(bad) = actions.iter().find(|&&a| !(0..n_actions).contains(&a)) {
            return Err(PyValueError::new_err(format!(
                "action {bad} is not one of the {n_actions} actions"
            )));
        }
        let (base, n, max_steps, setup) =
            (self.base, self.slots.len(), self.max_steps, &self.setup);
        let Out {
            obs,
            rewards,
            terminated,
            truncated,
            masks,
        } = out;
        let slots = &mut self.slots;
        let result: Result<(), GameError> = py.detach(|| {
            slots
                .par_iter_mut()
                .zip(actions.par_iter())
                .zip(rewards.par_iter_mut())
                .zip(terminated.par_iter_mut().zip(truncated.par_iter_mut()))
                .enumerate()
                .with_min_len(256)
                .try_for_each(|(i, (((slot, action), reward), (term, trunc)))| {
                    if slot.pending {
                        let games = slot.games;
                        *slot = Slot::dealt(setup, Self::seed_of(base, n, i, games))?;
                        slot.games = games + 1;
                        *reward = 0.0;
                        *term = false;
                        *trunc = false;
                    } else {
                        slot.fresh = false;
                        *reward = slot.core.step(*action as usize) as f64;
                        slot.remember();
                        *term = slot.core.over();
                        *trunc = !*term && slot.core.steps >= max_steps;
                        slot.pending = *term || *trunc;
                    }
                    Ok(())
                })
        });
        result.map_err(game_error)?;
        self.write(Out {
            obs,
            rewards,
            terminated,
            truncated,
            masks,
        })
    }

    /// Writes every world's observation and mask.
    fn write(&mut self, mut out: Out<'_>) -> PyResult<()> {
        self.write_rows(&mut out, None)
    }

    /// Writes the observation and mask of each world `only` names (every world: `None`),
    /// bringing its follower up to date first.
    fn write_rows(&mut self, out: &mut Out<'_>, only: Option<&[bool]>) -> PyResult<()> {
        let width = self.width();
        let chosen = |i: usize| only.is_none_or(|o| o[i]);
        // The followers: made afresh for a new game, told the last action otherwise.
        if let Some(Followers { factory, agents }) = &mut self.followers {
            for (i, (slot, agent)) in self.slots.iter_mut().zip(agents.iter_mut()).enumerate() {
                if !chosen(i) || slot.core.over() {
                    continue;
                }
                let core = &slot.core;
                if slot.fresh || agent.is_none() {
                    *agent = Some(Follower::new(factory.as_ref(), &core.session, core.dice()));
                } else if let (Some(f), Some(last)) = (agent.as_mut(), &core.last) {
                    if f.steps() <= core.steps as usize {
                        f.tell(last, &core.shown);
                    }
                }
            }
        }
        let knowledge = self.mode == Mode::Knowledge;
        match &mut out.obs {
            Obs::Percepts(obs) => {
                for (i, slot) in self.slots.iter().enumerate().filter(|(i, _)| chosen(*i)) {
                    slot.core.observe(&mut obs[i * width..(i + 1) * width]);
                }
            }
            Obs::Arrays(obs) => {
                let layout = self.layout.as_ref().expect("arrays have a layout");
                for (i, slot) in self.slots.iter().enumerate().filter(|(i, _)| chosen(*i)) {
                    let row = &mut obs[i * width..(i + 1) * width];
                    let follower = self
                        .followers
                        .as_mut()
                        .and_then(|f| f.agents[i].as_mut())
                        .filter(|_| knowledge && !slot.core.over());
                    match follower {
                        Some(f) => {
                            let places_on = f.agent_mut().ok().and_then(|a| a.places_on());
                            let known = f.knowledge().map_err(PyRuntimeError::new_err)?;
                            slot.features.write(
                                layout,
                                &slot.core.session,
                                Some((&known, places_on.as_ref())),
                                row,
                            );
                        }
                        None => slot.features.write(layout, &slot.core.session, None, row),
                    }
                }
            }
        }
        if let (Some(masks), true) = (out.masks.as_mut(), self.mask) {
            let actions = S::ACTIONS.len();
            for (i, slot) in self.slots.iter().enumerate().filter(|(i, _)| chosen(*i)) {
                let row = &mut masks[i * actions..(i + 1) * actions];
                let follower = self.followers.as_mut().and_then(|f| f.agents[i].as_mut());
                match follower {
                    Some(f) if !slot.core.over() => {
                        let known = f.knowledge().map_err(PyRuntimeError::new_err)?;
                        slot.core.session.harmless(&slot.core.shown, &known, row);
                    }
                    _ => row.fill(false),
                }
            }
        }
        Ok(())
    }
}

fn game_error(e: GameError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The caller's arrays: observations (`int8` percepts or `float32` arrays), rewards,
/// terminations, truncations, and masks.
type Outs<'py> = (
    Bound<'py, PyAny>,
    PyReadwriteArray1<'py, f64>,
    PyReadwriteArray1<'py, bool>,
    PyReadwriteArray1<'py, bool>,
    Option<PyReadwriteArray2<'py, bool>>,
);

/// Runs `f` on the caller's arrays as slices, checking their shapes and types.
fn with_outs<R>(
    n: usize,
    width: usize,
    actions: usize,
    outs: Outs<'_>,
    f: impl FnOnce(Out<'_>) -> PyResult<R>,
) -> PyResult<R> {
    let (obs, mut rewards, mut terminated, mut truncated, mut masks) = outs;
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
    let obs_len = match &obs {
        Obs::Percepts(o) => o.len(),
        Obs::Arrays(o) => o.len(),
    };
    let rewards = rewards.as_slice_mut().map_err(|_| shape("rewards"))?;
    let terminated = terminated.as_slice_mut().map_err(|_| shape("terminated"))?;
    let truncated = truncated.as_slice_mut().map_err(|_| shape("truncated"))?;
    if obs_len != n * width || rewards.len() != n || terminated.len() != n || truncated.len() != n {
        return Err(shape("an output array"));
    }
    let masks = match masks.as_mut() {
        Some(m) => {
            let m = m.as_slice_mut().map_err(|_| shape("masks"))?;
            if m.len() != n * actions {
                return Err(shape("masks"));
            }
            Some(m)
        }
        None => None,
    };
    f(Out {
        obs,
        rewards,
        terminated,
        truncated,
        masks,
    })
}

/// What the Python class asks of its worlds, whatever their rule set.
trait Stepped {
    fn reset(&mut self, base: u64, outs: Outs<'_>) -> PyResult<()>;
    fn step(&mut self, py: Python<'_>, actions: &[i64], outs: Outs<'_>) -> PyResult<()>;
    fn reset_finished(&mut self, outs: Outs<'_>) -> PyResult<Vec<bool>>;
    fn seeds(&self) -> Vec<Option<u64>>;
    fn scores(&self) -> Vec<Option<i64>>;
    fn outcomes(&self) -> Vec<Option<&'static str>>;
    fn layout(&self) -> Option<Layout>;
}

impl<S: Playable> Stepped for Many<S> {
    fn reset(&mut self, base: u64, outs: Outs<'_>) -> PyResult<()> {
        let (n, w, a) = (self.slots.len(), self.width(), S::ACTIONS.len());
        with_outs(n, w, a, outs, |out| Many::reset(self, base, out))
    }

    fn step(&mut self, py: Python<'_>, actions: &[i64], outs: Outs<'_>) -> PyResult<()> {
        let (n, w, a) = (self.slots.len(), self.width(), S::ACTIONS.len());
        if actions.len() != n {
            return Err(PyValueError::new_err(format!(
                "{} actions for {n} worlds",
                actions.len()
            )));
        }
        with_outs(n, w, a, outs, |out| Many::step(self, actions, out, py))
    }

    fn reset_finished(&mut self, outs: Outs<'_>) -> PyResult<Vec<bool>> {
        let (n, w, a) = (self.slots.len(), self.width(), S::ACTIONS.len());
        with_outs(n, w, a, outs, |out| Many::reset_finished(self, out))
    }

    fn seeds(&self) -> Vec<Option<u64>> {
        self.slots.iter().map(|s| s.core.seed).collect()
    }

    fn scores(&self) -> Vec<Option<i64>> {
        self.slots
            .iter()
            .map(|s| {
                let session = &s.core.session;
                session.score_so_far().or(S::SCORED.then_some(0))
            })
            .collect()
    }

    fn outcomes(&self) -> Vec<Option<&'static str>> {
        self.slots
            .iter()
            .map(|s| {
                s.core
                    .session
                    .ending()
                    .map(|e| e.name())
                    .or((s.pending && !s.core.over()).then_some("unfinished"))
            })
            .collect()
    }

    fn layout(&self) -> Option<Layout> {
        self.layout.clone()
    }
}

/// Makes the worlds of whichever rule set a spec names.
struct Make {
    n: usize,
    max_steps: u32,
    mask: bool,
    mode: Mode,
}

impl OnRules for Make {
    type Out = PyResult<Box<dyn Stepped>>;

    fn run<S: Playable>(self, game: Prepared<S>) -> PyResult<Box<dyn Stepped>> {
        Ok(Box::new(Many::<S>::new(
            game,
            self.n,
            self.max_steps,
            self.mask,
            self.mode,
        )?))
    }
}

/// Many games of one rule set stepped in one call (Python: `wumpus_logic._core.Worlds`).
#[pyclass(unsendable, module = "wumpus_logic._core")]
pub struct Worlds {
    many: Box<dyn Stepped>,
}

#[pymethods]
impl Worlds {
    /// `n` worlds of `rules` (set up by `options`, the catalogue's names), each game cut off
    /// after `max_steps` actions, observed as `observation` (`"percepts"`, `"memory"`,
    /// `"knowledge"`); with `mask`, a logic agent follows each world to write its action
    /// mask. The worlds give no hints: `agent` and `depth` are refused.
    #[new]
    #[pyo3(signature = (rules, n, max_steps, mask=false, observation="percepts", **options))]
    fn py_new(
        rules: &str,
        n: usize,
        max_steps: u32,
        mask: bool,
        observation: &str,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Worlds> {
        if n == 0 {
            return Err(PyValueError::new_err("n must be at least 1"));
        }
        let spec = spec(rules, options)?;
        if spec.agent.is_some() || spec.depth.is_some() {
            return Err(PyValueError::new_err(
                "the vector environment gives no hints (its masks and knowledge come from the \
                 logic agent, which looks no steps ahead): agent and depth are for \
                 WumpusEnv's hint()",
            ));
        }
        let mode = crate::game::mode(observation)?;
        let make = Make {
            n,
            max_steps,
            mask,
            mode,
        };
        let many = spec.dispatch(make, false).map_err(refused)??;
        Ok(Worlds { many })
    }

    /// The layout of the memory or knowledge arrays: their channels and one world's shape
    /// (None for the percepts).
    fn layout(&self) -> Option<(Vec<&'static str>, Vec<usize>)> {
        self.many.layout().map(|l| (l.channels.clone(), l.shape()))
    }

    /// Deals every world's first game (world `i` from seed `base + i`) into the arrays.
    #[pyo3(signature = (base, obs, rewards, terminated, truncated, masks=None))]
    fn reset<'py>(
        &mut self,
        base: u64,
        obs: Bound<'py, PyAny>,
        rewards: PyReadwriteArray1<'py, f64>,
        terminated: PyReadwriteArray1<'py, bool>,
        truncated: PyReadwriteArray1<'py, bool>,
        masks: Option<PyReadwriteArray2<'py, bool>>,
    ) -> PyResult<()> {
        self.many
            .reset(base, (obs, rewards, terminated, truncated, masks))
    }

    /// One action a world; a world whose game ended on the last call is reset instead.
    #[pyo3(signature = (actions, obs, rewards, terminated, truncated, masks=None))]
    #[allow(clippy::too_many_arguments)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
        obs: Bound<'py, PyAny>,
        rewards: PyReadwriteArray1<'py, f64>,
        terminated: PyReadwriteArray1<'py, bool>,
        truncated: PyReadwriteArray1<'py, bool>,
        masks: Option<PyReadwriteArray2<'py, bool>>,
    ) -> PyResult<()> {
        let actions = actions
            .as_slice()
            .map_err(|_| PyValueError::new_err("actions is not contiguous"))?;
        self.many
            .step(py, actions, (obs, rewards, terminated, truncated, masks))
    }

    /// Deals the next game of every world whose game ended on the last call, now, writing
    /// those worlds' rows; returns which were dealt.
    #[pyo3(signature = (obs, rewards, terminated, truncated, masks=None))]
    fn reset_finished<'py>(
        &mut self,
        obs: Bound<'py, PyAny>,
        rewards: PyReadwriteArray1<'py, f64>,
        terminated: PyReadwriteArray1<'py, bool>,
        truncated: PyReadwriteArray1<'py, bool>,
        masks: Option<PyReadwriteArray2<'py, bool>>,
    ) -> PyResult<Vec<bool>> {
        self.many
            .reset_finished((obs, rewards, terminated, truncated, masks))
    }

    /// The seeds of the games the worlds play now.
    fn seeds(&self) -> Vec<Option<u64>> {
        self.many.seeds()
    }

    /// Each world's score so far (the final score once its game is over; None in the maze).
    fn scores(&self) -> Vec<Option<i64>> {
        self.many.scores()
    }

    /// How each world's game ended (`unfinished` when it was cut off), or None.
    fn outcomes(&self) -> Vec<Option<&'static str>> {
        self.many.outcomes()
    }
}
