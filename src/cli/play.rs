//! `wumpus play`: a game by hand on standard input and output, for every rule set, with a
//! `hint` that asks the agent, told exactly what the player was told.
//!
//! Commands are read one a line, so the game works typed or piped. An invalid command prints
//! why and asks again; end of input ends the game cleanly, like `quit`. On a terminal, lines
//! are edited with history (rustyline) and the prompt shows; piped input is read plainly.

use super::args::{holds, GameArgs};
use super::{bad_input, text};
use anyhow::Result;
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use wumpus::game::{Command, Files, Words};
use wumpus::game_spec::{Dealt, DoorOption, OnRules, Playable, Prepared, Spelling};
use wumpus::run::game::{Agents, Played};

/// Which game to play: a seed, or a file.
#[derive(Args, Debug, Clone, Default)]
pub struct WorldArgs {
    /// Seed of the random game (printed when not given, so the game can be replayed).
    #[arg(long, value_parser = clap::value_parser!(u64), allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Grid: play on the world in this file instead of a random one.
    #[arg(long, value_name = "FILE", conflicts_with = "seed")]
    pub world: Option<PathBuf>,
    /// Cave and maze: start on the hazards in this file instead of dealing them.
    #[arg(long, value_name = "FILE")]
    pub hazards: Option<PathBuf>,
}

impl WorldArgs {
    /// Checks `rules` with these flags beside it: `--world` fits the rule sets whose games
    /// a world file holds, `--hazards` those a hazards file holds.
    pub fn check(&self, rules: &GameArgs) -> Result<()> {
        rules.check(&self.door())?;
        rules.spec.check_agent().map_err(super::args::spec_error)
    }

    /// [`WorldArgs::check`] but for the agent.
    pub fn check_game(&self, rules: &GameArgs) -> Result<()> {
        rules.check(&self.door())
    }

    fn door(&self) -> [DoorOption<'static>; 2] {
        [
            DoorOption {
                name: "world",
                given: self.world.is_some(),
                fits: &|r| holds("world")(r),
            },
            DoorOption {
                name: "hazards",
                given: self.hazards.is_some(),
                fits: &|r| holds("hazards")(r),
            },
        ]
    }

    /// The game these flags name: dealt from the seed, or loaded from the file.
    pub fn session<S: Playable>(&self, game: &Prepared<S>) -> Result<Dealt<S>> {
        let file = self.world.as_deref().or(self.hazards.as_deref());
        game.deal(self.seed, file).map_err(bad_input)
    }
}

/// The game's first line, with how to replay it from the command line.
pub fn title<S: Files + Words>(dealt: &Dealt<S>) -> String {
    match dealt.seed {
        Some(seed) => format!("{} (replay with --seed {seed})", dealt.title()),
        None => dealt.title(),
    }
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    rules: GameArgs,
    #[command(flatten)]
    world: WorldArgs,
}

pub fn run(args: PlayArgs) -> Result<()> {
    // A person plays: the agent only gives hints, so one that does not fit this game leaves
    // `hint` saying why rather than refusing the game.
    args.world.check_game(&args.rules)?;
    args.rules.dispatch(Play { world: args.world }, true)
}

struct Play {
    world: WorldArgs,
}

impl OnRules for Play {
    type Out = Result<()>;

    fn run<S: Playable>(self, game: Prepared<S>) -> Result<()> {
        let dealt = self.world.session(&game)?;
        let title = title(&dealt);
        let agents = Agents::new(game);
        let stdin = std::io::stdin();
        let interactive = stdin.is_terminal();
        let mut player = Player {
            played: Played::new(&agents, dealt),
            out: std::io::stdout().lock(),
            colour: interactive_colour(),
        };
        player.say(&format!("{title}. Type 'help' for the commands."))?;
        let opening = player.played.opening();
        for line in &opening[1..] {
            player.say(line)?;
        }
        let mut input = Input::new(interactive, &stdin);
        if !interactive {
            // Piped input blocks in a plain read, which Ctrl-C cannot interrupt: say so and
            // leave (on a terminal the line editor reports Ctrl-C itself, below).
            let _ = ctrlc::set_handler(|| {
                // Standard output is held by the game loop: the word goes to standard error.
                eprintln!("\nInterrupted: the game is left unfinished.");
                std::process::exit(130);
            });
        }
        loop {
            player.out.flush()?;
            let session = player.played.session();
            let line = match input.next_line(session.prompt()) {
                Read::Line(line) => line,
                Read::NotText(why) => {
                    player.say(&format!("Invalid command: {why}."))?;
                    continue;
                }
                Read::End => return player.left("End of input: the game is left unfinished"),
                Read::Interrupted => {
                    return player.left("Interrupted: the game is left unfinished")
                }
                Read::Failed(e) => return Err(e),
            };
            // A transcript of piped play shows each command after the prompt, as a terminal
            // would.
            if !interactive {
                let shown = super::printable(line.trim_end());
                let prompt = player.played.session().prompt();
                player.say(&format!("{prompt}{shown}"))?;
            }
            if player.line(&line)? {
                return Ok(());
            }
        }
    }
}

/// A person's game on the terminal: the library's played game, told each command.
struct Player<S: Playable, W: Write> {
    played: Played<S>,
    out: W,
    colour: bool,
}

impl<S: Playable, W: Write> Player<S, W> {
    fn say(&mut self, text: &str) -> Result<()> {
        writeln!(self.out, "{text}")?;
        Ok(())
    }

    fn show(&mut self, shown: &S::Shown) -> Result<()> {
        for line in self.played.session().describe(shown) {
            self.say(&line)?;
        }
        Ok(())
    }

    /// Says the game is left unfinished (`why`), after its moves so far.
    fn left(&mut self, why: &str) -> Result<()> {
        let moves = self.played.session().moves();
        self.say(&format!(
            "{why} after {moves} {}.",
            text::plural(moves as u64, "move", "moves")
        ))
    }

    /// Plays one line; true when the game is over or left.
    fn line(&mut self, line: &str) -> Result<bool> {
        let command = match self.played.session().parse_command(line) {
            Ok(c) => c,
            Err(e) => {
                self.say(&format!("Invalid command: {}.", super::printable(&e)))?;
                return Ok(false);
            }
        };
        match command {
            Command::Act(action) => {
                let acted = self.played.act(&action);
                self.show(&acted.shown)?;
                return Ok(self.played.over());
            }
            Command::Help => {
                let help = self.played.session().help();
                self.say(help)?;
            }
            Command::Hint => self.hint()?,
            Command::Quit => {
                let moves = self.played.session().moves();
                self.say(&format!(
                    "You leave the game unfinished after {moves} {}.",
                    text::plural(moves as u64, "move", "moves")
                ))?;
                return Ok(true);
            }
            Command::Load(file) => match self.played.load(Path::new(&file)) {
                Ok(()) => {
                    let title = self.played.session().title();
                    let file = super::printable(&file);
                    self.say(&format!("Loaded {file}: a new game begins ({title})."))?;
                    let opening = self.played.opening();
                    for line in &opening[1..] {
                        self.say(line)?;
                    }
                }
                Err(e) => self.say(&format!(
                    "Cannot load: {}",
                    super::printable(&e.to_string())
                ))?,
            },
            Command::Save(file) => match self.played.session().save(Path::new(&file)) {
                Ok(()) => self.say(&format!(
                    "Saved this game's {} to {}.",
                    S::FACTS.file,
                    super::printable(&file)
                ))?,
                Err(e) => self.say(&format!(
                    "Cannot save: {}",
                    super::printable(&e.to_string())
                ))?,
            },
        }
        Ok(false)
    }

    /// Asks the agent what it would do, and shows what the player knows.
    fn hint(&mut self) -> Result<()> {
        let text = match self.played.hint() {
            Ok(event) => text::hint_text(&event, &self.played.session().board(), self.colour),
            Err(why) => format!("No hint: {}.", why.spelled(Spelling::Flags)),
        };
        self.say(&text)
    }
}

/// What reading a line gave.
enum Read {
    Line(String),
    /// A line that is not UTF-8 text: refused like any invalid command.
    NotText(String),
    End,
    Interrupted,
    /// Input that cannot be read, or a line over the limit: the game ends with status 2.
    Failed(anyhow::Error),
}

/// Where commands come from: a line editor with history on a terminal, plain lines otherwise
/// (piped transcripts, tests).
enum Input<'a> {
    Editor(Box<rustyline::DefaultEditor>),
    Plain(std::io::StdinLock<'a>, usize),
}

impl<'a> Input<'a> {
    fn new(interactive: bool, stdin: &'a std::io::Stdin) -> Input<'a> {
        if interactive {
            if let Ok(editor) = rustyline::DefaultEditor::new() {
                return Input::Editor(Box::new(editor));
            }
        }
        Input::Plain(stdin.lock(), 0)
    }

    fn next_line(&mut self, prompt: &str) -> Read {
        match self {
            Input::Plain(input, read) => match super::read_command_line(input, {
                *read += 1;
                *read
            }) {
                Ok(None) => Read::End,
                Ok(Some(Ok(line))) => Read::Line(line),
                Ok(Some(Err(why))) => Read::NotText(why),
                Err(e) => Read::Failed(e),
            },
            Input::Editor(editor) => match editor.readline(prompt) {
                Ok(line) => {
                    if !line.trim().is_empty() {
                        let _ = editor.add_history_entry(line.as_str());
                    }
                    Read::Line(line)
                }
                Err(rustyline::error::ReadlineError::Eof) => Read::End,
                Err(rustyline::error::ReadlineError::Interrupted) => Read::Interrupted,
                Err(rustyline::error::ReadlineError::Io(e)) => Read::Failed(bad_input(e)),
                Err(e) => Read::Failed(bad_input(anyhow::anyhow!("{e}"))),
            },
        }
    }
}

/// Colour when standard output is a terminal and `NO_COLOR` is unset or empty
/// (<https://no-color.org>).
fn interactive_colour() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}
