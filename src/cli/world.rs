//! `wumpus world`: make, check and draw world files.

use super::{bad_input, GridSize};
use anyhow::Result;
use clap::Subcommand;
use std::path::PathBuf;
use std::sync::Arc;
use wumpus::grid::{self, GridWorld};
use wumpus::topology::Topology;

#[derive(Subcommand, Debug)]
pub enum WorldCommand {
    /// Deal a random world and write it as a world file.
    #[command(after_help = "\
Examples:
  wumpus world new --seed 7 -o worlds/seven.txt
  wumpus world new --size 8x8 --pit-prob 0.1       (prints the file)")]
    New {
        /// Seed of the random world (printed when not given).
        #[arg(long)]
        seed: Option<u64>,
        /// Grid size, rows x columns.
        #[arg(long, default_value = "5x5")]
        size: GridSize,
        /// Probability that a cell other than 0,0 holds a pit.
        #[arg(long, default_value = "0.2", value_parser = super::parse_probability)]
        pit_prob: f64,
        /// Write the world here (atomically) instead of printing it.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Check a world file; prints what is wrong, with the line, and exits 2 if anything is.
    #[command(after_help = "Example:\n  wumpus world check worlds/seed-example.txt")]
    Check {
        /// The world file.
        file: PathBuf,
    },
    /// Draw a world file's grid with its hazards.
    #[command(after_help = "Example:\n  wumpus world show worlds/seed-example.txt")]
    Show {
        /// The world file.
        file: PathBuf,
    },
}

pub fn run(command: WorldCommand) -> Result<()> {
    match command {
        WorldCommand::New {
            seed,
            size,
            pit_prob,
            output,
        } => {
            let seed = seed.unwrap_or_else(wumpus::rng::fresh_seed);
            let topology = Arc::new(Topology::grid(size.rows, size.cols).map_err(bad_input)?);
            let world = GridWorld::random(topology, pit_prob, &mut wumpus::rng::seeded(seed));
            match output {
                Some(path) => {
                    grid::save_world(&path, &world)?;
                    super::out(format!("Wrote {} ({size}, seed {seed}).\n", path.display()))?;
                }
                None => {
                    super::out(format!(
                        "# random {size} world, seed {seed}, pit probability {pit_prob}\n{}",
                        grid::format_world(&world)
                    ))?;
                }
            }
            Ok(())
        }
        WorldCommand::Check { file } => {
            let world = grid::read_world(&file).map_err(bad_input)?;
            let (rows, cols) = world.size();
            super::out(format!(
                "{}: ok ({rows}x{cols}, {} pits)\n",
                file.display(),
                world.pits().count()
            ))?;
            Ok(())
        }
        WorldCommand::Show { file } => {
            let world = grid::read_world(&file).map_err(bad_input)?;
            super::out(grid::draw_world(&world))?;
            Ok(())
        }
    }
}
