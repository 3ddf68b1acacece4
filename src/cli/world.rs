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
        /// The world file, or a cave map.
        file: PathBuf,
        #[command(flatten)]
        cave: super::cave::ShowFlags,
    },
    /// Draw a world file's grid with its hazards, or a cave map's rooms and tunnels.
    #[command(
        after_help = "Examples:\n  wumpus world show worlds/seed-example.txt\n  wumpus world show worlds/caves.dat --seed 3\n  wumpus world show worlds/cave-standard.txt --hazards my-hazards.txt"
    )]
    Show {
        /// The world file, or a cave map.
        file: PathBuf,
        #[command(flatten)]
        cave: super::cave::ShowFlags,
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
        WorldCommand::Check { file, cave } => {
            if super::cave::is_cave_map(&file, &cave)? {
                return super::cave::check_map(&file);
            }
            super::cave::refuse_for_grid(&cave)?;
            let world = grid::read_world(&file).map_err(bad_input)?;
            let (rows, cols) = world.size();
            super::out(format!(
                "{}: ok ({rows}x{cols}, {} pits)\n",
                file.display(),
                world.pits().count()
            ))?;
            Ok(())
        }
        WorldCommand::Show { file, cave } => {
            if super::cave::is_cave_map(&file, &cave)? {
                return super::cave::show_map(&file, &cave);
            }
            super::cave::refuse_for_grid(&cave)?;
            let world = grid::read_world(&file).map_err(bad_input)?;
            super::out(grid::draw_world(&world))?;
            Ok(())
        }
    }
}
