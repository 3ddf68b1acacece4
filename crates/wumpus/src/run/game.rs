//! A game played action by action by a person or a program ([`Played`]): the one recipe behind
//! `play`, the live page, and Python's `Game` and vector environment. It holds the session (the
//! hidden world), what the player was shown, the actions taken and what followed each, the
//! rewards handed out, and agents that follow the game ([`Follower`]): the hint agent, and the
//! logic agent behind action masks, each made when first asked for and told the history then.
//!
//! The agents a door's games share are prepared once ([`Agents`]: preparing grounds the rules,
//! and the optimal agent solves the game), and each follower is told what the player was
//! shown, exactly as the player was: never the session.

use super::follow::Follower;
use super::tally::GameRecord;
use super::{record_of, StepEvent};
use crate::agent::{AgentFactory, AgentKind, Decision, Knowledge};
use crate::game::{Ending, Session};
use crate::game_spec::{Dealt, Playable, Prepared, SpecError, Spelling};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// A factory prepared for a door's games, or why it could not be.
type Prepared1<S> = Result<Arc<dyn AgentFactory<S>>, Arc<SpecError>>;

/// What a door's games share: the game prepared, and the agents that follow its games,
/// prepared once, when first needed.
pub struct Agents<S: Playable> {
    /// The game the door plays.
    pub game: Prepared<S>,
    hint: OnceLock<Prepared1<S>>,
    logic: OnceLock<Prepared1<S>>,
}

/// Which agent follows a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Helper {
    /// The chosen agent, explaining: hints.
    Hint,
    /// The logic agent, not explaining: action masks and what is proven, for learners.
    Logic,
}

impl<S: Playable> Agents<S> {
    /// The agents of `game`'s games.
    pub fn new(game: Prepared<S>) -> Arc<Agents<S>> {
        Arc::new(Agents {
            game,
            hint: OnceLock::new(),
            logic: OnceLock::new(),
        })
    }

    /// `helper`'s factory for games of the batch's setup.
    fn factory(&self, helper: Helper) -> Prepared1<S> {
        let cell = match helper {
            Helper::Hint => &self.hint,
            Helper::Logic => &self.logic,
        };
        cell.get_or_init(|| self.prepare(helper, &self.game.setup))
            .clone()
    }

    /// `helper`'s factory for games of `setup` (a world file's own).
    fn prepare(&self, helper: Helper, setup: &S::Setup) -> Prepared1<S> {
        let made = match helper {
            Helper::Hint => self.game.agents_for(setup),
            Helper::Logic => self
                .game
                .with_agent(AgentKind::Logic, false)
                .agents_for(setup),
        };
        made.map(Arc::from).map_err(Arc::new)
    }
}

/// Why a follower cannot answer: its agent does not fit the game (refused as the door spells
/// options), or it stopped reasoning (a contradiction, in words).
#[derive(Clone, Debug)]
pub enum HelperError {
    /// The agent does not fit the game.
    Refused(Arc<SpecError>),
    /// The agent stopped reasoning.
    Stopped(String),
    /// The game is over.
    Over,
}

impl HelperError {
    /// Why, with options spelled as the door's users write them.
    pub fn spelled(&self, spelling: Spelling) -> String {
        match self {
            HelperError::Refused(e) => e.spelled(spelling),
            HelperError::Stopped(why) => why.clone(),
            HelperError::Over => "the game is over".to_string(),
        }
    }
}

/// Why a line is not an action of the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// A command every game shares (`help`, `hint`), not an action.
    #[error("'{0}' is not an action of the game")]
    NotAnAction(String),
    /// No command the game reads.
    #[error("Invalid command: {0}.")]
    Invalid(String),
}

/// One agent following a game: made when first asked for, then told each action as taken.
struct Following<S: Playable> {
    follower: Option<Result<Follower<S>, HelperError>>,
    /// History entries told so far.
    told: usize,
}

impl<S: Playable> Default for Following<S> {
    fn default() -> Self {
        Following {
            follower: None,
            told: 0,
        }
    }
}

/// A game being played.
pub struct Played<S: Playable> {
    agents: Arc<Agents<S>>,
    session: S,
    seed: Option<u64>,
    file: Option<PathBuf>,
    first: S::Shown,
    shown: S::Shown,
    /// Each action taken and what the game showed after it (while kept).
    history: Vec<(S::Action, S::Shown)>,
    /// Whether the history is kept: a follower made later is told it.
    keep_history: bool,
    /// Actions taken.
    steps: usize,
    /// Rewards handed out so far.
    paid: i64,
    /// Whether an all-knowing player could win it, as dealt.
    winnable: Option<bool>,
    followers: [Following<S>; 2],
}

/// What taking an action gave.
#[derive(Clone, Debug)]
pub struct Acted<S: Session> {
    /// What the game showed.
    pub shown: S::Shown,
    /// The reward: the change in the rewards so far ([`crate::numbered::Numbered::reward_so_far`]).
    pub reward: i64,
}

impl<S: Playable> Played<S> {
    /// The game `dealt` of the door whose games share `agents`.
    pub fn new(agents: &Arc<Agents<S>>, dealt: Dealt<S>) -> Played<S> {
        let first = dealt.session.start();
        Played {
            agents: agents.clone(),
            paid: dealt.session.reward_so_far(),
            winnable: dealt.session.winnable(),
            shown: first.clone(),
            first,
            seed: dealt.seed,
            file: dealt.file,
            session: dealt.session,
            history: Vec::new(),
            keep_history: true,
            steps: 0,
            followers: Default::default(),
        }
    }

    /// Keeps no history from now on (a learner's many games): each follower must then be
    /// made before the first action ([`Played::follower`]), and is told each action as taken.
    pub fn without_history(mut self) -> Played<S> {
        self.keep_history = false;
        self.history = Vec::new();
        self
    }

    /// The game dealt from `seed` (a fresh one when `None`), or on `file`.
    pub fn dealt(
        agents: &Arc<Agents<S>>,
        seed: Option<u64>,
        file: Option<&Path>,
    ) -> Result<Played<S>, crate::game::GameError> {
        Ok(Played::new(agents, agents.game.deal(seed, file)?))
    }

    /// The agents this game's door shares.
    pub fn agents(&self) -> &Arc<Agents<S>> {
        &self.agents
    }

    /// The game as it stands.
    pub fn session(&self) -> &S {
        &self.session
    }

    /// The game's first line (`Wumpus World, 5x5, seed 42`).
    pub fn title(&self) -> String {
        crate::game_spec::title_of(&self.session, self.file.as_deref(), self.seed)
    }

    /// The seed that deals or replays it, if one does.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// The file it was played on, if one.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// What the game showed before the first action.
    pub fn first(&self) -> &S::Shown {
        &self.first
    }

    /// What the game showed last.
    pub fn shown(&self) -> &S::Shown {
        &self.shown
    }

    /// The actions taken, with what the game showed after each (empty when not kept).
    pub fn history(&self) -> &[(S::Action, S::Shown)] {
        &self.history
    }

    /// Actions taken.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// The rewards handed out so far (the score so far).
    pub fn paid(&self) -> i64 {
        self.paid
    }

    /// True once the game is over.
    pub fn over(&self) -> bool {
        self.session.ending().is_some()
    }

    /// The lines a person reads at the start: the title, the game's opening words, and what
    /// the game shows before the first action.
    pub fn opening(&self) -> Vec<String> {
        let mut lines = vec![self.title()];
        lines.extend(self.session.intro());
        lines.extend(self.session.describe(&self.first));
        lines
    }

    /// Takes `action`; returns what the game showed and the reward. Every agent following the
    /// game is told it.
    pub fn act(&mut self, action: &S::Action) -> Acted<S> {
        let shown = self.session.act(action);
        let now = self.session.reward_so_far();
        let reward = now - self.paid;
        self.paid = now;
        self.steps += 1;
        if self.keep_history {
            self.history.push((action.clone(), shown.clone()));
        }
        for f in &mut self.followers {
            if let Some(Ok(follower)) = &mut f.follower {
                follower.tell(action, &shown);
                f.told = self.steps;
            }
        }
        self.shown = shown.clone();
        Acted { shown, reward }
    }

    /// Takes the action numbered `index` (see [`crate::numbered::Numbered::action`]).
    pub fn act_numbered(&mut self, index: usize) -> Acted<S> {
        let action = self.session.action(&self.shown, index);
        self.act(&action)
    }

    /// Reads a line the player typed as an action of the game (`north`, `move 5`), refusing
    /// the shared commands (`help`, `hint`, ...) and what is no command: what a door that
    /// takes actions only (the page, Python) plays.
    pub fn parse_action(&self, line: &str) -> Result<S::Action, ActionError> {
        match self.session.parse_command(line) {
            Ok(crate::game::Command::Act(action)) => Ok(action),
            Ok(_) => Err(ActionError::NotAnAction(line.trim().to_string())),
            Err(e) => Err(ActionError::Invalid(e)),
        }
    }

    /// The actions taken so far, in the player's words.
    pub fn actions_text(&self) -> Vec<String> {
        self.history
            .iter()
            .map(|(a, _)| self.session.action_text(a))
            .collect()
    }

    /// The agent `helper`, told the game so far.
    pub fn follower(&mut self, helper: Helper) -> Result<&mut Follower<S>, HelperError> {
        self.following(helper).map(|(f, _)| f)
    }

    /// [`Played::follower`], with the game it follows.
    fn following(&mut self, helper: Helper) -> Result<(&mut Follower<S>, &S), HelperError> {
        let own_setup = self.file.is_some();
        let f = &mut self.followers[helper as usize];
        if f.follower.is_none() && !self.keep_history && self.steps > 0 {
            return Err(HelperError::Stopped(
                "this game keeps no history: its followers are made before its first action".into(),
            ));
        }
        if f.follower.is_none() {
            let factory = if own_setup {
                self.agents.prepare(helper, &self.session.setup())
            } else {
                self.agents.factory(helper)
            };
            f.follower = Some(match factory {
                Ok(factory) => Ok(Follower::from_start(
                    factory.as_ref(),
                    &self.session.briefing(),
                    self.first.clone(),
                    crate::game_spec::dice_of(self.seed),
                )),
                Err(e) => Err(HelperError::Refused(e)),
            });
            f.told = 0;
        }
        let follower = match f.follower.as_mut().expect("made above") {
            Ok(follower) => follower,
            Err(e) => return Err(e.clone()),
        };
        if self.keep_history {
            for (action, shown) in &self.history[f.told..] {
                follower.tell(action, shown);
            }
        }
        f.told = self.steps;
        match follower.failure() {
            Some(why) => Err(HelperError::Stopped(why.to_string())),
            None => Ok((follower, &self.session)),
        }
    }

    /// Why the hint agent cannot give hints, if it cannot (made to know).
    pub fn hint_failure(&mut self) -> Option<HelperError> {
        self.follower(Helper::Hint).err()
    }

    /// The hint agent's next step, not taken: what it knows and would do, and why.
    pub fn hint(&mut self) -> Result<StepEvent, HelperError> {
        if self.over() {
            return Err(HelperError::Over);
        }
        let (follower, session) = self.following(Helper::Hint)?;
        follower.hint(session).map_err(HelperError::Stopped)
    }

    /// The hint agent's next decision.
    pub fn hint_decision(&mut self) -> Result<Decision<S::Action>, HelperError> {
        if self.over() {
            return Err(HelperError::Over);
        }
        self.follower(Helper::Hint)?
            .decide()
            .map_err(HelperError::Stopped)
    }

    /// Takes the hint agent's action (even one no action number names, such as a cave's
    /// crooked arrow).
    pub fn follow_hint(&mut self) -> Result<Acted<S>, HelperError> {
        let action = self.hint_decision()?.action;
        Ok(self.act(&action))
    }

    /// What `helper` knows of each place now (no decision is made).
    pub fn knowledge(&mut self, helper: Helper) -> Result<Knowledge, HelperError> {
        self.follower(helper)?
            .knowledge()
            .map_err(HelperError::Stopped)
    }

    /// How the game went so far, as a batch records a game: at its end, its outcome; before
    /// it, unfinished at the score so far.
    pub fn record(&self) -> GameRecord {
        let ending = self.session.ending().unwrap_or(Ending::Unfinished);
        let mut record = record_of(&self.session, self.seed, ending, self.winnable);
        record.file = self.file.as_ref().map(|f| f.display().to_string());
        record.decisions = self.steps as u32;
        record
    }

    /// Starts a new game on the world or hazards of `file`, with the same setup (and the
    /// same seed for its later random events): `play`'s `load FILE`.
    pub fn load(&mut self, file: &Path) -> Result<(), crate::game::GameError> {
        let session = S::load(&self.session.setup(), file, self.seed.unwrap_or(0))?;
        let dealt = Dealt {
            session,
            seed: (!S::FACTS.file_holds_all).then_some(self.seed.unwrap_or(0)),
            file: Some(file.to_path_buf()),
        };
        let keep = self.keep_history;
        *self = Played::new(&self.agents, dealt);
        self.keep_history = keep;
        Ok(())
    }
}
