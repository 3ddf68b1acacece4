//! The maze agent that knows only what the game has shown: the maze's default player.
//!
//! Seed 000's player is told a cave's name, which of its three tunnels lead to caves already
//! visited (by name; the rest read `unknown`) and what it smells, hears and feels there. It is
//! not told where unknown tunnels lead, and names repeat (five caves are "The Lost Caverns of
//! the Wyrm"). So this agent builds its own map as it walks: one *node* per cave it has stood
//! in, joined by the tunnels it has walked or can name for certain. Two nodes are never merged
//! unless that is certain, so a cave may be known twice, which only loses knowledge; a map
//! that merged two caves wrongly could prove a deadly tunnel safe.
//!
//! Where a cave cannot be told apart from others of its name, its node keeps the caves it may
//! be (`may_be`): its tunnels are theirs, so what is proven of a tunnel of every one of them is
//! proven of it, and where every one of them leads through a tunnel, so does it.
//!
//! **What is proven** is what the knowledge base proves (`seen`): the rules of
//! `kb/maze-seen.kb` over the agent's own map, told what the player stood in, sensed, entered,
//! was carried off in and hit. The agent never calls a tunnel free, or the pit, a wumpus or the
//! bats proven, on any other ground. `tests/logic/maze_bruteforce.rs` checks every proof against
//! every deal that fits what the player saw, `tests/cli/maze_discovered.rs` against the hidden
//! maze.
//!
//! **Odds** (printed as estimates): where a draft is felt, the pit is behind each of the
//! tunnels not proven free alike; where a wumpus is smelt, each such tunnel holds one with the
//! chance that a cave does (the expected wumpi left over the caves not yet visited), given
//! that at least one does, halved ([`MISS_DECAY`]) for each grenade through that tunnel that
//! missed while the smell stayed: a miss proves the cave was empty, but startles any wumpus
//! next to it, which may run in, so the evidence fades rather than proves. Without it two
//! caves next to each other trade a startled wumpus back and forth, and a player tossing into
//! them by turns spends every grenade. The agent is told the number of caves (the first line
//! of `caves.dat`) for that estimate, nothing else of the file.
//!
//! Decisions, in order: toss into a proven wumpus; step through an unknown tunnel proven free
//! of the pit and wumpi (walking the known map to the nearest one); toss where a kill is
//! likeliest when that is at least [`TOSS_AT_LEAST`] (more when the grenade is likely the last:
//! `toss_threshold`); otherwise the least-risk unknown tunnel, unless a toss is the better bet;
//! with nothing to try, toss the likeliest tunnel.
//!
//! It must never read the maze: only the views the player is shown and its own actions'
//! results.

mod decide;
mod map;
mod observe;
mod odds;
mod seen;
#[cfg(test)]
mod tests;
mod words;

use self::map::{Link, Node};
use self::odds::Hazard;
use self::seen::Seen;
use super::TunnelOdds;
use crate::agent::common::percent;
use crate::agent::{Decision, Knowledge, Reason, Rule};
use crate::cave::maze::MazeAction;
use crate::kb::{Observation, Proofs};
use crate::topology::Place;
use std::collections::HashMap;

/// The least chance of a kill for which the agent tosses a grenade while an unknown tunnel is
/// still there to be risked, unless the grenade is likely the last.
pub const TOSS_AT_LEAST: f64 = 0.3;

/// How much each miss through a tunnel, while the smell stays, takes off the chance that the
/// wumpus is through it: a miss proves it was not there, but startles any wumpus next to the
/// blast, which may run in.
pub const MISS_DECAY: f64 = 0.5;

/// Moves after which the agent stops walking its map and tosses (a guard: a game whose map
/// keeps splitting caves it cannot tell apart must still end).
const MOVE_GUARD: u32 = 600;

/// Moves to unplaced visited caves allowed per cave of the maze: such moves are free and safe,
/// and where names repeat (the Lost Caverns) finding the way out may take many.
const REJOIN_CAP_PER_CAVE: u32 = 10;

/// The maze agent without the map.
#[derive(Debug)]
pub struct DiscoveredMazeAgent {
    caves: usize,
    nodes: Vec<Node>,
    at: usize,
    /// Grenade blasts so far.
    epoch: u32,
    kills: u32,
    tosses: u32,
    moves: u32,
    /// Moves through tunnels to visited caves the agent could not place, to find its way
    /// back onto its map (capped: where names repeat it may never find it).
    rejoins: u32,
    /// Caves not yet visited and the chance that one holds a wumpus, counted once a turn.
    unvisited: usize,
    density: f64,
    /// The knowledge base over the agent's own map: what it proves is all the agent calls
    /// proven.
    seen: Seen,
    /// The node each place of the knowledge base stands for, if it is a node's own.
    owner: Vec<Option<usize>>,
    /// What is proven of each tunnel of the player's cave, with the observations that prove it
    /// when explaining.
    here_proofs: Vec<Vec<String>>,
    /// The nodes of each name.
    named: HashMap<String, Vec<usize>>,
    /// Put the choices weighed in words (for `trace` and `hint`).
    pub(super) explain: bool,
}

impl DiscoveredMazeAgent {
    /// A fresh agent for one game in a maze of `caves` caves.
    pub fn new(caves: usize) -> DiscoveredMazeAgent {
        DiscoveredMazeAgent::with_proofs(caves, Proofs::Fast)
    }

    fn with_proofs(caves: usize, proofs: Proofs) -> DiscoveredMazeAgent {
        // Room for a node and its three tunnels' caves per cave, and some caves known twice.
        let seen = Seen::with_capacity(4 * caves.max(1) + 16, proofs)
            .expect("the built-in rules ground on any map");
        DiscoveredMazeAgent {
            caves: caves.max(1),
            nodes: Vec::new(),
            at: 0,
            epoch: 0,
            kills: 0,
            tosses: 0,
            moves: 0,
            rejoins: 0,
            unvisited: caves.max(1),
            density: 0.0,
            seen,
            owner: Vec::new(),
            here_proofs: Vec::new(),
            named: HashMap::new(),
            explain: false,
        }
    }

    /// An agent like this one (before its first turn) that weighs its choices in words for
    /// `trace` and `hint` when `explain`, its knowledge base then able to explain its proofs.
    pub fn explained(self, explain: bool) -> DiscoveredMazeAgent {
        let proofs = if explain {
            Proofs::Explained
        } else {
            Proofs::Fast
        };
        let mut agent = DiscoveredMazeAgent::with_proofs(self.caves, proofs);
        agent.explain = explain;
        agent
    }

    /// Grenades tossed so far.
    pub fn tosses(&self) -> u32 {
        self.tosses
    }

    /// Caves on the agent's own map (a cave it could not tell apart from another counts
    /// twice).
    pub fn caves_mapped(&self) -> usize {
        self.nodes.len()
    }

    /// What the agent knows, in places of the real maze: nothing it could place, since it
    /// does not hold the map (its knowledge is in its reasons, by tunnel).
    pub(super) fn known(&self) -> Knowledge {
        Knowledge {
            wumpus_alive: true,
            ways: self.proven_ways(),
            ..Knowledge::default()
        }
    }
}

fn toss(tunnel: usize, rule: Rule, text: String) -> Decision<MazeAction> {
    Decision {
        action: MazeAction::Toss(tunnel),
        reason: reason(rule, text),
        choices: Vec::new(),
        depth: None,
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
