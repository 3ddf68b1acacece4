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
mod observe;
mod track;
mod tunnels;

use self::belief::{MazeBelief, MazeOdds, MAX_CAVES};
use self::track::{Told, Track};
pub use self::tunnels::TunnelOdds;
pub(crate) use self::tunnels::{death_chance, toss_threshold};
use self::tunnels::{step_risk, toss_value};
use super::common::{self, percent, Insight};
use super::{Conclusion, Decision, Fact, Knowledge, PlaceOdds, Reason, Rule};
use crate::cave::map::CaveMap;
use crate::cave::maze::{MazeAction, MazeEnding, MazeResult, MazeView};
use crate::kb::rules::{parse_rules, EventId, Rules};
use crate::kb::{Grounding, KbError, KnowledgeBase};
use crate::topology::Place;
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

/// One hypothesis about the player's cave, for tests and exports: the cave, its weight, its
/// odds and its knowledge base.
pub type Hypothesis<'a> = (Place, f64, Option<&'a MazeOdds>, &'a mut KnowledgeBase);

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
