//! `wumpus kb --dimacs`: the grounded knowledge base of a traced game, as DIMACS CNF.

use super::{bad_input, grid_world, GridWorldArgs, ScoringArg};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::sync::Arc;
use wumpus::run::{grid_agent_at, GameOptions};

#[derive(Args, Debug)]
pub struct KbArgs {
    /// Write the knowledge base as DIMACS CNF, with a comment table naming each variable.
    #[arg(long, required = true)]
    dimacs: bool,
    #[command(flatten)]
    world: GridWorldArgs,
    /// The knowledge base after this many steps of the traced game (as `trace` numbers
    /// them); default: its last step.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    step: Option<u64>,
    /// How the final score is counted (the risk agent's choices depend on it).
    #[arg(long, value_enum, default_value_t)]
    scoring: ScoringArg,
    /// Reason with the rules in this file instead of the built-in kb/grid.kb.
    #[arg(long)]
    kb: Option<PathBuf>,
    /// Which agent plays: risk (the default) or logic.
    #[arg(long, value_enum)]
    agent: Option<super::AgentArg>,
}

pub fn run(args: KbArgs) -> Result<()> {
    let _ = args.dimacs;
    let (world, seed) = grid_world(&args.world)?;
    let rules = match &args.kb {
        Some(path) => Some(Arc::new(super::read_rules(path)?)),
        None => None,
    };
    let options = GameOptions {
        agent: super::AgentArg::grid_agent(args.agent)?,
        explain: true,
        scoring: args.scoring.into(),
        rules,
        pit_prob: args.world.pit_prob,
    };
    let (rows, cols) = world.size();
    let step = args.step.map(|s| s as usize);
    let (agent, at) = grid_agent_at(world, &options, step).map_err(bad_input)?;
    let topology = agent.kb().topology().clone();
    let labels = |places: Vec<wumpus::topology::Place>| {
        places
            .iter()
            .map(|&p| topology.label(p))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut text = match seed {
        Some(s) => format!("c world: random {rows}x{cols}, seed {s}\n"),
        None => format!("c world: {rows}x{cols} from a file\n"),
    };
    text.push_str(&format!(
        "c step {at} at {}; wumpus alive: {}\n",
        topology.label(agent.position()),
        agent.wumpus_alive()
    ));
    text.push_str(&format!(
        "c proven safe (no pit, and no live wumpus): {}\n",
        labels(agent.proven_safe())
    ));
    text.push_str(&format!("c proven pit: {}\n", labels(agent.proven_pits())));
    text.push_str(&format!(
        "c proven wumpus: {}\n",
        labels(agent.proven_wumpus().into_iter().collect())
    ));
    text.push_str(&agent.kb().to_dimacs());
    super::out(text)
}
