//! `wumpus` plays the Hunt-the-Wumpus family of games by logic.
//!
//! The crate is organised by concept, in the order data flows through a game:
//!
//! - [`topology`]: the one world graph (petgraph) every rule set plays on;
//! - [`grid`]: the grid *Wumpus World* rules, simulator, world files and commands;
//! - [`kb`]: the propositional knowledge base: rule files, grounding, the SAT solver;
//! - [`planner`]: shortest paths over proven-safe places (petgraph);
//! - [`agent`]: players that see only percepts: percept → knowledge base → planner → action;
//! - [`run`]: running agents on games, one traced or a batch with statistics;
//! - [`cave`]: the classic cave and the `caves.dat` maze: maps, hazards, simulators, commands,
//!   the random agent and batches;
//! - [`files`]: reading and atomically saving files at the edge;
//! - [`rng`]: the one seeded random generator.
//!
//! See `docs/ARCHITECTURE.md` for the map and the invariants.

#![warn(missing_docs)]

pub mod agent;
pub mod cave;
pub mod files;
pub mod grid;
pub mod kb;
pub mod planner;
pub mod rng;
pub mod run;
pub mod topology;
