//! `wumpus` plays the Hunt-the-Wumpus family of games by logic.
//!
//! The crate is organised by concept, in the order data flows through a game:
//!
//! - [`topology`]: the one world graph (petgraph) every rule set plays on;
//! - [`game`]: the one game interface every rule set implements ([`game::Session`]);
//! - [`grid`]: the grid *Wumpus World* rules, simulator, world files and commands;
//! - [`cave`]: the classic cave and the `caves.dat` maze: maps, hazards, simulators, commands;
//! - `command` (inside the crate): what both families' prompts share: a typed line cut at its
//!   first word, and `help`, `hint`, `quit`, `load FILE`, `save FILE`;
//! - [`kb`]: the propositional knowledge base: rule files, grounding, the SAT solver;
//! - [`planner`]: shortest paths over proven-safe places (petgraph);
//! - [`agent`]: players that see only what a player is shown: percept → knowledge base →
//!   planner → action, for every rule set ([`agent::Agent`]);
//! - [`run`]: the one turn loop and the one batch loop: a traced game, or a batch with
//!   statistics, for every rule set;
//! - [`bot`]: the bot protocols, which let a game host drive an agent over lines of text;
//! - [`game_spec`]: what a game is, described once (its rule set and options, their defaults,
//!   limits and refusals), the library's catalogue of rule sets, options and agents, and the
//!   one dispatch from a rule set to code written once over [`game_spec::Playable`];
//! - [`numbered`]: each rule set's actions by number and observations as vectors, for
//!   learners;
//! - [`features`]: what a learner is shown as fixed-shape arrays: a memory of what the player
//!   perceived where, and what the knowledge base proves of each place;
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
//! use wumpus::agent::{AgentKind, AgentOptions, Dice, Fact, Roster};
//! use wumpus::game::{Ending, Session};
//! use wumpus::grid::{parse_world, GridSession, Scoring};
//! use wumpus::run::{play, Flow};
//!
//! let world = parse_world("PIT 0 2\nWUMPUS 2 0\nGOLD 3 2\n").unwrap();
//! let mut game = GridSession::new(world, Scoring::Standard, 0.2);
//! let options = AgentOptions { explain: true, ..AgentOptions::default() };
//! let agents = GridSession::prepare(AgentKind::Logic, &game.setup(), &options).unwrap();
//! let mut agent = agents.make(&game.briefing(), Dice::for_game(0)).unwrap();
//! let mut wumpus_found = Vec::new();
//! let mut watch = |_: &GridSession, step: wumpus::run::StepEvent| {
//!     for proof in step.learned.iter().filter(|p| p.fact == Fact::Wumpus) {
//!         wumpus_found.push(proof.because.clone());
//!     }
//!     Flow::Go
//! };
//! let record = play(&mut game, None, agent.as_mut(), &|| false, Some(&mut watch))
//!     .unwrap()
//!     .unwrap();
//! assert_eq!(record.ending, Ending::Won);
//! assert!(wumpus_found[0].contains(&"stench at 1,0".to_string()));
//! ```

#![warn(missing_docs)]

pub mod agent;
pub mod bot;
pub mod cave;
pub(crate) mod command;
pub mod features;
pub mod files;
pub mod game;
pub mod game_spec;
pub mod grid;
pub mod kb;
pub mod numbered;
pub mod planner;
pub mod rng;
pub mod run;
pub mod topology;
