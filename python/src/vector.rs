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
use crate::offer::Offered;
use crate::setup::{on_rules, Options};
use numpy::{PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArray2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use wumpus::agent::{Agent, AgentFactory, AgentKind, Dice};
use wumpus::cave::{ClassicSession, MazeSession};
use wumpus::game::{GameError, Session};
use wumpus::grid::{AimaSession, GridSession};

/// One world of the vector: its game, and whether it ended on the last call.
struct Slot<S: Offered> {
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
struct Many<S: Offered> {
    setup: S::Setup,
    slots: Vec<Slot<S>>,
    base: u64,
    max_steps: u32,
    masks: Option<Masks<S>>,
}

/// The logic agents that follow each world to write its action mask.
struct Masks<S: Offered> {
    factory: Box<dyn AgentFactory<S>>,
    agents: Vec<Option<Box<dyn Agent<S>>>>,
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

impl<S: Offered> Many<S> {
    fn new(
        setup: S::Setup,
        n: usize,
        max_steps: u32,
        mask: bool,
        options: &Options,
    ) -> PyResult<Self> {
        let masks = if mask {
            let factory = S::prepare(AgentKind::Logic, &setup, &options.agent_options(false))
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            Some(Masks {
                factory,
                agents: (0..n).map(|_| None).collect(),
            })
        } else {
            None
        };
        let mut many = Many {
            setup,
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
            let told = if restart {
                let mut made = factory
                    .make(&core.session.briefing(), Dice::for_game(core.seed.unwrap_or(0)))
                    .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
                let told = made.observe(None, &core.shown);
                *agent = Some(made);
                told
            } else if core.over() {
                row.fill(false);
                continue;
            } else {
                let a = agent.as_mut().expect("made");
                a.observe(core.last.as_ref(), &core.shown)
            };
            told.map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            let knowledge = agent.as_mut().expect("made").knowledge();
            core.session.harmless(&core.shown, &knowledge, row);
        }
        Ok(())
    }
}

fn game_error(e: GameError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The worlds of any rule set.
enum AnyMany {
    Grid(Many<GridSession>),
    Aima(Many<AimaSession>),
    Cave(Many<ClassicSession>),
    Maze(Many<MazeSession>),
}

macro_rules! each {
    ($self:expr, $m:ident => $body:expr) => {
        match $self {
            AnyMany::Grid($m) => $body,
            AnyMany::Aima($m) => $body,
            AnyMany::Cave($m) => $body,
            AnyMany::Maze($m) => $body,
        }
    };
}

/// Many games of one rule set stepped in one call (Python: `wumpus_logic._core.Worlds`).
#[pyclass(unsendable, module = "wumpus_logic._core")]
pub struct Worlds {
    many: AnyMany,
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
    /// `n` worlds of `rules`, each game cut off after `max_steps` actions; with `mask`, a
    /// logic agent follows each world to write its action mask.
    #[new]
    #[pyo3(signature = (rules, n, max_steps, mask=false, *, size=None, deal=None, pit_prob=None, scoring=None, map=None, variant=None, map_known=false))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        rules: &str,
        n: usize,
        max_steps: u32,
        mask: bool,
        size: Option<String>,
        deal: Option<String>,
        pit_prob: Option<f64>,
        scoring: Option<String>,
        map: Option<String>,
        variant: Option<String>,
        map_known: bool,
    ) -> PyResult<Worlds> {
        if n == 0 {
            return Err(PyValueError::new_err("n must be at least 1"));
        }
        let o = crate::game::options(
            rules, size, deal, pit_prob, scoring, map, variant, map_known, None, None,
        );
        let many = on_rules!(o, setup, S =>
            AnyMany(Many::<S>::new(setup, n, max_steps, mask, &o)?));
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
        let outs = (obs, rewards, terminated, truncated, masks);
        each!(&mut self.many, m => {
            let (n, w, a) = (m.slots.len(), observation_width(m), action_count(m));
            with_outs(n, w, a, outs, |out, masks| m.reset(base, out, masks))
        })
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
        let outs = (obs, rewards, terminated, truncated, masks);
        each!(&mut self.many, m => {
            let (n, w, a) = (m.slots.len(), observation_width(m), action_count(m));
            if actions.len() != n {
                return Err(PyValueError::new_err(format!("{} actions for {n} worlds", actions.len())));
            }
            with_outs(n, w, a, outs, |out, masks| m.step(actions, out, masks, py))
        })
    }

    /// The seeds of the games the worlds play now.
    fn seeds(&self) -> Vec<Option<u64>> {
        each!(&self.many, m => m.slots.iter().map(|s| s.core.seed).collect())
    }

    /// The final score of each world's game (None while it goes on, and in the maze).
    fn scores(&self) -> Vec<Option<i64>> {
        each!(&self.many, m => m.slots.iter().map(|s| s.core.session.score()).collect())
    }

    /// How each world's game ended, or None.
    fn outcomes(&self) -> Vec<Option<&'static str>> {
        each!(&self.many, m => m.slots.iter().map(|s| s.core.session.ending().map(|e| e.name())).collect())
    }
}

fn observation_width<S: Offered>(_: &Many<S>) -> usize {
    S::OBSERVATION.len()
}

fn action_count<S: Offered>(_: &Many<S>) -> usize {
    S::ACTIONS.len()
}
