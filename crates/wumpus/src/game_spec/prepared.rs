//! A checked description set up for its rule set ([`Prepared`]), what every job starts from,
//! and the game dealt or loaded from it ([`Dealt`]), with the agent's dice derived from the
//! deal in one place ([`Dealt::dice`]). [`GameSpec::dispatch`] hands a prepared game to code
//! written once over [`Playable`].

use super::rules::{for_rules, ForRules, Playable};
use super::{GameSpec, GridSizes, SpecError};
use crate::agent::{AgentFactory, AgentKind, AgentOptions};
use crate::game::{Files, GameError, Session, Words};
use crate::rng::Dice;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A command written once for every rule set: `run` is generic over the rule set's session.
pub trait OnRules {
    /// What the command returns.
    type Out;
    /// Runs the command on a game of rule set `S`, set up.
    fn run<S: Playable>(self, game: Prepared<S>) -> Self::Out;
}

impl GameSpec {
    /// Checks the game (the agent is checked when prepared) and hands it, set up, to
    /// `command`, written once for every rule set. `explain`: the agents explain their
    /// conclusions (slower).
    pub fn dispatch<C: OnRules>(&self, command: C, explain: bool) -> Result<C::Out, SpecError> {
        self.check_game_with(&[])?;
        struct Dispatch<'a, C> {
            spec: &'a GameSpec,
            command: C,
            explain: bool,
        }
        impl<C: OnRules> ForRules for Dispatch<'_, C> {
            type Out = Result<C::Out, SpecError>;
            fn run<S: Playable>(self) -> Self::Out {
                let game = Prepared::<S>::new(self.spec, self.explain)?;
                Ok(self.command.run(game))
            }
        }
        for_rules(
            self.rules,
            Dispatch {
                spec: self,
                command,
                explain,
            },
        )
    }
}

/// A game described and set up: what every command starts from.
pub struct Prepared<S: Session> {
    /// The description it was made from, as given (checked).
    pub spec: GameSpec,
    /// The description resolved: every option at its value ([`GameSpec::resolved`]).
    pub game: GameSpec,
    /// The rule set's setup.
    pub setup: S::Setup,
    /// The agent chosen.
    pub agent: AgentKind,
    /// How the agent is set up.
    pub options: AgentOptions,
}

impl<S: Playable> Prepared<S> {
    /// `spec` (checked but for the agent) set up for rule set `S`.
    pub fn new(spec: &GameSpec, explain: bool) -> Result<Prepared<S>, SpecError> {
        let game = spec.resolved();
        let setup = S::setup_of(&game)?;
        let kb = match &spec.kb {
            Some(path) => Some(Arc::new(crate::files::read_parsed(
                path,
                crate::kb::rules::parse_rules,
            )?)),
            None => None,
        };
        let mut prepared = Prepared {
            agent: spec.agent_kind(),
            options: AgentOptions {
                explain,
                map_known: spec.map_known.unwrap_or(false),
                kb,
                depth: spec.depth,
                rollouts: spec.rollouts,
                cache: spec.cache.clone(),
            },
            spec: spec.clone(),
            game,
            setup,
        };
        prepared.game = prepared.game_of(&prepared.setup);
        Ok(prepared)
    }

    /// The chosen agent, prepared for the games of `setup` (a world file's own, or the
    /// batch's); refused, saying why, when it does not fit the game: checked on the game
    /// itself (a world file's size, not only the size asked for).
    pub fn agents_for(&self, setup: &S::Setup) -> Result<Box<dyn AgentFactory<S>>, SpecError> {
        let mut spec = self.spec.clone();
        if let Some((rows, cols)) = S::fixed(setup).size {
            spec.size = Some(GridSizes::One(rows, cols));
        }
        spec.check_agent()?;
        Ok(S::prepare(self.agent, setup, &self.options)?)
    }

    /// The chosen agent, prepared for the batch's games.
    pub fn agents(&self) -> Result<Box<dyn AgentFactory<S>>, SpecError> {
        self.agents_for(&self.setup)
    }

    /// The same game played by `kind`, explaining or not (a door's second agent: the logic
    /// agent behind an action mask), without the first agent's look-ahead and rollouts where
    /// `kind` takes none.
    pub fn with_agent(&self, kind: AgentKind, explain: bool) -> Prepared<S> {
        let mut spec = self.spec.clone();
        spec.agent = Some(kind);
        let mut options = AgentOptions {
            explain,
            ..self.options.clone()
        };
        if spec.check_agent().is_err() {
            (spec.depth, spec.rollouts) = (None, None);
            (options.depth, options.rollouts) = (None, None);
        }
        Prepared {
            game: spec.resolved(),
            spec,
            setup: self.setup.clone(),
            agent: kind,
            options,
        }
    }

    /// The game dealt from `seed` (a fresh one when `None`), or played on the world or
    /// hazards of `file` (its later random events, where the rules have any, from the seed).
    pub fn deal(&self, seed: Option<u64>, file: Option<&Path>) -> Result<Dealt<S>, GameError> {
        let seed = seed.unwrap_or_else(crate::rng::fresh_seed);
        let session = match file {
            Some(path) => S::load(&self.setup, path, seed)?,
            None => S::deal(&self.setup, seed)?,
        };
        Ok(Dealt {
            session,
            seed: (file.is_none() || !S::FACTS.file_holds_all).then_some(seed),
            file: file.map(Path::to_path_buf),
        })
    }

    /// The description of the games of `setup` (a world file's own): the resolved game with
    /// what the setup fixes (its size, whether it is told).
    pub fn game_of(&self, setup: &S::Setup) -> GameSpec {
        let mut game = self.game.clone();
        let fixed = S::fixed(setup);
        if let Some((rows, cols)) = fixed.size {
            game.size = Some(GridSizes::One(rows, cols));
        }
        if fixed.size_told.is_some() && game.get("size_told").is_none() {
            game.size_told = fixed.size_told;
        }
        game
    }

    /// The description of a batch over files, each holding its own world: the resolved game
    /// but for what each file sets for itself (the size, how it was dealt, whether the size is
    /// told, unless given), with the course's deal when `course` (every file is one of the
    /// course tournament's).
    pub fn game_for_files(&self, course: bool) -> GameSpec {
        let mut game = self.game.clone();
        if S::FACTS.on_grid {
            game.size = None;
            game.deal = course.then_some(crate::grid::Deal::Course);
            // The course's files hide the size unless told; other files tell it.
            game.size_told = self.spec.size_told.or(Some(!course));
        }
        game
    }
}

/// A game dealt or loaded for one command, with how to deal it again.
pub struct Dealt<S> {
    /// The game.
    pub session: S,
    /// The seed that deals or replays it, if one does.
    pub seed: Option<u64>,
    /// The file it came from, if one.
    pub file: Option<PathBuf>,
}

impl<S> Dealt<S> {
    /// The dice an agent of this game throws for its own draws: from the seed that dealt it,
    /// or fresh. The one place a game's agent dice are derived from its deal.
    pub fn dice(&self) -> Dice {
        dice_of(self.seed)
    }
}

/// The agent dice of a game dealt from `seed` (fresh when none dealt it).
pub fn dice_of(seed: Option<u64>) -> Dice {
    seed.map_or_else(Dice::fresh, Dice::for_game)
}

impl<S: Files + Words> Dealt<S> {
    /// The game's first line: what it is and where it came from (`Wumpus World, 5x5, seed
    /// 42`).
    pub fn title(&self) -> String {
        title_of(&self.session, self.file.as_deref(), self.seed)
    }
}

/// The first line of the game `session`, played on `file` or dealt from `seed` (see
/// [`Dealt::title`]).
pub fn title_of<S: Files + Words>(session: &S, file: Option<&Path>, seed: Option<u64>) -> String {
    let mut t = session.title();
    if let Some(f) = file {
        t.push_str(&format!(", {} from {}", S::FACTS.file, f.display()));
    }
    if let Some(seed) = seed {
        t.push_str(&format!(", seed {seed}"));
    }
    t
}
