//! A game played by its agent to the end, step by step ([`Traced`]): the one recipe behind
//! `trace` (text, JSON Lines, a replay page), `kb` (the knowledge base at a step), the live
//! page's Watch and Python's `trace`. Each shows the same start, steps and end.
//!
//! The agent is made for the game's own setup (a world file's size), its dice derived from the
//! deal ([`Dealt::dice`]); it sees only what the game shows, through the one turn loop.

use super::event::{trace_end, TraceEnd, TraceStart};
use super::{play_to_end, Finished, Flow, JobError, StepEvent, Watch};
use crate::agent::Agent;
use crate::game::Board;
use crate::game_spec::{Dealt, OnRules, Playable, Prepared};
use std::path::Path;

/// A game to be played by its agent, and traced.
pub struct Traced<S: Playable> {
    /// The trace's first line: which game this is.
    pub start: TraceStart,
    session: S,
    agent: Box<dyn Agent<S>>,
    seed: Option<u64>,
    /// Steps played so far.
    steps: usize,
}

impl<S: Playable> Traced<S> {
    /// The game `dealt` of `game`, to be played by `game`'s agent.
    pub fn new(game: &Prepared<S>, dealt: Dealt<S>) -> Result<Traced<S>, JobError> {
        let setup = dealt.session.setup();
        let agents = game.agents_for(&setup)?;
        let agent = agents.make(&dealt.session.briefing(), dealt.dice())?;
        Ok(Traced {
            start: TraceStart::new(dealt.title(), dealt.seed, game.game_of(&setup)),
            session: dealt.session,
            agent,
            seed: dealt.seed,
            steps: 0,
        })
    }

    /// The game dealt from `seed` (or on `file`) of `game`.
    pub fn dealt(
        game: &Prepared<S>,
        seed: Option<u64>,
        file: Option<&Path>,
    ) -> Result<Traced<S>, JobError> {
        Traced::new(game, game.deal(seed, file)?)
    }

    /// The public picture of the world, for pages.
    pub fn board(&self) -> Board {
        self.session.board()
    }

    /// The game as it stands.
    pub fn session(&self) -> &S {
        &self.session
    }

    /// Plays on to the end, or until `watch` says stop, showing `watch` each step. Returns how
    /// the game ended (`None` when stopped).
    pub fn play(&mut self, watch: Watch<'_, S>) -> Result<Option<Finished<S>>, JobError> {
        let mut steps = 0;
        let mut counted = |s: &S, e: StepEvent| {
            steps = e.step;
            watch(s, e)
        };
        let done = play_to_end(
            &mut self.session,
            self.seed,
            self.agent.as_mut(),
            &|| false,
            Some(&mut counted),
        )?;
        self.steps = done.as_ref().map_or(steps, |d| d.steps);
        Ok(done)
    }

    /// The trace's last line: how the game ended (`done`), or the game as it stands when it
    /// was stopped.
    pub fn end(&self, done: Option<&Finished<S>>) -> TraceEnd {
        match done {
            Some(d) => trace_end(&self.session, d.steps, Some(&d.last)),
            None => trace_end::<S>(&self.session, self.steps, None),
        }
    }

    /// The whole trace: its start, every step and its end, as `trace --json` writes them.
    pub fn lines(mut self) -> Result<Vec<String>, JobError> {
        let mut lines = vec![line(&self.start)];
        let mut watch = |_: &S, e: StepEvent| {
            lines.push(line(&e));
            Flow::Go
        };
        let done = self.play(&mut watch)?;
        lines.push(line(&self.end(done.as_ref())));
        Ok(lines)
    }

    /// The knowledge base the agent reasons with now, as DIMACS CNF with a comment table
    /// naming each variable, or why the agent keeps none of the game's places.
    pub fn dimacs(&self) -> Result<String, String> {
        match self.agent.knowledge_base() {
            Some(kb) => Ok(kb.to_dimacs()),
            None => {
                let agent = self.start.game.agent_kind();
                let map_known = self.start.game.map_known == Some(true);
                Err(
                    if agent == crate::agent::AgentKind::Logic && !map_known && !S::FACTS.on_grid {
                        format!(
                            "the {agent} agent without the map reasons over a map of its own, \
                             whose places are not the game's, so there is no knowledge base of \
                             the game's places to show (docs/caves.md); add --map-known for the \
                             knowledge base of the agent given the map"
                        )
                    } else {
                        format!("the {agent} agent keeps no knowledge base")
                    },
                )
            }
        }
    }
}

/// One line of a trace's JSON Lines.
fn line<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("a trace's lines are plain data")
}

/// The whole trace of the game dealt from `seed` (or on `file`) of a spec, for any rule set:
/// what `trace --json` prints, one line each.
pub struct TraceLines<'a> {
    /// The seed, when no file.
    pub seed: Option<u64>,
    /// The world or hazard file.
    pub file: Option<&'a Path>,
}

impl OnRules for TraceLines<'_> {
    type Out = Result<Vec<String>, JobError>;

    fn run<S: Playable>(self, game: Prepared<S>) -> Self::Out {
        Traced::dealt(&game, self.seed, self.file)?.lines()
    }
}
