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
    session.begin()?;
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
                self.hints = Some(Err(e.to_string()));
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
                format!(
                    "Hint: {} -- {}.\n{odds}What your percepts prove so far:\n{}",
                    decision.action,
                    decision.reason,
                    agent.knowledge_map().trim_end()
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
