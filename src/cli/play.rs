//! `wumpus play`: a game by hand on standard input and output.
//!
//! Commands are read one a line, so the game works typed or piped. An invalid command prints
//! why and asks again; end of input ends the game cleanly, like `quit`. The prompt is shown only
//! when standard input is a terminal, so piped transcripts stay clean.

use super::{bad_input, grid_world, GridWorldArgs, ScoringArg};
use anyhow::Result;
use clap::Args;
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use wumpus::grid::{self, Command, GridGame, Scoring, Turn};

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    world: GridWorldArgs,
    /// How the final score is counted.
    #[arg(long, value_enum, default_value_t)]
    scoring: ScoringArg,
    #[command(flatten)]
    cave: super::cave::CaveFlags,
}

pub fn run(args: PlayArgs) -> Result<()> {
    if super::cave::play_if_cave(&args.cave, args.world.seed, args.world.world.as_deref())? {
        return Ok(());
    }
    let (world, seed) = grid_world(&args.world)?;
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    let mut session = Session {
        game: GridGame::new(world),
        scoring: args.scoring.into(),
        out: std::io::stdout().lock(),
    };
    let (rows, cols) = session.game.world().size();
    match seed {
        Some(seed) => session.say(&format!(
            "Wumpus World, {rows}x{cols}, seed {seed} (replay with --seed {seed}). Type 'help' for the commands."
        ))?,
        None => session.say(&format!(
            "Wumpus World, {rows}x{cols}. Type 'help' for the commands."
        ))?,
    }
    let start = session.game.start();
    session.report(&start)?;
    let mut lines = stdin.lock().lines();
    loop {
        if interactive {
            write!(session.out, "> ")?;
            session.out.flush()?;
        }
        let Some(line) = lines.next() else {
            session.say(&format!(
                "End of input: the game is left unfinished after {} moves.",
                session.game.moves()
            ))?;
            return Ok(());
        };
        let line = line.map_err(bad_input)?;
        match grid::parse_command(&line) {
            Err(e) => session.say(&format!("Invalid command: {e}."))?,
            Ok(Command::Help) => session.say(grid::command::HELP)?,
            Ok(Command::Quit) => {
                session.say(&format!(
                    "You leave the game unfinished after {} moves.",
                    session.game.moves()
                ))?;
                return Ok(());
            }
            Ok(Command::Hint) => session.say("No agent is available for hints yet.")?,
            Ok(Command::Load(file)) => match grid::read_world(Path::new(&file)) {
                Ok(world) => {
                    session.game = GridGame::new(world);
                    let (rows, cols) = session.game.world().size();
                    session.say(&format!("Loaded {file}: a new {rows}x{cols} game begins."))?;
                    let start = session.game.start();
                    session.report(&start)?;
                }
                Err(e) => session.say(&format!("Cannot load: {e}"))?,
            },
            Ok(Command::Save(file)) => {
                match grid::save_world(Path::new(&file), session.game.world()) {
                    Ok(()) => session.say(&format!("Saved this game's world to {file}."))?,
                    Err(e) => session.say(&format!("Cannot save: {e}"))?,
                }
            }
            Ok(Command::Act(action)) => {
                let turn = session.game.act(action);
                session.report(&turn)?;
                if let Some(score) = session.game.score(session.scoring) {
                    session.say(&format!("Score: {score}"))?;
                    return Ok(());
                }
            }
        }
    }
}

struct Session<W: Write> {
    game: GridGame,
    scoring: Scoring,
    out: W,
}

impl<W: Write> Session<W> {
    fn say(&mut self, text: &str) -> Result<()> {
        writeln!(self.out, "{text}")?;
        Ok(())
    }

    fn report(&mut self, turn: &Turn) -> Result<()> {
        let line: Vec<&str> = turn.messages.iter().map(|m| m.text()).collect();
        self.say(&line.join(" "))
    }
}
