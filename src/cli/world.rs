//! `wumpus world`: make, check and draw the files games are played on (grid world files and
//! cave maps), through the library's world-file job ([`wumpus::run::world`]) for every rule
//! set: `new` deals as a game of the same flags deals its world.

use super::args::{parse_rule_set, GameArgs};
use super::{bad_input, printable};
use anyhow::Result;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use wumpus::game::{MapShape, RuleSet};
use wumpus::game_spec::{DoorOption, Spelling};
use wumpus::run::world;

/// The game options `world new` takes: those that shape the world it deals.
const DEALING: [&str; 3] = ["size", "deal", "pit_prob"];

#[derive(Subcommand, Debug)]
pub enum WorldCommand {
    /// Deal a random world and write it as a world file, or, with --rules cave|maze, a random
    /// cave map.
    #[command(after_help = "\
Examples:
  wumpus world new --seed 7 -o worlds/seven.txt
  wumpus world new --size 8x8 --pit-prob 0.1       (prints the file)
  wumpus world new --deal course --seed 5          (a world as the course dealt them)
  wumpus world new --rules aima --seed 7           (4x4, the textbook's default)
  wumpus world new --rules cave --seed 3 -o unseen.txt
  wumpus solve --rules cave --map unseen.txt --worlds 10000")]
    New(NewArgs),
    /// Check a world file or a cave map: prints what it holds, or each line at fault with what
    /// is wrong there (up to 20), and exits 2 if anything is.
    #[command(after_help = "\
Examples:
  wumpus world check worlds/seed-example.txt
  wumpus world check worlds/caves.dat")]
    Check {
        /// The world file, or a cave map.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Read the file as this rule set's (default: a cave map if its first line is one
        /// number, a grid world file otherwise).
        #[arg(long, value_parser = parse_rule_set)]
        rules: Option<RuleSet>,
    },
    /// Draw a world file's grid with its hazards, or a cave map's rooms and tunnels.
    #[command(
        after_help = "Examples:\n  wumpus world show worlds/seed-example.txt\n  wumpus world show worlds/caves.dat --seed 3\n  wumpus world show worlds/cave-standard.txt --hazards my-hazards.txt"
    )]
    Show {
        /// The world file, or a cave map.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        #[command(flatten)]
        cave: ShowFlags,
    },
}

/// `world new`'s flags: the game flags that shape a world, the map's shape, the seed and where
/// to write.
#[derive(Args, Debug)]
pub struct NewArgs {
    #[command(flatten)]
    rules: GameArgs,
    /// Seed of the random world (printed when not given); the world `play --seed` deals with
    /// the same flags.
    #[arg(long, value_parser = clap::value_parser!(u64), allow_negative_numbers = true)]
    seed: Option<u64>,
    /// Cave and maze: how many rooms (even for two-way tunnels; a game needs at least 6)
    /// [default: 20].
    #[arg(long, value_name = "N")]
    rooms: Option<usize>,
    /// Cave and maze: three one-way tunnels a room to three other rooms, every room still
    /// reaching every other (default: three two-way tunnels a room, as on the dodecahedron).
    #[arg(long)]
    one_way: bool,
    /// Write the world here (atomically) instead of printing it.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// `world show`'s flags for cave maps.
#[derive(Args, Debug, Clone)]
pub struct ShowFlags {
    /// Read the file as this rule set's (default: a cave map if its first line is one number).
    #[arg(long, value_parser = parse_rule_set)]
    pub rules: Option<RuleSet>,
    /// Mark the hazards from this hazard file on a cave map.
    #[arg(long, value_name = "FILE", conflicts_with = "seed")]
    pub hazards: Option<PathBuf>,
    /// Mark the hazards a game with this seed deals on a cave map.
    #[arg(long, value_parser = clap::value_parser!(u64), allow_negative_numbers = true)]
    pub seed: Option<u64>,
}

pub fn run(command: WorldCommand) -> Result<()> {
    match command {
        WorldCommand::New(args) => new(args),
        WorldCommand::Check { file, rules } => {
            let holds = world::check_file(&file, rules).map_err(bad_input)?;
            super::out(format!(
                "{}: ok ({holds})\n",
                printable(&file.display().to_string())
            ))
        }
        WorldCommand::Show { file, cave } => {
            let drawing =
                world::draw_file(&file, cave.rules, cave.hazards.as_deref(), cave.seed)
                    .map_err(|e| bad_input(anyhow::anyhow!("{}", e.spelled(Spelling::Flags))))?;
            super::out(drawing)
        }
    }
}

/// `world new`: a world file, or a cave map, printed or saved atomically.
fn new(args: NewArgs) -> Result<()> {
    let maps = |r: RuleSet| !wumpus::game_spec::facts(r).file_holds_all;
    let door = [
        DoorOption {
            name: "rooms",
            given: args.rooms.is_some(),
            fits: &maps,
        },
        DoorOption {
            name: "one_way",
            given: args.one_way,
            fits: &maps,
        },
    ];
    args.rules.check(&door)?;
    if let Some(other) = wumpus::game_spec::OPTIONS
        .iter()
        .find(|o| args.rules.given(o.name) && !DEALING.contains(&o.name))
    {
        return Err(bad_input(anyhow::anyhow!(
            "{} does not shape the world: `world new` takes {}",
            Spelling::Flags.spell(other.name, None),
            ["size", "deal", "pit_prob", "rooms", "one_way"]
                .map(|n| Spelling::Flags.spell(n, None))
                .join(", ")
        )));
    }
    let seed = args.seed.unwrap_or_else(wumpus::game_spec::fresh_seed);
    let shape = MapShape {
        rooms: args.rooms.unwrap_or(20),
        one_way: args.one_way,
    };
    let file = world::new_file(&args.rules.spec, seed, shape).map_err(super::args::spec_error)?;
    match args.output {
        Some(path) => {
            wumpus::files::save_atomically(&path, &file.text).map_err(bad_input)?;
            super::wrote(
                &path,
                format!(
                    "Wrote {} ({}, seed {seed}).\n",
                    printable(&path.display().to_string()),
                    file.words
                ),
            )
        }
        None if file.comments => super::out(format!(
            "# random {}, seed {seed}\n{}",
            file.words, file.text
        )),
        None => {
            // The format has no comments: the seed goes to standard error.
            eprintln!("# random {}, seed {seed}", file.words);
            super::out(file.text)
        }
    }
}
