//! `wumpus play`: a game by hand on standard input and output, for every rule set, with a
//! `hint` that asks the agent, told exactly what the player was told.
//!
//! Commands are read one a line, so the game works typed or piped. An invalid command prints
//! why and asks again; end of input ends the game cleanly, like `quit`. On a terminal, lines
//! are edited with history (rustyline) and the prompt shows; piped input is read plainly.

use super::args::{OnGame, Playable, Prepared, RuleArgs};
use super::{bad_input, text};
use anyhow::Result;
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use wumpus::agent::{Agent, AgentError, AgentFactory, Conclusion, Dice};
use wumpus::game::{Command, Files, RuleSet, Session, Words};
use wumpus::run::event::hint_event;

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
    /// These flags, with the rule sets each fits, for [`RuleArgs::check`].
    pub fn fits(&self) -> [(&'static str, bool, &'static [RuleSet]); 2] {
        [
            ("--world", self.world.is_some(), &RuleSet::ON_GRID),
            ("--hazards", self.hazards.is_some(), &RuleSet::ON_MAP),
        ]
    }

    /// The game these flags name, its seed, and the file it came from.
    pub fn session<S: Files>(&self, setup: &S::Setup) -> Result<Loaded<S>> {
        let file = self.world.as_deref().or(self.hazards.as_deref());
        let seed = self.seed.unwrap_or_else(wumpus::rng::fresh_seed);
        let session = match file {
            Some(path) => S::load(setup, path, seed).map_err(bad_input)?,
            None => S::deal(setup, seed).map_err(bad_input)?,
        };
        let seeded = file.is_none() || !S::FILE_HOLDS_ALL;
        Ok(Loaded {
            session,
            seed: seeded.then_some(seed),
            file: file.map(Path::to_path_buf),
        })
    }
}

/// A game loaded or dealt for one command.
pub struct Loaded<S> {
    /// The game.
    pub session: S,
    /// The seed that deals or replays it, if one does.
    pub seed: Option<u64>,
    /// The file it came from, if one.
    pub file: Option<PathBuf>,
}

impl<S: Files + Words> Loaded<S> {
    /// The game's first line: what it is, where it came from, and how to replay it.
    pub fn title(&self) -> String {
        let mut t = self.session.title();
        if let Some(f) = &self.file {
            t.push_str(&format!(", {} from {}", S::FILE, f.display()));
        }
        if let Some(seed) = self.seed {
            t.push_str(&format!(", seed {seed} (replay with --seed {seed})"));
        }
        t
    }
}

impl<S: Playable> Loaded<S> {
    /// The chosen agent for this game, made as `trace` and `kb` make it: from the game's own
    /// setup (a world file has its own size) and the seed that dealt it.
    pub fn agent(&self, game: &Prepared<S>) -> Result<Box<dyn Agent<S>>> {
        let agents =
            S::prepare(game.agent, &self.session.setup(), &game.options).map_err(bad_input)?;
        agents
            .make(&self.session.briefing(), Dice(self.seed.unwrap_or(0)))
            .map_err(bad_input)
    }
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    world: WorldArgs,
}

pub fn run(args: PlayArgs) -> Result<()> {
    args.rules.check(&args.world.fits())?;
    args.rules.dispatch(Play { world: args.world }, true)
}

struct Play {
    world: WorldArgs,
}

impl OnGame for Play {
    type Out = ();

    fn run<S: Playable>(self, game: Prepared<S>) -> Result<()> {
        let loaded = self.world.session::<S>(&game.setup)?;
        let title = loaded.title();
        let stdin = std::io::stdin();
        let interactive = stdin.is_terminal();
        let mut player = Player {
            hints: Hints::start(&game, &loaded.session),
            seed: loaded.seed.unwrap_or(0),
            session: loaded.session,
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
                Read::Failed(e) => return Err(bad_input(e)),
            };
            // A transcript of piped play shows each command after the prompt, as a terminal
            // would.
            if !interactive {
                player.say(&format!("{}{}", player.session.prompt(), line.trim_end()))?;
            }
            if player.line(&line)? {
                return Ok(());
            }
        }
    }
}

/// The hint agent, told exactly what the player is told; `Err` with the reason once it
/// cannot reason (rules it cannot use, a contradiction).
struct Hints<S: Session> {
    factory: Result<Box<dyn AgentFactory<S>>, String>,
    agent: Result<Box<dyn Agent<S>>, String>,
    shown: S::Shown,
    learned: Vec<Conclusion>,
    steps: usize,
}

impl<S: Playable> Hints<S> {
    /// A hint agent for `session`, which has just begun.
    fn start(game: &Prepared<S>, session: &S) -> Hints<S> {
        let factory =
            S::prepare(game.agent, &session.setup(), &game.options).map_err(|e| e.to_string());
        let mut hints = Hints {
            agent: Err(String::new()),
            factory,
            shown: session.start(),
            learned: Vec::new(),
            steps: 0,
        };
        hints.restart(session);
        hints
    }

    /// A fresh agent for `session` as it stands at its start.
    fn restart(&mut self, session: &S) {
        self.shown = session.start();
        self.steps = 0;
        self.agent = match &self.factory {
            Ok(f) => f
                .make(&session.briefing(), Dice(0))
                .map_err(|e| e.to_string()),
            Err(why) => Err(why.clone()),
        };
        self.tell(None);
    }

    /// Tells the agent the player's last action and what followed (in `self.shown`).
    fn tell(&mut self, action: Option<&S::Action>) {
        if let Ok(agent) = &mut self.agent {
            match agent.observe(action, &self.shown) {
                Ok(learned) => self.learned = learned,
                Err(e) => self.agent = Err(hint_failure(&e)),
            }
        }
        self.steps += 1;
    }
}

/// Why the hint agent stopped reasoning, in a player's words. A contradiction is reported as
/// such: the knowledge base never goes on to "prove" everything from it.
fn hint_failure(e: &AgentError) -> String {
    match e {
        AgentError::Kb(wumpus::kb::KbError::Contradiction(why)) => format!(
            "what you have perceived contradicts the rules ({why}), so nothing can be \
             proven any more"
        ),
        e => e.to_string(),
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
                self.say(&format!("Invalid command: {e}."))?;
                return Ok(false);
            }
        };
        match command {
            Command::Act(action) => {
                let shown = self.session.act(&action);
                self.hints.shown = shown.clone();
                self.hints.tell(Some(&action));
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
                        self.hints = Hints::start(&self.game, &self.session);
                        let title = self.session.title();
                        self.say(&format!("Loaded {file}: a new game begins ({title})."))?;
                        for line in self.session.intro() {
                            self.say(&line)?;
                        }
                        let start = self.session.start();
                        self.show(&start)?;
                    }
                    Err(e) => self.say(&format!("Cannot load: {e}"))?,
                }
            }
            Command::Save(file) => match self.session.save(Path::new(&file)) {
                Ok(()) => self.say(&format!("Saved this game's {} to {file}.", S::FILE))?,
                Err(e) => self.say(&format!("Cannot save: {e}"))?,
            },
        }
        Ok(false)
    }

    /// Asks the agent what it would do, and shows what the player knows.
    fn hint(&mut self) -> Result<()> {
        let h = &mut self.hints;
        let text = match &mut h.agent {
            Ok(agent) => {
                let event =
                    hint_event(&self.session, h.steps, &h.shown, &h.learned, agent.as_mut());
                text::hint_text(&event, &self.session.board(), self.colour)
            }
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
    Failed(std::io::Error),
}

/// Where commands come from: a line editor with history on a terminal, plain lines otherwise
/// (piped transcripts, tests).
enum Input<'a> {
    Editor(Box<rustyline::DefaultEditor>),
    Plain(std::io::StdinLock<'a>),
}

impl<'a> Input<'a> {
    fn new(interactive: bool, stdin: &'a std::io::Stdin) -> Input<'a> {
        if interactive {
            if let Ok(editor) = rustyline::DefaultEditor::new() {
                return Input::Editor(Box::new(editor));
            }
        }
        Input::Plain(stdin.lock())
    }

    fn next_line(&mut self, prompt: &str) -> Read {
        match self {
            Input::Plain(input) => match super::read_command_line(input) {
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
                Err(rustyline::error::ReadlineError::Io(e)) => Read::Failed(e),
                Err(e) => Read::Failed(std::io::Error::other(e.to_string())),
            },
        }
    }
}

/// Colour when standard output is a terminal and `NO_COLOR` is unset or empty
/// (<https://no-color.org>).
fn interactive_colour() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}
