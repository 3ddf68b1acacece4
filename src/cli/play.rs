//! `wumpus play`: a game by hand on standard input and output.
//!
//! Commands are read one a line, so the game works typed or piped. An invalid command prints
//! why and asks again; end of input ends the game cleanly, like `quit`. The prompt is shown only
//! when standard input is a terminal, so piped transcripts stay clean.

use super::{bad_input, grid_world, GridWorldArgs, ScoringArg};
use anyhow::Result;
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::Arc;
use wumpus::agent::grid::{GridAgent, Insight, Strategy};
use wumpus::grid::{self, Action, Command, GridGame, Scoring, Turn};
use wumpus::kb::rules::Rules;

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    world: GridWorldArgs,
    /// How the final score is counted.
    #[arg(long, value_enum, default_value_t)]
    scoring: ScoringArg,
    /// Rules for the hint agent's reasoning instead of the built-in kb/grid.kb.
    #[arg(long)]
    kb: Option<std::path::PathBuf>,
    /// Which agent gives hints: risk (the default) or logic.
    #[arg(long, value_enum)]
    agent: Option<super::AgentArg>,
    #[command(flatten)]
    cave: super::cave::CaveFlags,
}

pub fn run(args: PlayArgs) -> Result<()> {
    if super::cave::play_if_cave(&args.cave, args.world.seed, args.world.world.as_deref())? {
        return Ok(());
    }
    let (world, seed) = grid_world(&args.world)?;
    let rules = match &args.kb {
        Some(path) => Some(Arc::new(super::read_rules(path)?)),
        None => None,
    };
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    let mut session = Session {
        game: GridGame::new(world),
        scoring: args.scoring.into(),
        out: std::io::stdout().lock(),
        rules,
        hints: None,
        colour: false,
        strategy: match super::AgentArg::grid_agent(args.agent)? {
            wumpus::run::AgentKind::Logic => Strategy::Logic,
            wumpus::run::AgentKind::Risk => Strategy::Risk {
                pit_prob: args.world.pit_prob,
                scoring: args.scoring.into(),
            },
        },
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
    session.colour = interactive_colour();
    session.begin()?;
    let mut input = Input::new(interactive, &stdin);
    loop {
        session.out.flush()?;
        let Some(line) = input.next_line() else {
            session.say(&format!(
                "End of input: the game is left unfinished after {} moves.",
                session.game.moves()
            ))?;
            return Ok(());
        };
        let line = match line.map_err(bad_input)? {
            Ok(line) => line,
            Err(why) => {
                session.say(&format!("Invalid command: {why}."))?;
                continue;
            }
        };
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
            Ok(Command::Hint) => session.hint()?,
            Ok(Command::Load(file)) => match grid::read_world(Path::new(&file)) {
                Ok(world) => {
                    session.game = GridGame::new(world);
                    let (rows, cols) = session.game.world().size();
                    session.say(&format!("Loaded {file}: a new {rows}x{cols} game begins."))?;
                    session.begin()?;
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
                session.shadow(Some(action), &turn);
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
    rules: Option<Arc<Rules>>,
    /// The hint agent, fed exactly what the player perceives; `Err` once it cannot reason
    /// (e.g. a custom rule file the agent cannot use), with the reason.
    hints: Option<Result<GridAgent, String>>,
    strategy: Strategy,
    /// Colour the knowledge map (standard output is a terminal and `NO_COLOR` is unset).
    colour: bool,
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

    /// The next line; `None` at the end of input (or Ctrl-C / Ctrl-D at the prompt); the
    /// inner error is a line that is not UTF-8.
    fn next_line(&mut self) -> Option<std::io::Result<std::result::Result<String, String>>> {
        match self {
            Input::Plain(input) => super::read_command_line(input).transpose(),
            Input::Editor(editor) => match editor.readline("> ") {
                Ok(line) => {
                    if !line.trim().is_empty() {
                        let _ = editor.add_history_entry(line.as_str());
                    }
                    Some(Ok(Ok(line)))
                }
                Err(rustyline::error::ReadlineError::Eof)
                | Err(rustyline::error::ReadlineError::Interrupted) => None,
                Err(rustyline::error::ReadlineError::Io(e)) => Some(Err(e)),
                Err(e) => Some(Err(std::io::Error::other(e.to_string()))),
            },
        }
    }
}

/// Colour when standard output is a terminal and `NO_COLOR` is unset or empty
/// (<https://no-color.org>).
fn interactive_colour() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The knowledge map with its marks in colour (ANSI): the agent bold, visited dim, safe green,
/// pits red, the wumpus bold magenta, unknown yellow. Row and column labels and the legend
/// stay plain.
fn colour_map(map: &str) -> String {
    let lines: Vec<&str> = map.lines().collect();
    let rows = lines.len().saturating_sub(2);
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        if i < rows && line.len() > 5 {
            let (label, cells) = line.split_at(5);
            out.push_str(label);
            for ch in cells.chars() {
                let code = match ch {
                    '@' => "1",
                    'v' => "2",
                    's' => "32",
                    'P' => "31",
                    'W' => "1;35",
                    '?' => "33",
                    _ => "",
                };
                if code.is_empty() {
                    out.push(ch);
                } else {
                    out.push_str(&format!("\x1b[{code}m{ch}\x1b[0m"));
                }
            }
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

impl<W: Write> Session<W> {
    /// Starts the game: its first words, and a fresh hint agent.
    fn begin(&mut self) -> Result<()> {
        let start = self.game.start();
        self.report(&start)?;
        let topology = self.game.world().topology().clone();
        self.hints = Some(
            GridAgent::new(topology, self.rules.clone(), Insight::Explained)
                .map(|agent| agent.with_strategy(self.strategy))
                .map_err(|e| e.to_string()),
        );
        self.shadow(None, &start);
        Ok(())
    }

    /// Tells the hint agent what the player did and perceived.
    fn shadow(&mut self, action: Option<Action>, turn: &Turn) {
        if let Some(Ok(agent)) = &mut self.hints {
            if let Err(e) = agent.observe(action, &turn.percepts) {
                self.hints = Some(Err(hint_failure(&e)));
            }
        }
    }

    /// Asks the agent what it would do, and shows what the player knows.
    fn hint(&mut self) -> Result<()> {
        let text = match &mut self.hints {
            Some(Ok(agent)) => {
                let decision = agent.decide();
                let odds = decision
                    .odds
                    .as_ref()
                    .map(|o| super::trace::odds_text(agent.kb().topology(), o))
                    .unwrap_or_default();
                let map = agent.knowledge_map();
                let map = if self.colour { colour_map(&map) } else { map };
                format!(
                    "Hint: {} -- {}.\n{odds}What your percepts prove so far:\n{}",
                    decision.action,
                    decision.reason,
                    map.trim_end()
                )
            }
            Some(Err(why)) => format!("No hint: {why}."),
            None => "No hint: the game has not begun.".to_string(),
        };
        self.say(&text)
    }

    fn say(&mut self, text: &str) -> Result<()> {
        writeln!(self.out, "{text}")?;
        Ok(())
    }

    fn report(&mut self, turn: &Turn) -> Result<()> {
        let line: Vec<&str> = turn.messages.iter().map(|m| m.text()).collect();
        self.say(&line.join(" "))
    }
}

/// Why the hint agent stopped reasoning, in a player's words. A contradiction is reported as
/// such: the knowledge base never goes on to "prove" everything from it.
fn hint_failure(e: &wumpus::kb::KbError) -> String {
    match e {
        wumpus::kb::KbError::Contradiction(why) => format!(
            "what you have perceived contradicts the rules ({why}), so nothing can be \
             proven any more"
        ),
        e => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_touches_the_marks_only() {
        let map = "   1  ?  s \n   0  @  P \n     0  1 \n(@ you, ? unknown)\n";
        let coloured = colour_map(map);
        assert!(coloured.contains("\x1b[33m?\x1b[0m"));
        assert!(coloured.contains("\x1b[1m@\x1b[0m"));
        assert!(coloured.contains("\x1b[31mP\x1b[0m"));
        // The legend and the labels are as they were.
        assert!(coloured.ends_with("     0  1 \n(@ you, ? unknown)\n"));
        let plain: String = coloured
            .split('\x1b')
            .map(|part| part.split_once('m').map_or(part, |(_, rest)| rest))
            .collect();
        assert_eq!(plain, map);
    }
}
