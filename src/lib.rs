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
//!
//! # Example
//!
//! Seed 001's example world, played by the logic agent, which proves where the wumpus is from
//! two stench observations before it ever sees it:
//!
//! ```
//! use wumpus::agent::Fact;
//! use wumpus::grid::parse_world;
//! use wumpus::run::{run_grid_game, AgentKind, GameEnd, GameOptions};
//! use wumpus::grid::Outcome;
//!
//! let world = parse_world("PIT 0 2\nWUMPUS 2 0\nGOLD 3 2\n").unwrap();
//! let options = GameOptions { agent: AgentKind::Logic, explain: true, ..GameOptions::default() };
//! let mut wumpus_found = Vec::new();
//! let record = run_grid_game(world, None, &options, |step| {
//!     for c in step.learned.iter().filter(|c| c.fact == Fact::Wumpus) {
//!         wumpus_found.push(c.because.clone());
//!     }
//! })
//! .unwrap();
//! assert_eq!(record.outcome, GameEnd::Over(Outcome::Won));
//! assert!(wumpus_found[0].contains(&"stench at 1,0".to_string()));
//! ```

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
