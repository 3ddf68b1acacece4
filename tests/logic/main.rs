//! The library's reasoning against brute force and properties: the knowledge bases, odds and optimal values checked by enumeration on small worlds; the parsers fuzzed; and the safety run, in which no agent steps where it proved safe and dies.
//!
//! One test binary: each file below is a module of it (tests named `module::test`).

#[path = "../common/mod.rs"]
#[allow(dead_code)]
mod common;

mod agent_props;
mod cave_bruteforce;
mod kb_bruteforce;
mod maze_bruteforce;
mod optimal_bruteforce;
mod parser_fuzz;
mod safety;
