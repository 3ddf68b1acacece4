//! Agents: players that see only what a player is told, reason with the knowledge base and
//! move with the planner.
//!
//! The flow of one turn is **percept → knowledge base → planner → action**: an agent is told
//! its last action and what the game showed after it ([`Agent::observe`]), tells its knowledge
//! base what that means, asks which places are proven safe, and picks the next action with a
//! [`Reason`] ([`Agent::decide`]). Agents never hold the hidden world: each is built from what
//! a player is told at the start ([`crate::game::Briefing`], which only the rules can make),
//! [`Agent`] takes only a rule set's [`Session::Shown`], and the runner in [`crate::run`]
//! hands them nothing else.
//!
//! Every agent implements [`Agent`] itself, in its own module: [`grid`] plays the grid (the
//! logic and the risk agent, and under the textbook's rules its `HeadedAgent`), [`cave`] the
//! classic cave, adding exact odds for what logic leaves open, [`maze`] the `caves.dat` maze
//! with the same machinery, [`optimal`] plays small grids by the exact optimal policy, and
//! [`random`] is the event's random player. [`common`] holds what they share; [`roster`]
//! only lists which agents play which rule set and builds them for a game.

pub mod cave;
pub mod common;
pub mod grid;
pub mod maze;
pub mod optimal;
pub mod random;
pub mod roster;

pub use common::{percent, Insight};
pub use roster::{AgentFactory, AgentKind, AgentOptions, Roster};

use crate::game::Session;
use crate::kb::{KbError, KnowledgeBase};
use crate::topology::{Place, Topology};
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// A player of one rule set that sees only what a player is shown.
///
/// An agent is not `Send`: the SAT solver it reasons with stays on the thread that made it
/// (a batch makes each game's agent on the worker that plays the game).
///
/// The runner calls [`Agent::observe`] with the agent's own last action (`None` at the start)
/// and what the game showed after it, then [`Agent::decide`]; asking again before the next
/// observation gives the same decision.
pub trait Agent<S: Session> {
    /// Takes in what happened. Returns what became proven, with the observations behind each
    /// conclusion when explanations are on.
    fn observe(
        &mut self,
        last: Option<&S::Action>,
        shown: &S::Shown,
    ) -> Result<Vec<Conclusion>, AgentError>;

    /// The next action, why, and the choices weighed.
    fn decide(&mut self) -> Decision<S::Action>;

    /// What the agent knows of each place now: proofs and odds (for traces, hints and pages;
    /// it may cost solver calls).
    fn knowledge(&mut self) -> Knowledge;

    /// What the agent has proven of each place now, without the odds or the walk it plans:
    /// what an action mask reads. An agent that proves as it observes answers it at no cost;
    /// by default, its [`Agent::knowledge`].
    fn proofs(&mut self) -> Knowledge {
        self.knowledge()
    }

    /// Solver calls made so far.
    fn solver_calls(&self) -> u64 {
        0
    }

    /// The knowledge base the agent reasons with (the most likely one, when it keeps
    /// several), for export.
    fn knowledge_base(&self) -> Option<&KnowledgeBase> {
        None
    }

    /// The grid this agent numbers its places on, when it is not the game's: an agent not
    /// told the grid's size reasons on a model of the largest board still possible, and
    /// whoever shows its places names them on this grid (`None`: the game's own places).
    fn places_on(&self) -> Option<Arc<Topology>> {
        None
    }
}

pub use crate::rng::Dice;

/// A chosen action, why, and what it was weighed against.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision<A> {
    /// The action.
    pub action: A,
    /// Why.
    pub reason: Reason,
    /// The choices weighed, when the agent weighed any (empty unless explanations are on).
    pub choices: Vec<Choice>,
    /// How many of the agent's own actions deep the search behind the choice went (1: one
    /// step ahead), when it searched.
    pub depth: Option<u32>,
}

/// One choice an agent weighed.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The choice in the player's words: `step into 2,3`, `climb out`, `shoot 5 6 7`.
    pub what: String,
    /// The place it heads for, if one.
    pub place: Option<Place>,
    /// Its expected final score (or points), when the agent valued it so.
    pub expected: Option<f64>,
    /// True when `expected` is only an upper bound (it could not change the choice).
    pub bound: bool,
    /// The chance of dying by it, when known.
    pub risk: Option<f64>,
    /// The chance of a pit where it leads, when known.
    pub pit: Option<f64>,
    /// The chance of a live wumpus where it leads, when known.
    pub wumpus: Option<f64>,
    /// The chance of a kill, for a shot.
    pub kill: Option<f64>,
    /// True for the choice taken.
    pub chosen: bool,
}

impl Choice {
    /// A choice with only its words.
    pub fn new(what: impl Into<String>) -> Choice {
        Choice {
            what: what.into(),
            place: None,
            expected: None,
            bound: false,
            risk: None,
            pit: None,
            wumpus: None,
            kill: None,
            chosen: false,
        }
    }
}

/// What an agent knows of each place at one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Knowledge {
    /// Where the agent believes it is.
    pub at: Option<Place>,
    /// Places the agent has stood in.
    pub visited: Vec<Place>,
    /// Places proven free of every hazard (visited ones included): no pit, no live wumpus
    /// and, in the caves, no bats.
    pub safe: Vec<Place>,
    /// Places proven to hold a pit.
    pub pit: Vec<Place>,
    /// Places proven to hold a live wumpus.
    pub wumpus: Vec<Place>,
    /// Places proven to hold bats.
    pub bats: Vec<Place>,
    /// The exact odds of each hazard where logic leaves it open.
    pub odds: Vec<PlaceOdds>,
    /// Where the player may be, with the chance of each (the maze, when it is not certain).
    pub whereabouts: Vec<(Place, f64)>,
    /// True while the wumpus (or some wumpus) lives, as far as the agent knows.
    pub wumpus_alive: bool,
    /// What is proven of each way on from where the player stands, in words, for an agent
    /// that knows the ways by tunnel and not by place (the maze without its map).
    pub ways: Vec<String>,
    /// The walk the agent has planned, from where it stands through each place its decided
    /// action and the actions planned after it step into; empty when it plans no walk.
    pub route: Vec<Place>,
}

/// The odds of each hazard at one place.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaceOdds {
    /// The place.
    pub place: Place,
    /// Chance of a pit.
    pub pit: f64,
    /// Chance of a live wumpus.
    pub wumpus: f64,
    /// Chance of bats (caves).
    pub bats: f64,
    /// Chance of dying on stepping in, by the rule set's own routine (a pit or a live wumpus
    /// there, or in a cave bats that drop the player somewhere deadly): the figure the agent's
    /// reasons quote as "to die".
    pub death: f64,
}

/// Why an agent cannot play.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// The knowledge base failed (a contradiction names the observations that clash).
    #[error(transparent)]
    Kb(#[from] KbError),
    /// The classic cave's agent cannot play this game.
    #[error(transparent)]
    Cave(#[from] cave::CaveAgentError),
    /// The maze's agent cannot play this game.
    #[error(transparent)]
    Maze(#[from] maze::MazeAgentError),
    /// The optimal agent cannot solve this game.
    #[error(transparent)]
    Optimal(#[from] optimal::OptimalError),
    /// No such agent for this rule set, or options it cannot take.
    #[error("{0}")]
    Unfit(String),
}

/// What was proven about a place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fact {
    /// Neither a pit nor the live wumpus is there.
    Safe,
    /// A pit is there.
    Pit,
    /// The live wumpus is there.
    Wumpus,
    /// Bats are there (caves).
    Bats,
}

impl fmt::Display for Fact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fact::Safe => "is safe",
            Fact::Pit => "holds a pit",
            Fact::Wumpus => "holds the wumpus",
            Fact::Bats => "holds bats",
        })
    }
}

/// A newly proven fact with the observations that prove it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conclusion {
    /// The place.
    pub place: Place,
    /// What holds there.
    pub fact: Fact,
    /// The observations it rests on, in words (empty unless explanations are on).
    pub because: Vec<String>,
}

/// Which rule of the agent chose an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// The gold glints here: grab it.
    GrabGold,
    /// Carrying the gold: walk home.
    ReturnWithGold,
    /// Walk to the nearest proven-safe place not yet visited.
    Explore,
    /// Walk to a cell in line with the proven wumpus and shoot it.
    ShootWumpus,
    /// Shoot along a line of pit-free cells that may hold the wumpus: a kill or a miss proves
    /// them safe.
    ProbeShot,
    /// Nothing safe is left to explore: walk home.
    ReturnEmptyHanded,
    /// At the start with nothing left to do (or with the gold): climb out.
    Climb,
    /// Take the least-risk move (risk-taking agents).
    Gamble,
    /// Shoot the crooked arrow (or toss the grenade) with the best chance of a kill (caves).
    BestShot,
    /// The last move before exhaustion: shoot rather than walk (caves).
    LastChance,
    /// Shoot on past the known tunnels, where a random flight may find the wumpus and provably
    /// cannot come back to the hunter (a classic cave being discovered).
    BlindShot,
}

/// Why an action was chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Reason {
    /// The rule that fired.
    pub rule: Rule,
    /// The place the plan heads for, if any.
    pub target: Option<Place>,
    /// Steps to the target.
    pub steps: usize,
    /// The reason in words.
    pub text: String,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}
