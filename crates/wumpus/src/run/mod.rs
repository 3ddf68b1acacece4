//! Running agents on games: the one turn loop ([`play`]) and the one batch loop
//! ([`batch::solve`]), for every rule set.
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
#[cfg(test)]
mod same_explanations;
pub mod shard;
pub mod tally;

pub use batch::{solve, solve_files, Batch, BatchSink, Quiet};
pub use event::{Label, StepEvent};
pub use follow::Follower;
pub use shard::{Shard, ShardError};
pub use tally::{merge, BatchId, GameRecord, MergeError, Summary, Tally};

use crate::agent::{Agent, AgentError};
use crate::game::{Ending, GameError, Session};
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
    // A game cut off counts at the score the rules had charged when it was stopped.
    let score = match ending {
        Ending::Unfinished => session.score_so_far().or(S::SCORED.then_some(0)),
        _ => session.score(),
    };
    Ok(Some(Finished {
        record: GameRecord {
            seed,
            file: None,
            ending,
            score,
            moves: session.moves(),
            shots: session.shots(),
            winnable,
            solver_calls: agent.solver_calls(),
            decisions: actions,
            agent_time,
        },
        last: shown,
        steps: actions as usize,
    }))
}
