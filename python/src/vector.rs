//! Many games stepped in one call ([`Worlds`], Python: `wumpus_logic._core.Worlds`): the
//! engine of the vector environment. It writes observations, rewards, terminations,
//! truncations and (when asked) action masks into numpy arrays the caller owns, and resets a
//! finished game on the call after its end (Gymnasium's next-step autoreset).
//!
//! World `i`'s `k`-th game is dealt from seed `base + i + k * n` (`n` worlds), so any world
//! can be replayed alone. Without masks the worlds are stepped in parallel with the
//! interpreter's lock released; with masks each world's logic agent follows it on the calling
//! thread (an agent's solver stays on the thread that made it).

use crate::game::Core;
use crate::options::{refused, spec};
use numpy::{PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArray2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;
use wumpus::agent::{AgentFactory, AgentKind};
use wumpus::game::GameError;
use wumpus::game_spec::{OnRules, Playable, Prepared};
use wumpus::run::Follower;

/// One world of the vector: its game, and whether it ended on the last call.
struct Slot<S: Playable> {
    core: Core<S>,
    /// Games dealt in this world so far.
    games: u64,
    /// The game ended (or was cut off) on the last call: the next call resets it.
    pending: bool,
}

/// The outputs of one call, one row a world.
struct Out<'a> {
    obs: &'a mut [i8],
    rewards: &'a mut [f64],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
}

/// The worlds of one rule set.
struct Many<S: Playable> {
    setup: S::Setup,
    slots: Vec<Slot<S>>,
    base: u64,
    max_steps: u32,
    masks: Option<Masks<S>>,
}

/// The logic agents that follow each world to write its action mask.
struct Masks<S: Playable> {
    factory: Box<dyn AgentFactory<S>>,
    agents: Vec<Option<Follower<S>>>,
}

/// One world's part of a call: its index, its slot and action, and its outputs.
type Row<'a, S> = (
    usize,
    (
        (
            ((&'a mut Slot<S>, &'a i64), &'a mut [i8]),
            (&'a mut f64, &'a mut bool),
        ),
        (&'a mut bool, &'a mut bool),
    ),
);

impl<S: Playable> Many<S> {
    fn new(game: Prepared<S>, n: usize, max_steps: u32, mask: bool) -> PyResult<Self> {
        let masks = if mask {
            let factory = game
                .with_agent(AgentKind::Logic, false)
                .agents()
                .map_err(refused)?;
            Some(Masks {
                factory,
                agents: (0..n).map(|_| None).collect(),
            })
        } else {
            None
        };
        let mut many = Many {
            setup: game.setup,
            slots: Vec::with_capacity(n),
            base: 0,
            max_steps,
            masks,
        };
        for i in 0..n {
            let core = Core::new(
                S::deal(&many.setup, i as u64).map_err(game_error)?,
                Some(i as u64),
            );
            many.slots.push(Slot {
                core,
                games: 1,
                pending: false,
            });
        }
        Ok(many)
    }

    fn seed_of(&self, world: usize, game: u64) -> u64 {
        let n = self.slots.len() as u64;
        self.base
            .wrapping_add(world as u64)
            .wrapping_add(game.wrapping_mul(n))
    }

    /// Deals every world's first game from `base`.
    fn reset(&mut self, base: u64, out: Out<'_>, masks: Option<&mut [bool]>) -> PyResult<()> {
        self.base = base;
        let width = S::OBSERVATION.len();
        for i in 0..self.slots.len() {
            let seed = self.seed_of(i, 0);
            let session = S::deal(&self.setup, seed).map_err(game_error)?;
            let slot = &mut self.slots[i];
            *slot = Slot {
                core: Core::new(session, Some(seed)),
                games: 1,
                pending: false,
            };
            slot.core.observe(&mut out.obs[i * width..(i + 1) * width]);
            out.rewards[i] = 0.0;
            out.terminated[i] = false;
            out.truncated[i] = false;
            if let Some(masks) = &mut self.masks {
                masks.agents[i] = None;
            }
        }
        self.write_masks(None, masks)
    }

    /// One call: each world takes its action, or is reset if its game ended on the last
    /// call.
    fn step(
        &mut self,
        actions: &[i64],
        out: Out<'_>,
        masks: Option<&mut [bool]>,
        py: Python<'_>,
    ) -> PyResult<()> {
        let n_actions = S::ACTIONS.len() as i64;
        if let Some(bad) = actions.iter().find(|&&a| !(0..n_actions).contains(&a)) {
            return Err(PyValueError::new_err(format!(
                "action {bad} is not one of the {n_actions} actions"
            )));
        }
        let width = S::OBSERVATION.len();
        let n = self.slots.len() as u64;
        let (base, max_steps, setup) = (self.base, self.max_steps, &self.setup);
        // Which worlds were reset this call (their agents start afresh).
        let mut fresh = vec![false; self.slots.len()];
        let work = |(i, ((((slot, action), obs), (reward, term)), (trunc, fresh))): Row<'_, S>|
         -> Result<(), GameError> {
            if slot.pending {
                let seed = base
                    .wrapping_add(i as u64)
                    .wrapping_add(slot.games.wrapping_mul(n));
                slot.core = Core::new(S::deal(setup, seed)?, Some(seed));
                slot.games += 1;
                slot.pending = false;
                *reward = 0.0;
                *term = false;
                *trunc = false;
                *fresh = true;
            } else {
                *reward = slot.core.step(*action as usize) as f64;
                *term = slot.core.over();
                *trunc = !*term && slot.core.steps >= max_steps;
                slot.pending = *term || *trunc;
            }
            slot.core.observe(obs);
            Ok(())
        };
        let result: Result<(), GameError> = if self.masks.is_some() {
            self.slots
                .iter_mut()
                .zip(actions)
                .zip(out.obs.chunks_mut(width))
                .zip(out.rewards.iter_mut().zip(out.terminated.iter_mut()))
                .zip(out.truncated.iter_mut().zip(fresh.iter_mut()))
                .enumerate()
                .try_for_each(work)
        } else {
            let slots = &mut self.slots;
            py.detach(|| {
                slots
                    .par_iter_mut()
                    .zip(actions.par_iter())
                    .zip(out.obs.par_chunks_mut(width))
                    .zip(
                        out.rewards
                            .par_iter_mut()
                            .zip(out.terminated.par_iter_mut()),
                    )
                    .zip(out.truncated.par_iter_mut().zip(fresh.par_iter_mut()))
                    .enumerate()
                    .with_min_len(512)
                    .try_for_each(work)
            })
        };
        result.map_err(game_error)?;
        self.write_masks(Some(&fresh), masks)
    }

    /// Brings each world's logic agent up to date and writes its mask row.
    fn write_masks(&mut self, fresh: Option<&[bool]>, masks: Option<&mut [bool]>) -> PyResult<()> {
        let (Some(Masks { factory, agents }), Some(masks)) = (&mut self.masks, masks) else {
            return Ok(());
        };
        let width = S::ACTIONS.len();
        for (i, (slot, agent)) in self.slots.iter().zip(agents.iter_mut()).enumerate() {
            let row = &mut masks[i * width..(i + 1) * width];
            let restart = agent.is_none() || fresh.is_some_and(|f| f[i]);
            let core = &slot.core;
            let follower = if restart {
                agent.insert(Follower::new(factory.as_ref(), &core.session, core.dice()))
            } else if core.over() {
                row.fill(false);
                continue;
            } else {
                let follower = agent.as_mut().expect("made");
                if let Some(last) = &core.last {
                    follower.tell(last, &core.shown);
                }
                follower
            };
            let knowledge = follower.knowledge().map_err(PyRuntimeError::new_err)?;
            core.session.harmless(&core.shown, &knowledge, row);
        }
        Ok(())
    }
}

fn game_error(e: GameError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// What the Python class asks of its worlds, whatever their rule set.
trait Stepped {
    fn reset(&mut self, base: u64, outs: Outs<'_>) -> PyResult<()>;
    fn step(&mut self, py: Python<'_>, actions: &[i64], outs: Outs<'_>) -> PyResult<()>;
    fn seeds(&self) -> Vec<Option<u64>>;
    fn scores(&self) -> Vec<Option<i64>>;
    fn outcomes(&self) -> Vec<Option<&'static str>>;
}

impl<S: Playable> Stepped for Many<S> {
    fn reset(&mut self, base: u64, outs: Outs<'_>) -> PyResult<()> {
        let (n, w, a) = (self.slots.len(), S::OBSERVATION.len(), S::ACTIONS.len());
        with_outs(n, w, a, outs, |out, masks| {
            Many::reset(self, base, out, masks)
        })
    }

    fn step(&mut self, py: Python<'_>, actions: &[i64], outs: Outs<'_>) -> PyResult<()> {
        let (n, w, a) = (self.slots.len(), S::OBSERVATION.len(), S::ACTIONS.len());
        if actions.len() != n {
            return Err(PyValueError::new_err(format!(
                "{} actions for {n} worlds",
                actions.len()
            )));
        }
        with_outs(n, w, a, outs, |out, masks| {
            Many::step(self, actions, out, masks, py)
        })
    }

    fn seeds(&self) -> Vec<Option<u64>> {
        self.slots.iter().map(|s| s.core.seed).collect()
    }

    fn scores(&self) -> Vec<Option<i64>> {
        self.slots.iter().map(|s| s.core.session.score()).collect()
    }

    fn outcomes(&self) -> Vec<Option<&'static str>> {
        self.slots
            .iter()
            .map(|s| s.core.session.ending().map(|e| e.name()))
            .collect()
    }
}

/// Makes the worlds of whichever rule set a spec names.
struct Make {
    n: usize,
    max_steps: u32,
    mask: bool,
}

impl OnRules for Make {
    type Out = PyResult<Box<dyn Stepped>>;

    fn run<S: Playable>(self, game: Prepared<S>) -> PyResult<Box<dyn Stepped>> {
        Ok(Box::new(Many::<S>::new(
            game,
            self.n,
            self.max_steps,
            self.mask,
        )?))
    }
}

/// Many games of one rule set stepped in one call (Python: `wumpus_logic._core.Worlds`).
#[pyclass(unsendable, module = "wumpus_logic._core")]
pub struct Worlds {
    many: Box<dyn Stepped>,
}

/// The caller's arrays: observations, rewards, terminations, truncations, and masks.
type Outs<'py> = (
    PyReadwriteArray2<'py, i8>,
    PyReadwriteArray1<'py, f64>,
    PyReadwriteArray1<'py, bool>,
    PyReadwriteArray1<'py, bool>,
    Option<PyReadwriteArray2<'py, bool>>,
);

/// Runs `f` on the caller's arrays as slices, checking their shapes.
fn with_outs<R>(
    n: usize,
    width: usize,
    actions: usize,
    outs: Outs<'_>,
    f: impl FnOnce(Out<'_>, Option<&mut [bool]>) -> PyResult<R>,
) -> PyResult<R> {
    let (mut obs, mut rewards, mut terminated, mut truncated, mut masks) = outs;
    let shape = |what: &str| {
        PyValueError::new_err(format!("{what} has the wrong shape or is not contiguous"))
    };
    let obs = obs.as_slice_mut().map_err(|_| shape("obs"))?;
    let rewards = rewards.as_slice_mut().map_err(|_| shape("rewards"))?;
    let terminated = terminated.as_slice_mut().map_err(|_| shape("terminated"))?;
    let truncated = truncated.as_slice_mut().map_err(|_| shape("truncated"))?;
    if obs.len() != n * width || rewards.len() != n || terminated.len() != n || truncated.len() != n
    {
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
    f(
        Out {
            obs,
            rewards,
            terminated,
            truncated,
        },
        masks,
    )
}

#[pymethods]
impl Worlds {
    /// `n` worlds of `rules` (set up by `options`, the catalogue's names), each game cut off
    /// after `max_steps` actions; with `mask`, a logic agent follows each world to write its
    /// action mask. The worlds give no hints: `agent` and `depth` are refused.
    #[new]
    #[pyo3(signature = (rules, n, max_steps, mask=false, **options))]
    fn py_new(
        rules: &str,
        n: usize,
        max_steps: u32,
        mask: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Worlds> {
        if n == 0 {
            return Err(PyValueError::new_err("n must be at least 1"));
        }
        let spec = spec(rules, options)?;
        if spec.agent.is_some() || spec.depth.is_some() {
            return Err(PyValueError::new_err(
                "the vector environment gives no hints (its masks come from the logic agent, \
                 which looks no steps ahead): agent and depth are for WumpusEnv's hint()",
            ));
        }
        let make = Make { n, max_steps, mask };
        let many = spec.dispatch(make, false).map_err(refused)??;
        Ok(Worlds { many })
    }

    /// Deals every world's first game (world `i` from seed `base + i`) into the arrays.
    #[pyo3(signature = (base, obs, rewards, terminated, truncated, masks=None))]
    fn reset<'py>(
        &mut self,
        base: u64,
        obs: PyReadwriteArray2<'py, i8>,
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
        obs: PyReadwriteArray2<'py, i8>,
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

    /// The seeds of the games the worlds play now.
    fn seeds(&self) -> Vec<Option<u64>> {
        self.many.seeds()
    }

    /// The final score of each world's game (None while it goes on, and in the maze).
    fn scores(&self) -> Vec<Option<i64>> {
        self.many.scores()
    }

    /// How each world's game ended, or None.
    fn outcomes(&self) -> Vec<Option<&'static str>> {
        self.many.outcomes()
    }
}
