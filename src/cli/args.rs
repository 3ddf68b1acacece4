//! The flags every game command shares, checked against the chosen rule set, and the one
//! dispatch from a rule set's name to code written once over the game interface.
//!
//! [`RuleArgs`] holds the flags that pick and set up a rule set (`--rules`, `--size`, `--map`,
//! `--agent`, ...); every flag is optional, so that a flag given for a rule set it does not
//! fit is refused (exit status 2, naming the rule set and the flags that do apply) instead of
//! silently ignored. [`RuleArgs::dispatch`] turns them into a [`Prepared`] game of the chosen
//! rule set and hands it to a command's generic `run`.

use super::bad_input;
use anyhow::Result;
use clap::{Args, ValueEnum};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use wumpus::agent::{AgentKind, AgentOptions, Roster};
use wumpus::cave::classic::Variant;
use wumpus::cave::{self, ClassicSession, ClassicSetup, MazeSession, MazeSetup};
use wumpus::game::{Files, RuleSet, Session, Words};
use wumpus::grid::{AimaSession, GridSession, GridSetup, Scoring, SizeRange};

/// The most rollouts a decision `--rollouts` allows.
const MAX_ROLLOUTS: i64 = 100_000;

/// The deepest `--depth` (also for the live page's `depth`).
pub const MAX_DEPTH: u32 = 6;

/// Which rule set to play.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RulesArg {
    /// The grid Wumpus World: pits, a wumpus, gold, one arrow, climb out at 0,0.
    #[default]
    Grid,
    /// The classic Hunt the Wumpus cave: 20 rooms, pits, super bats, a wumpus that wakes,
    /// crooked arrows.
    Cave,
    /// The caves.dat maze: named caves, several wumpi, grenades.
    Maze,
    /// The textbook's (AIMA) Wumpus World: the grid with a heading; start at 0,0 facing east;
    /// forward, turn left, turn right, grab, shoot (the way you face), climb; every action -1,
    /// the arrow -10, +1000 out with the gold, -1000 for dying.
    Aima,
}

impl RulesArg {
    /// The rules of a game on a cave map, with its map format; `None` on the grid.
    pub fn on_map(self) -> Option<(wumpus::cave::Rules, wumpus::cave::MapFormat)> {
        use wumpus::cave::{MapFormat, Rules};
        match self {
            RulesArg::Cave => Some((Rules::Classic, MapFormat::Event)),
            RulesArg::Maze => Some((Rules::Maze, MapFormat::CavesDat)),
            RulesArg::Grid | RulesArg::Aima => None,
        }
    }
}

impl From<RulesArg> for RuleSet {
    fn from(r: RulesArg) -> RuleSet {
        match r {
            RulesArg::Grid => RuleSet::Grid,
            RulesArg::Cave => RuleSet::Cave,
            RulesArg::Maze => RuleSet::Maze,
            RulesArg::Aima => RuleSet::Aima,
        }
    }
}

/// How grid worlds are dealt.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DealArg {
    /// Every cell but 0,0 a pit with --pit-prob, the wumpus and the gold uniform off 0,0, on
    /// --size.
    Uniform,
    /// The course tournament's deal (docs/rules.md).
    Course,
}

/// The classic cave's rules.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VariantArg {
    /// The rules of the Hunt the Wumpus tournament the classic cave comes from (docs/caves.md).
    #[default]
    Event,
    /// Gregory Yob's 1973 rules: bumping into the wumpus wakes it.
    Yob,
}

/// The scoring rules of the grid.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ScoringArg {
    /// +1000 out with the gold, +100 out without, -10 for firing, -1 a move, 0 if dead.
    #[default]
    Standard,
    /// The textbook's (AIMA) scoring on compass moves: +1000 out with the gold, -1000 for
    /// dying, -10 firing, -1 a move (`--rules aima` plays its heading and turns too).
    Aima,
}

/// Which agent plays (each rule set has its own).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentArg {
    /// Grid (the default there): logic first, then exact odds and the best expected score.
    Risk,
    /// Moves only where the knowledge base proves it safe, never dies (grid); the reasoning
    /// agent, with proofs and exact odds (cave and maze, the default there).
    Logic,
    /// The classic cave event's random player (cave).
    Random,
    /// Grid, up to 16 cells (4x4): the exact optimal policy, solved once for the batch by
    /// expectimax over belief states.
    Optimal,
}

impl From<AgentArg> for AgentKind {
    fn from(a: AgentArg) -> AgentKind {
        match a {
            AgentArg::Risk => AgentKind::Risk,
            AgentArg::Logic => AgentKind::Logic,
            AgentArg::Random => AgentKind::Random,
            AgentArg::Optimal => AgentKind::Optimal,
        }
    }
}

/// A grid size `RxC` (or `N` for N×N).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridSize {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
}

impl std::str::FromStr for GridSize {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let lower = s.to_ascii_lowercase();
        let (r, c) = match lower.split_once('x') {
            Some((r, c)) => (r, c),
            None => (lower.as_str(), lower.as_str()),
        };
        let parse = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("'{s}' is not a size like 5x5"))
        };
        let (rows, cols) = (parse(r)?, parse(c)?);
        let max = wumpus::topology::MAX_GRID_SIDE;
        if !(2..=max).contains(&rows) || !(2..=max).contains(&cols) {
            return Err(format!(
                "size {rows}x{cols} is out of range (2x2 to {max}x{max})"
            ));
        }
        Ok(GridSize { rows, cols })
    }
}

impl fmt::Display for GridSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// `--size`: one grid size (`5x5`, `5`), or a range (`4x4..7x7`) each game's size is drawn
/// from by its seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeArg {
    /// Every game this size.
    One(GridSize),
    /// Each game a size drawn from this range.
    Range(SizeRange),
}

impl std::str::FromStr for SizeArg {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let Some((low, high)) = s.split_once("..") else {
            return Ok(SizeArg::One(s.parse()?));
        };
        let (low, high): (GridSize, GridSize) = (low.parse()?, high.parse()?);
        let range = SizeRange::new((low.rows, low.cols), (high.rows, high.cols)).ok_or_else(|| {
            format!("'{s}' is not a range of sizes: the second must be at least the first on both sides")
        })?;
        Ok(if low == high {
            SizeArg::One(low)
        } else {
            SizeArg::Range(range)
        })
    }
}

/// The most worker threads `solve` starts. Each game plays alone on one thread, so more threads
/// than cores buy nothing; the cap keeps a typo such as `--threads 100000` from starting
/// thousands of threads (each with its own stack) that never finish.
pub const MAX_THREADS: usize = 256;

/// A probability from 0 to 1.
pub fn parse_probability(s: &str) -> Result<f64, String> {
    let p: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a probability (a number from 0 to 1)"))?;
    if (0.0..=1.0).contains(&p) {
        Ok(p)
    } else {
        Err(format!("probability {p} is not between 0 and 1"))
    }
}

/// The flags that choose a rule set and set it up, shared by every game command.
#[derive(Args, Debug, Clone, Default)]
pub struct RuleArgs {
    /// The rule set: the grid Wumpus World (default), the classic cave, the caves.dat maze, or
    /// the textbook's (AIMA) Wumpus World with a heading and turns.
    #[arg(long, value_enum)]
    pub rules: Option<RulesArg>,
    /// Grid and aima: size, rows x columns, or a range such as 4x4..7x7 that deals each game's
    /// size from its seed (square ends: NxN, N uniform) [default: 5x5; aima: 4x4].
    #[arg(long, conflicts_with = "deal")]
    pub size: Option<SizeArg>,
    /// Grid and aima: deal worlds as `course` does, the course tournament: its 16 sizes from
    /// 4x4 to 7x7 in its 2,500:500 proportion, and the pits where its shells put them (only in
    /// the lower-left square block of a board that is not square; docs/rules.md).
    #[arg(long, value_enum)]
    pub deal: Option<DealArg>,
    /// Grid and aima: do not tell the agent the board's size; it learns each wall from a bump
    /// and weighs the sizes the deal allows (the default with --deal course and for the
    /// course's world files; the project's own files are then taken as square, 4x4 to 7x7).
    #[arg(long, conflicts_with = "size_told")]
    pub size_hidden: bool,
    /// Grid and aima: tell the agent the board's size (the default, but for --deal course and
    /// the course's world files).
    #[arg(long)]
    pub size_told: bool,
    /// Grid and aima: the chance that a cell other than 0,0 holds a pit [default: 0.2].
    #[arg(long, value_parser = parse_probability, allow_negative_numbers = true)]
    pub pit_prob: Option<f64>,
    /// Grid: how the final score is counted [default: standard].
    #[arg(long, value_enum)]
    pub scoring: Option<ScoringArg>,
    /// Grid and aima: how many steps the risk agent looks ahead when logic runs out: 1 weighs
    /// each step by a one-step estimate; from 2 it searches the exact odds of each step's and
    /// each shot's outcomes, turns counted under aima (grids of up to 64 cells; 2 is the
    /// strongest for its speed on the grid, 3 under aima). Cave, with --map-known: from 2,
    /// each way into an unknown room is weighed by what may be felt there [default: 2 on the
    /// grid and under aima, 1 in the cave].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    pub depth: Option<u32>,
    /// Cave, with --map-known: weigh shooting against walking by playing each choice on from
    /// layouts drawn from what the agent believes, up to N draws a decision (the rules' own
    /// choice wins a tie; 256 is a good strength for its speed; slow: a few games a second).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAX_ROLLOUTS))]
    pub rollouts: Option<u32>,
    /// Grid and aima: reason with the rules in this file instead of the built-in kb/grid.kb.
    #[arg(long, value_name = "FILE")]
    pub kb: Option<PathBuf>,
    /// Cave and maze: the map file, either format [default: the standard dodecahedron, or the
    /// standard caves.dat for the maze].
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// Cave: the rules [default: event].
    #[arg(long, value_enum)]
    pub variant: Option<VariantArg>,
    /// Cave and maze: give the agent the whole map (default: it learns the tunnels as it walks
    /// them, as a player does).
    #[arg(long)]
    pub map_known: bool,
    /// Which agent plays: risk (grid default), logic or optimal (grids of up to 16 cells,
    /// solved exactly) on the grid; risk (default) or logic under aima; logic (default) or
    /// random in the cave; logic in the maze.
    #[arg(long, value_enum)]
    pub agent: Option<AgentArg>,
}

/// A flag and whether it was given.
struct Given<'a> {
    flag: &'a str,
    given: bool,
}

impl RuleArgs {
    /// The chosen rule set.
    pub fn rule_set(&self) -> RuleSet {
        self.rules.unwrap_or_default().into()
    }

    /// Refuses every flag given that the chosen rule set does not take, naming the flags it
    /// does take. `extra` are the command's own rule-specific flags, with the rule sets each
    /// fits.
    pub fn check(&self, extra: &[(&str, bool, &[RuleSet])]) -> Result<()> {
        use RuleSet::*;
        let rules = self.rule_set();
        let shared: [(Given, &[RuleSet]); 12] = [
            (g("--size", self.size.is_some()), &[Grid, Aima]),
            (g("--deal", self.deal.is_some()), &[Grid, Aima]),
            (g("--size-hidden", self.size_hidden), &[Grid, Aima]),
            (g("--size-told", self.size_told), &[Grid, Aima]),
            (g("--pit-prob", self.pit_prob.is_some()), &[Grid, Aima]),
            (g("--scoring", self.scoring.is_some()), &[Grid]),
            (g("--depth", self.depth.is_some()), &[Grid, Aima, Cave]),
            (g("--rollouts", self.rollouts.is_some()), &[Cave]),
            (g("--kb", self.kb.is_some()), &[Grid, Aima]),
            (g("--map", self.map.is_some()), &[Cave, Maze]),
            (g("--variant", self.variant.is_some()), &[Cave]),
            (g("--map-known", self.map_known), &[Cave, Maze]),
        ];
        let all: Vec<(Given, &[RuleSet])> = shared
            .into_iter()
            .chain(
                extra
                    .iter()
                    .map(|&(flag, given, fits)| (g(flag, given), fits)),
            )
            .collect();
        let refused: Vec<&str> = all
            .iter()
            .filter(|(f, fits)| f.given && !fits.contains(&rules))
            .map(|(f, _)| f.flag)
            .collect();
        if refused.is_empty() {
            return Ok(());
        }
        let fitting: Vec<&str> = all
            .iter()
            .filter(|(_, fits)| fits.contains(&rules))
            .map(|(f, _)| f.flag)
            .collect();
        let (what, verb) = if refused.len() == 1 {
            ("option", "does")
        } else {
            ("options", "do")
        };
        Err(bad_input(anyhow::anyhow!(
            "the {what} {} {verb} not apply to {} (--rules {}); its options are {}",
            refused.join(", "),
            rules.title(),
            rules.name(),
            if fitting.is_empty() {
                "none of these".to_string()
            } else {
                fitting.join(", ")
            }
        )))
    }

    /// Sets up the chosen rule set and hands it to `command`, written once for all of them.
    pub fn dispatch<C: OnGame>(&self, command: C, explain: bool) -> Result<C::Out> {
        match self.rule_set() {
            RuleSet::Grid => command.run(self.grid(explain)?),
            RuleSet::Cave => command.run(self.cave(explain)?),
            RuleSet::Maze => command.run(self.maze(explain)?),
            RuleSet::Aima => command.run(self.aima(explain)?),
        }
    }

    fn agent<S: Roster>(&self) -> Result<AgentKind> {
        let kind = self.agent.map_or_else(S::default_agent, AgentKind::from);
        if !S::AGENTS.contains(&kind) {
            let names: Vec<&str> = S::AGENTS.iter().map(|a| a.name()).collect();
            return Err(bad_input(anyhow::anyhow!(
                "the {kind} agent does not play {} (--rules {}); its agents are {}",
                S::RULES.title(),
                S::RULES.name(),
                names.join(" and ")
            )));
        }
        Ok(kind)
    }

    fn grid(&self, explain: bool) -> Result<Prepared<GridSession>> {
        let scoring = match self.scoring.unwrap_or_default() {
            ScoringArg::Standard => Scoring::Standard,
            ScoringArg::Aima => Scoring::Aima,
        };
        let setup = self.grid_setup(GridSize { rows: 5, cols: 5 }, scoring)?;
        Ok(Prepared {
            agent: self.agent::<GridSession>()?,
            options: self.grid_options(explain)?,
            setup,
        })
    }

    /// The textbook's rules: the grid's setup, scored the textbook's way, 4x4 by default (the
    /// textbook's figure 7.2).
    fn aima(&self, explain: bool) -> Result<Prepared<AimaSession>> {
        let setup = self.grid_setup(GridSize { rows: 4, cols: 4 }, Scoring::Aima)?;
        Ok(Prepared {
            agent: self.agent::<AimaSession>()?,
            options: self.grid_options(explain)?,
            setup,
        })
    }

    /// The grid setup of `--size` (or `default`) and `--pit-prob`, scored by `scoring`.
    fn grid_setup(&self, default: GridSize, scoring: Scoring) -> Result<GridSetup> {
        let pit_prob = self.pit_prob.unwrap_or(0.2);
        let mut setup = if self.deal == Some(DealArg::Course) {
            GridSetup::course(pit_prob, scoring)
        } else {
            match self.size.unwrap_or(SizeArg::One(default)) {
                SizeArg::One(size) => GridSetup::new(size.rows, size.cols, pit_prob, scoring),
                SizeArg::Range(range) => GridSetup::ranged(range, pit_prob, scoring),
            }
        }
        .map_err(bad_input)?;
        setup.size_told = match (self.size_hidden, self.size_told) {
            (true, _) => Some(false),
            (_, true) => Some(true),
            _ => None,
        };
        Ok(setup)
    }

    /// The grid agents' options: explanations, and the rules of `--kb`.
    fn grid_options(&self, explain: bool) -> Result<AgentOptions> {
        let kb = match &self.kb {
            Some(path) => Some(Arc::new(
                wumpus::files::read_parsed(path, wumpus::kb::rules::parse_rules)
                    .map_err(bad_input)?,
            )),
            None => None,
        };
        Ok(AgentOptions {
            explain,
            map_known: false,
            kb,
            depth: self.depth,
            rollouts: None,
        })
    }

    fn cave(&self, explain: bool) -> Result<Prepared<ClassicSession>> {
        let (map, map_name) = load_map(self.map.as_deref(), RuleSet::Cave)?;
        let variant = match self.variant.unwrap_or_default() {
            VariantArg::Event => Variant::Event,
            VariantArg::Yob => Variant::Yob,
        };
        Ok(Prepared {
            agent: self.agent::<ClassicSession>()?,
            options: AgentOptions {
                explain,
                map_known: self.map_known,
                kb: None,
                depth: self.depth,
                rollouts: self.rollouts,
            },
            setup: ClassicSetup {
                map,
                map_name,
                variant,
            },
        })
    }

    fn maze(&self, explain: bool) -> Result<Prepared<MazeSession>> {
        let (map, map_name) = load_map(self.map.as_deref(), RuleSet::Maze)?;
        Ok(Prepared {
            agent: self.agent::<MazeSession>()?,
            options: AgentOptions {
                explain,
                map_known: self.map_known,
                kb: None,
                depth: None,
                rollouts: None,
            },
            setup: MazeSetup { map, map_name },
        })
    }
}

fn g(flag: &str, given: bool) -> Given<'_> {
    Given { flag, given }
}

/// A rule set chosen and set up: what every game command starts from.
pub struct Prepared<S: Session> {
    /// The rule set's setup.
    pub setup: S::Setup,
    /// The agent chosen.
    pub agent: AgentKind,
    /// How the agent is set up.
    pub options: AgentOptions,
}

impl<S: Session> Prepared<S> {
    /// The rule set's parameters for summaries and traces, with the agent's knowledge of
    /// the map where that is a choice.
    pub fn describe(&self) -> serde_json::Map<String, serde_json::Value> {
        self.describe_setup(&self.setup)
    }

    /// [`Prepared::describe`] for the setup of one game (a world file has its own size).
    pub fn describe_setup(&self, setup: &S::Setup) -> serde_json::Map<String, serde_json::Value> {
        self.with_options(S::parameters(setup))
    }

    /// `map`, with the agent's options that describe the batch.
    fn with_options(
        &self,
        mut map: serde_json::Map<String, serde_json::Value>,
    ) -> serde_json::Map<String, serde_json::Value> {
        if matches!(S::RULES, RuleSet::Cave | RuleSet::Maze) {
            map.insert("map_known".into(), self.options.map_known.into());
        }
        map
    }
}

impl<S: Files> Prepared<S> {
    /// [`Prepared::describe`] for a batch over files, each holding its own world.
    pub fn describe_files(&self) -> serde_json::Map<String, serde_json::Value> {
        self.with_options(S::files_parameters(&self.setup))
    }
}

/// A command written once for every rule set: `run` is generic over the rule set's session.
pub trait OnGame {
    /// What the command returns.
    type Out;
    /// Runs the command on a prepared game of rule set `S`.
    fn run<S: Playable>(self, game: Prepared<S>) -> Result<Self::Out>;
}

/// A rule set a command can play: its sessions (their rules, files and words) and its agents.
pub trait Playable: Roster + Files + Words {}

impl<S: Roster + Files + Words> Playable for S {}

/// Loads the map a game asks for, or the built-in default for its rules, with a name to show.
pub fn load_map(path: Option<&Path>, rules: RuleSet) -> Result<(Arc<cave::CaveMap>, String)> {
    match path {
        Some(path) => {
            let map = cave::read_map(path).map_err(bad_input)?;
            Ok((Arc::new(map), path.display().to_string()))
        }
        None => {
            let (text, name) = match rules {
                RuleSet::Maze => (cave::STANDARD_CAVES_DAT, "the standard caves.dat"),
                _ => (cave::STANDARD_MAP, "the standard dodecahedron"),
            };
            let map = cave::parse_map(text).expect("the built-in maps are valid");
            Ok((Arc::new(map), name.to_string()))
        }
    }
}
