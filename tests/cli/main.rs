//! The command line, end to end: every command run as the real binary, for every rule set; the bot protocols; hostile files; fixed-seed decisions (identity); the layout of the crates.
//!
//! One test binary: each file below is a module of it (tests named `module::test`).

#[path = "../common/mod.rs"]
#[allow(dead_code)]
mod common;

mod aima;
mod bad_input;
mod batch;
mod bot_protocol;
mod cave;
mod cave_agent;
mod contradiction;
mod course;
mod dimacs;
mod docs;
mod files_hardening;
mod grid;
mod identity;
mod layout;
mod maze_discovered;
mod optimal;
mod rules;
mod walkthrough;
