//! The reasoning agent for seed 000's `caves.dat` maze: the same machinery as the classic
//! cave's (rules in `kb/maze.kb`, proofs for what is certain, odds for the rest), with
//! grenades for arrows.
//!
//! **Decision:** the agent is given the maze's map (seed 000 ships `caves.dat` with the game;
//! the player sees cave names, never numbers). It places itself by the names it is shown and
//! by dead reckoning. Where names do not tell (the five Lost Caverns share one), it keeps one
//! *track* per cave it may be in, each with its own odds and knowledge base (made when a proof
//! is first asked of it), drops the tracks the names or senses contradict, and weighs the rest
//! by how likely each makes what it saw.
//!
//! Each turn the agent takes in its last action's result and the new view, then decides, by
//! the chances mixed over its tracks:
//!
//! 1. a wumpus is proven through a tunnel: toss a grenade there;
//! 2. walk to the nearest cave proven free of the pit and wumpi not yet stood in (moves cost
//!    nothing in the maze, so it learns all it safely can first);
//! 3. toss where a kill is likeliest, when that is likely enough, weighing the chance that a
//!    startled wumpus runs in;
//! 4. otherwise step through the tunnel least likely to kill (the bats only carry one off).
//!
//! Invariant: like every agent it sees only what the player is shown ([`MazeView`]) and the
//! results of its own actions.

pub mod belief;
mod decide;
pub mod discovered;
mod interface;

use self::belief::{MazeBelief, MazeOdds, MAX_CAVES};
use super::common::{self, percent, Insight};
use super::{Conclusion, Decision, Fact, Knowledge, PlaceOdds, Reason, Rule};
use crate::cave::map::CaveMap;
use crate::cave::maze::{MazeAction, MazeEnding, MazeResult, MazeView};
use crate::kb::rules::{parse_rules, EventId, Rules};
use crate::kb::{Grounding, KbError, KnowledgeBase, Proofs};
use crate::topology::Place;
use std::cell::OnceCell;
use std::collections::VecDeque;
use std::sync::{Arc, OnceLock};

/// The built-in rules of the maze (`kb/maze.kb`).
pub const MAZE_RULES: &str = include_str!("../../../../../kb/maze.kb");

/// The maze rules, parsed once.
pub fn maze_rules() -> Arc<Rules> {
    static RULES: OnceLock<Arc<Rules>> = OnceLock::new();
    RULES
        .get_or_init(|| Arc::new(parse_rules(MAZE_RULES).expect("kb/maze.kb is valid")))
        .clone()
}

/// The maze rules grounded from each starting cave of one map, made when first asked for and
/// shared by every game (and every thread) played on that map.
#[derive(Clone)]
pub struct MazeGroundings {
    map: Arc<CaveMap>,
    by_start: Arc<[OnceLock<Arc<Grounding>>]>,
}

impl MazeGroundings {
    /// None grounded yet, for games on `map`.
    pub fn new(map: Arc<CaveMap>) -> MazeGroundings {
        let by_start = (0..map.len()).map(|_| OnceLock::new()).collect();
        MazeGroundings { map, by_start }
    }

    /// The rules grounded with the player starting in `start`.
    fn from(&self, start: Place) -> Result<Arc<Grounding>, KbError> {
        let cell = &self.by_start[start.index()];
        if let Some(g) = cell.get() {
            return Ok(g.clone());
        }
        let g = Grounding::new(maze_rules(), self.map.topology().clone(), Some(start))?;
        Ok(cell.get_or_init(|| g).clone())
    }
}

/// Errors setting up the maze agent.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MazeAgentError {
    /// A maze too large to count.
    #[error("the maze agent handles up to {MAX_CAVES} caves; this maze has {0}")]
    TooLarge(usize),
    /// The knowledge base failed (or the maze could not be dealt).
    #[error(transparent)]
    Kb(#[from] KbError),
}

#[derive(Clone, Copy, Debug)]
struct Vocabulary {
    pit: usize,
    bats: usize,
    wumpus: usize,
    smell: usize,
    hear: usize,
    feel: usize,
    stood: usize,
    carried: usize,
    hit: usize,
    blast: EventId,
}

impl Vocabulary {
    fn of(rules: &Rules) -> Result<Vocabulary, KbError> {
        let words = common::Vocabulary::of(
            rules,
            ["pit", "bats", "wumpus"],
            ["smell", "hear", "feel", "stood", "carried", "hit"],
            Some("blast"),
            KbError::NotObservable,
        )?;
        let [pit, bats, wumpus] = words.hidden;
        let [smell, hear, feel, stood, carried, hit] = words.percepts;
        Ok(Vocabulary {
            pit,
            bats,
            wumpus,
            smell,
            hear,
            feel,
            stood,
            carried,
            hit,
            blast: words.event.expect("asked for"),
        })
    }
}

/// Something told to a track's knowledge base, kept so the track can be copied.
#[derive(Clone, Copy, Debug)]
enum Told {
    Percept(usize, Place, bool),
    Event(EventId, Place),
}

/// One hypothesis about where the player is.
struct Track {
    start: Place,
    log: Vec<Told>,
    pos: Place,
    /// Caves the player has been in and left (the game then shows their names).
    known: Vec<bool>,
    /// Caves the player has stood in.
    been: Vec<bool>,
    belief: MazeBelief,
    /// The rules grounded from `start`, and how proofs are kept, to make `kb` from.
    grounding: Arc<Grounding>,
    proofs: Proofs,
    /// The knowledge base, told everything in `log`: made the first time a proof is asked
    /// of this hypothesis (many are dropped before any is).
    kb: OnceCell<Result<KnowledgeBase, KbError>>,
    odds: Option<MazeOdds>,
    /// Proven free of the pit and wumpi, by the knowledge base, in the current epoch.
    safe: Vec<bool>,
    /// Proven to hold a wumpus now.
    wumpus: Vec<bool>,
    /// Proven the pit / the bats.
    pit: Vec<bool>,
    bats: Vec<bool>,
}

/// One hypothesis about the player's cave, for tests and exports: the cave, its weight, its
/// odds and its knowledge base.
pub type Hypothesis<'a> = (Place, f64, Option<&'a MazeOdds>, &'a mut KnowledgeBase);

/// What the agent believes of each tunnel's cave, mixed over its tracks.
#[derive(Clone, Debug, PartialEq)]
pub struct TunnelOdds {
    /// The tunnel (1 to 3).
    pub tunnel: usize,
    /// The cave's name.
    pub name: String,
    /// Chance of a live wumpus there.
    pub wumpus: f64,
    /// Chance of the pit.
    pub pit: f64,
    /// Chance of the bats.
    pub bats: f64,
    /// Chance that a grenade there makes a wumpus run into the player's cave (not counted
    /// when `estimated`).
    pub devour: f64,
    /// The chances are estimates (the agent does not hold the map), not exact odds.
    pub estimated: bool,
    /// Proven free of the pit and wumpi on every track.
    pub safe: bool,
    /// Proven to hold a wumpus on every track.
    pub proven_wumpus: bool,
}

/// The maze's reasoning agent.
pub struct MazeAgent {
    map: Arc<CaveMap>,
    groundings: MazeGroundings,
    insight: Insight,
    words: Vocabulary,
    tracks: Vec<Track>,
    learned: Vec<Conclusion>,
    lost: Option<String>,
    tosses: u32,
    /// What the player was last shown of the tunnels: where each leads, once seen.
    seen: Vec<Option<String>>,
}

impl Track {
    /// Tells the track's knowledge base (when it has been made), and remembers it.
    fn record(&mut self, told: Told) -> Result<(), KbError> {
        if let Some(Ok(kb)) = self.kb.get_mut() {
            tell(kb, told)?;
        }
        self.log.push(told);
        Ok(())
    }

    /// The knowledge base, made now if it was not yet.
    fn kb(&self) -> Result<&KnowledgeBase, KbError> {
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
    fn kb_mut(&mut self) -> Result<&mut KnowledgeBase, KbError> {
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
    /// A fresh agent for one game on `map`.
    pub fn new(map: Arc<CaveMap>, insight: Insight) -> Result<MazeAgent, MazeAgentError> {
        MazeAgent::sharing(MazeGroundings::new(map), insight)
    }

    /// A fresh agent for one game on the map of `groundings`, reasoning over them.
    pub fn sharing(
        groundings: MazeGroundings,
        insight: Insight,
    ) -> Result<MazeAgent, MazeAgentError> {
        let map = groundings.map.clone();
        if map.len() > MAX_CAVES {
            return Err(MazeAgentError::TooLarge(map.len()));
        }
        let rules = maze_rules();
        let words = Vocabulary::of(&rules)?;
        Ok(MazeAgent {
            map,
            groundings,
            insight,
            words,
            tracks: Vec::new(),
            learned: Vec::new(),
            lost: None,
            tosses: 0,
            seen: Vec::new(),
        })
    }

    /// Grenades tossed so far.
    pub fn tosses(&self) -> u32 {
        self.tosses
    }

    /// The caves the player may be in, most likely first.
    pub fn whereabouts(&self) -> Vec<(Place, f64)> {
        let weights = self.weights();
        let mut v: Vec<(Place, f64)> = self
            .tracks
            .iter()
            .zip(weights)
            .map(|(t, w)| (t.pos, w))
            .collect();
        v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    }

    /// Each hypothesis about the player's cave: the cave, its weight (the weights sum to 1),
    /// its odds and its knowledge base (for tests and exports).
    pub fn tracks_mut(&mut self) -> Result<Vec<Hypothesis<'_>>, KbError> {
        let weights = self.weights();
        self.tracks
            .iter_mut()
            .zip(weights)
            .map(|(t, w)| {
                t.kb()?;
                let kb = t.kb.get_mut().expect("made above").as_mut();
                Ok((t.pos, w, t.odds.as_ref(), kb.map_err(|e| e.clone())?))
            })
            .collect()
    }

    /// What the agent knows of each cave, for traces and drawings: a fact counts as proven
    /// when every hypothesis about the player's cave proves it, and the odds mix the
    /// hypotheses by their weights. A cave is proven safe only when it is free of the pit, the
    /// wumpi and the bats.
    fn known(&self) -> Knowledge {
        let mut k = Knowledge {
            wumpus_alive: true,
            ..Knowledge::default()
        };
        if self.tracks.is_empty() {
            return k;
        }
        let n = self.map.len();
        let weights = self.weights();
        let mut odds = vec![(0.0, 0.0, 0.0); n];
        for (t, &w) in self.tracks.iter().zip(&weights) {
            if let Some(o) = &t.odds {
                for (c, mix) in odds.iter_mut().enumerate() {
                    mix.0 += w * o.pit[c];
                    mix.1 += w * o.wumpus[c];
                    mix.2 += w * o.bats[c];
                }
            }
        }
        let every = |f: &dyn Fn(&Track) -> bool| self.tracks.iter().all(f);
        for (c, &(pit, wumpus, bats)) in odds.iter().enumerate() {
            let p = Place::new(c);
            if every(&|t| t.been[c]) {
                k.visited.push(p);
            }
            if every(&|t| t.safe[c]) && bats == 0.0 {
                k.safe.push(p);
            }
            if every(&|t| t.pit[c]) {
                k.pit.push(p);
            }
            if every(&|t| t.wumpus[c]) {
                k.wumpus.push(p);
            }
            if every(&|t| t.bats[c]) {
                k.bats.push(p);
            }
            let open = |x: f64| x > 0.0 && x < 1.0;
            if open(pit) || open(wumpus) || open(bats) {
                k.odds.push(PlaceOdds {
                    place: p,
                    pit,
                    wumpus,
                    bats,
                    death: death_chance(pit, wumpus),
                });
            }
        }
        if self.tracks.len() == 1 {
            k.at = Some(self.tracks[0].pos);
        } else {
            k.whereabouts = self.whereabouts();
        }
        k
    }

    /// Why the agent stopped trusting its knowledge, if it did.
    pub fn lost(&self) -> Option<&str> {
        self.lost.as_deref()
    }

    /// Solver calls made so far, over every hypothesis's knowledge base.
    fn solver_calls_made(&self) -> u64 {
        self.tracks
            .iter()
            .filter_map(|t| t.kb.get().and_then(|kb| kb.as_ref().ok()))
            .map(|kb| kb.solver_calls())
            .sum()
    }

    /// The most likely track's knowledge base, for export.
    pub fn kb(&self) -> Option<&KnowledgeBase> {
        let best = self.best_track()?;
        self.tracks[best].kb().ok()
    }

    /// The most likely track's odds, by cave.
    pub fn odds(&self) -> Option<&MazeOdds> {
        let best = self.best_track()?;
        self.tracks[best].odds.as_ref()
    }

    fn best_track(&self) -> Option<usize> {
        let w = self.weights();
        (0..self.tracks.len()).max_by(|&a, &b| w[a].total_cmp(&w[b]).then(b.cmp(&a)))
    }

    /// The tracks' weights, summing to 1.
    fn weights(&self) -> Vec<f64> {
        let raw: Vec<f64> = self
            .tracks
            .iter()
            .map(|t| t.odds.as_ref().map_or(0.0, |o| o.weight))
            .collect();
        let total: f64 = raw.iter().sum();
        raw.iter()
            .map(|w| {
                if total > 0.0 {
                    w / total
                } else {
                    1.0 / raw.len() as f64
                }
            })
            .collect()
    }

    /// A fresh track from `start` holding `belief`.
    fn track_with(&self, start: Place, belief: MazeBelief) -> Result<Track, KbError> {
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
    fn fork(&self, t: &Track, pos: Place) -> Result<Track, KbError> {
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
    fn fits(&self, track: &Track, view: &MazeView) -> bool {
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

    /// Takes in the last action and its result (`None` at the start) and the view that
    /// followed. Returns what became proven (when the player's cave is certain).
    pub fn observe_turn(
        &mut self,
        last: Option<MazeAction>,
        result: Option<MazeResult>,
        view: &MazeView,
    ) -> Result<Vec<Conclusion>, KbError> {
        self.learned.clear();
        self.seen = view.tunnels.clone();
        if self.lost.is_some() {
            return Ok(Vec::new());
        }
        match self.take_in(last, result, view) {
            Ok(()) => Ok(std::mem::take(&mut self.learned)),
            Err(e) => {
                self.lost = Some(e.to_string());
                Err(e)
            }
        }
    }

    fn take_in(
        &mut self,
        last: Option<MazeAction>,
        result: Option<MazeResult>,
        view: &MazeView,
    ) -> Result<(), KbError> {
        let w = self.words;
        let map = self.map.clone();
        if self.tracks.is_empty() {
            for c in map.rooms() {
                if map.name(c) == view.name {
                    let near = map.outs(c);
                    let belief = MazeBelief::smelling(map.len(), c, near, Some(view.smell));
                    let t = self.track_with(c, belief)?;
                    self.tracks.push(t);
                }
            }
        } else {
            let mut next: Vec<Track> = Vec::new();
            for mut t in std::mem::take(&mut self.tracks) {
                match (last, result) {
                    (Some(MazeAction::Move(k)), Some(MazeResult::Moved)) => {
                        let to = map.outs(t.pos)[k - 1];
                        t.known[t.pos.index()] = true;
                        t.pos = to;
                        next.push(t);
                    }
                    (Some(MazeAction::Move(k)), Some(MazeResult::Carried)) => {
                        let bats = map.outs(t.pos)[k - 1];
                        t.known[t.pos.index()] = true;
                        t.known[bats.index()] = true;
                        // Explored: nobody can stand in the bats' cave.
                        t.been[bats.index()] = true;
                        if t.record(Told::Percept(w.carried, bats, true)).is_err() {
                            continue;
                        }
                        t.belief.carried(bats);
                        // Dropped in some empty cave with the name shown: a copy of the
                        // track for each but the last, which takes the track itself.
                        let lands: Vec<Place> = map
                            .rooms()
                            .filter(|&land| map.name(land) == view.name && land != bats)
                            .collect();
                        if let Some((&last, others)) = lands.split_last() {
                            for &land in others {
                                let mut copy = self.fork(&t, land)?;
                                copy.belief.landed(land);
                                next.push(copy);
                            }
                            t.pos = last;
                            t.belief.landed(last);
                            next.push(t);
                        }
                    }
                    (Some(MazeAction::Toss(k)), Some(MazeResult::Missed | MazeResult::Killed)) => {
                        let blast = map.outs(t.pos)[k - 1];
                        let killed = result == Some(MazeResult::Killed);
                        if t.record(Told::Percept(w.hit, blast, killed)).is_err()
                            || t.record(Told::Event(w.blast, blast)).is_err()
                        {
                            continue;
                        }
                        t.belief.toss(&map, blast, t.pos, killed);
                        t.safe = vec![false; map.len()];
                        t.wumpus = vec![false; map.len()];
                        next.push(t);
                    }
                    _ => next.push(t),
                }
            }
            if matches!(last, Some(MazeAction::Toss(_)))
                && matches!(result, Some(MazeResult::Missed | MazeResult::Killed))
            {
                self.tosses += 1;
            }
            self.tracks = next;
        }
        // Each track: does the view fit, and what does it say?
        let mut kept = Vec::new();
        for mut t in std::mem::take(&mut self.tracks) {
            if !self.fits(&t, view) {
                continue;
            }
            let here = t.pos;
            t.been[here.index()] = true;
            let near: Vec<Place> = map.outs(here).to_vec();
            let told = (|| -> Result<(), KbError> {
                t.record(Told::Percept(w.stood, here, true))?;
                t.record(Told::Percept(w.smell, here, view.smell))?;
                t.record(Told::Percept(w.hear, here, view.hear))?;
                t.record(Told::Percept(w.feel, here, view.feel))?;
                // No solver call here: before any blast the belief's count is exact, so a
                // layout it weighs above nought satisfies the rules too; after one, a
                // hypothesis whose knowledge contradicts itself is dropped when a proof first
                // asks its solver (below).
                Ok(())
            })();
            if told.is_err() {
                continue;
            }
            t.belief.stood(here);
            t.belief.smell(&near, view.smell);
            t.belief.hear(&near, view.hear);
            t.belief.feel(&near, view.feel);
            match t.belief.odds() {
                Ok(o) if o.weight > 0.0 => t.odds = Some(o),
                _ => continue,
            }
            kept.push(t);
        }
        if kept.is_empty() {
            return Err(KbError::Contradiction(
                "no cave of the maze fits what the player was shown".to_string(),
            ));
        }
        self.tracks = kept;
        let single = self.tracks.len() == 1;
        let worth = (!single).then(|| self.worth_proving());
        let mut contradicted = vec![false; self.tracks.len()];
        for (i, dropped) in contradicted.iter_mut().enumerate() {
            match self.prove(i, worth.as_ref().map(|w| w[i].as_slice())) {
                Ok(found) if single => {
                    for (cave, fact) in found {
                        self.conclude(i, cave, fact)?;
                    }
                }
                Ok(_) => {}
                // Of several hypotheses, one whose knowledge contradicts itself is not the
                // player's cave.
                Err(KbError::Contradiction(_)) if !single => *dropped = true,
                Err(e) => return Err(e),
            }
        }
        if contradicted.iter().any(|&c| c) {
            let mut keep = contradicted.iter().map(|&c| !c);
            self.tracks.retain(|_| keep.next().expect("one a track"));
            if self.tracks.is_empty() {
                return Err(KbError::Contradiction(
                    "no cave of the maze fits what the player was shown".to_string(),
                ));
            }
        }
        Ok(())
    }

    /// Proves on track `i` what its odds call certain, of every cave or (`only`) of some;
    /// returns the new facts.
    fn prove(&mut self, i: usize, only: Option<&[Place]>) -> Result<Vec<(Place, Fact)>, KbError> {
        let w = self.words;
        let n = self.map.len();
        let t = &mut self.tracks[i];
        let o = t.odds.clone().expect("counted");
        let mut found = Vec::new();
        let all: Vec<Place> = (0..n).map(Place::new).collect();
        for &cave in only.unwrap_or(&all) {
            let c = cave.index();
            // A value fixed by unit clauses is entailed, with no solver call, when the
            // track's knowledge is consistent: before a blast its belief's exact count found a
            // layout; after one, a single track is the player's true cave. Of several, one
            // may contradict itself unnoticed, but a tunnel counts as safe only when every
            // track proves it, the true one among them.
            let entails = |t: &mut Track, pred, value| -> Result<bool, KbError> {
                let kb = t.kb_mut()?;
                let a = kb.atom(pred, Some(cave));
                if kb.fixed(a) == Some(value) {
                    return Ok(true);
                }
                kb.entails((a, value))
            };
            if !t.safe[c]
                && o.free(cave)
                && entails(t, w.pit, false)?
                && entails(t, w.wumpus, false)?
            {
                t.safe[c] = true;
                if !t.been[c] {
                    found.push((cave, Fact::Safe));
                }
            }
            if !t.wumpus[c] && MazeOdds::sure(o.wumpus[c]) && entails(t, w.wumpus, true)? {
                t.wumpus[c] = true;
                found.push((cave, Fact::Wumpus));
            }
            if !t.pit[c] && MazeOdds::sure(o.pit[c]) && entails(t, w.pit, true)? {
                t.pit[c] = true;
                found.push((cave, Fact::Pit));
            }
            if !t.bats[c] && MazeOdds::sure(o.bats[c]) && entails(t, w.bats, true)? {
                t.bats[c] = true;
                found.push((cave, Fact::Bats));
            }
        }
        Ok(found)
    }

    /// With several hypotheses, the caves worth proving on each: those its tunnels lead to,
    /// through the tunnels whose caves every hypothesis's odds call certain in the same way
    /// (free of the pit and wumpi, or a wumpus), since only a tunnel proven so on every one
    /// counts in a decision.
    fn worth_proving(&self) -> Vec<Vec<Place>> {
        let certain = |t: &Track, c: Place| {
            let o = t.odds.as_ref().expect("counted");
            (o.free(c), MazeOdds::sure(o.wumpus[c.index()]))
        };
        let tunnels: Vec<usize> = (0..3)
            .filter(|&k| {
                let free = self
                    .tracks
                    .iter()
                    .all(|t| certain(t, self.map.outs(t.pos)[k]).0);
                let wumpus = self
                    .tracks
                    .iter()
                    .all(|t| certain(t, self.map.outs(t.pos)[k]).1);
                free || wumpus
            })
            .collect();
        self.tracks
            .iter()
            .map(|t| tunnels.iter().map(|&k| self.map.outs(t.pos)[k]).collect())
            .collect()
    }

    fn conclude(&mut self, i: usize, cave: Place, fact: Fact) -> Result<(), KbError> {
        let because = if self.insight == Insight::Explained {
            let w = self.words;
            let kb = self.tracks[i].kb_mut()?;
            let lits = match fact {
                Fact::Pit => vec![(kb.atom(w.pit, Some(cave)), false)],
                Fact::Bats => vec![(kb.atom(w.bats, Some(cave)), false)],
                Fact::Wumpus => vec![(kb.atom(w.wumpus, Some(cave)), false)],
                Fact::Safe => vec![
                    (kb.atom(w.pit, Some(cave)), true),
                    (kb.atom(w.wumpus, Some(cave)), true),
                ],
            };
            let mut ids = Vec::new();
            for lit in lits {
                ids.extend(kb.explain(&[lit])?.unwrap_or_default());
            }
            ids.sort_unstable();
            ids.dedup();
            let words: Vec<String> = ids.iter().map(|&k| self.describe(i, k)).collect();
            if words.is_empty() {
                vec!["the rules alone".to_string()]
            } else {
                words
            }
        } else {
            Vec::new()
        };
        self.learned.push(Conclusion {
            place: cave,
            fact,
            because,
        });
        Ok(())
    }

    /// Observation `index` of track `track`'s knowledge base (made: it explained a proof), in
    /// the player's words.
    fn describe(&self, track: usize, index: usize) -> String {
        let Ok(kb) = self.tracks[track].kb() else {
            return String::new();
        };
        let obs = kb.observations()[index];
        let at = obs.place.map(|p| self.cave_name(p)).unwrap_or_default();
        let w = self.words;
        let when = if obs.time > 0 {
            format!(
                " (after {} blast{})",
                obs.time,
                if obs.time == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        };
        match (obs.pred, obs.present) {
            (p, true) if p == w.smell => format!("a wumpus smelt in {at}{when}"),
            (p, false) if p == w.smell => format!("no wumpus smelt in {at}{when}"),
            (p, true) if p == w.hear => format!("wings heard in {at}"),
            (p, false) if p == w.hear => format!("no wings heard in {at}"),
            (p, true) if p == w.feel => format!("a draft in {at}"),
            (p, false) if p == w.feel => format!("no draft in {at}"),
            (p, _) if p == w.stood => format!("stood in {at}{when}"),
            (p, _) if p == w.carried => format!("carried off by bats in {at}"),
            (p, true) if p == w.hit => format!("a grenade killed a wumpus in {at}{when}"),
            (p, false) if p == w.hit => format!("a grenade missed in {at}{when}"),
            _ => kb.describe(&obs),
        }
    }

    /// Tunnel `tunnel` in the player's words: where it leads once the player has seen it, so
    /// that a reason never names a cave the player has not been shown.
    pub fn through(&self, tunnel: usize) -> String {
        match self.seen.get(tunnel - 1).cloned().flatten() {
            Some(name) => format!("tunnel {tunnel} to {name}"),
            None => format!("tunnel {tunnel} (not yet seen)"),
        }
    }

    /// A cave as the player knows it: its name, with its number when names repeat.
    pub fn cave_name(&self, cave: Place) -> String {
        let name = self.map.name(cave);
        let twins = self
            .map
            .rooms()
            .filter(|&c| self.map.name(c) == name)
            .count();
        if twins > 1 {
            format!("{name} (cave {})", self.map.label(cave))
        } else {
            name
        }
    }

    /// The odds of each tunnel's cave, mixed over the tracks.
    pub fn tunnels(&self) -> Vec<TunnelOdds> {
        self.tunnel_odds(true)
    }

    /// The same; the chance of being devoured after a toss only when `devour` (it is the
    /// costly part, and exploring needs none of it).
    fn tunnel_odds(&self, devour: bool) -> Vec<TunnelOdds> {
        let weights = self.weights();
        // Each track's devouring chance through each tunnel, counted once a track.
        let devours: Vec<[f64; 3]> = self
            .tracks
            .iter()
            .map(|t| {
                let mut d = [0.0; 3];
                let o = t.odds.as_ref().expect("counted");
                let outs = self.map.outs(t.pos);
                let blasts: Vec<Place> = outs
                    .iter()
                    .copied()
                    .filter(|c| devour && o.wumpus[c.index()] > 0.0)
                    .collect();
                let chances = t.belief.devour_chances(&self.map, &blasts, t.pos);
                let mut next = chances.iter();
                for (k, c) in outs.iter().enumerate() {
                    if devour && o.wumpus[c.index()] > 0.0 {
                        d[k] = *next.next().expect("one a blast");
                    }
                }
                d
            })
            .collect();
        (1..=3)
            .map(|k| {
                let mut to = TunnelOdds {
                    tunnel: k,
                    name: String::new(),
                    wumpus: 0.0,
                    pit: 0.0,
                    bats: 0.0,
                    devour: 0.0,
                    estimated: false,
                    safe: true,
                    proven_wumpus: true,
                };
                let mut names: Vec<String> = Vec::new();
                for ((t, &wt), d) in self.tracks.iter().zip(&weights).zip(&devours) {
                    let c = self.map.outs(t.pos)[k - 1];
                    let o = t.odds.as_ref().expect("counted");
                    to.wumpus += wt * o.wumpus[c.index()];
                    to.pit += wt * o.pit[c.index()];
                    to.bats += wt * o.bats[c.index()];
                    to.devour += wt * d[k - 1];
                    to.safe &= t.safe[c.index()];
                    to.proven_wumpus &= t.wumpus[c.index()];
                    let name = self.cave_name(c);
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
                to.name = names.join(" or ");
                to
            })
            .collect()
    }
}

/// The least chance of a kill for which a maze agent tosses while something else is left to
/// try: higher when the grenade is likely the last (a miss then loses the game).
pub(crate) fn toss_threshold(last_grenade: f64) -> f64 {
    if last_grenade > 0.5 {
        0.75
    } else {
        discovered::TOSS_AT_LEAST
    }
}

/// A grenade's worth: the chance of a kill less the chance of being devoured.
fn toss_value(t: &TunnelOdds) -> f64 {
    t.wumpus - t.devour
}

/// A step's risk: the pit or a wumpus through the tunnel.
fn step_risk(t: &TunnelOdds) -> f64 {
    death_chance(t.pit, t.wumpus)
}

/// The chance of dying on stepping into a cave with chance `pit` of a pit and `wumpus` of a
/// wumpus: a maze's cave holds one hazard at most, so the chances add. The figure the board
/// and the reasons ("to die") name.
pub(crate) fn death_chance(pit: f64, wumpus: f64) -> f64 {
    (pit + wumpus).min(1.0)
}

fn reason(rule: Rule, text: String) -> Reason {
    Reason {
        rule,
        target: None,
        steps: 0,
        text,
    }
}

/// How a maze game ended, in words.
pub fn ending_text(e: MazeEnding) -> &'static str {
    match e {
        MazeEnding::Won => "won",
        MazeEnding::Lost(crate::cave::maze::MazeLoss::Pit) => "lost (the pit)",
        MazeEnding::Lost(crate::cave::maze::MazeLoss::Wumpus) => "lost (a wumpus)",
        MazeEnding::Lost(crate::cave::maze::MazeLoss::OutOfGrenades) => "lost (out of grenades)",
    }
}
