//! One game as Python plays it ([`Game`]): a session of any rule set, stepped by action
//! number, with rewards that add up to the game's score, the action mask from a logic agent
//! that follows the player, and the reasoning agent's hint (the `trace --json` step event)
//! on demand.
//!
//! The agents here are handed only what the player was shown and the player's own actions,
//! through [`wumpus::agent::Agent::observe`], exactly as the command line's `hint` does; they
//! never see the session.

use crate::offer::Offered;
use crate::setup::{on_rules, Options};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::path::Path;
use wumpus::agent::{Agent, AgentFactory, AgentKind, Conclusion, Dice, Knowledge};
use wumpus::cave::{ClassicSession, MazeSession};
use wumpus::game::{Ending, RuleSet, Session};
use wumpus::grid::{AimaSession, GridSession};
use wumpus::run::event::hint_event;
use wumpus::run::GameRecord;

/// A game being played: the session, what it showed last, and the rewards handed out.
pub struct Core<S: Offered> {
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

impl<S: Offered> Core<S> {
    /// A game on `session`, dealt from `seed`.
    pub fn new(session: S, seed: Option<u64>) -> Core<S> {
        Core {
            shown: session.start(),
            paid: session.score_so_far(),
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
        let now = self.session.score_so_far();
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
}

/// An agent that follows the player's game: told each action and what followed, as `hint`
/// tells it, made afresh for each game.
pub struct Follower<S: Offered> {
    factory: Box<dyn AgentFactory<S>>,
    agent: Option<Box<dyn Agent<S>>>,
    /// History entries told so far.
    told: usize,
    /// What the last observation proved.
    learned: Vec<Conclusion>,
    /// Why the agent stopped reasoning, if it did.
    failed: Option<String>,
}

impl<S: Offered> Follower<S> {
    /// A follower playing `kind` for the games of `setup`.
    pub fn new(
        kind: AgentKind,
        setup: &S::Setup,
        options: &Options,
        explain: bool,
    ) -> PyResult<Self> {
        let factory = S::prepare(kind, setup, &options.agent_options(explain))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Follower {
            factory,
            agent: None,
            told: 0,
            learned: Vec::new(),
            failed: None,
        })
    }

    /// Forgets the game: the next question starts a fresh agent.
    pub fn forget(&mut self) {
        self.agent = None;
        self.told = 0;
        self.learned.clear();
        self.failed = None;
    }

    /// Tells the agent everything of `history` it has not been told; the agent for the
    /// game of `core`, started on `first`.
    fn catch_up(
        &mut self,
        core: &Core<S>,
        first: &S::Shown,
        history: &[(S::Action, S::Shown)],
    ) -> PyResult<()> {
        if let Some(why) = &self.failed {
            return Err(PyRuntimeError::new_err(why.clone()));
        }
        if self.agent.is_none() {
            let dice = Dice::for_game(core.seed.unwrap_or(0));
            let mut agent = self
                .factory
                .make(&core.session.briefing(), dice)
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            match agent.observe(None, first) {
                Ok(learned) => self.learned = learned,
                Err(e) => return Err(self.fail(e.to_string())),
            }
            self.agent = Some(agent);
            self.told = 0;
        }
        let agent = self.agent.as_mut().expect("made above");
        for (action, shown) in &history[self.told..] {
            match agent.observe(Some(action), shown) {
                Ok(learned) => self.learned = learned,
                Err(e) => {
                    let why = e.to_string();
                    self.failed = Some(why.clone());
                    return Err(PyRuntimeError::new_err(why));
                }
            }
            self.told += 1;
        }
        Ok(())
    }

    /// The agent, once [`Follower::catch_up`] made it.
    fn agent(&mut self) -> &mut dyn Agent<S> {
        self.agent.as_deref_mut().expect("caught up first")
    }

    fn fail(&mut self, why: String) -> PyErr {
        self.failed = Some(why.clone());
        PyRuntimeError::new_err(why)
    }
}

/// One game of rule set `S` with its followers.
pub struct Live<S: Offered> {
    setup: S::Setup,
    core: Core<S>,
    first: S::Shown,
    history: Vec<(S::Action, S::Shown)>,
    mask: Follower<S>,
    hint: Follower<S>,
    hint_kind: AgentKind,
}

impl<S: Offered> Live<S> {
    fn new(
        setup: S::Setup,
        options: &Options,
        seed: Option<u64>,
        world: Option<&Path>,
    ) -> PyResult<Self> {
        let kind = options.agent_kind()?.unwrap_or_else(S::default_agent);
        if !S::AGENTS.contains(&kind) {
            return Err(PyValueError::new_err(format!(
                "the {kind} agent does not play {}",
                S::RULES.title()
            )));
        }
        let mask = Follower::new(AgentKind::Logic, &setup, options, false)?;
        let hint = Follower::new(kind, &setup, options, true)?;
        let core = Self::dealt(&setup, seed, world)?;
        Ok(Live {
            first: core.shown.clone(),
            setup,
            core,
            history: Vec::new(),
            mask,
            hint,
            hint_kind: kind,
        })
    }

    fn dealt(setup: &S::Setup, seed: Option<u64>, world: Option<&Path>) -> PyResult<Core<S>> {
        let seed = seed.unwrap_or_else(wumpus::rng::fresh_seed);
        let (session, seed) = match world {
            Some(path) => (
                S::load(setup, path, seed).map_err(|e| PyValueError::new_err(e.to_string()))?,
                (!S::FILE_HOLDS_ALL).then_some(seed),
            ),
            None => (
                S::deal(setup, seed).map_err(|e| PyValueError::new_err(e.to_string()))?,
                Some(seed),
            ),
        };
        Ok(Core::new(session, seed))
    }

    fn reset(&mut self, seed: Option<u64>, world: Option<&Path>) -> PyResult<()> {
        self.core = Self::dealt(&self.setup, seed, world)?;
        self.first = self.core.shown.clone();
        self.history.clear();
        self.mask.forget();
        self.hint.forget();
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
        let reward = self.core.act(&action);
        self.history.push((action, self.core.shown.clone()));
        Ok(reward)
    }

    fn action_mask(&mut self) -> PyResult<Vec<bool>> {
        let mut out = vec![false; S::ACTIONS.len()];
        if self.core.over() {
            return Ok(out);
        }
        self.mask.catch_up(&self.core, &self.first, &self.history)?;
        let knowledge: Knowledge = self.mask.agent().knowledge();
        self.core
            .session
            .harmless(&self.core.shown, &knowledge, &mut out);
        Ok(out)
    }

    fn hint(&mut self) -> PyResult<String> {
        if self.core.over() {
            return Err(PyRuntimeError::new_err("the game is over: no hint"));
        }
        let core = &self.core;
        self.hint.catch_up(core, &self.first, &self.history)?;
        let learned = self.hint.learned.clone();
        let event = hint_event(
            &core.session,
            self.history.len() + 1,
            &core.shown,
            &learned,
            self.hint.agent(),
        );
        serde_json::to_string(&event).map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    fn hint_action(&mut self) -> PyResult<usize> {
        let core = &self.core;
        self.hint.catch_up(core, &self.first, &self.history)?;
        let decision = self.hint.agent().decide();
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
        self.hint.catch_up(&self.core, &self.first, &self.history)?;
        let action = self.hint.agent().decide().action;
        let reward = self.core.act(&action);
        self.history.push((action, self.core.shown.clone()));
        Ok(reward)
    }

    fn record(&self) -> GameRecord {
        let s = &self.core.session;
        let ending = s.ending().unwrap_or(Ending::Unfinished);
        let score = match ending {
            Ending::Unfinished => s.score().or(S::SCORED.then_some(0)),
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
}

/// A game of any rule set.
pub enum AnyGame {
    Grid(Live<GridSession>),
    Aima(Live<AimaSession>),
    Cave(Live<ClassicSession>),
    Maze(Live<MazeSession>),
}

/// Runs `$body` with `$g` bound to the game of whichever rule set `$self` holds.
macro_rules! each {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            AnyGame::Grid($g) => $body,
            AnyGame::Aima($g) => $body,
            AnyGame::Cave($g) => $body,
            AnyGame::Maze($g) => $body,
        }
    };
}

/// One game, stepped by action number (Python: `wumpus_logic._core.Game`).
#[pyclass(unsendable, module = "wumpus_logic._core")]
pub struct Game {
    game: AnyGame,
    options: Options,
}

/// The options of a game, from keyword arguments.
#[allow(clippy::too_many_arguments)]
pub fn options(
    rules: &str,
    size: Option<String>,
    deal: Option<String>,
    pit_prob: Option<f64>,
    scoring: Option<String>,
    map: Option<String>,
    variant: Option<String>,
    map_known: bool,
    agent: Option<String>,
    depth: Option<u32>,
) -> Options {
    Options {
        rules: rules.to_string(),
        size,
        deal,
        pit_prob,
        scoring,
        map: map.map(Into::into),
        variant,
        map_known,
        agent,
        depth,
    }
}

#[pymethods]
impl Game {
    /// A game of `rules`, dealt from `seed` (or played on the world file `world`), set up as
    /// `wumpus play` sets it up with the same options.
    #[new]
    #[pyo3(signature = (rules="aima", seed=None, world=None, *, size=None, deal=None, pit_prob=None, scoring=None, map=None, variant=None, map_known=false, agent=None, depth=None))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
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
    ) -> PyResult<Game> {
        let options = options(
            rules, size, deal, pit_prob, scoring, map, variant, map_known, agent, depth,
        );
        let world = world.as_deref().map(Path::new);
        let game = on_rules!(options, setup, S =>
            AnyGame(Live::<S>::new(setup, &options, seed, world)?));
        Ok(Game { game, options })
    }

    /// Deals a new game from `seed` (or loads the world file `world`) with the same setup.
    #[pyo3(signature = (seed=None, world=None))]
    fn reset(&mut self, seed: Option<u64>, world: Option<String>) -> PyResult<()> {
        let world = world.as_deref().map(Path::new);
        each!(&mut self.game, g => g.reset(seed, world))
    }

    /// Takes action number `action`; returns the reward.
    fn step(&mut self, action: usize) -> PyResult<i64> {
        each!(&mut self.game, g => g.step(action))
    }

    /// The observation vector (see `spaces`).
    fn observation(&self) -> Vec<i8> {
        each!(&self.game, g => {
            let mut out = vec![0; observation_len(g)];
            g.core.observe(&mut out);
            out
        })
    }

    /// One flag an action: true when what the player perceived proves it cannot kill.
    fn action_mask(&mut self) -> PyResult<Vec<bool>> {
        each!(&mut self.game, g => g.action_mask())
    }

    /// The reasoning agent's next step without taking it, as a `trace --json` step line:
    /// what was proven and why, the odds, the choices weighed, the action and its reason.
    fn hint(&mut self) -> PyResult<String> {
        each!(&mut self.game, g => g.hint())
    }

    /// The number of the action the reasoning agent would take.
    fn hint_action(&mut self) -> PyResult<usize> {
        each!(&mut self.game, g => g.hint_action())
    }

    /// Takes the reasoning agent's action, even one no action number names (a cave's crooked
    /// arrow); returns the reward.
    fn follow_hint(&mut self) -> PyResult<i64> {
        each!(&mut self.game, g => g.follow_hint())
    }

    /// The game as text: its words, where the player is, and the hidden world.
    fn render_text(&self) -> String {
        each!(&self.game, g => g.render_text())
    }

    /// The public picture of the world (places and where to draw them), as JSON.
    fn board(&self) -> PyResult<String> {
        each!(&self.game, g => to_json(&g.core.session.board()))
    }

    /// The hidden world (where everything is), as JSON.
    fn hidden(&self) -> PyResult<String> {
        each!(&self.game, g => to_json(&g.core.session.hidden()))
    }

    /// How the game went so far, as the JSON of one `solve --csv` row's record.
    fn record(&self) -> PyResult<String> {
        each!(&self.game, g => to_json(&g.record()))
    }

    /// The rule set.
    #[getter]
    fn rules(&self) -> &str {
        &self.options.rules
    }

    /// The seed that dealt the game, if one did.
    #[getter]
    fn seed(&self) -> Option<u64> {
        each!(&self.game, g => g.core.seed)
    }

    /// True once the game is over.
    #[getter]
    fn over(&self) -> bool {
        each!(&self.game, g => g.core.over())
    }

    /// How the game ended (`won`, `pit`, ...), or None while it goes on.
    #[getter]
    fn outcome(&self) -> Option<&'static str> {
        each!(&self.game, g => g.core.session.ending().map(Ending::name))
    }

    /// The final score (None while the game goes on, and in the maze).
    #[getter]
    fn score(&self) -> Option<i64> {
        each!(&self.game, g => g.core.session.score())
    }

    /// The rewards handed out so far (the score so far).
    #[getter]
    fn score_so_far(&self) -> i64 {
        each!(&self.game, g => g.core.paid)
    }

    /// Actions (grid) or moves (caves) counted.
    #[getter]
    fn moves(&self) -> u32 {
        each!(&self.game, g => g.core.session.moves())
    }

    /// Actions taken through `step`.
    #[getter]
    fn steps(&self) -> u32 {
        each!(&self.game, g => g.core.steps)
    }

    /// Where the player stands, as the player names it.
    #[getter]
    fn at(&self) -> Option<String> {
        each!(&self.game, g => {
            let s = &g.core.session;
            s.observation(&g.core.shown).at.map(|p| s.label(p))
        })
    }

    /// The way the player faces (aima).
    #[getter]
    fn facing(&self) -> Option<String> {
        each!(&self.game, g => g.core.session.observation(&g.core.shown).facing)
    }

    /// Arrows or grenades left.
    #[getter]
    fn arrows(&self) -> Option<u32> {
        each!(&self.game, g => g.core.session.observation(&g.core.shown).arrows)
    }

    /// What the game said after the last action.
    #[getter]
    fn messages(&self) -> Vec<String> {
        each!(&self.game, g => g.core.session.observation(&g.core.shown).messages)
    }

    /// Whether the player carries the gold (grid).
    #[getter]
    fn carries_gold(&self) -> Option<bool> {
        each!(&self.game, g => g.core.session.carries_gold())
    }

    /// The grid's rows and columns, as the player is told.
    #[getter]
    fn grid_size(&self) -> Option<(usize, usize)> {
        each!(&self.game, g => g.core.session.briefing().grid_size())
    }

    /// How many places the world has.
    #[getter]
    fn places(&self) -> usize {
        each!(&self.game, g => g.core.session.briefing().places())
    }

    /// The reasoning agent's name.
    #[getter]
    fn agent(&self) -> &'static str {
        each!(&self.game, g => g.hint_kind.name())
    }
}

impl Game {
    /// The rule set of the game.
    pub fn rule_set(&self) -> RuleSet {
        match self.game {
            AnyGame::Grid(_) => RuleSet::Grid,
            AnyGame::Aima(_) => RuleSet::Aima,
            AnyGame::Cave(_) => RuleSet::Cave,
            AnyGame::Maze(_) => RuleSet::Maze,
        }
    }

    /// How the game went so far, as a batch records a game.
    pub fn game_record(&self) -> GameRecord {
        each!(&self.game, g => g.record())
    }
}

fn observation_len<S: Offered>(_: &Live<S>) -> usize {
    S::OBSERVATION.len()
}

/// A value as JSON.
pub fn to_json(value: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}
