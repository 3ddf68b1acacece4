//! One game as Python plays it ([`Game`]): a session of any rule set, stepped by action
//! number, with rewards that add up to the game's score, the action mask from a logic agent
//! that follows the player, and the reasoning agent's hint (the `trace --json` step event)
//! on demand.
//!
//! The game is the library's played game as a learner sees it ([`wumpus::run::learn::Learned`]):
//! its followers are told only what the player was shown and the player's own actions,
//! exactly as the command line's `hint` tells them; they never see the session.

use crate::options::{given, refused, spec};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use wumpus::game::{Ending, RuleSet};
use wumpus::game_spec::{AgentKind, GameSpec, OnRules, Playable, Prepared, Spelling};
use wumpus::run::game::{Agents, HelperError, Played};
use wumpus::run::learn::{Layout, Learned, MaskKind, Mode};
use wumpus::run::GameRecord;

/// One game of rule set `S` as a learner plays it: the library's played game, with the
/// learner's view of it (observation, rewards, mask).
pub struct Live<S: Playable> {
    agents: Arc<Agents<S>>,
    learned: Learned<S>,
}

/// What a Python game asks of its game, whatever its rule set.
pub trait AnyGame {
    fn reset(&mut self, seed: Option<u64>, world: Option<&Path>) -> PyResult<()>;
    fn step(&mut self, index: usize) -> PyResult<i64>;
    fn observation<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>>;
    fn layout(&self) -> Option<Layout>;
    fn knowledge<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>>;
    fn play_text(&mut self, text: &str) -> PyResult<i64>;
    fn history_text(&self) -> Vec<String>;
    fn world(&self) -> Option<PathBuf>;
    fn mode(&self) -> Mode;
    fn action_mask(&mut self, kind: MaskKind) -> PyResult<Vec<bool>>;
    fn hint(&mut self) -> PyResult<String>;
    fn hint_action(&mut self) -> PyResult<usize>;
    fn follow_hint(&mut self) -> PyResult<i64>;
    fn render_text(&self) -> String;
    fn board(&self) -> PyResult<String>;
    fn hidden(&self) -> PyResult<String>;
    fn record(&self) -> GameRecord;
    fn status(&self) -> Status;
    fn spec(&self) -> &GameSpec;
    fn agent(&self) -> AgentKind;
}

/// Where a game stands, in the player's words.
pub struct Status {
    pub seed: Option<u64>,
    pub over: bool,
    pub outcome: Option<&'static str>,
    pub score: Option<i64>,
    pub score_so_far: i64,
    pub moves: u32,
    pub steps: u32,
    pub at: Option<String>,
    pub facing: Option<String>,
    pub arrows: Option<u32>,
    pub messages: Vec<String>,
    pub carries_gold: Option<bool>,
    pub grid_size: Option<(usize, usize)>,
    pub places: usize,
}

/// A follower's failure as Python sees it: a refused agent is a `ValueError`, the rest a
/// `RuntimeError`.
pub fn helper_error(e: HelperError) -> PyErr {
    match e {
        HelperError::Refused(_) => PyValueError::new_err(e.spelled(Spelling::Keywords)),
        HelperError::Over => PyRuntimeError::new_err("the game is over: reset it first"),
        other => PyRuntimeError::new_err(other.spelled(Spelling::Keywords)),
    }
}

impl<S: Playable> Live<S> {
    fn new(
        game: Prepared<S>,
        seed: Option<u64>,
        world: Option<&Path>,
        mode: Mode,
    ) -> PyResult<Self> {
        let agents = Agents::new(game);
        let learned = Self::dealt(&agents, seed, world, mode)?;
        Ok(Live { agents, learned })
    }

    fn dealt(
        agents: &Arc<Agents<S>>,
        seed: Option<u64>,
        world: Option<&Path>,
        mode: Mode,
    ) -> PyResult<Learned<S>> {
        let played =
            Played::dealt(agents, seed, world).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Learned::new(played, mode).map_err(PyValueError::new_err)
    }

    fn over_error(&self) -> PyResult<()> {
        if self.learned.played().over() {
            return Err(PyRuntimeError::new_err("the game is over: reset it first"));
        }
        Ok(())
    }
}

impl<S: Playable> AnyGame for Live<S> {
    fn reset(&mut self, seed: Option<u64>, world: Option<&Path>) -> PyResult<()> {
        self.learned = Self::dealt(&self.agents, seed, world, self.learned.mode())?;
        Ok(())
    }

    fn step(&mut self, index: usize) -> PyResult<i64> {
        if index >= S::ACTIONS.len() {
            return Err(PyValueError::new_err(format!(
                "action {index} is not one of the {} actions 0 to {}",
                S::ACTIONS.len(),
                S::ACTIONS.len() - 1
            )));
        }
        self.over_error()?;
        Ok(self.learned.act_numbered(index))
    }

    fn observation<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let Some(layout) = self.learned.layout().cloned() else {
            let mut out = vec![0; S::OBSERVATION.len()];
            self.learned.percepts(&mut out);
            return Ok(PyArray1::from_vec(py, out).into_any());
        };
        let mut out = vec![0.0; layout.len()];
        self.learned.observation(&mut out).map_err(helper_error)?;
        Ok(PyArray1::from_vec(py, out).into_any())
    }

    fn layout(&self) -> Option<Layout> {
        self.learned.layout().cloned()
    }

    fn knowledge<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let layout = self.learned.knowledge_layout();
        let mut out = vec![0.0; layout.len()];
        self.learned
            .write(&layout, true, &mut out)
            .map_err(helper_error)?;
        let dict = PyDict::new(py);
        let n = layout.slots;
        let shape: Vec<usize> = match layout.grid {
            Some((rows, cols)) => vec![rows, cols],
            None => vec![n],
        };
        for (c, name) in layout.channels.iter().enumerate() {
            let row = out[c * n..(c + 1) * n].to_vec();
            dict.set_item(name, PyArray1::from_vec(py, row).reshape(shape.clone())?)?;
        }
        if layout.tunnels {
            let base = layout.channels.len() * n;
            let tunnels = out[base..base + n * n].to_vec();
            dict.set_item("tunnels", PyArray1::from_vec(py, tunnels).reshape([n, n])?)?;
        }
        for (k, name) in layout.scalars.iter().enumerate() {
            dict.set_item(name, out[layout.planes_len() + k])?;
        }
        Ok(dict)
    }

    fn play_text(&mut self, text: &str) -> PyResult<i64> {
        self.over_error()?;
        let action = self
            .learned
            .played()
            .parse_action(text)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(self.learned.act(&action).reward)
    }

    fn history_text(&self) -> Vec<String> {
        self.learned.played().actions_text()
    }

    fn world(&self) -> Option<PathBuf> {
        self.learned.played().file().map(Path::to_path_buf)
    }

    fn mode(&self) -> Mode {
        self.learned.mode()
    }

    fn action_mask(&mut self, kind: MaskKind) -> PyResult<Vec<bool>> {
        let mut out = vec![false; S::ACTIONS.len()];
        self.learned
            .action_mask(kind, &mut out)
            .map_err(helper_error)?;
        Ok(out)
    }

    fn hint(&mut self) -> PyResult<String> {
        if self.learned.played().over() {
            return Err(PyRuntimeError::new_err("the game is over: no hint"));
        }
        let event = self.learned.played_mut().hint().map_err(helper_error)?;
        to_json(&event)
    }

    fn hint_action(&mut self) -> PyResult<usize> {
        let played = self.learned.played_mut();
        let decision = played.hint_decision().map_err(helper_error)?;
        let (session, shown) = (played.session(), played.shown());
        (0..S::ACTIONS.len())
            .find(|&i| session.action(shown, i) == decision.action)
            .ok_or_else(|| {
                PyRuntimeError::new_err(format!(
                    "the agent's action '{}' has no number here",
                    session.action_text(&decision.action)
                ))
            })
    }

    fn follow_hint(&mut self) -> PyResult<i64> {
        self.over_error()?;
        self.learned.follow_hint().map_err(helper_error)
    }

    fn record(&self) -> GameRecord {
        self.learned.played().record()
    }

    fn render_text(&self) -> String {
        let played = self.learned.played();
        let s = played.session();
        let mut lines = vec![s.title()];
        lines.extend(s.describe(played.shown()));
        let obs = s.observation(played.shown());
        if let Some(at) = obs.at {
            let facing = obs
                .facing
                .map(|f| format!(", facing {f}"))
                .unwrap_or_default();
            lines.push(format!("At {}{facing}.", s.label(at)));
        }
        let hidden = s.hidden();
        let list = |v: &[String]| {
            if v.is_empty() {
                "-".to_string()
            } else {
                v.join(" ")
            }
        };
        lines.push(format!(
            "Hidden: pits {}; wumpus {}; dead wumpus {}; bats {}; gold {}.",
            list(&hidden.pits),
            list(&hidden.wumpus),
            list(&hidden.dead_wumpus),
            list(&hidden.bats),
            list(&hidden.gold)
        ));
        lines.join("\n") + "\n"
    }

    fn board(&self) -> PyResult<String> {
        to_json(&self.learned.played().session().board())
    }

    fn hidden(&self) -> PyResult<String> {
        to_json(&self.learned.played().session().hidden())
    }

    fn status(&self) -> Status {
        let played = self.learned.played();
        let s = played.session();
        let obs = s.observation(played.shown());
        let briefing = s.briefing();
        Status {
            seed: played.seed(),
            over: played.over(),
            outcome: s.ending().map(Ending::name),
            score: s.score(),
            score_so_far: played.paid(),
            moves: s.moves(),
            steps: played.steps() as u32,
            at: obs.at.map(|p| s.label(p)),
            facing: obs.facing,
            arrows: obs.arrows,
            messages: obs.messages,
            carries_gold: s.carries_gold(),
            grid_size: briefing.grid_size(),
            places: briefing.places(),
        }
    }

    fn spec(&self) -> &GameSpec {
        &self.agents.game.spec
    }

    fn agent(&self) -> AgentKind {
        self.agents.game.agent
    }
}

/// Makes a game of whichever rule set a spec names.
struct Make<'a> {
    seed: Option<u64>,
    world: Option<&'a Path>,
    mode: Mode,
}

impl OnRules for Make<'_> {
    type Out = PyResult<Box<dyn AnyGame>>;

    fn run<S: Playable>(self, game: Prepared<S>) -> PyResult<Box<dyn AnyGame>> {
        Ok(Box::new(Live::<S>::new(
            game, self.seed, self.world, self.mode,
        )?))
    }
}

/// The observation mode named `name`.
pub fn mode(name: &str) -> PyResult<Mode> {
    Mode::parse(name).ok_or_else(|| {
        let names: Vec<&str> = Mode::ALL.iter().map(|(_, n)| *n).collect();
        PyValueError::new_err(format!(
            "observation '{name}' is none of {}",
            names.join(", ")
        ))
    })
}

/// The mask kind named `name`: `harmless` or `useful`.
pub fn mask_kind(name: &str) -> PyResult<MaskKind> {
    match name {
        "harmless" => Ok(MaskKind::Harmless),
        "useful" => Ok(MaskKind::Useful),
        other => Err(PyValueError::new_err(format!(
            "mask '{other}' is none of harmless, useful"
        ))),
    }
}

/// The name of `mode`.
pub fn mode_name(mode: Mode) -> &'static str {
    Mode::ALL
        .iter()
        .find(|(m, _)| *m == mode)
        .map(|(_, n)| *n)
        .expect("every mode is named")
}

/// One game, stepped by action number (Python: `wumpus_logic._core.Game`).
#[pyclass(unsendable, module = "wumpus_logic._core")]
pub struct Game {
    game: Box<dyn AnyGame>,
}

#[pymethods]
impl Game {
    /// A game of `rules`, dealt from `seed` (or played on the world file `world`), set up as
    /// `wumpus play` sets it up with the same options (`size="6x6"`, `pit_prob=0.1`,
    /// `agent="logic"`, ...: the catalogue's names).
    /// `observation` chooses what [`Game::observation`] returns: `"percepts"` (this turn's,
    /// a short vector of small integers), `"memory"` or `"knowledge"` (arrays, see
    /// [`Game::layout`]).
    #[new]
    #[pyo3(signature = (rules="aima", seed=None, world=None, observation="percepts", **options))]
    fn py_new(
        rules: &str,
        seed: Option<u64>,
        world: Option<std::path::PathBuf>,
        observation: &str,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Game> {
        let spec = spec(rules, options)?;
        Game::made(&spec, seed, world.as_deref(), mode(observation)?)
    }

    /// Pickling and copying: the game is made again from its options, seed (or world file)
    /// and the actions taken, replayed.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let state = serde_json::json!({
            "options": self.game.spec(),
            "seed": self.game.status().seed,
            "world": self.game.world().map(|w| w.display().to_string()),
            "observation": mode_name(self.game.mode()),
            "actions": self.game.history_text(),
        });
        let restore = py.import("wumpus_logic._core")?.getattr("_restore_game")?;
        Ok((restore, (state.to_string(),)))
    }

    /// Deals a new game from `seed` (or loads the world file `world`) with the same setup.
    #[pyo3(signature = (seed=None, world=None))]
    fn reset(&mut self, seed: Option<u64>, world: Option<std::path::PathBuf>) -> PyResult<()> {
        self.game.reset(seed, world.as_deref())
    }

    /// Takes action number `action`; returns the reward.
    fn step(&mut self, action: usize) -> PyResult<i64> {
        self.game.step(action)
    }

    /// The observation, as a numpy array: this turn's percepts (`int8`), or the memory or
    /// knowledge array (`float32`, shaped as [`Game::layout`] says).
    fn observation<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.game.observation(py)
    }

    /// The layout of the memory or knowledge observation (None for the percepts): its planes'
    /// names and shape (the first `prod(shape)` values of the flat array, tunnels included in
    /// a cave), and the names of the scalars that follow them.
    fn layout(&self) -> Option<(Vec<&'static str>, Vec<usize>, Vec<&'static str>)> {
        self.game
            .layout()
            .map(|l| (l.channels.clone(), l.shape(), l.scalars.clone()))
    }

    /// What the player knows now, as numpy arrays by name, whatever the observation: every
    /// memory channel and what the logic agent proves of each place (`proven_safe`,
    /// `proven_pit`, `proven_wumpus`, in the caves `proven_bats`) and the exact odds (`p_pit`, `p_wumpus`, `p_death`, ...: -1
    /// where nothing was computed), each shaped as the board (rows, columns) or a room a
    /// value; in the caves also `tunnels`, the tunnels known (rooms × rooms). No decision is
    /// made.
    fn knowledge<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.game.knowledge(py)
    }

    /// One flag an action: true when what the player perceived proves it cannot kill; with
    /// `useful`, also false where the player can tell the action does nothing (a known wall,
    /// a shot with no arrow, a grab with no glitter, climbing away from the way out).
    #[pyo3(signature = (useful=false))]
    fn action_mask(&mut self, useful: bool) -> PyResult<Vec<bool>> {
        self.game.action_mask(if useful {
            MaskKind::Useful
        } else {
            MaskKind::Harmless
        })
    }

    /// Takes an action in the player's words (`north`, `move 5`, `shoot 5 6 7`); returns the
    /// reward.
    fn act(&mut self, action: &str) -> PyResult<i64> {
        self.game.play_text(action)
    }

    /// The actions taken so far, in the player's words.
    fn actions(&self) -> Vec<String> {
        self.game.history_text()
    }

    /// The reasoning agent's next step without taking it, as the dict of a `trace --json`
    /// step line: what was proven and why, the odds, the choices weighed, the action and its
    /// reason.
    fn hint<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = self.game.hint()?;
        py.import("json")?.call_method1("loads", (text,))
    }

    /// The number of the action the reasoning agent would take.
    fn hint_action(&mut self) -> PyResult<usize> {
        self.game.hint_action()
    }

    /// Takes the reasoning agent's action, even one no action number names (a cave's crooked
    /// arrow); returns the reward.
    fn follow_hint(&mut self) -> PyResult<i64> {
        self.game.follow_hint()
    }

    /// The game as text: its words, where the player is, and the hidden world.
    fn render_text(&self) -> String {
        self.game.render_text()
    }

    /// The public picture of the world (places and where to draw them), as JSON.
    fn board(&self) -> PyResult<String> {
        self.game.board()
    }

    /// The hidden world (where everything is), as JSON.
    fn hidden(&self) -> PyResult<String> {
        self.game.hidden()
    }

    /// How the game went so far, as the JSON of one `solve --csv` row's record.
    fn record(&self) -> PyResult<String> {
        to_json(&self.game.record())
    }

    /// The options the game was set up with (those given, `rules` first), as keywords.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        given(py, self.game.spec())
    }

    /// The rule set.
    #[getter]
    fn rules(&self) -> &'static str {
        self.game.spec().rules.name()
    }

    /// The seed that dealt the game, if one did.
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.game.status().seed
    }

    /// True once the game is over.
    #[getter]
    fn over(&self) -> bool {
        self.game.status().over
    }

    /// How the game ended (`won`, `pit`, ...), or None while it goes on.
    #[getter]
    fn outcome(&self) -> Option<&'static str> {
        self.game.status().outcome
    }

    /// The final score (None while the game goes on, and in the maze).
    #[getter]
    fn score(&self) -> Option<i64> {
        self.game.status().score
    }

    /// The rewards handed out so far (the score so far).
    #[getter]
    fn score_so_far(&self) -> i64 {
        self.game.status().score_so_far
    }

    /// Actions (grid) or moves (caves) counted.
    #[getter]
    fn moves(&self) -> u32 {
        self.game.status().moves
    }

    /// Actions taken through `step`.
    #[getter]
    fn steps(&self) -> u32 {
        self.game.status().steps
    }

    /// Where the player stands, as the player names it.
    #[getter]
    fn at(&self) -> Option<String> {
        self.game.status().at
    }

    /// The way the player faces (aima).
    #[getter]
    fn facing(&self) -> Option<String> {
        self.game.status().facing
    }

    /// Arrows or grenades left.
    #[getter]
    fn arrows(&self) -> Option<u32> {
        self.game.status().arrows
    }

    /// What the game said after the last action.
    #[getter]
    fn messages(&self) -> Vec<String> {
        self.game.status().messages
    }

    /// Whether the player carries the gold (grid).
    #[getter]
    fn carries_gold(&self) -> Option<bool> {
        self.game.status().carries_gold
    }

    /// The grid's rows and columns, as the player is told.
    #[getter]
    fn grid_size(&self) -> Option<(usize, usize)> {
        self.game.status().grid_size
    }

    /// How many places the world has.
    #[getter]
    fn places(&self) -> usize {
        self.game.status().places
    }

    /// The reasoning agent's name.
    #[getter]
    fn agent(&self) -> &'static str {
        self.game.agent().name()
    }
}

impl Game {
    /// A game of `spec`, dealt from `seed` or loaded from `world`, observed as `mode`.
    pub fn made(
        spec: &GameSpec,
        seed: Option<u64>,
        world: Option<&Path>,
        mode: Mode,
    ) -> PyResult<Game> {
        spec.check_agent().map_err(refused)?;
        let make = Make { seed, world, mode };
        let game = spec.dispatch(make, true).map_err(refused)??;
        Ok(Game { game })
    }

    /// The rule set of the game.
    pub fn rule_set(&self) -> RuleSet {
        self.game.spec().rules
    }

    /// How the game went so far, as a batch records a game.
    pub fn game_record(&self) -> GameRecord {
        self.game.record()
    }
}

/// A value as JSON.
pub fn to_json(value: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// A game made again from what `Game.__reduce__` kept: its options, seed or world file,
/// observation, and the actions taken (replayed).
#[pyfunction]
pub fn _restore_game(state: &str) -> PyResult<Game> {
    let bad = |e: &dyn std::fmt::Display| PyValueError::new_err(format!("not a saved game: {e}"));
    let v: serde_json::Value = serde_json::from_str(state).map_err(|e| bad(&e))?;
    let mut spec: GameSpec = serde_json::from_value(v["options"].clone()).map_err(|e| bad(&e))?;
    spec.cache = wumpus::game_spec::default_cache_dir();
    let world = v["world"].as_str().map(PathBuf::from);
    let observation = mode(v["observation"].as_str().unwrap_or("percepts"))?;
    let mut game = Game::made(&spec, v["seed"].as_u64(), world.as_deref(), observation)?;
    for action in v["actions"].as_array().into_iter().flatten() {
        game.game
            .play_text(action.as_str().ok_or_else(|| bad(&"an action"))?)?;
    }
    Ok(game)
}
