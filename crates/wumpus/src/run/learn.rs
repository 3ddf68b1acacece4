//! A played game as a learner sees it ([`Learned`]): the one recipe behind Python's `Game`
//! and each world of its vector environment. It is a [`Played`] game with what a learner reads
//! beside it: the observation (this turn's percepts, or the memory and knowledge arrays of
//! [`crate::features`]), the reward of each action, and the action mask from the logic agent
//! that follows the game.
//!
//! Everything here is read from what the player was shown and what the logic agent proves,
//! never from the hidden world.

use super::game::{Acted, Helper, HelperError, Played};
use crate::agent::Knowledge;
use crate::features::Features;
pub use crate::features::{Layout, Mode};
use crate::game_spec::Playable;
use crate::topology::Topology;
use std::sync::Arc;

/// A played game, with the learner's view of it.
pub struct Learned<S: Playable> {
    played: Played<S>,
    mode: Mode,
    layout: Option<Layout>,
    /// The player's memory, kept while the observation needs it (not for the percepts).
    memory: Option<Features>,
    /// What the logic agent knows at this moment, once asked (the observation and the mask
    /// read it alike: it is worked out once a step).
    known: Option<Known>,
}

/// What the logic agent was asked at this moment.
struct Known {
    knowledge: Knowledge,
    places_on: Option<Arc<Topology>>,
    /// Whether `knowledge` is whole ([`crate::agent::Agent::knowledge`]), odds included, or
    /// only what is proven ([`crate::agent::Agent::proofs`]), which is all a mask reads.
    whole: bool,
}

/// Which actions a mask leaves open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaskKind {
    /// Those what the player perceived proves cannot kill this turn.
    Harmless,
    /// Those, less the ones the player can tell do nothing (a known wall, a shot with no
    /// arrow, a grab with no glitter, climbing away from the way out).
    Useful,
}

/// The most values an observation's array may hold (4 MiB of `float32`): a grid of 64x64
/// holds about 73,000; a 4096x4096 grid's would be hundreds of megabytes a step.
pub const MAX_ARRAY: usize = 1 << 20;

impl<S: Playable> Learned<S> {
    /// `played`, just dealt, observed as `mode`; refused (saying why) when the arrays of its
    /// memory or knowledge would be over [`MAX_ARRAY`] values, before anything is built for
    /// them.
    pub fn new(played: Played<S>, mode: Mode) -> Result<Learned<S>, String> {
        let briefing = played.session().briefing();
        let memory = match mode {
            Mode::Percepts => None,
            _ => Some(fitting_memory::<S>(&briefing)?),
        };
        let mut learned = Learned {
            layout: crate::features::layout(S::FACTS, &briefing, mode),
            memory,
            played,
            mode,
            known: None,
        };
        learned.remember();
        Ok(learned)
    }

    /// The game.
    pub fn played(&self) -> &Played<S> {
        &self.played
    }

    /// The game, to act on it as a person would (hints, the player's words); what it shows
    /// is remembered by [`Learned::act`] only.
    pub fn played_mut(&mut self) -> &mut Played<S> {
        &mut self.played
    }

    /// What the observation holds.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The layout of the memory or knowledge arrays (`None` for the percepts).
    pub fn layout(&self) -> Option<&Layout> {
        self.layout.as_ref()
    }

    /// The layout of the knowledge arrays of this game, whatever the observation.
    pub fn knowledge_layout(&self) -> Layout {
        let briefing = self.played.session().briefing();
        crate::features::layout(S::FACTS, &briefing, Mode::Knowledge)
            .expect("knowledge has a layout")
    }

    fn remember(&mut self) {
        if let Some(memory) = &mut self.memory {
            let session = self.played.session();
            memory.observe(session, &session.observation(self.played.shown()));
        }
    }

    /// The player's memory, made from the game's history when the observation keeps none (a
    /// percepts observation asked for its knowledge arrays).
    fn memory_now(&mut self) -> Result<(), HelperError> {
        if self.memory.is_some() {
            return Ok(());
        }
        if self.played.history().len() != self.played.steps() {
            return Err(HelperError::Stopped(
                "this game keeps no history to remember it by: observe its memory from the start"
                    .into(),
            ));
        }
        let briefing = self.played.session().briefing();
        let mut memory = fitting_memory::<S>(&briefing).map_err(HelperError::Stopped)?;
        let session = self.played.session();
        memory.observe(session, &session.observation(self.played.first()));
        for (_, shown) in self.played.history() {
            memory.observe(session, &session.observation(shown));
        }
        self.memory = Some(memory);
        Ok(())
    }

    /// Takes `action`, remembering what followed; returns the reward.
    pub fn act(&mut self, action: &S::Action) -> Acted<S> {
        self.known = None;
        let acted = self.played.act(action);
        self.remember();
        acted
    }

    /// Takes the action numbered `index`; returns the reward.
    pub fn act_numbered(&mut self, index: usize) -> i64 {
        let action = self.played.session().action(self.played.shown(), index);
        self.act(&action).reward
    }

    /// Takes the hint agent's action; returns the reward.
    pub fn follow_hint(&mut self) -> Result<i64, HelperError> {
        let action = self.played.hint_decision()?.action;
        Ok(self.act(&action).reward)
    }

    /// Writes this turn's percepts ([`crate::numbered::Numbered::observe`]).
    pub fn percepts(&self, out: &mut [i8]) {
        self.played.session().observe(self.played.shown(), out);
    }

    /// Writes the array of `layout` for this moment into `out`, with what the logic agent
    /// proves when `knowledge` (and the game goes on).
    pub fn write(
        &mut self,
        layout: &Layout,
        knowledge: bool,
        out: &mut [f32],
    ) -> Result<(), HelperError> {
        let knowing = knowledge && !self.played.over();
        if knowing {
            self.know(true)?;
        }
        self.memory_now()?;
        let memory = self.memory.as_ref().expect("made above");
        let known = self
            .known
            .as_ref()
            .filter(|_| knowing)
            .map(|k| (&k.knowledge, k.places_on.as_ref()));
        memory.write(layout, self.played.session(), known, out);
        Ok(())
    }

    /// Writes the observation's array (memory or knowledge) into `out`.
    pub fn observation(&mut self, out: &mut [f32]) -> Result<(), HelperError> {
        let Some(layout) = self.layout.clone() else {
            return Ok(());
        };
        self.write(&layout, self.mode == Mode::Knowledge, out)
    }

    /// Writes, one flag an action, whether what the player perceived proves it cannot kill
    /// this turn (all false once the game is over).
    pub fn action_mask(&mut self, kind: MaskKind, out: &mut [bool]) -> Result<(), HelperError> {
        out.fill(false);
        if self.played.over() {
            return Ok(());
        }
        self.know(false)?;
        let known = &self.known.as_ref().expect("known above").knowledge;
        let played = &self.played;
        played.session().harmless(played.shown(), known, out);
        if kind == MaskKind::Useful {
            played.session().useful(played.shown(), out);
        }
        Ok(())
    }

    /// Asks the logic agent what it knows now (its whole knowledge when `whole`, else what it
    /// has proven), unless it was asked as much since the last action.
    fn know(&mut self, whole: bool) -> Result<(), HelperError> {
        if self.known.as_ref().is_some_and(|k| k.whole || !whole) {
            return Ok(());
        }
        let follower = self.played.follower(Helper::Logic)?;
        let places_on = follower.agent_mut().ok().and_then(|a| a.places_on());
        let knowledge = if whole {
            follower.knowledge()
        } else {
            follower.proofs()
        }
        .map_err(HelperError::Stopped)?;
        self.known = Some(Known {
            knowledge,
            places_on,
            whole,
        });
        Ok(())
    }

    /// Makes the logic agent follow the game from now (before its first action, for a game
    /// that keeps no history).
    pub fn follow_with_logic(&mut self) -> Result<(), HelperError> {
        self.played.follower(Helper::Logic).map(drop)
    }
}

/// A memory for games of `S` whose player was told `briefing`, refused (saying why) when its
/// knowledge arrays would be over [`MAX_ARRAY`] values, before anything is built for them.
fn fitting_memory<S: Playable>(briefing: &crate::game::Briefing) -> Result<Features, String> {
    let knowledge = crate::features::layout(S::FACTS, briefing, Mode::Knowledge);
    if let Some(size) = knowledge
        .as_ref()
        .map(Layout::len)
        .filter(|&n| n > MAX_ARRAY)
    {
        return Err(format!(
            "the memory and knowledge arrays of this game would hold {size} values, more than \
             the {MAX_ARRAY} an observation may: observe the percepts, or play a smaller board \
             (64x64 holds about 73,000)"
        ));
    }
    Ok(Features::new(S::FACTS, briefing))
}
