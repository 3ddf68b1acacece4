//! The classic Hunt the Wumpus, as the event host plays it (seed 002), with Gregory Yob's 1973
//! rules as a variant (seeds 002 and 004).
//!
//! A [`ClassicGame`] holds the hidden layout, the hunter's state and the one seeded generator
//! every random event draws from (bat flights, swerving arrows, the waking wumpus). It takes one
//! [`Action`] at a time and answers with a [`Turn`]: a typed result ([`MoveResult`] or
//! [`ShotResult`]) and the [`Event`]s a player is told, in order. What the hunter knows between
//! turns is a [`Status`]; an agent sees only statuses and results, never the game itself.
//!
//! The rules, in brief (`docs/caves.md` has them all, with the decisions taken where the sources
//! are silent): the hunter may move only through an out-tunnel, any other room is refused
//! without counting a move; the wumpus or a pit kills; bats drop the hunter in a uniformly
//! random room, where everything applies again; the 100th survived move ends the game. An arrow
//! names 1 to 5 rooms; a path that doubles straight back is refused at no cost; each step flies
//! to the named room if a tunnel joins it either way, else down a random tunnel of the arrow's
//! room. After a miss the wumpus wakes and takes one of its out-tunnels or stays, each equally
//! likely. A kill scores `100 − moves`; every loss scores 0.
//!
//! `turn.rs` holds what the game and a player say to each other (actions, statuses, results,
//! events, endings); `game.rs` the simulator that plays by these rules.

mod game;
mod turn;

pub use game::ClassicGame;
pub use turn::{
    Action, ArrowPath, ArrowPathError, Ending, Event, LossCause, MoveResult, Room, ShotResult,
    Status, Turn, TurnResult, Variant, MAX_ARROW_ROOMS, MOVE_LIMIT,
};
