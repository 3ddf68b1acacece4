//! The map-known maze agent's tracks: one hypothesis each about where the player is, with
//! the caves it has been in, its belief and its knowledge base, made from the log of what it
//! was told the first time a proof asks for it.
//!
//! A track's knowledge base must never hold anything its log does not: a copy of a track is
//! remade from the log alone, and must know what the original knows.

use super::belief::{MazeBelief, MazeOdds};
use super::MazeAgent;
use crate::agent::common::Insight;
use crate::cave::maze::MazeView;
use crate::kb::rules::EventId;
use crate::kb::{Grounding, KbError, KnowledgeBase, Proofs};
use crate::topology::Place;
use std::cell::OnceCell;
use std::sync::Arc;

/// Something told to a track's knowledge base, kept so the track can be copied.
#[derive(Clone, Copy, Debug)]
pub(super) enum Told {
    Percept(usize, Place, bool),
    Event(EventId, Place),
}

/// One hypothesis about where the player is.
pub(super) struct Track {
    pub(super) start: Place,
    pub(super) log: Vec<Told>,
    pub(super) pos: Place,
    /// Caves the player has been in and left (the game then shows their names).
    pub(super) known: Vec<bool>,
    /// Caves the player has stood in.
    pub(super) been: Vec<bool>,
    pub(super) belief: MazeBelief,
    /// The rules grounded from `start`, and how proofs are kept, to make `kb` from.
    pub(super) grounding: Arc<Grounding>,
    pub(super) proofs: Proofs,
    /// The knowledge base, told everything in `log`: made the first time a proof is asked
    /// of this hypothesis (many are dropped before any is).
    pub(super) kb: OnceCell<Result<KnowledgeBase, KbError>>,
    pub(super) odds: Option<MazeOdds>,
    /// Proven free of the pit and wumpi, by the knowledge base, in the current epoch.
    pub(super) safe: Vec<bool>,
    /// Proven to hold a wumpus now.
    pub(super) wumpus: Vec<bool>,
    /// Proven the pit / the bats.
    pub(super) pit: Vec<bool>,
    pub(super) bats: Vec<bool>,
}

impl Track {
    /// Tells the track's knowledge base (when it has been made), and remembers it.
    pub(super) fn record(&mut self, told: Told) -> Result<(), KbError> {
        if let Some(Ok(kb)) = self.kb.get_mut() {
            tell(kb, told)?;
        }
        self.log.push(told);
        Ok(())
    }

    /// The knowledge base, made now if it was not yet.
    pub(super) fn kb(&self) -> Result<&KnowledgeBase, KbError> {
        self.kb
            .get_or_init(|| {
                let mut kb = KnowledgeBase::from_grounding(self.grounding.clone(), self.proofs);
                for &told in &self.log {
                    tell(&mut kb, told)?;
                }
                Ok(kb)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The same, to ask or tell it.
    pub(super) fn kb_mut(&mut self) -> Result<&mut KnowledgeBase, KbError> {
        self.kb()?;
        self.kb
            .get_mut()
            .expect("made above")
            .as_mut()
            .map_err(|e| e.clone())
    }
}

/// Tells `kb` one thing.
fn tell(kb: &mut KnowledgeBase, told: Told) -> Result<(), KbError> {
    match told {
        Told::Percept(pred, place, present) => kb.tell(pred, Some(place), present),
        Told::Event(event, place) => kb.happen(event, Some(place)),
    }
}

impl MazeAgent {
    /// A fresh track from `start` holding `belief`.
    pub(super) fn track_with(&self, start: Place, belief: MazeBelief) -> Result<Track, KbError> {
        let n = self.map.len();
        let proofs = match self.insight {
            Insight::Decisions => Proofs::Fast,
            Insight::Explained => Proofs::Explained,
        };
        Ok(Track {
            start,
            log: Vec::new(),
            pos: start,
            known: vec![false; n],
            been: vec![false; n],
            belief,
            grounding: self.groundings.from(start)?,
            proofs,
            kb: OnceCell::new(),
            odds: None,
            safe: vec![false; n],
            wumpus: vec![false; n],
            pit: vec![false; n],
            bats: vec![false; n],
        })
    }

    /// A copy of `t` (its knowledge base rebuilt from what it was told) now in `pos`.
    pub(super) fn fork(&self, t: &Track, pos: Place) -> Result<Track, KbError> {
        let mut copy = self.track_with(t.start, t.belief.clone())?;
        for &told in &t.log {
            copy.record(told)?;
        }
        copy.pos = pos;
        copy.known = t.known.clone();
        copy.been = t.been.clone();
        copy.pit = t.pit.clone();
        copy.bats = t.bats.clone();
        Ok(copy)
    }

    /// True when `track`'s position and memory fit `view`: the cave's name and which tunnels'
    /// caves it would show by name.
    pub(super) fn fits(&self, track: &Track, view: &MazeView) -> bool {
        if self.map.name(track.pos) != view.name {
            return false;
        }
        self.map
            .outs(track.pos)
            .iter()
            .zip(&view.tunnels)
            .all(|(&c, shown)| match shown {
                Some(name) => track.known[c.index()] && &self.map.name(c) == name,
                None => !track.known[c.index()],
            })
    }
}
