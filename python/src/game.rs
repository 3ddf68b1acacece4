//! One game as Python plays it ([`Game`]): a session of any rule set, stepped by action
//! number, with rewards that add up to the game's score, the action mask from a logic agent
//! that follows the player, and the reasoning agent's hint (the `trace --json` step event)
//! on demand.
//!
//! The agents here are the library's followers ([`wumpus::run::Follower`]), told only what
//! the player was shown and the player's own actions, exactly as the command line's `hint`
//! tells them; they never see the session.

use crate::options::{given, refused, spec};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::{Path, PathBuf};
use wumpus::agent::{AgentFactory, AgentKind};
use wumpus::features::{layout, Features, Layout, Mode};
use wumpus::game::{Command, Ending, RuleSet};
use wumpus::game_spec::{GameSpec, OnRules, Playable, Prepared};
use wumpus::rng::Dice;
use wumpus::run::{Follower, GameRecord};

/// A game being played: the session, what it showed last, and the rewards handed out.
pub struct Core<S: Playable> {
    /// The game.
    pub session: S,
    /// What the player was shown last.
    pub shown: S::Shown,
    /// The seed that dealt it (none for a world file).
    pub seed: Option<u64>,
    /// Rewards handed out so far.
    paid: i64,
    /// Actions taken.
    pub steps: u32,
    /// The last action taken, as an agent following the game is told it.
    pub last: Option<S::Action>,
}

impl<S: Playable> Core<S> {
    /// A game on `session`, dealt from `seed`.
    pub fn new(session: S, seed: Option<u64>) -> Core<S> {
        Core {
            shown: session.start(),
            paid: session.reward_so_far(),
            session,
            seed,
            steps: 0,
            last: None,
        }
    }

    /// Takes the action numbered `index`; returns the reward: the change in the score so far.
    pub fn step(&mut self, index: usize) -> i64 {
        let action = self.session.action(&self.shown, index);
        self.act(&action)
    }

    /// Takes `action`; returns the reward.
    pub fn act(&mut self, action: &S::Action) -> i64 {
        self.shown = self.session.act(action);
        self.last = Some(action.clone());
        self.steps += 1;
        let now = self.session.reward_so_far();
        let reward = now - self.paid;
        self.paid = now;
        reward
    }

    /// True once the game is over.
    pub fn over(&self) -> bool {
        self.session.ending().is_some()
    }

    /// The observation vector.
    pub fn observe(&self, out: &mut [i8]) {
        self.session.observe(&self.shown, out);
    }

    /// The agents' dice for this game: from its seed, or fresh.
    pub fn dice(&self) -> Dice {
        self.seed.map_or_else(Dice::fresh, Dice::for_game)
    }
}

/// A follower made when first asked for, then told the actions taken since (the mask's
/// follower costs nothing to a learner that never asks for a mask).
pub struct Lazy<S: Playable> {
    agents: Box<dyn AgentFactory<S>>,
    follower: Option<Follower<S>>,
    /// History entries told so far.
    told: usize,
}

impl<S: Playable> Lazy<S> {
    pub fn new(agents: Box<dyn AgentFactory<S>>) -> Lazy<S> {
        Lazy {
            agents,
            follower: None,
            told: 0,
        }
    }

    /// Forgets the game: the next question starts a fresh follower.
    pub fn forget(&mut self) {
        self.follower = None;
        self.told = 0;
    }

    /// The follower of `core`'s game (which showed `first` at its start), told every action
    /// of `history`; a `RuntimeError` once the agent stopped reasoning.
    pub fn caught_up(
        &mut self,
        core: &Core<S>,
        first: &S::Shown,
        history: &[(S::Action, S::Shown)],
    ) -> PyResult<&mut Follower<S>> {
        let follower = self.follower.get_or_insert_with(|| {
            Follower::from_start(
                self.agents.as_ref(),
                &core.session.briefing(),
                first.clone(),
                core.dice(),
            )
        });
        for (action, shown) in &history[self.told..] {
            follower.tell(action, shown);
        }
        self.told = history.len();
        if let Some(why) = follower.failure() {
            return Err(PyRuntimeError::new_err(why.to_string()));
        }
        Ok(follower)
    }
}

/// One game of rule set `S` with its followers.
pub struct Live<S: Playable> {
    game: Prepared<S>,
    core: Core<S>,
    first: S::Shown,
    history: Vec<(S::Action, S::Shown)>,
    mask: Lazy<S>,
    hint: Lazy<S>,
    /// What the observation holds, its layout (`None` for this turn's percepts), and the
    /// player's memory behind it.
    mode: Mode,
    layout: Option<Layout>,
    features: Features,
    /// The world file the game was loaded from, if one (to copy the game).
    world: Option<PathBuf>,
}

/// What a Python game asks of its game, whatever its rule set.
pub trait Played {
    fn reset(&mut self, seed: Option<u64>, world: Option<&Path>) -> PyResult<()>;
    fn step(&mut self, index: usize) -> PyResult<i64>;
    fn observation<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>>;
    fn layout(&self) -> Option<Layout>;
    fn knowledge<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>>;
    fn play_text(&mut self, text: &str) -> PyResult<i64>;
    fn history_text(&self) -> Vec<String>;
    fn world(&self) -> Option<PathBuf>;
    fn mode(&self) -> Mode;
    fn action_mask(&mut self) -> PyResult<Vec<bool>>;
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

impl<S: Playable> Live<S> {
    fn new(
        game: Prepared<S>,
        seed: Option<u64>,
        world: Option<&Path>,
        mode: Mode,
    ) -> PyResult<Self> {
        let logic = game.with_agent(AgentKind::Logic, false);
        let mask = Lazy::new(logic.agents().map_err(refused)?);
        let hint = Lazy::new(game.agents().map_err(refused)?);
        let core = Self::dealt(&game, seed, world)?;
        let briefing = core.session.briefing();
        let mut live = Live {
            first: core.shown.clone(),
            layout: layout(S::RULES, &briefing, mode),
            features: Features::new(S::RULES, &briefing),
            mode,
            game,
            core,
            history: Vec::new(),
            mask,
            hint,
            world: world.map(Path::to_path_buf),
        };
        live.remember();
        Ok(live)
    }

    /// Takes what the game showed last into the player's memory.
    fn remember(&mut self) {
        let observation = self.core.session.observation(&self.core.shown);
        self.features.observe(&self.core.session, &observation);
    }

    /// Takes `action` and remembers what followed.
    fn take(&mut self, action: S::Action) -> i64 {
        let reward = self.core.act(&action);
        self.history.push((action, self.core.shown.clone()));
        self.remember();
        reward
    }

    /// The array of `layout` for this moment, with what the logic agent proves when
    /// `knowledge`.
    fn features_of(&mut self, layout: &Layout, knowledge: bool) -> PyResult<Vec<f32>> {
        let mut out = vec![0.0; layout.len()];
        if knowledge && !self.core.over() {
            let follower = self
                .mask
                .caught_up(&self.core, &self.first, &self.history)?;
            let places_on = follower.agent_mut().ok().and_then(|a| a.places_on());
            let known = follower.knowledge().map_err(PyRuntimeError::new_err)?;
            self.features.write(
                layout,
                &self.core.session,
                Some((&known, places_on.as_ref())),
                &mut out,
            );
        } else {
            self.features
                .write(layout, &self.core.session, None, &mut out);
        }
        Ok(out)
    }

    fn dealt(game: &Prepared<S>, seed: Option<u64>, world: Option<&Path>) -> PyResult<Core<S>> {
        let dealt = game
            .deal(seed, world)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Core::new(dealt.session, dealt.seed))
    }

    fn hint_follower(&mut self) -> PyResult<&mut Follower<S>> {
        self.hint.caught_up(&self.core, &self.first, &self.history)
    }
}

impl<S: Playable> Played for Live<S> {
    fn reset(&mut self, seed: Option<u64>, world: Option<&Path>) -> PyResult<()> {
        self.core = Self::dealt(&self.game, seed, world)?;
        self.first = self.core.shown.clone();
        self.history.clear();
        self.mask.forget();
        self.hint.forget();
        self.world = world.map(Path::to_path_buf);
        let briefing = self.core.session.briefing();
        // A world file (or a range of sizes) may change the board: the arrays follow it.
        self.layout = layout(S::RULES, &briefing, self.mode);
        self.features = Features::new(S::RULES, &briefing);
        self.remember();
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
        if self.core.over() {
            return Err(PyRuntimeError::new_err("the game is over: reset it first"));
        }
        let action = self.core.session.action(&self.core.shown, index);
        Ok(self.take(action))
    }

    fn observation<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let Some(layout) = self.layout.clone() else {
            let mut out = vec![0; S::OBSERVATION.len()];
            self.core.observe(&mut out);
            return Ok(PyArray1::from_vec(py, out).into_any());
        };
        let out = self.features_of(&layout, self.mode == Mode::Knowledge)?;
        Ok(PyArray1::from_vec(py, out)
            .reshape(layout.shape())?
            .into_any())
    }

    fn layout(&self) -> Option<Layout> {
        self.layout.clone()
    }

    fn knowledge<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let briefing = self.core.session.briefing();
        let layout = layout(S::RULES, &briefing, Mode::Knowledge).expect("a layout");
        let out = self.features_of(&layout, true)?;
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
        Ok(dict)
    }

    fn play_text(&mut self, text: &str) -> PyResult<i64> {
        if self.core.over() {
            return Err(PyRuntimeError::new_err("the game is over: reset it first"));
        }
        match self.core.session.parse_command(text) {
            Ok(Command::Act(action)) => Ok(self.take(action)),
            Ok(_) => Err(PyValueError::new_err(format!(
                "'{text}' is not an action of the game"
            ))),
            Err(e) => Err(PyValueError::new_err(format!("'{text}': {e}"))),
        }
    }

    fn history_text(&self) -> Vec<String> {
        self.history
            .iter()
            .map(|(a, _)| self.core.session.action_text(a))
            .collect()
    }

    fn world(&self) -> Option<PathBuf> {
        self.world.clone()
    }

    fn mode(&self) -> Mode {
        self.mode
    }

    fn action_mask(&mut self) -> PyResult<Vec<bool>> {
        let mut out = vec![false; S::ACTIONS.len()];
        if self.core.over() {
            return Ok(out);
        }
        let knowledge = self
            .mask
            .caught_up(&self.core, &self.first, &self.history)?
            .knowledge()
            .map_err(PyRuntimeError::new_err)?;
        self.core
            .session
            .harmless(&self.core.shown, &knowledge, &mut out);
        Ok(out)
    }

    fn hint(&mut self) -> PyResult<String> {
        if self.core.over() {
            return Err(PyRuntimeError::new_err("the game is over: no hint"));
        }
        let follower = self
            .hint
            .caught_up(&self.core, &self.first, &self.history)?;
        let event = follower
            .hint(&self.core.session)
            .map_err(PyRuntimeError::new_err)?;
        to_json(&event)
    }

    fn hint_action(&mut self) -> PyResult<usize> {
        let decision = self
            .hint_follower()?
            .decide()
            .map_err(PyRuntimeError::new_err)?;
        let core = &self.core;
        (0..S::ACTIONS.len())
            .find(|&i| core.session.action(&core.shown, i) == decision.action)
            .ok_or_else(|| {
                PyRuntimeError::new_err(format!(
                    "the agent's action '{}' has no number here",
                    core.session.action_text(&decision.action)
                ))
            })
    }

    fn follow_hint(&mut self) -> PyResult<i64> {
        if self.core.over() {
            return Err(PyRuntimeError::new_err("the game is over: reset it first"));
        }
        let action = self
            .hint_follower()?
            .decide()
            .map_err(PyRuntimeError::new_err)?
            .action;
        Ok(self.take(action))
    }

    fn record(&self) -> GameRecord {
        let s = &self.core.session;
        let ending = s.ending().unwrap_or(Ending::Unfinished);
        let score = match ending {
            Ending::Unfinished => s.score_so_far().or(S::SCORED.then_some(0)),
            _ => s.score(),
        };
        GameRecord {
            seed: self.core.seed,
            file: None,
            ending,
            score,
            moves: s.moves(),
            shots: s.shots(),
            winnable: s.winnable(),
            solver_calls: 0,
            decisions: self.core.steps,
            agent_time: std::time::Duration::ZERO,
        }
    }

    fn render_text(&self) -> String {
        let s = &self.core.session;
        let mut lines = vec![s.title()];
        lines.extend(s.describe(&self.core.shown));
        let obs = s.observation(&self.core.shown);
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
        to_json(&self.core.session.board())
    }

    fn hidden(&self) -> PyResult<String> {
        to_json(&self.core.session.hidden())
    }

    fn status(&self) -> Status {
        let s = &self.core.session;
        let obs = s.observation(&self.core.shown);
        let briefing = s.briefing();
        Status {
            seed: self.core.seed,
            over: self.core.over(),
            outcome: s.ending().map(Ending::name),
            score: s.score(),
            score_so_far: self.core.paid,
            moves: s.moves(),
            steps: self.core.steps,
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
        &self.game.spec
    }

    fn agent(&self) -> AgentKind {
        self.game.agent
    }
}

/// Makes a game of whichever rule set a spec names.
struct Make<'a> {
    seed: Option<u64>,
    world: Option<&'a Path>,
    mode: Mode,
}

impl OnRules for Make<'_> {
    type Out = PyResult<Box<dyn Played>>;

    fn run<S: Playable>(self, game: Prepared<S>) -> PyResult<Box<dyn Played>> {
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
    game: Box<dyn Played>,
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
            "options": self.game.spec().given().into_iter()
                .map(|(n, v)| (n.to_string(), v.to_json()))
                .collect::<serde_json::Map<_, _>>(),
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

    /// The layout of the memory or knowledge observation: its channels and shape (None for
    /// the percepts).
    fn layout(&self) -> Option<(Vec<&'static str>, Vec<usize>)> {
        self.game.layout().map(|l| (l.channels.clone(), l.shape()))
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

    /// One flag an action: true when what the player perceived proves it cannot kill.
    fn action_mask(&mut self) -> PyResult<Vec<bool>> {
        self.game.action_mask()
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
    let mut spec = GameSpec::default();
    for (name, value) in v["options"].as_object().ok_or_else(|| bad(&"no options"))? {
        let value = wumpus::game_spec::Value::from_json(value).map_err(|e| bad(&e))?;
        spec.set(name, &value).map_err(refused)?;
    }
    let world = v["world"].as_str().map(PathBuf::from);
    let observation = mode(v["observation"].as_str().unwrap_or("percepts"))?;
    let mut game = Game::made(&spec, v["seed"].as_u64(), world.as_deref(), observation)?;
    for action in v["actions"].as_array().into_iter().flatten() {
        game.game
            .play_text(action.as_str().ok_or_else(|| bad(&"an action"))?)?;
    }
    Ok(game)
}
