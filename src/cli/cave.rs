//! The cave rule sets on the command line: `play --rules cave|maze`, `solve --rules cave`, and
//! cave maps in `world show` and `world check`.
//!
//! Clap types stay at the top of this file and become plain option structs ([`PlayOptions`],
//! [`SolveOptions`], [`ShowOptions`]) that the functions below take. Games read one command a
//! line, so they work typed or piped; an invalid command prints why and asks again; end of input
//! ends the game cleanly. The prompt is shown only when standard input is a terminal.

use super::bad_input;
use super::batch::{check_interrupted, interrupted_line, BatchCli};
use super::trace::StepPrinter;
use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use wumpus::agent::cave::layouts::Odds;
use wumpus::agent::cave::{percent, CaveAgent, CaveAgentConfig, RoomView};
use wumpus::agent::grid::Insight;
use wumpus::agent::maze::MazeAgent;
use wumpus::cave::classic::Action;
use wumpus::cave::{
    self, classic::MOVE_LIMIT, command, CaveCommand, CaveMap, ClassicGame, ClassicHazards, Ending,
    LossCause, MapFormat, MazeEnding, MazeGame, MazeHazards, MazeResult, MoveResult, Rules,
    ShotResult, Status, TurnResult, Variant,
};
use wumpus::rng::{fresh_seed, seeded};
use wumpus::topology::Place;

/// Which rule set to play.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RulesArg {
    /// The grid Wumpus World (seed 001).
    #[default]
    Grid,
    /// The classic cave, as the event host plays it (seed 002).
    Cave,
    /// The caves.dat maze (seed 000).
    Maze,
}

/// The classic cave's rules.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VariantArg {
    /// The event host's rules.
    #[default]
    Event,
    /// Gregory Yob's 1973 rules: bumping into the wumpus wakes it.
    Yob,
}

impl From<VariantArg> for Variant {
    fn from(v: VariantArg) -> Variant {
        match v {
            VariantArg::Event => Variant::Event,
            VariantArg::Yob => Variant::Yob,
        }
    }
}

/// The agents `solve` can run in the cave.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AgentArg {
    /// The reasoning agent: proofs, exact odds, crooked arrows.
    #[default]
    Logic,
    /// The event's random player.
    Random,
}

impl AgentArg {
    fn name(self) -> &'static str {
        match self {
            AgentArg::Logic => "logic",
            AgentArg::Random => "random",
        }
    }
}

/// `play`'s flags for the cave rule sets.
#[derive(Args, Debug, Clone)]
pub struct CaveFlags {
    /// The rule set.
    #[arg(long, value_enum, default_value_t)]
    pub rules: RulesArg,
    /// Cave map file, either format (default: the standard dodecahedron for cave, the standard
    /// caves.dat for maze).
    #[arg(long)]
    pub map: Option<PathBuf>,
    /// The classic cave's rules.
    #[arg(long, value_enum, default_value_t)]
    pub variant: VariantArg,
    /// Start on the hazards in this file instead of dealing them.
    #[arg(long)]
    pub hazards: Option<PathBuf>,
    /// Give the hint agent the whole map (default: it learns rooms as you do).
    #[arg(long)]
    pub map_known: bool,
}

/// `world show`'s and `world check`'s flags for cave maps.
#[derive(Args, Debug, Clone)]
pub struct ShowFlags {
    /// Read the file as this rule set's (default: a cave map if its first line is one number).
    #[arg(long, value_enum)]
    pub rules: Option<RulesArg>,
    /// Mark the hazards from this hazard file on a cave map.
    #[arg(long, conflicts_with = "seed")]
    pub hazards: Option<PathBuf>,
    /// Mark the hazards a game with this seed deals on a cave map.
    #[arg(long)]
    pub seed: Option<u64>,
}

/// How `solve` prints its summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// Lines for people.
    Text,
    /// One JSON object.
    Json,
}

/// What `play --rules cave|maze` needs.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Classic cave or maze.
    pub rules: Rules,
    /// The map file, or the built-in default.
    pub map: Option<PathBuf>,
    /// The classic cave's rules.
    pub variant: Variant,
    /// The seed, or a fresh one.
    pub seed: Option<u64>,
    /// A hazard file to start on.
    pub hazards: Option<PathBuf>,
    /// Give the hint agent the whole map.
    pub map_known: bool,
}

/// What `solve` needs.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// The map file, or the built-in standard map.
    pub map: Option<PathBuf>,
    /// The rules.
    pub variant: Variant,
    /// The agent.
    pub agent: AgentArg,
    /// Give the logic agent the whole map up front.
    pub map_known: bool,
    /// Games to play.
    pub games: u64,
    /// Seed of game 0.
    pub seed: u64,
    /// How to print.
    pub output: OutputFormat,
    /// Play only this shard of the games.
    pub shard: Option<wumpus::run::Shard>,
    /// Write one CSV row per game here (`-`: standard output).
    pub csv: Option<PathBuf>,
}

/// What `world show` needs for a cave map.
#[derive(Clone, Debug)]
pub struct ShowOptions {
    /// Which hazards to mark: classic or maze.
    pub rules: Rules,
    /// A hazard file to mark.
    pub hazards: Option<PathBuf>,
    /// A seed whose deal to mark.
    pub seed: Option<u64>,
}

/// The `play` dispatch: runs a cave game when `--rules` asks for one and returns true; refuses
/// cave flags on the grid; returns false to let the grid game run.
pub fn play_if_cave(
    flags: &CaveFlags,
    seed: Option<u64>,
    grid_world: Option<&Path>,
) -> Result<bool> {
    let rules = match flags.rules {
        RulesArg::Grid => {
            if flags.map.is_some()
                || flags.hazards.is_some()
                || flags.variant != VariantArg::Event
                || flags.map_known
            {
                return Err(bad_input(anyhow::anyhow!(
                    "--map, --hazards and --variant are for --rules cave or --rules maze, and so is --map-known"
                )));
            }
            return Ok(false);
        }
        RulesArg::Cave => Rules::Classic,
        RulesArg::Maze => Rules::Maze,
    };
    if let Some(world) = grid_world {
        return Err(bad_input(anyhow::anyhow!(
            "--world {} is a grid world; for a cave use --map FILE and --hazards FILE",
            world.display()
        )));
    }
    if rules == Rules::Maze && flags.variant != VariantArg::Event {
        return Err(bad_input(anyhow::anyhow!(
            "--variant is for the classic cave (--rules cave)"
        )));
    }
    play(PlayOptions {
        rules,
        map: flags.map.clone(),
        variant: flags.variant.into(),
        seed,
        hazards: flags.hazards.clone(),
        map_known: flags.map_known,
    })?;
    Ok(true)
}

/// Loads the map a game asks for, or the built-in default for its rules, with a name to show.
pub(super) fn load_map(path: Option<&Path>, rules: Rules) -> Result<(Arc<CaveMap>, String)> {
    match path {
        Some(path) => {
            let map = cave::read_map(path).map_err(bad_input)?;
            Ok((Arc::new(map), path.display().to_string()))
        }
        None => {
            let (text, name) = match rules {
                Rules::Classic => (cave::STANDARD_MAP, "the standard dodecahedron"),
                Rules::Maze => (cave::STANDARD_CAVES_DAT, "the standard caves.dat"),
            };
            let map = cave::parse_map(text).expect("the built-in maps are valid");
            Ok((Arc::new(map), name.to_string()))
        }
    }
}

/// Plays a classic cave or maze game on standard input and output.
pub fn play(options: PlayOptions) -> Result<()> {
    let (map, map_name) = load_map(options.map.as_deref(), options.rules)?;
    let seed = options.seed.unwrap_or_else(fresh_seed);
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    let mut out = std::io::stdout().lock();
    let mut input = stdin.lock();
    match options.rules {
        Rules::Classic => {
            let hazards = match &options.hazards {
                Some(path) => cave::read_classic_hazards(path, &map).map_err(bad_input)?,
                None => ClassicHazards::deal(&map, &mut seeded(seed)).map_err(bad_input)?,
            };
            let mut session = ClassicSession {
                game: new_classic(
                    &map,
                    hazards,
                    options.variant,
                    seed,
                    options.hazards.is_none(),
                ),
                seed,
                out: &mut out,
                map_known: options.map_known,
                hints: None,
            };
            session.start_hints();
            let rules = match options.variant {
                Variant::Event => "the event host's rules",
                Variant::Yob => "Yob's 1973 rules",
            };
            let from = match &options.hazards {
                Some(path) => format!("hazards from {}, ", path.display()),
                None => String::new(),
            };
            session.say(&format!(
                "Hunt the Wumpus: the classic cave ({rules}) on {map_name}, {} rooms, {from}seed {seed} (replay with --seed {seed}). Type 'help' for the commands.",
                map.len()
            ))?;
            session.run(&mut input, interactive)
        }
        Rules::Maze => {
            let hazards = match &options.hazards {
                Some(path) => cave::read_maze_hazards(path, &map).map_err(bad_input)?,
                None => MazeHazards::deal(&map, &mut seeded(seed)).map_err(bad_input)?,
            };
            let mut session = MazeSession {
                game: new_maze(&map, hazards, seed, options.hazards.is_none()),
                seed,
                out: &mut out,
                hints: None,
            };
            session.start_hints();
            let from = match &options.hazards {
                Some(path) => format!("hazards from {}, ", path.display()),
                None => String::new(),
            };
            session.say(&format!(
                "The maze of caves on {map_name}, {from}seed {seed} (replay with --seed {seed}). Type 'help' for the commands."
            ))?;
            session.say(MAZE_INTRO)?;
            session.run(&mut input, interactive)
        }
    }
}

/// A classic game on `hazards`. A dealt game keeps drawing from the generator that dealt it, so
/// `--seed` replays it exactly; a loaded layout starts the generator afresh from the seed.
fn new_classic(
    map: &Arc<CaveMap>,
    hazards: ClassicHazards,
    variant: Variant,
    seed: u64,
    dealt: bool,
) -> ClassicGame {
    if dealt {
        ClassicGame::new(map.clone(), variant, seed).expect("dealt once already")
    } else {
        ClassicGame::with_hazards(map.clone(), hazards, variant, seeded(seed))
    }
}

/// A maze game on `hazards`; see [`new_classic`] for the generator.
fn new_maze(map: &Arc<CaveMap>, hazards: MazeHazards, seed: u64, dealt: bool) -> MazeGame {
    if dealt {
        MazeGame::new(map.clone(), seed).expect("dealt once already")
    } else {
        MazeGame::with_hazards(map.clone(), hazards, seeded(seed))
    }
}

/// Seed 000's opening words.
const MAZE_INTRO: &str = "HUNT THE WUMPUS: Your mission is to explore the maze of caves
and destroy all of the wumpi (without getting yourself killed). To move to an adjacent cave, enter 'M' and the tunnel number. To toss a grenade into a cave, enter 'T' and the tunnel number.";

/// What a line of input asks of a session.
enum Next {
    Go,
    Stop,
}

fn prompt(out: &mut impl Write, interactive: bool, text: &str) -> Result<()> {
    if interactive {
        write!(out, "{text}")?;
        out.flush()?;
    }
    Ok(())
}

struct ClassicSession<'a, W: Write> {
    game: ClassicGame,
    seed: u64,
    out: &'a mut W,
    map_known: bool,
    /// The hint agent, told exactly what the player is told; `Err` with the reason once it
    /// cannot reason (another variant's surprises).
    hints: Option<std::result::Result<CaveAgent, String>>,
}

impl<W: Write> ClassicSession<'_, W> {
    fn say(&mut self, text: &str) -> Result<()> {
        writeln!(self.out, "{text}")?;
        Ok(())
    }

    /// A fresh hint agent for the game as it stands.
    fn start_hints(&mut self) {
        let map = self.game.map().clone();
        let config = CaveAgentConfig::for_map(&map, self.map_known).explained();
        let mut agent = match CaveAgent::new(config) {
            Ok(a) => a,
            Err(e) => {
                self.hints = Some(Err(e.to_string()));
                return;
            }
        };
        let status = self.game.status();
        self.hints = Some(
            agent
                .perceive(None, None, &status)
                .map(|_| agent)
                .map_err(|e| e.to_string()),
        );
    }

    /// Tells the hint agent what the player did and what followed.
    fn shadow(&mut self, action: &Action, result: &TurnResult) {
        let status = self.game.status();
        if let Some(Ok(agent)) = &mut self.hints {
            if let Err(e) = agent.perceive(Some(action), Some(result), &status) {
                self.hints = Some(Err(e.to_string()));
            }
        }
    }

    fn hint(&mut self) -> Result<()> {
        let map = self.game.map().clone();
        let text = match &mut self.hints {
            Some(Ok(agent)) => {
                let d = agent.decide();
                format!(
                    "Hint: {} -- {}.\n{}",
                    action_text(&map, &d.action),
                    d.reason,
                    knowledge_text(&map, agent.odds(), &views(agent, map.len()))
                )
            }
            Some(Err(why)) => format!("No hint: {why}."),
            None => "No hint: the game has not begun.".to_string(),
        };
        self.say(text.trim_end())
    }

    fn run(&mut self, input: &mut impl BufRead, interactive: bool) -> Result<()> {
        let status = self.game.status();
        self.show(&status)?;
        loop {
            prompt(self.out, interactive, "> ")?;
            let Some(line) = super::read_command_line(input).map_err(bad_input)? else {
                return self.say(&format!(
                    "End of input: the game is left unfinished after {} moves.",
                    self.game.moves()
                ));
            };
            let line = match line {
                Ok(line) => line,
                Err(why) => {
                    self.say(&format!("Invalid command: {why}."))?;
                    continue;
                }
            };
            if let Next::Stop = self.line(&line)? {
                return Ok(());
            }
        }
    }

    fn line(&mut self, line: &str) -> Result<Next> {
        let map = self.game.map().clone();
        let parsed = command::parse_command(line, Rules::Classic);
        let command = match parsed {
            Ok(c) => c,
            Err(e) => {
                self.say(&format!("Invalid command: {e}."))?;
                return Ok(Next::Go);
            }
        };
        if let Some(action) = command::classic_action(&command, &map) {
            let action = match action {
                Ok(a) => a,
                Err(e) => {
                    self.say(&format!("Invalid command: {e}."))?;
                    return Ok(Next::Go);
                }
            };
            let turn = self.game.act(&action);
            self.shadow(&action, &turn.result);
            for event in &turn.events {
                self.say(event.text())?;
            }
            if let Some(ending) = turn.result.ending() {
                let verdict = match ending {
                    Ending::Won { .. } => "You win!".to_string(),
                    Ending::Lost(cause) => format!("You lose ({}).", loss_text(cause)),
                };
                self.say(&verdict)?;
                self.say(&format!("Score: {}", ending.score()))?;
                return Ok(Next::Stop);
            }
            // A refused action changed nothing: the status the player just read still holds.
            let refused = matches!(
                turn.result,
                TurnResult::Move(MoveResult::NotAnExit) | TurnResult::Shot(ShotResult::TooCrooked)
            );
            if !refused {
                let status = self.game.status();
                self.show(&status)?;
            }
            return Ok(Next::Go);
        }
        match command {
            CaveCommand::Help => self.say(command::CLASSIC_HELP)?,
            CaveCommand::Hint => self.hint()?,
            CaveCommand::Quit => {
                self.say(&format!(
                    "You leave the game unfinished after {} moves.",
                    self.game.moves()
                ))?;
                return Ok(Next::Stop);
            }
            CaveCommand::Load(file) => match cave::read_classic_hazards(Path::new(&file), &map) {
                Ok(h) => {
                    let variant = self.game.variant();
                    self.game = new_classic(&map, h, variant, self.seed, false);
                    self.start_hints();
                    self.say(&format!("Loaded {file}: a new game begins."))?;
                    let status = self.game.status();
                    self.show(&status)?;
                }
                Err(e) => self.say(&format!("Cannot load: {e}"))?,
            },
            CaveCommand::Save(file) => {
                match cave::save_classic_hazards(Path::new(&file), self.game.hazards(), &map) {
                    Ok(()) => self.say(&format!("Saved this game's hazards to {file}."))?,
                    Err(e) => self.say(&format!("Cannot save: {e}"))?,
                }
            }
            CaveCommand::MoveTo(_)
            | CaveCommand::Shoot(_)
            | CaveCommand::Move(_)
            | CaveCommand::Toss(_) => unreachable!("game actions are handled above"),
        }
        Ok(Next::Go)
    }

    fn show(&mut self, status: &Status) -> Result<()> {
        let map = self.game.map().clone();
        self.say(&describe_status(&map, status))
    }
}

fn loss_text(cause: LossCause) -> &'static str {
    match cause {
        LossCause::Pit => "a pit",
        LossCause::Wumpus => "the wumpus",
        LossCause::OwnArrow => "your own arrow",
        LossCause::OutOfArrows => "out of arrows",
        LossCause::Exhaustion => "exhaustion",
    }
}

/// The lines a human reads at the start of a classic turn.
fn describe_status(map: &CaveMap, s: &Status) -> String {
    let room = |r: wumpus::topology::Place| match map.format() {
        MapFormat::CavesDat => format!("{} ({})", map.label(r), map.name(r)),
        MapFormat::Event => map.label(r).to_string(),
    };
    let list = |rooms: &[wumpus::topology::Place]| {
        rooms
            .iter()
            .map(|&r| map.label(r).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut lines = vec![format!(
        "You are in room {}. Tunnels lead to {}.",
        room(s.room),
        list(&s.outs)
    )];
    let mut visible: Vec<wumpus::topology::Place> = Vec::new();
    for &r in &s.ins {
        if !s.outs.contains(&r) && !visible.contains(&r) {
            visible.push(r);
        }
    }
    if !visible.is_empty() {
        lines.push(format!(
            "You can also see (but cannot get to) {}.",
            list(&visible)
        ));
    }
    if s.pit {
        lines.push("I feel a draft.".into());
    }
    if s.bats {
        lines.push("I hear bats!".into());
    }
    if s.wumpus {
        lines.push("I smell a wumpus!".into());
    }
    lines.push(format!(
        "Arrows: {}. Moves: {} of {}.",
        s.arrows, s.moves, MOVE_LIMIT
    ));
    lines.join("\n")
}

struct MazeSession<'a, W: Write> {
    game: MazeGame,
    seed: u64,
    out: &'a mut W,
    /// The hint agent, shown what the player is shown; `Err` once it cannot reason.
    hints: Option<std::result::Result<MazeAgent, String>>,
}

impl<W: Write> MazeSession<'_, W> {
    fn say(&mut self, text: &str) -> Result<()> {
        writeln!(self.out, "{text}")?;
        Ok(())
    }

    fn run(&mut self, input: &mut impl BufRead, interactive: bool) -> Result<()> {
        self.show()?;
        loop {
            prompt(self.out, interactive, "What do you want to do? ")?;
            let Some(line) = super::read_command_line(input).map_err(bad_input)? else {
                return self.say(&format!(
                    "End of input: the game is left unfinished after {} moves.",
                    self.game.moves()
                ));
            };
            let line = match line {
                Ok(line) => line,
                Err(why) => {
                    self.say(&format!("Invalid command: {why}."))?;
                    continue;
                }
            };
            if let Next::Stop = self.line(&line)? {
                return Ok(());
            }
        }
    }

    fn line(&mut self, line: &str) -> Result<Next> {
        let map = self.game.map().clone();
        let command = match command::parse_command(line, Rules::Maze) {
            Ok(c) => c,
            Err(e) => {
                self.say(&format!("Invalid command: {e}."))?;
                return Ok(Next::Go);
            }
        };
        if let Some(action) = command::maze_action(&command) {
            let turn = self.game.act(action);
            let view = self.game.view();
            if let Some(Ok(agent)) = &mut self.hints {
                if let Err(e) = agent.perceive(Some(action), Some(turn.result), &view) {
                    self.hints = Some(Err(e.to_string()));
                }
            }
            for event in &turn.events {
                self.say(event.text())?;
            }
            if turn.result == MazeResult::NoSuchTunnel {
                return Ok(Next::Go);
            }
            match self.game.ending() {
                Some(MazeEnding::Won) => {
                    self.say("YOU WIN")?;
                    return Ok(Next::Stop);
                }
                Some(MazeEnding::Lost(_)) => {
                    self.say("GAME OVER")?;
                    return Ok(Next::Stop);
                }
                None => self.show()?,
            }
            return Ok(Next::Go);
        }
        match command {
            CaveCommand::Help => self.say(command::MAZE_HELP)?,
            CaveCommand::Hint => self.hint()?,
            CaveCommand::Quit => {
                self.say(&format!(
                    "You leave the game unfinished after {} moves.",
                    self.game.moves()
                ))?;
                return Ok(Next::Stop);
            }
            CaveCommand::Load(file) => match cave::read_maze_hazards(Path::new(&file), &map) {
                Ok(h) => {
                    self.game = new_maze(&map, h, self.seed, false);
                    self.start_hints();
                    self.say(&format!("Loaded {file}: a new game begins."))?;
                    self.show()?;
                }
                Err(e) => self.say(&format!("Cannot load: {e}"))?,
            },
            CaveCommand::Save(file) => {
                match cave::save_maze_hazards(Path::new(&file), self.game.hazards(), &map) {
                    Ok(()) => self.say(&format!("Saved this game's hazards to {file}."))?,
                    Err(e) => self.say(&format!("Cannot save: {e}"))?,
                }
            }
            CaveCommand::MoveTo(_)
            | CaveCommand::Shoot(_)
            | CaveCommand::Move(_)
            | CaveCommand::Toss(_) => unreachable!("game actions are handled above"),
        }
        Ok(Next::Go)
    }

    /// A fresh hint agent for the game as it stands.
    fn start_hints(&mut self) {
        let view = self.game.view();
        self.hints = Some(
            MazeAgent::new(self.game.map().clone(), Insight::Explained)
                .map_err(|e| e.to_string())
                .and_then(|mut agent| {
                    agent
                        .perceive(None, None, &view)
                        .map(|_| agent)
                        .map_err(|e| e.to_string())
                }),
        );
    }

    fn hint(&mut self) -> Result<()> {
        let text = match &mut self.hints {
            Some(Ok(agent)) => {
                let d = agent.decide();
                let mut text = format!("Hint: {} -- {}.", maze_action_text(&d.action), d.reason);
                let whereabouts = agent.whereabouts();
                if whereabouts.len() > 1 {
                    let w: Vec<String> = whereabouts
                        .iter()
                        .map(|(c, p)| format!("{} {}", agent.cave_name(*c), percent(*p)))
                        .collect();
                    text.push_str(&format!("\n  you may be in: {}", w.join(", ")));
                }
                for t in agent.tunnels() {
                    text.push_str(&format!(
                        "\n  tunnel {} to {}: wumpus {}, pit {}, bats {}{}",
                        t.tunnel,
                        t.name,
                        percent(t.wumpus),
                        percent(t.pit),
                        percent(t.bats),
                        if t.safe { " (proven safe)" } else { "" }
                    ));
                }
                text
            }
            Some(Err(why)) => format!("No hint: {why}."),
            None => "No hint: the game has not begun.".to_string(),
        };
        self.say(&text)
    }

    /// Seed 000's screen: the cave, its tunnels by name or "unknown", then the senses.
    fn show(&mut self) -> Result<()> {
        let view = self.game.view();
        self.say(&format!("You are currently in {}", view.name))?;
        for (i, name) in view.tunnels.iter().enumerate() {
            let name = name.as_deref().unwrap_or("unknown");
            self.say(&format!("     ({}) {name}", i + 1))?;
        }
        if view.smell {
            self.say("You smell a WUMPUS!")?;
        }
        if view.hear {
            self.say("You hear the flapping of giant wings!")?;
        }
        if view.feel {
            self.say("You feel a draft!")?;
        }
        Ok(())
    }
}

/// Plays a batch (or a shard of one) with the agent and prints the summary.
pub fn solve(options: SolveOptions) -> Result<()> {
    let (map, map_name) = load_map(options.map.as_deref(), Rules::Classic)?;
    if options.agent == AgentArg::Logic && options.variant != Variant::Event {
        return Err(bad_input(anyhow::anyhow!(
            "the logic agent plays the event's rules; use --agent random for --variant yob"
        )));
    }
    let agent_config = CaveAgentConfig::for_map(&map, options.map_known);
    // Checked once here, so every game's agent can be built.
    CaveAgent::new(agent_config.clone()).map_err(bad_input)?;
    let games = options
        .shard
        .map_or(0..options.games, |s| s.range(options.games));
    let mut sink = BatchCli::new(
        games.end - games.start,
        options.csv.as_deref(),
        "seed,outcome,score,moves,arrows",
        cave_row,
    )?;
    let start = std::time::Instant::now();
    let (variant, seed) = (options.variant, options.seed);
    let totals = match options.agent {
        AgentArg::Random => wumpus::run::play_cave_games(
            &map,
            variant,
            seed,
            games.clone(),
            cave::RandomAgent::for_game,
            &mut sink,
        ),
        AgentArg::Logic => wumpus::run::play_cave_games(
            &map,
            variant,
            seed,
            games.clone(),
            |_| CaveAgent::new(agent_config.clone()).expect("checked above"),
            &mut sink,
        ),
    }
    .map_err(bad_input)?;
    let elapsed_seconds = start.elapsed().as_secs_f64();
    sink.finish()?;
    let batch = wumpus::run::CaveBatch {
        rules: "cave".to_string(),
        map: map_name,
        agent: options.agent.name().to_string(),
        map_known: options.agent == AgentArg::Logic && options.map_known,
        variant: variant.name().to_string(),
        seed,
        worlds: options.games,
        shard: options.shard,
        interrupted: totals.games < games.end - games.start,
        totals,
        elapsed_seconds,
    };
    print_batch(
        &batch,
        options.output == OutputFormat::Json,
        sink.csv_to_stdout(),
    )?;
    check_interrupted(
        batch.interrupted,
        batch.totals.games,
        games.end - games.start,
    )
}

/// A classic cave game's CSV row (the score is 0 for a loss).
fn cave_row(r: &cave::GameRecord) -> String {
    let (outcome, score) = match r.ending {
        Some(Ending::Won { score }) => ("won", score),
        Some(Ending::Lost(cause)) => (cause.name(), 0),
        None => ("unfinished", 0),
    };
    format!("{},{outcome},{score},{},{}", r.seed, r.moves, r.shots)
}

/// A maze game's CSV row (the maze keeps no score).
fn maze_row(r: &wumpus::run::MazeRecord) -> String {
    let outcome = match r.ending {
        Some(MazeEnding::Won) => "won",
        Some(MazeEnding::Lost(loss)) => wumpus::run::maze_loss_name(loss),
        None => "unfinished",
    };
    format!("{},{outcome},{},{}", r.seed, r.moves, r.grenades)
}

/// Prints a cave or maze batch (or shard, or merged shards): a JSON object, or the summary
/// for people (on standard error when CSV rows take standard output).
pub fn print_batch(batch: &wumpus::run::CaveBatch, json: bool, csv_on_stdout: bool) -> Result<()> {
    let text = if json {
        let mut value = serde_json::to_value(batch).context("writing JSON")?;
        let summary = if batch.rules == "maze" {
            serde_json::to_value(batch.totals.maze_summary(batch.seed, batch.elapsed_seconds))?
        } else {
            let variant = if batch.variant == Variant::Yob.name() {
                Variant::Yob
            } else {
                Variant::Event
            };
            serde_json::to_value(batch.totals.cave_summary(batch.seed, variant))?
        };
        value["summary"] = summary;
        value["games_per_second"] =
            serde_json::json!(batch.totals.games as f64 / batch.elapsed_seconds.max(1e-9));
        serde_json::to_string_pretty(&value).context("writing JSON")? + "\n"
    } else if batch.rules == "maze" {
        maze_text(batch)
    } else {
        cave_text(batch)
    };
    if csv_on_stdout {
        eprint!("{text}");
        Ok(())
    } else {
        super::out(text)
    }
}

/// The grid's warning line for an interrupted batch, so that all three read alike.
fn interrupted_text(b: &wumpus::run::CaveBatch) -> String {
    let range = b.range();
    interrupted_line(b.interrupted, b.totals.games, range.end - range.start)
}

/// The seeds a batch or shard covers, and the shard.
fn seeds_text(b: &wumpus::run::CaveBatch) -> String {
    let range = b.range();
    let shard = match b.shard {
        Some(s) => format!(", shard {s} of {} games", b.worlds),
        None => String::new(),
    };
    format!(
        "games          {} (seeds {} to {}{shard})\n",
        b.totals.games,
        wumpus::rng::game_seed(b.seed, range.start),
        wumpus::rng::game_seed(b.seed, range.end).wrapping_sub(1)
    )
}

fn cave_text(b: &wumpus::run::CaveBatch) -> String {
    use std::fmt::Write as _;
    let s = b.totals.cave_summary(b.seed, Variant::Event);
    let knows = match (b.agent.as_str(), b.map_known) {
        ("logic", true) => ", map known",
        ("logic", false) => ", map discovered",
        _ => "",
    };
    let mut t = interrupted_text(b);
    let _ = writeln!(
        t,
        "classic cave ({} rules) on {}, agent {}{knows}",
        b.variant, b.map, b.agent
    );
    t += &seeds_text(b);
    let _ = writeln!(t, "mean score     {:.2} points a game", s.mean_score);
    let _ = writeln!(
        t,
        "win rate       {:.1}% ({} won)",
        100.0 * s.win_rate,
        s.wins
    );
    t += "losses by cause\n";
    for cause in LossCause::ALL {
        let n = s.losses.get(cause);
        let _ = writeln!(
            t,
            "  {:<14} {n:>7}  {:>5.1}%",
            cause.name(),
            100.0 * n as f64 / s.games.max(1) as f64
        );
    }
    if s.unfinished > 0 {
        let _ = writeln!(t, "unfinished     {}", s.unfinished);
    }
    let _ = writeln!(t, "arrows         {:.2} a game", s.arrows_per_game);
    let _ = writeln!(t, "moves          {:.2} a game", s.moves_per_game);
    let _ = writeln!(
        t,
        "speed          {:.0} games a second",
        s.games as f64 / b.elapsed_seconds.max(1e-9)
    );
    t
}

fn maze_text(b: &wumpus::run::CaveBatch) -> String {
    use std::fmt::Write as _;
    let s = b.totals.maze_summary(b.seed, b.elapsed_seconds);
    let pct = |n: u64| 100.0 * n as f64 / s.games.max(1) as f64;
    let mut t = interrupted_text(b);
    let _ = writeln!(
        t,
        "the caves.dat maze on {}, agent logic (given the map)",
        b.map
    );
    t += &seeds_text(b);
    let _ = writeln!(
        t,
        "win rate       {:.1}% ({} won)",
        100.0 * s.win_rate,
        s.wins
    );
    t += "losses by cause\n";
    for (name, n) in [
        ("pit", s.pit),
        ("wumpus", s.wumpus),
        ("out_of_grenades", s.out_of_grenades),
    ] {
        let _ = writeln!(t, "  {name:<16} {n:>6}  {:>5.1}%", pct(n));
    }
    if s.unfinished > 0 {
        let _ = writeln!(t, "unfinished     {}", s.unfinished);
    }
    let _ = writeln!(
        t,
        "grenades       {:.2} a game ({:.2} a won game)",
        s.grenades_per_game, s.grenades_per_win
    );
    let _ = writeln!(t, "moves          {:.2} a game", s.moves_per_game);
    let _ = writeln!(t, "speed          {:.0} games a second", s.games_per_second);
    t
}

/// True when `file` should be read as a cave map: `--rules cave|maze`, or no `--rules` and a
/// first line of one number.
pub fn is_cave_map(file: &Path, flags: &ShowFlags) -> Result<bool> {
    match flags.rules {
        Some(RulesArg::Grid) => Ok(false),
        Some(_) => Ok(true),
        None => {
            let text = wumpus::files::read_text(file).map_err(bad_input)?;
            Ok(cave::map::looks_like_cave_map(&text))
        }
    }
}

/// Refuses the cave-only flags on a grid world.
pub fn refuse_for_grid(flags: &ShowFlags) -> Result<()> {
    if flags.hazards.is_some() || flags.seed.is_some() {
        return Err(bad_input(anyhow::anyhow!(
            "--hazards and --seed are for cave maps; a grid world file holds its own hazards"
        )));
    }
    Ok(())
}

/// `world show` for a cave map: its rooms and tunnels, and the hazards when asked.
pub fn show_map(file: &Path, flags: &ShowFlags) -> Result<()> {
    let map = cave::read_map(file).map_err(bad_input)?;
    // Hazards are classic unless the rules say maze, or, with no rules given, the map is a
    // caves.dat.
    let rules = match flags.rules {
        Some(RulesArg::Maze) => Rules::Maze,
        Some(_) => Rules::Classic,
        None if map.format() == MapFormat::CavesDat => Rules::Maze,
        None => Rules::Classic,
    };
    let options = ShowOptions {
        rules,
        hazards: flags.hazards.clone(),
        seed: flags.seed,
    };
    let tags = match (options.rules, &options.hazards, options.seed) {
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
    print!("{}", cave::draw_map(&map, tags.as_ref()));
    Ok(())
}

/// `world check` for a cave map.
pub fn check_map(file: &Path) -> Result<()> {
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
    println!(
        "{}: ok ({}, {} rooms, {one_way} one-way tunnels, {to_itself} tunnels to their own room)",
        file.display(),
        map.format().name(),
        map.len()
    );
    Ok(())
}

/// An action in the player's words, rooms as the map numbers them: `move 5`, `shoot 5 6 7`.
pub fn action_text(map: &CaveMap, action: &Action) -> String {
    match action {
        Action::Move(r) => format!("move {}", map.label(*r)),
        Action::Shoot(path) => {
            let rooms: Vec<String> = path
                .rooms()
                .iter()
                .map(|&r| map.label(r).to_string())
                .collect();
            format!("shoot {}", rooms.join(" "))
        }
    }
}

/// What the agent believes of every room.
pub fn views(agent: &CaveAgent, rooms: usize) -> Vec<RoomView> {
    (0..rooms).map(|r| agent.view(Place::new(r))).collect()
}

/// The rooms in `views` seen as `view`, as the map numbers them.
fn rooms_seen(map: &CaveMap, views: &[RoomView], view: RoomView) -> Vec<usize> {
    views
        .iter()
        .enumerate()
        .filter(|(_, &v)| v == view)
        .map(|(i, _)| map.label(Place::new(i)))
        .collect()
}

/// The chances of one hazard, most likely rooms first: `6 50%, 4 25%, 5 25%` (at most six
/// rooms, then how many more).
fn odds_line(map: &CaveMap, chances: &[f64]) -> String {
    let mut rooms: Vec<(usize, f64)> = chances
        .iter()
        .enumerate()
        .filter(|(_, &p)| p > 0.0)
        .map(|(i, &p)| (i, p))
        .collect();
    rooms.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let shown: Vec<String> = rooms
        .iter()
        .take(6)
        .map(|&(i, p)| format!("{} {}", map.label(Place::new(i)), percent(p)))
        .collect();
    let mut line = shown.join(", ");
    if rooms.len() > 6 {
        line.push_str(&format!(", and {} more rooms", rooms.len() - 6));
    }
    if line.is_empty() {
        line.push_str("nowhere");
    }
    line
}

/// What is proven and the odds, in a few lines.
pub fn knowledge_text(map: &CaveMap, odds: Option<&Odds>, views: &[RoomView]) -> String {
    let list = |v: Vec<usize>| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    let mut proven_safe = rooms_seen(map, views, RoomView::Safe);
    proven_safe.extend(rooms_seen(map, views, RoomView::Visited));
    proven_safe.sort_unstable();
    let mut text = format!(
        "  proven safe now: {}\n  proven pits: {}; bats: {}; the wumpus: {}\n",
        list(proven_safe),
        list(rooms_seen(map, views, RoomView::Pit)),
        list(rooms_seen(map, views, RoomView::Bats)),
        list(rooms_seen(map, views, RoomView::Wumpus)),
    );
    if let Some(o) = odds {
        text.push_str(&format!(
            "  odds of the wumpus: {}\n  odds of a pit: {}\n  odds of bats: {}\n",
            odds_line(map, &o.wumpus),
            odds_line(map, &o.pit),
            odds_line(map, &o.bats)
        ));
    }
    text
}

/// What `trace --rules cave|maze` needs.
#[derive(Clone, Debug)]
pub struct TraceOptions {
    /// Classic cave or maze.
    pub rules: RulesArg,
    /// The map file, or the built-in default.
    pub map: Option<PathBuf>,
    /// Give the agent the whole map.
    pub map_known: bool,
    /// A hazard file to start on.
    pub hazards: Option<PathBuf>,
    /// The seed, or a fresh one.
    pub seed: Option<u64>,
    /// JSON Lines instead of text.
    pub json: bool,
    /// Wait for Enter between steps.
    pub step: bool,
}

/// `trace --rules cave`: one game of the reasoning agent, step by step.
pub fn trace(options: TraceOptions) -> Result<()> {
    if options.rules == RulesArg::Maze {
        return trace_maze(options);
    }
    let (map, map_name) = load_map(options.map.as_deref(), Rules::Classic)?;
    let seed = options.seed.unwrap_or_else(fresh_seed);
    let hazards = match &options.hazards {
        Some(path) => cave::read_classic_hazards(path, &map).map_err(bad_input)?,
        None => ClassicHazards::deal(&map, &mut seeded(seed)).map_err(bad_input)?,
    };
    let game = new_classic(
        &map,
        hazards,
        Variant::Event,
        seed,
        options.hazards.is_none(),
    );
    let config = CaveAgentConfig::for_map(&map, options.map_known).explained();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let knows = if options.map_known {
        "given the map"
    } else {
        "discovering the map"
    };
    if options.json {
        writeln!(
            out,
            "{}",
            serde_json::json!({
                "rules": "cave", "map": map_name, "rooms": map.len(), "seed": seed,
                "map_known": options.map_known,
            })
        )?;
    } else {
        writeln!(
            out,
            "Trace of the classic cave on {map_name} ({} rooms), seed {seed}, the agent {knows}.",
            map.len()
        )?;
    }
    let mut printer = StepPrinter::new(&mut out, options.json, options.step);
    let end = wumpus::run::run_cave_game(game, config, |report| {
        printer.step(
            |n| cave_step_json(&map, n, report).to_string(),
            |n| cave_step_text(&map, n, report),
        )
    })
    .map_err(bad_input)?;
    printer.finish()?;
    let (outcome, cause, score) = match end.ending {
        Some(Ending::Won { score }) => ("won", None, score),
        Some(Ending::Lost(cause)) => ("lost", Some(cause.name()), 0),
        None => ("unfinished", None, 0),
    };
    if options.json {
        writeln!(
            out,
            "{}",
            serde_json::json!({
                "outcome": outcome, "cause": cause, "score": score,
                "moves": end.moves, "arrows_shot": end.shots,
            })
        )?;
    } else {
        let what = match cause {
            Some(c) => format!("lost ({})", c.replace('_', " ")),
            None => outcome.to_string(),
        };
        writeln!(
            out,
            "\nOutcome: {what} after {} moves and {} arrows.",
            end.moves, end.shots
        )?;
        writeln!(out, "Score: {score}")?;
    }
    Ok(())
}

fn warnings(s: &Status) -> Vec<&'static str> {
    let mut w = Vec::new();
    if s.pit {
        w.push("draft");
    }
    if s.bats {
        w.push("bats");
    }
    if s.wumpus {
        w.push("wumpus");
    }
    w
}

fn labels(map: &CaveMap, rooms: &[Place]) -> Vec<usize> {
    rooms.iter().map(|&r| map.label(r)).collect()
}

fn cave_step_text(map: &CaveMap, number: usize, r: &wumpus::run::CaveStepReport) -> String {
    let s = &r.status;
    let mut text = String::new();
    for e in &r.events {
        text.push_str(&format!("  ({})\n", e.text()));
    }
    let w = warnings(s);
    let list = |rooms: &[Place]| {
        labels(map, rooms)
            .iter()
            .map(|r| r.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    text.push_str(&format!(
        "\nStep {number} in room {}: {} (out {}; in {}); {} arrows, {} moves\n",
        map.label(s.room),
        if w.is_empty() {
            "no warning".to_string()
        } else {
            w.join(", ")
        },
        list(&s.outs),
        list(&s.ins),
        s.arrows,
        s.moves
    ));
    for c in &r.learned {
        let head = format!("room {} {}", map.label(c.place), c.fact);
        if c.because.is_empty() {
            text.push_str(&format!("  proved {head}\n"));
        } else {
            text.push_str(&format!("  proved {head}: {}\n", c.because.join("; ")));
        }
    }
    if let Some(o) = &r.odds {
        text.push_str(&format!(
            "  odds: wumpus {}\n        pit {}\n        bats {}\n",
            odds_line(map, &o.wumpus),
            odds_line(map, &o.pit),
            odds_line(map, &o.bats)
        ));
    }
    text.push_str(&format!(
        "  action: {}\n  why: {}\n",
        action_text(map, &r.decision.action),
        r.decision.reason
    ));
    text
}

fn cave_step_json(
    map: &CaveMap,
    number: usize,
    r: &wumpus::run::CaveStepReport,
) -> serde_json::Value {
    let s = &r.status;
    let chances = |v: &[f64]| -> serde_json::Value {
        v.iter()
            .enumerate()
            .filter(|(_, &p)| p > 0.0)
            .map(|(i, &p)| (map.label(Place::new(i)).to_string(), serde_json::json!(p)))
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    let seen = |view| rooms_seen(map, &r.views, view);
    let mut safe = seen(RoomView::Safe);
    safe.extend(seen(RoomView::Visited));
    safe.sort_unstable();
    serde_json::json!({
        "step": number,
        "room": map.label(s.room),
        "warnings": warnings(s),
        "out": labels(map, &s.outs),
        "in": labels(map, &s.ins),
        "arrows": s.arrows,
        "moves": s.moves,
        "events": r.events.iter().map(|e| e.text()).collect::<Vec<_>>(),
        "learned": r.learned.iter().map(|c| serde_json::json!({
            "room": map.label(c.place), "fact": c.fact, "because": c.because,
        })).collect::<Vec<_>>(),
        "proven_safe": safe,
        "proven_pit": seen(RoomView::Pit),
        "proven_bats": seen(RoomView::Bats),
        "proven_wumpus": seen(RoomView::Wumpus),
        "odds": r.odds.as_ref().map(|o| serde_json::json!({
            "wumpus": chances(&o.wumpus), "pit": chances(&o.pit), "bats": chances(&o.bats),
        })),
        "action": action_text(map, &r.decision.action),
        "rule": r.decision.reason.rule,
        "reason": r.decision.reason.text,
        "kill_chance": r.decision.kill_chance,
        "risk": r.decision.risk,
    })
}

/// `solve --rules maze`: the maze agent on a batch (or a shard of one) of seeded games.
pub fn solve_maze(
    map: Option<PathBuf>,
    games: u64,
    seed: u64,
    json: bool,
    shard: Option<wumpus::run::Shard>,
    csv: Option<PathBuf>,
) -> Result<()> {
    let (map, map_name) = load_map(map.as_deref(), Rules::Maze)?;
    MazeAgent::new(map.clone(), Insight::Decisions).map_err(bad_input)?;
    let range = shard.map_or(0..games, |s| s.range(games));
    let mut sink = BatchCli::new(
        range.end - range.start,
        csv.as_deref(),
        "seed,outcome,moves,grenades",
        maze_row,
    )?;
    let start = std::time::Instant::now();
    let totals =
        wumpus::run::play_maze_games(&map, seed, range.clone(), &mut sink).map_err(bad_input)?;
    let elapsed_seconds = start.elapsed().as_secs_f64();
    sink.finish()?;
    let batch = wumpus::run::CaveBatch {
        rules: "maze".to_string(),
        map: map_name,
        agent: "logic".to_string(),
        map_known: true,
        variant: String::new(),
        seed,
        worlds: games,
        shard,
        interrupted: totals.games < range.end - range.start,
        totals,
        elapsed_seconds,
    };
    print_batch(&batch, json, sink.csv_to_stdout())?;
    check_interrupted(
        batch.interrupted,
        batch.totals.games,
        range.end - range.start,
    )
}

/// `trace --rules maze`: one game of the maze agent, step by step.
fn trace_maze(options: TraceOptions) -> Result<()> {
    let (map, map_name) = load_map(options.map.as_deref(), Rules::Maze)?;
    let seed = options.seed.unwrap_or_else(fresh_seed);
    let hazards = match &options.hazards {
        Some(path) => cave::read_maze_hazards(path, &map).map_err(bad_input)?,
        None => MazeHazards::deal(&map, &mut seeded(seed)).map_err(bad_input)?,
    };
    let game = new_maze(&map, hazards, seed, options.hazards.is_none());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if options.json {
        writeln!(
            out,
            "{}",
            serde_json::json!({ "rules": "maze", "map": map_name, "caves": map.len(), "seed": seed })
        )?;
    } else {
        writeln!(
            out,
            "Trace of the maze on {map_name} ({} caves), seed {seed}, the agent given the map.",
            map.len()
        )?;
    }
    let names = MazeAgent::new(map.clone(), Insight::Decisions).map_err(bad_input)?;
    let mut printer = StepPrinter::new(&mut out, options.json, options.step);
    let record = wumpus::run::run_maze_game(game, seed, true, |r| {
        printer.step(
            |n| maze_step_json(&names, n, r).to_string(),
            |n| maze_step_text(&names, n, r),
        )
    })
    .map_err(bad_input)?;
    printer.finish()?;
    let outcome = match record.ending {
        Some(e) => wumpus::agent::maze::ending_text(e),
        None => "unfinished",
    };
    if options.json {
        writeln!(
            out,
            "{}",
            serde_json::json!({ "outcome": outcome, "moves": record.moves, "grenades": record.grenades })
        )?;
    } else {
        writeln!(
            out,
            "\nOutcome: {outcome} after {} moves and {} grenades.",
            record.moves, record.grenades
        )?;
        let last = if record.ending == Some(MazeEnding::Won) {
            "YOU WIN"
        } else {
            "GAME OVER"
        };
        writeln!(out, "{last}")?;
    }
    Ok(())
}

fn maze_action_text(a: &wumpus::cave::MazeAction) -> String {
    match a {
        wumpus::cave::MazeAction::Move(t) => format!("move {t}"),
        wumpus::cave::MazeAction::Toss(t) => format!("toss {t}"),
    }
}

fn senses(v: &wumpus::cave::MazeView) -> Vec<&'static str> {
    let mut s = Vec::new();
    if v.smell {
        s.push("smell");
    }
    if v.hear {
        s.push("hear");
    }
    if v.feel {
        s.push("feel");
    }
    s
}

fn maze_step_text(agent: &MazeAgent, number: usize, r: &wumpus::run::MazeStepReport) -> String {
    let mut text = String::new();
    for e in &r.events {
        text.push_str(&format!("  ({})\n", e.text()));
    }
    let s = senses(&r.view);
    text.push_str(&format!(
        "\nStep {number} in {}: {}\n",
        r.view.name,
        if s.is_empty() {
            "nothing sensed".to_string()
        } else {
            s.join(", ")
        }
    ));
    if r.whereabouts.len() > 1 {
        let w: Vec<String> = r
            .whereabouts
            .iter()
            .map(|(c, p)| format!("{} {}", agent.cave_name(*c), percent(*p)))
            .collect();
        text.push_str(&format!("  where am I: {}\n", w.join(", ")));
    }
    for c in &r.learned {
        let head = format!("{} {}", agent.cave_name(c.place), c.fact);
        if c.because.is_empty() {
            text.push_str(&format!("  proved {head}\n"));
        } else {
            text.push_str(&format!("  proved {head}: {}\n", c.because.join("; ")));
        }
    }
    for t in &r.tunnels {
        text.push_str(&format!(
            "  tunnel {} to {}: wumpus {}, pit {}, bats {}{}\n",
            t.tunnel,
            t.name,
            percent(t.wumpus),
            percent(t.pit),
            percent(t.bats),
            if t.safe { " (proven safe)" } else { "" }
        ));
    }
    text.push_str(&format!(
        "  action: {}\n  why: {}\n",
        maze_action_text(&r.decision.action),
        r.decision.reason
    ));
    text
}

fn maze_step_json(
    agent: &MazeAgent,
    number: usize,
    r: &wumpus::run::MazeStepReport,
) -> serde_json::Value {
    serde_json::json!({
        "step": number,
        "cave": r.view.name,
        "senses": senses(&r.view),
        "whereabouts": r.whereabouts.iter().map(|(c, p)| serde_json::json!({
            "cave": agent.cave_name(*c), "chance": p,
        })).collect::<Vec<_>>(),
        "learned": r.learned.iter().map(|c| serde_json::json!({
            "cave": agent.cave_name(c.place), "fact": c.fact, "because": c.because,
        })).collect::<Vec<_>>(),
        "tunnels": r.tunnels.iter().map(|t| serde_json::json!({
            "tunnel": t.tunnel, "cave": t.name, "wumpus": t.wumpus, "pit": t.pit,
            "bats": t.bats, "devour": t.devour, "proven_safe": t.safe,
            "proven_wumpus": t.proven_wumpus,
        })).collect::<Vec<_>>(),
        "action": maze_action_text(&r.decision.action),
        "rule": r.decision.reason.rule,
        "reason": r.decision.reason.text,
    })
}
