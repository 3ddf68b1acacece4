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
use wumpus::game_spec::{Dealt, DoorOption, OnRules, Playable, Prepared};
use wumpus::rng::Dice;
use wumpus::run::Follower;

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

/// The chosen agent for a game, made as `trace` and `kb` make it: from the game's own setup
/// (a world file has its own size), its dice from the seed that dealt it.
pub fn agent_for<S: Playable>(
    game: &Prepared<S>,
    dealt: &Dealt<S>,
) -> Result<Box<dyn wumpus::agent::Agent<S>>> {
    let agents = game
        .agents_for(&dealt.session.setup())
        .map_err(super::args::spec_error)?;
    agents
        .make(&dealt.session.briefing(), dice(dealt))
        .map_err(bad_input)
}

/// A game's agent dice: from the seed that dealt it, or fresh.
pub fn dice<S>(dealt: &Dealt<S>) -> Dice {
    dealt.seed.map_or_else(Dice::fresh, Dice::for_game)
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
        let stdin = std::io::stdin();
        let interactive = stdin.is_terminal();
        let mut player = Player {
            hints: Hints::start(&game, &dealt.session, dice(&dealt)),
            seed: dealt.seed.unwrap_or(0),
            session: dealt.session,
            game,
            out: std::io::stdout().lock(),
            colour: interactive_colour(),
        };
        player.say(&format!("{title}. Type 'help' for the commands."))?;
        for line in player.session.intro() {
            player.say(&line)?;
        }
        let start = player.session.start();
        player.show(&start)?;
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
            let line = match input.next_line(player.session.prompt()) {
                Read::Line(line) => line,
                Read::NotText(why) => {
                    player.say(&format!("Invalid command: {why}."))?;
                    continue;
                }
                Read::End => {
                    return player.say(&format!(
                        "End of input: the game is left unfinished after {} {}.",
                        player.session.moves(),
                        text::plural(player.session.moves() as u64, "move", "moves")
                    ))
                }
                Read::Interrupted => {
                    return player.say(&format!(
                        "Interrupted: the game is left unfinished after {} {}.",
                        player.session.moves(),
                        text::plural(player.session.moves() as u64, "move", "moves")
                    ))
                }
                Read::Failed(e) => return Err(e),
            };
            // A transcript of piped play shows each command after the prompt, as a terminal
            // would.
            if !interactive {
                let shown = super::printable(line.trim_end());
                player.say(&format!("{}{shown}", player.session.prompt()))?;
            }
            if player.line(&line)? {
                return Ok(());
            }
        }
    }
}

/// The hint agent, told exactly what the player is told (the library's one follower); `Err`
/// with the reason when it cannot be prepared for this game (rules it cannot use).
struct Hints<S: Playable> {
    follower: Result<Follower<S>, String>,
}

impl<S: Playable> Hints<S> {
    /// A hint agent for `session`, which has just begun.
    fn start(game: &Prepared<S>, session: &S, dice: Dice) -> Hints<S> {
        let follower = game
            .agents_for(&session.setup())
            .map(|agents| Follower::new(agents.as_ref(), session, dice))
            .map_err(|e| e.spelled(wumpus::game_spec::Spelling::Flags));
        Hints { follower }
    }

    /// Tells the agent the player's `action` and what followed.
    fn tell(&mut self, action: &S::Action, shown: &S::Shown) {
        if let Ok(f) = &mut self.follower {
            f.tell(action, shown);
        }
    }
}

struct Player<S: Playable, W: Write> {
    session: S,
    game: Prepared<S>,
    hints: Hints<S>,
    seed: u64,
    out: W,
    colour: bool,
}

impl<S: Playable, W: Write> Player<S, W> {
    fn say(&mut self, text: &str) -> Result<()> {
        writeln!(self.out, "{text}")?;
        Ok(())
    }

    fn show(&mut self, shown: &S::Shown) -> Result<()> {
        for line in self.session.describe(shown) {
            self.say(&line)?;
        }
        Ok(())
    }

    /// Plays one line; true when the game is over or left.
    fn line(&mut self, line: &str) -> Result<bool> {
        let command = match self.session.parse_command(line) {
            Ok(c) => c,
            Err(e) => {
                self.say(&format!("Invalid command: {}.", super::printable(&e)))?;
                return Ok(false);
            }
        };
        match command {
            Command::Act(action) => {
                let shown = self.session.act(&action);
                self.hints.tell(&action, &shown);
                self.show(&shown)?;
                return Ok(self.session.ending().is_some());
            }
            Command::Help => {
                let help = self.session.help();
                self.say(help)?;
            }
            Command::Hint => self.hint()?,
            Command::Quit => {
                let moves = self.session.moves();
                self.say(&format!(
                    "You leave the game unfinished after {moves} {}.",
                    text::plural(moves as u64, "move", "moves")
                ))?;
                return Ok(true);
            }
            Command::Load(file) => {
                match S::load(&self.session.setup(), Path::new(&file), self.seed) {
                    Ok(session) => {
                        self.session = session;
                        let dice = Dice::for_game(self.seed);
                        self.hints = Hints::start(&self.game, &self.session, dice);
                        let title = self.session.title();
                        let file = super::printable(&file);
                        self.say(&format!("Loaded {file}: a new game begins ({title})."))?;
                        for line in self.session.intro() {
                            self.say(&line)?;
                        }
                        let start = self.session.start();
                        self.show(&start)?;
                    }
                    Err(e) => self.say(&format!(
                        "Cannot load: {}",
                        super::printable(&e.to_string())
                    ))?,
                }
            }
            Command::Save(file) => match self.session.save(Path::new(&file)) {
                Ok(()) => self.say(&format!(
                    "Saved this game's {} to {}.",
                    S::FILE,
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
        let hint = match &mut self.hints.follower {
            Ok(follower) => follower.hint(&self.session),
            Err(why) => Err(why.clone()),
        };
        let text = match hint {
            Ok(event) => text::hint_text(&event, &self.session.board(), self.colour),
            Err(why) => format!("No hint: {why}."),
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
