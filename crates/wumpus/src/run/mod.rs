//! The jobs, each written once for every rule set, that every door calls: a game played by a
//! person ([`game::Played`]: `play`, the page, Python's `Game` and vector environment), a game
//! traced step by step ([`trace::Traced`]: `trace`, `kb`, the page's Watch, Python's `trace`),
//! a batch ([`batch::BatchJob`]: `solve`, Python's `solve`), and under them the one turn loop
//! ([`play`]) and the one batch loop ([`batch::solve`]).
//!
//! The runner is the only code that holds both a session (the hidden world) and an agent, and
//! it hands the agent what the session shows, nothing else: each turn the agent observes its
//! own last action and what followed, then decides. A traced game reports each step as a
//! [`event::StepEvent`] for `trace` and the pages to show; a batch sums games into a
//! [`tally::Tally`].

pub mod batch;
pub mod best;
pub mod event;
pub mod follow;
pub mod game;
pub mod learn;
#[cfg(test)]
mod same_explanations;
pub mod shard;
pub mod tally;
pub mod trace;
pub mod view;
pub mod world;
pub mod worlds;

pub use batch::{solve, solve_files, Batch, BatchJob, BatchSink, Quiet, Solved};
pub use event::{Label, StepEvent};
pub use follow::Follower;
pub use game::Played;
pub use shard::{Shard, ShardError};
pub use tally::{merge, BatchId, GameRecord, MergeError, Summary, Tally};
pub use trace::Traced;

use crate::agent::{Agent, AgentError};
use crate::game::{Ending, GameError, Session};
use crate::game_spec::{SpecError, Spelling};
use std::time::{Duration, Instant};

/// Why a game or a batch could not be played.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The game could not be dealt.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The agent could not play.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// What the agent perceived contradicts its rules (the message names the game).
    #[error("{0}")]
    Contradiction(String),
    /// The worker threads could not be started.
    #[error("cannot start the threads: {0}")]
    Threads(String),
}

impl RunError {
    /// True when the fault is the input's (a map too small for its hazards, perceptions that
    /// contradict the rules of a file or rule file given), not the program's.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            RunError::Game(_)
                | RunError::Contradiction(_)
                | RunError::Agent(AgentError::Kb(crate::kb::KbError::Contradiction(_)))
        )
    }
}

/// Why a job could not be done: its description refused, its game not dealt, or its play
/// failed. Every door shows it, spelled as its users write options.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// The description, an option of the job, or a file it names is refused.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The game could not be dealt or loaded.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The game could not be played.
    #[error(transparent)]
    Run(#[from] RunError),
}

impl JobError {
    /// The error as a door shows it.
    pub fn spelled(&self, spelling: Spelling) -> String {
        match self {
            JobError::Spec(e) => e.spelled(spelling),
            other => other.to_string(),
        }
    }

    /// True when the fault is the input's (a refused option, a bad file, a world that
    /// contradicts its rules), not the program's.
    pub fn is_bad_input(&self) -> bool {
        match self {
            JobError::Spec(_) | JobError::Game(_) => true,
            JobError::Run(e) => e.is_bad_input(),
        }
    }
}

impl From<AgentError> for JobError {
    fn from(e: AgentError) -> JobError {
        JobError::Run(RunError::Agent(e))
    }
}

/// What a watcher of a traced game wants after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Play on.
    Go,
    /// Stop here, before the action of this step is taken.
    Stop,
}

/// What watches a traced game: it sees the session and each step, and says whether to go on.
pub type Watch<'a, S> = &'a mut dyn FnMut(&S, StepEvent) -> Flow;

/// A game played to its end (or cut off), and what the game showed last.
#[derive(Debug)]
pub struct Finished<S: Session> {
    /// How it went.
    pub record: GameRecord,
    /// What the game showed after the last action.
    pub last: S::Shown,
    /// Steps the agent took.
    pub steps: usize,
}

/// Plays `session` (dealt from `seed`, if it was) with `agent` until the game ends, the agent
/// takes more actions than the game allows, `stop()` says so (checked before each decision),
/// or `watch` says stop. `watch`, when given, sees each step as a [`StepEvent`] (with the
/// agent's knowledge, which costs solver calls); a batch passes none. Returns `None` when
/// stopped before the end.
pub fn play<S: Session>(
    session: &mut S,
    seed: Option<u64>,
    agent: &mut dyn Agent<S>,
    stop: &dyn Fn() -> bool,
    watch: Option<Watch<'_, S>>,
) -> Result<Option<GameRecord>, RunError> {
    Ok(play_to_end(session, seed, agent, stop, watch)?.map(|f| f.record))
}

/// [`play`], also returning what the game showed last and the steps taken.
pub fn play_to_end<S: Session>(
    session: &mut S,
    seed: Option<u64>,
    agent: &mut dyn Agent<S>,
    stop: &dyn Fn() -> bool,
    mut watch: Option<Watch<'_, S>>,
) -> Result<Option<Finished<S>>, RunError> {
    let winnable = session.winnable();
    let limit = session.action_limit();
    let mut shown = session.start();
    let mut last: Option<S::Action> = None;
    let mut actions = 0u32;
    let mut agent_time = Duration::ZERO;
    let mut names = event::Labels::default();
    let ending = loop {
        if let Some(ending) = session.ending() {
            break ending;
        }
        if actions >= limit {
            break Ending::Unfinished;
        }
        if stop() {
            return Ok(None);
        }
        let t = Instant::now();
        let learned = agent.observe(last.as_ref(), &shown)?;
        let decision = agent.decide();
        agent_time += t.elapsed();
        actions += 1;
        if let Some(watch) = watch.as_mut() {
            let knowledge = agent.knowledge();
            let step = actions as usize;
            names.agent_grid(agent.places_on());
            let event = event::step_event(
                session, step, &shown, &learned, &knowledge, &decision, &mut names,
            );
            if watch(session, event) == Flow::Stop {
                return Ok(None);
            }
        }
        shown = session.act(&decision.action);
        last = Some(decision.action);
    };
    let mut record = record_of(session, seed, ending, winnable);
    record.solver_calls = agent.solver_calls();
    record.decisions = actions;
    record.agent_time = agent_time;
    Ok(Some(Finished {
        record,
        last: shown,
        steps: actions as usize,
    }))
}

/// The record of `session` as it stands, ended by `ending` (`Unfinished` for a game cut off or
/// left), dealt from `seed`; `winnable` as the game was dealt. The one routine for a game's
/// final record and score: a game cut off counts at the score the rules had charged when it
/// was stopped.
pub fn record_of<S: Session>(
    session: &S,
    seed: Option<u64>,
    ending: Ending,
    winnable: Option<bool>,
) -> GameRecord {
    let score = match ending {
        Ending::Unfinished => session.score_so_far().or(S::FACTS.scored.then_some(0)),
        _ => session.score(),
    };
    GameRecord {
        seed,
        file: None,
        ending,
        score,
        moves: session.moves(),
        shots: session.shots(),
        winnable,
        solver_calls: 0,
        decisions: 0,
        agent_time: Duration::ZERO,
    }
}
