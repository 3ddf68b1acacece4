//! Agents: players that see only what a player is told, reason with the knowledge base and
//! move with the planner.
//!
//! The flow of one turn is **percept → knowledge base → planner → action**: an agent is told
//! the last action and the percepts that followed ([`grid::GridAgent::observe`]), tells its
//! knowledge base what they mean, asks which places are proven safe, and picks the next action
//! with a [`Reason`] ([`grid::GridAgent::decide`]). Agents never hold the hidden world: the
//! runner in [`crate::run`] hands them turns, nothing else.
//!
//! [`cave`] plays the classic cave the same way, adding exact odds for what logic leaves
//! open; [`maze`] plays the `caves.dat` maze with the same machinery.

pub mod cave;
pub mod grid;
pub mod maze;

use crate::topology::Place;
use serde::Serialize;
use std::fmt;

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
