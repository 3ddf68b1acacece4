//! `wumpus world`: make, check and draw world files.

use super::args::{on_map, parse_rule_set};
use super::bad_input;
use anyhow::Result;
use clap::{Args, Subcommand};
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;
use wumpus::cave::{self, ClassicHazards, MapFormat, MazeHazards, Rules, Tunnels};
use wumpus::game::RuleSet;
use wumpus::game_spec::{GameSpec, GridSizes, Value};
use wumpus::grid::{self, GridWorld};
use wumpus::rng::seeded;
use wumpus::topology::Topology;

/// One grid size, read as the library reads `size`.
fn one_size(s: &str) -> Result<(usize, usize), String> {
    match GridSizes::parse(s)? {
        GridSizes::One(rows, cols) => Ok((rows, cols)),
        GridSizes::Range(_) => Err("a world file has one size, not a range".into()),
    }
}

/// A probability, read as the library reads `pit_prob`.
fn probability(s: &str) -> Result<f64, String> {
    let mut spec = GameSpec::default();
    spec.set("pit_prob", &Value::Text(s.into()))
        .map_err(|e| e.to_string().replacen("pit_prob: ", "", 1))?;
    Ok(spec.pit_prob.expect("just set"))
}

#[derive(Subcommand, Debug)]
pub enum WorldCommand {
    /// Deal a random world and write it as a world file, or, with --rules cave|maze, a random
    /// cave map.
    #[command(after_help = "\
Examples:
  wumpus world new --seed 7 -o worlds/seven.txt
  wumpus world new --size 8x8 --pit-prob 0.1       (prints the file)
  wumpus world new --deal course --seed 5          (a world as the course dealt them)
  wumpus world new --rules cave --seed 3 -o unseen.txt
  wumpus solve --rules cave --map unseen.txt --worlds 10000")]
    New {
        /// Seed of the random world (printed when not given).
        #[arg(long, value_parser = clap::value_parser!(u64), allow_negative_numbers = true)]
        seed: Option<u64>,
        /// What to deal: a grid world file (grid and aima, the default), or a cave map (cave: the
        /// event's format; maze: caves.dat, caves named Cave 0, Cave 1, ...).
        #[arg(long, value_parser = parse_rule_set)]
        rules: Option<RuleSet>,
        /// Grid size, rows x columns.
        #[arg(long, default_value = "5x5", conflicts_with = "deal", value_parser = one_size)]
        size: (usize, usize),
        /// Deal as `course` does: the course tournament's sizes and pits (docs/rules.md).
        #[arg(long, value_parser = ["uniform", "course"])]
        deal: Option<String>,
        /// Probability that a cell other than 0,0 holds a pit.
        #[arg(long, default_value = "0.2", value_parser = probability, allow_negative_numbers = true)]
        pit_prob: f64,
        /// Cave and maze: how many rooms (even for two-way tunnels; a game needs at least 6)
        /// [default: 20].
        #[arg(long)]
        rooms: Option<usize>,
        /// Cave and maze: three one-way tunnels a room to three other rooms, every room still
        /// reaching every other (default: three two-way tunnels a room, as on the dodecahedron).
        #[arg(long)]
        one_way: bool,
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
        cave: ShowFlags,
    },
    /// Draw a world file's grid with its hazards, or a cave map's rooms and tunnels.
    #[command(
        after_help = "Examples:\n  wumpus world show worlds/seed-example.txt\n  wumpus world show worlds/caves.dat --seed 3\n  wumpus world show worlds/cave-standard.txt --hazards my-hazards.txt"
    )]
    Show {
        /// The world file, or a cave map.
        file: PathBuf,
        #[command(flatten)]
        cave: ShowFlags,
    },
}

pub fn run(command: WorldCommand) -> Result<()> {
    match command {
        WorldCommand::New {
            seed,
            rules,
            size,
            deal,
            pit_prob,
            rooms,
            one_way,
            output,
        } => {
            let seed = seed.unwrap_or_else(wumpus::rng::fresh_seed);
            if let Some((_, format)) = rules.and_then(on_map) {
                if deal.is_some() {
                    return Err(bad_input(anyhow::anyhow!(
                        "--deal deals grid worlds; a cave map is dealt by --rooms and --one-way"
                    )));
                }
                return new_map(
                    format,
                    rooms.unwrap_or(20),
                    one_way,
                    seed,
                    output.as_deref(),
                );
            }
            if rooms.is_some() || one_way {
                return Err(bad_input(anyhow::anyhow!(
                    "--rooms and --one-way deal cave maps: add --rules cave (or maze)"
                )));
            }
            let world = if deal.as_deref() == Some("course") {
                grid::course::deal_course_world(pit_prob, &mut wumpus::rng::seeded(seed))
            } else {
                let topology = Arc::new(Topology::grid(size.0, size.1).map_err(bad_input)?);
                GridWorld::random(topology, pit_prob, &mut wumpus::rng::seeded(seed))
            };
            let (rows, cols) = world.size();
            let size = format!("{rows}x{cols}");
            match output {
                Some(path) => {
                    grid::save_world(&path, &world).map_err(bad_input)?;
                    super::wrote(
                        &path,
                        format!("Wrote {} ({size}, seed {seed}).\n", path.display()),
                    )?;
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
            if is_cave_map(&file, &cave)? {
                return check_map(&file);
            }
            refuse_for_grid(&cave)?;
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
            if is_cave_map(&file, &cave)? {
                return show_map(&file, &cave);
            }
            refuse_for_grid(&cave)?;
            let world = grid::read_world(&file).map_err(bad_input)?;
            super::out(grid::draw_world(&world))?;
            Ok(())
        }
    }
}

/// `world new --rules cave|maze`: a random map, printed or saved atomically.
fn new_map(
    format: MapFormat,
    rooms: usize,
    one_way: bool,
    seed: u64,
    output: Option<&Path>,
) -> Result<()> {
    let (tunnels, kind) = if one_way {
        (Tunnels::OneWay, "one-way")
    } else {
        (Tunnels::TwoWay, "two-way")
    };
    let map = cave::random_map(rooms, tunnels, 1, format, &mut seeded(seed)).map_err(bad_input)?;
    match output {
        Some(path) => {
            cave::save_map(path, &map).map_err(bad_input)?;
            super::wrote(
                path,
                format!(
                    "Wrote {} ({rooms} rooms, {kind} tunnels, seed {seed}).\n",
                    path.display()
                ),
            )
        }
        None => {
            // Neither map format has comments: the seed goes to standard error.
            eprintln!("# random {rooms}-room map, {kind} tunnels, seed {seed}");
            super::out(cave::format_map(&map))
        }
    }
}

/// `world show`'s and `world check`'s flags for cave maps.
#[derive(Args, Debug, Clone)]
pub struct ShowFlags {
    /// Read the file as this rule set's (default: a cave map if its first line is one number).
    #[arg(long, value_parser = parse_rule_set)]
    pub rules: Option<RuleSet>,
    /// Mark the hazards from this hazard file on a cave map.
    #[arg(long, conflicts_with = "seed")]
    pub hazards: Option<PathBuf>,
    /// Mark the hazards a game with this seed deals on a cave map.
    #[arg(long, value_parser = clap::value_parser!(u64), allow_negative_numbers = true)]
    pub seed: Option<u64>,
}

/// True when `file` should be read as a cave map: `--rules cave|maze`, or no `--rules` and a
/// first line of one number.
fn is_cave_map(file: &Path, flags: &ShowFlags) -> Result<bool> {
    match flags.rules {
        Some(rules) => Ok(on_map(rules).is_some()),
        None => {
            let text = wumpus::files::read_text(file).map_err(bad_input)?;
            Ok(cave::map::looks_like_cave_map(&text))
        }
    }
}

/// Refuses the cave-only flags on a grid world.
fn refuse_for_grid(flags: &ShowFlags) -> Result<()> {
    if flags.hazards.is_some() || flags.seed.is_some() {
        return Err(bad_input(anyhow::anyhow!(
            "--hazards and --seed are for cave maps; a grid world file holds its own hazards"
        )));
    }
    Ok(())
}

/// `world show` for a cave map: its rooms and tunnels, and the hazards when asked.
fn show_map(file: &Path, flags: &ShowFlags) -> Result<()> {
    let map = cave::read_map(file).map_err(bad_input)?;
    // Hazards are classic unless the rules say maze, or, with no rules given, the map is a
    // caves.dat.
    let rules = match flags.rules.and_then(on_map) {
        Some((rules, _)) => rules,
        None if map.format() == MapFormat::CavesDat => Rules::Maze,
        None => Rules::Classic,
    };
    let tags = match (rules, &flags.hazards, flags.seed) {
        (_, None, None) => None,
        (Rules::Classic, Some(path), _) => Some(
            cave::read_classic_hazards(path, &map)
                .map_err(bad_input)?
                .tags(&map),
        ),
        (Rules::Maze, Some(path), _) => Some(
            cave::read_maze_hazards(path, &map)
                .map_err(bad_input)?
                .tags(&map),
        ),
        (Rules::Classic, None, Some(seed)) => Some(
            ClassicHazards::deal(&map, &mut seeded(seed))
                .map_err(bad_input)?
                .tags(&map),
        ),
        (Rules::Maze, None, Some(seed)) => Some(
            MazeHazards::deal(&map, &mut seeded(seed))
                .map_err(bad_input)?
                .tags(&map),
        ),
    };
    super::out(cave::draw_map(&map, tags.as_ref()))
}

/// `world check` for a cave map.
fn check_map(file: &Path) -> Result<()> {
    let map = cave::read_map(file).map_err(bad_input)?;
    let mut one_way = 0;
    let mut to_itself = 0;
    for room in map.rooms() {
        for &to in map.outs(room) {
            if to == room {
                to_itself += 1;
            } else if !map.outs(to).contains(&room) {
                one_way += 1;
            }
        }
    }
    super::out(format!(
        "{}: ok ({}, {} rooms, {one_way} one-way tunnels, {to_itself} tunnels to their own room)\n",
        file.display(),
        map.format().name(),
        map.len()
    ))
}
