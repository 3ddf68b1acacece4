//! What a game is, described once: a [`GameSpec`] names a rule set and sets its options, with
//! their defaults, limits and the refusal of every option, value or agent that does not fit
//! the rule set, one message each ([`SpecError`]). The library also describes itself
//! ([`catalogue()`]): the rule sets, their options and the agents each offers.
//!
//! Every door is a thin translation into this type: the command line's flags, the server's
//! JSON, Python's keywords and the harness's protocol name options as [`options::OPTIONS`]
//! names them and hand each value over as a [`Value`]. A door that cannot honour an option
//! refuses it; none keeps its own list of options, defaults or refusals.
//!
//! A checked spec becomes a game of its rule set through [`GameSpec::dispatch`]: the one
//! table from a rule set to its session type, setup and agents, so a command is written once
//! over [`Playable`]. Nothing here must read the hidden world or decide anything for an agent.

pub mod catalogue;
pub mod options;

pub use catalogue::{catalogue, Catalogue};
pub use options::{option, Kind, OptionInfo, MAX_DEPTH, MAX_ROLLOUTS, OPTIONS};

use crate::agent::{AgentError, AgentFactory, AgentKind, AgentOptions, Roster};
use crate::cave::classic::Variant;
use crate::cave::{self, ClassicSession, ClassicSetup, MazeSession, MazeSetup};
use crate::files::FileError;
use crate::game::{Files, GameError, RuleSet, Session, Words};
use crate::grid::{AimaSession, Deal, GridSession, GridSetup, Scoring, SizeRange};
use crate::numbered::Numbered;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A value given for an option, as a door received it: text from the command line, a JSON
/// value from the server, a Python object from a keyword. Each option reads the kinds that
/// make sense for it (a count from a number or its digits, a flag from a bool or
/// `true`/`false`).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// On or off.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number.
    Float(f64),
    /// Text: a name, a size, a path.
    Text(String),
}

impl Value {
    /// The value of a JSON field, or why it cannot be one.
    pub fn from_json(v: &serde_json::Value) -> Result<Value, String> {
        match v {
            serde_json::Value::Bool(b) => Ok(Value::Bool(*b)),
            serde_json::Value::Number(n) => match n.as_i64() {
                Some(i) => Ok(Value::Int(i)),
                None => n.as_f64().map(Value::Float).ok_or_else(|| n.to_string()),
            },
            serde_json::Value::String(s) => Ok(Value::Text(s.clone())),
            other => Err(format!("{other} is not a value an option takes")),
        }
    }

    /// The value as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Bool(b) => (*b).into(),
            Value::Int(i) => (*i).into(),
            Value::Float(f) => (*f).into(),
            Value::Text(t) => t.clone().into(),
        }
    }
}

/// The grid sizes of a game: one size, or a range each game's size is drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridSizes {
    /// Every game this size, rows then columns.
    One(usize, usize),
    /// Each game a size drawn from this range by its seed.
    Range(SizeRange),
}

impl GridSizes {
    /// Reads `RxC`, `N` (N×N) or a range `RxC..RxC`, each side 2 to the grid's limit.
    pub fn parse(text: &str) -> Result<GridSizes, String> {
        let Some((low, high)) = text.split_once("..") else {
            let (rows, cols) = parse_size(text)?;
            return Ok(GridSizes::One(rows, cols));
        };
        let (low, high) = (parse_size(low)?, parse_size(high)?);
        if low == high {
            return Ok(GridSizes::One(low.0, low.1));
        }
        SizeRange::new(low, high)
            .map(GridSizes::Range)
            .ok_or_else(|| {
                format!(
                    "'{text}' is not a range of sizes: the second must be at least the first on \
                 both sides"
                )
            })
    }

    /// The largest size these sizes allow.
    pub fn largest(&self) -> (usize, usize) {
        match self {
            GridSizes::One(r, c) => (*r, *c),
            GridSizes::Range(range) => range.largest,
        }
    }
}

impl fmt::Display for GridSizes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridSizes::One(r, c) => write!(f, "{r}x{c}"),
            GridSizes::Range(range) => write!(f, "{range}"),
        }
    }
}

/// One size `RxC` or `N`.
fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let lower = text.trim().to_ascii_lowercase();
    let (r, c) = lower.split_once('x').unwrap_or((&lower, &lower));
    let side = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{text}' is not a size like 5x5"))
    };
    let (rows, cols) = (side(r)?, side(c)?);
    let max = crate::topology::MAX_GRID_SIDE;
    if !(2..=max).contains(&rows) || !(2..=max).contains(&cols) {
        return Err(format!(
            "size {rows}x{cols} is out of range (2x2 to {max}x{max})"
        ));
    }
    Ok((rows, cols))
}

/// A game: its rule set and every option given. An option not given takes its default for
/// the rule set (see [`options::OPTIONS`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameSpec {
    /// The rule set.
    pub rules: RuleSet,
    /// Grid: the size or range of sizes.
    pub size: Option<GridSizes>,
    /// Grid: how worlds are dealt.
    pub deal: Option<Deal>,
    /// Grid: whether the agent is told the board's size.
    pub size_told: Option<bool>,
    /// Grid: the chance of a pit in a cell.
    pub pit_prob: Option<f64>,
    /// Grid (compass moves): how the score is counted.
    pub scoring: Option<Scoring>,
    /// How far the agent looks ahead.
    pub depth: Option<u32>,
    /// Classic cave: rollouts a decision.
    pub rollouts: Option<u32>,
    /// Grid: a rule file to reason with.
    pub kb: Option<PathBuf>,
    /// Cave and maze: the map file.
    pub map: Option<PathBuf>,
    /// Classic cave: the rules' variant.
    pub variant: Option<Variant>,
    /// Cave and maze: the agent is given the map.
    pub map_known: Option<bool>,
    /// The agent.
    pub agent: Option<AgentKind>,
    /// A door's own limits (not an option: what the door allows, not what the game is).
    pub limits: Limits,
    /// Where the optimal agent keeps its solved values: a door's choice (the command line and
    /// Python use [`crate::agent::optimal::default_cache_dir`]), never taken from a request.
    pub cache: Option<PathBuf>,
}

/// What a door allows beyond the library's own limits, enforced wherever a game is made,
/// a file read for it included (a server plays smaller grids than the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The longest side of a grid, dealt or read from a file.
    pub max_side: usize,
    /// The most cells of a grid the optimal agent plays: its solve holds memory for the game's
    /// length (1.8 GB and about a minute for 16 cells, a few MB and a second for 12).
    pub max_optimal_cells: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_side: crate::topology::MAX_GRID_SIDE,
            max_optimal_cells: crate::agent::optimal::MAX_CELLS,
        }
    }
}

/// How a door spells an option in messages: `--pit-prob 0.3` on the command line,
/// `pit_prob=0.3` for JSON and Python.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    /// Command-line flags.
    Flags,
    /// Keywords and JSON fields.
    Keywords,
}

impl Spelling {
    /// `name` (and `value`, if given) as this door writes it.
    pub fn spell(self, name: &str, value: Option<&str>) -> String {
        match self {
            Spelling::Flags => {
                let flag = |n: &str| format!("--{}", n.replace('_', "-"));
                let opposite = option(name).and_then(|o| o.opposite);
                match (value, opposite) {
                    (None | Some("true"), _) if is_flag(name) => flag(name),
                    (Some("false"), Some(opposite)) => flag(opposite),
                    (None, _) => flag(name),
                    (Some(v), _) => format!("{} {v}", flag(name)),
                }
            }
            Spelling::Keywords => match value {
                None => name.to_string(),
                Some(v) if is_flag(name) => format!("{name}={v}"),
                Some(v) => format!("{name}='{v}'"),
            },
        }
    }
}

fn is_flag(name: &str) -> bool {
    option(name).is_some_and(|o| o.kind == Kind::Flag)
}

/// A refusal's words, with the options it names marked `{name}` or `{name=value}`, so that
/// each door shows them as its users write them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal(String);

impl Refusal {
    /// The refusal in `spelling`.
    pub fn spelled(&self, spelling: Spelling) -> String {
        let mut out = String::new();
        let mut rest = self.0.as_str();
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}') else {
                break;
            };
            out.push_str(&rest[..open]);
            let inner = &rest[open + 1..open + close];
            let (name, value) = match inner.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (inner, None),
            };
            out.push_str(&spelling.spell(name, value));
            rest = &rest[open + close + 1..];
        }
        out.push_str(rest);
        out
    }
}

/// Why a game cannot be made as described: the refusal of an option, a value, an agent or a
/// combination (one message each), or a file named in it that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// An option, a value or an agent that does not fit.
    #[error("{}", .0.spelled(Spelling::Keywords))]
    Refused(Refusal),
    /// A file the spec names (a map, a rule file) cannot be read or parsed.
    #[error(transparent)]
    File(#[from] FileError),
    /// The setup cannot be made (a grid too large to build).
    #[error(transparent)]
    Game(#[from] GameError),
    /// The agent cannot play this setup (the optimal agent on too large a grid).
    #[error(transparent)]
    Agent(#[from] AgentError),
}

impl SpecError {
    /// The error as a door shows it, its options spelled as the door's users write them.
    pub fn spelled(&self, spelling: Spelling) -> String {
        match self {
            SpecError::Refused(r) => r.spelled(spelling),
            other => other.to_string(),
        }
    }

    fn refused(text: impl Into<String>) -> SpecError {
        SpecError::Refused(Refusal(text.into()))
    }
}

/// The agents of `rules`, its default first.
pub fn agents_of(rules: RuleSet) -> &'static [AgentKind] {
    match rules {
        RuleSet::Grid => GridSession::AGENTS,
        RuleSet::Aima => AimaSession::AGENTS,
        RuleSet::Cave => ClassicSession::AGENTS,
        RuleSet::Maze => MazeSession::AGENTS,
    }
}

/// `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => "none".into(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// An option a door adds for its own commands (the command line's `--world`), checked with
/// the spec's own: its name, whether it was given, and the rule sets it fits.
pub struct DoorOption<'a> {
    /// Its name, as [`Refusal`] marks names.
    pub name: &'a str,
    /// Whether it was given.
    pub given: bool,
    /// Whether it fits a rule set.
    pub fits: &'a dyn Fn(RuleSet) -> bool,
}

impl GameSpec {
    /// A game of `rules` with every option at its default.
    pub fn new(rules: RuleSet) -> GameSpec {
        GameSpec {
            rules,
            ..GameSpec::default()
        }
    }

    /// Sets option `name` (or `rules`) to `value`, refusing an unknown option or a value it
    /// cannot take. Whether the option fits the rule set is checked by [`GameSpec::check`].
    pub fn set(&mut self, name: &str, value: &Value) -> Result<(), SpecError> {
        if name == "rules" {
            let names: Vec<&str> = RuleSet::ALL.iter().map(|r| r.name()).collect();
            let text = match value {
                Value::Text(t) => t.clone(),
                other => other.shown(),
            };
            self.rules = RuleSet::parse(&text).ok_or_else(|| {
                SpecError::refused(format!(
                    "{{rules}}: '{text}' is none of {}",
                    names.join(", ")
                ))
            })?;
            return Ok(());
        }
        let Some(info) = option(name) else {
            let mut names = vec!["rules".to_string()];
            names.extend(OPTIONS.iter().map(|o| format!("{{{}}}", o.name)));
            return Err(SpecError::refused(format!(
                "there is no option '{name}': the options are {}",
                names.join(", ")
            )));
        };
        (info.set)(self, value).map_err(|why| SpecError::refused(format!("{{{name}}}: {why}")))
    }

    /// A spec from `(name, value)` pairs, checked.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, Value)>,
    ) -> Result<GameSpec, SpecError> {
        let mut spec = GameSpec::default();
        for (name, value) in pairs {
            spec.set(name, &value)?;
        }
        spec.check()?;
        Ok(spec)
    }

    /// The options given, in the catalogue's order, with their values (`rules` first).
    pub fn given(&self) -> Vec<(&'static str, Value)> {
        let mut out = vec![("rules", Value::Text(self.rules.name().into()))];
        out.extend(
            OPTIONS
                .iter()
                .filter_map(|o| (o.get)(self).map(|v| (o.name, v))),
        );
        out
    }

    /// The agent that plays: the one given, or the rule set's default.
    pub fn agent_kind(&self) -> AgentKind {
        self.agent.unwrap_or(agents_of(self.rules)[0])
    }

    /// Refuses every option given that the rule set does not take, and every value or agent
    /// that does not fit the others.
    pub fn check(&self) -> Result<(), SpecError> {
        self.check_with(&[])
    }

    /// [`GameSpec::check`], with a door's own options checked and listed beside the spec's.
    pub fn check_with(&self, door: &[DoorOption<'_>]) -> Result<(), SpecError> {
        self.check_game_with(door)?;
        self.check_agent()
    }

    /// [`GameSpec::check_with`] but for the agent: what a door that plays without one (a
    /// person playing, hints optional) checks. The agent is checked when it is prepared
    /// ([`Prepared::agents`]).
    pub fn check_game_with(&self, door: &[DoorOption<'_>]) -> Result<(), SpecError> {
        let rules = self.rules;
        let mut all: Vec<(&str, bool, bool)> = OPTIONS
            .iter()
            .map(|o| (o.name, (o.get)(self).is_some(), o.fits(rules)))
            .collect();
        all.extend(door.iter().map(|d| (d.name, d.given, (d.fits)(rules))));
        let refused: Vec<String> = all
            .iter()
            .filter(|(_, given, fits)| *given && !fits)
            .map(|(n, _, _)| format!("{{{n}}}"))
            .collect();
        if !refused.is_empty() {
            let fitting: Vec<String> = all
                .iter()
                .filter(|(_, _, fits)| *fits)
                .map(|(n, _, _)| format!("{{{n}}}"))
                .collect();
            let (what, verb) = if refused.len() == 1 {
                ("option", "does")
            } else {
                ("options", "do")
            };
            return Err(SpecError::refused(format!(
                "the {what} {} {verb} not apply to {} ({{rules={}}}); its options are {}",
                refused.join(", "),
                rules.title(),
                rules.name(),
                fitting.join(", ")
            )));
        }
        if self.size.is_some() && self.deal == Some(Deal::Course) {
            return Err(SpecError::refused(
                "the course's deal ({deal=course}) draws its own sizes: give {size} or {deal}, \
                 not both",
            ));
        }
        let most = self.limits.max_side;
        if let Some(size) = self
            .size
            .filter(|s| s.largest().0.max(s.largest().1) > most)
        {
            return Err(SpecError::refused(format!(
                "{{size}}: {size} is larger than this door plays ({most}x{most} at most)"
            )));
        }
        Ok(())
    }

    /// Refuses an agent that does not play the rule set, or options it cannot take.
    pub fn check_agent(&self) -> Result<(), SpecError> {
        let (rules, kind) = (self.rules, self.agent_kind());
        let agents = agents_of(rules);
        if !agents.contains(&kind) {
            let names: Vec<String> = agents.iter().map(|a| a.name().to_string()).collect();
            return Err(SpecError::refused(format!(
                "the {kind} agent does not play {} ({{rules={}}}); its agents are {}",
                rules.title(),
                rules.name(),
                and_list(&names)
            )));
        }
        if let (AgentKind::Optimal, Some(GridSizes::One(rows, cols))) = (kind, self.grid_size()) {
            let most = self.limits.max_optimal_cells;
            if rows * cols > most && most < crate::agent::optimal::MAX_CELLS {
                return Err(SpecError::refused(format!(
                    "here the optimal agent plays grids of at most {most} cells ({rows}x{cols} \
                     has {}): a larger one takes a minute and GBs to solve; give {{size}} \
                     3x4 or smaller, or play it from the command line",
                    rows * cols
                )));
            }
        }
        let map_known = self.map_known.unwrap_or(false);
        let deep = self.depth.is_some_and(|d| d > 1);
        let refusal = match (rules, kind) {
            (RuleSet::Grid | RuleSet::Aima, AgentKind::Optimal)
                if matches!(self.size, Some(GridSizes::Range(_)))
                    || self.deal == Some(Deal::Course) =>
            {
                Some(
                    "the optimal agent solves one grid size exactly: give {size} one size, not \
                     a range or the course's deal",
                )
            }
            (RuleSet::Cave, AgentKind::Logic) if self.variant == Some(Variant::Yob) => Some(
                "the logic agent plays the tournament rules ({variant=event}); use \
                 {agent=random} for {variant=yob}",
            ),
            (RuleSet::Cave, AgentKind::Logic) if deep && !map_known => Some(
                "in the classic cave the look-ahead ({depth}) needs the map ({map_known}): \
                 where a room's tunnels are unknown, what may be felt there is not weighed",
            ),
            (RuleSet::Cave, AgentKind::Logic) if self.rollouts.is_some() && !map_known => Some(
                "rollouts ({rollouts}) need the map ({map_known}): what lies behind tunnels \
                 not yet seen cannot be drawn",
            ),
            (RuleSet::Cave, AgentKind::Random) if self.rollouts.is_some() => Some(
                "the random player does not weigh its choices: {rollouts} is for the logic \
                 agent",
            ),
            (RuleSet::Cave, AgentKind::Random) if deep => {
                Some("the random player does not look ahead: {depth} is for the logic agent")
            }
            (RuleSet::Grid | RuleSet::Aima, AgentKind::Random)
                if self.depth.is_some() || self.kb.is_some() =>
            {
                Some("the random player does not reason: {depth} and {kb} are for the risk agent")
            }
            (RuleSet::Grid, AgentKind::Optimal) if self.depth.is_some() || self.kb.is_some() => {
                Some(
                    "the optimal agent plays the exact policy of the grid's own rules: {depth} \
                     and {kb} are for the risk agent",
                )
            }
            (RuleSet::Grid | RuleSet::Aima, AgentKind::Logic) if self.depth.is_some() => Some(
                "the logic agent steps only where it proved safe and never weighs a risk: \
                 {depth} is for the risk agent",
            ),
            _ => None,
        };
        match refusal {
            Some(r) => Err(SpecError::refused(r)),
            None => Ok(()),
        }
    }

    /// Checks the game (the agent is checked when prepared) and hands it, set up, to
    /// `command`, written once for every rule set. `explain`: the agents explain their
    /// conclusions (slower).
    pub fn dispatch<C: OnRules>(&self, command: C, explain: bool) -> Result<C::Out, SpecError> {
        self.check_game_with(&[])?;
        Ok(match self.rules {
            RuleSet::Grid => {
                command.run(self.prepared::<GridSession>(self.grid_setup()?, explain)?)
            }
            RuleSet::Aima => {
                command.run(self.prepared::<AimaSession>(self.grid_setup()?, explain)?)
            }
            RuleSet::Cave => {
                command.run(self.prepared::<ClassicSession>(self.cave_setup()?, explain)?)
            }
            RuleSet::Maze => {
                command.run(self.prepared::<MazeSession>(self.maze_setup()?, explain)?)
            }
        })
    }

    fn prepared<S: Playable>(
        &self,
        setup: S::Setup,
        explain: bool,
    ) -> Result<Prepared<S>, SpecError> {
        let kb = match &self.kb {
            Some(path) => Some(Arc::new(crate::files::read_parsed(
                path,
                crate::kb::rules::parse_rules,
            )?)),
            None => None,
        };
        Ok(Prepared {
            spec: self.clone(),
            setup,
            agent: self.agent_kind(),
            options: AgentOptions {
                explain,
                map_known: self.map_known.unwrap_or(false),
                kb,
                depth: self.depth,
                rollouts: self.rollouts,
                cache: self.cache.clone(),
            },
        })
    }

    /// The grid's size or sizes, given or the rule set's default (5x5; 4x4 under the textbook's
    /// rules); `None` off the grid.
    fn grid_size(&self) -> Option<GridSizes> {
        match self.rules {
            RuleSet::Grid => Some(self.size.unwrap_or(GridSizes::One(5, 5))),
            RuleSet::Aima => Some(self.size.unwrap_or(GridSizes::One(4, 4))),
            _ => None,
        }
    }

    /// The grid's setup: 5x5 (4x4 under the textbook's rules) with pits at 0.2 unless told.
    fn grid_setup(&self) -> Result<GridSetup, SpecError> {
        let pit_prob = self.pit_prob.unwrap_or(0.2);
        let scoring = match self.rules {
            RuleSet::Aima => Scoring::Aima,
            _ => self.scoring.unwrap_or(Scoring::Standard),
        };
        let size = self.grid_size().unwrap_or(GridSizes::One(5, 5));
        let mut setup = if self.deal == Some(Deal::Course) {
            GridSetup::course(pit_prob, scoring)?
        } else {
            match size {
                GridSizes::One(rows, cols) => GridSetup::new(rows, cols, pit_prob, scoring)?,
                GridSizes::Range(range) => GridSetup::ranged(range, pit_prob, scoring)?,
            }
        };
        setup.size_told = self.size_told;
        setup.max_side = self.limits.max_side;
        Ok(setup)
    }

    fn cave_setup(&self) -> Result<ClassicSetup, SpecError> {
        let (map, map_name) = self.map_file()?;
        Ok(ClassicSetup {
            map,
            map_name,
            variant: self.variant.unwrap_or_default(),
        })
    }

    fn maze_setup(&self) -> Result<MazeSetup, SpecError> {
        let (map, map_name) = self.map_file()?;
        Ok(MazeSetup { map, map_name })
    }

    /// The map the spec names, or the rule set's built-in one, with a name to show.
    pub fn map_file(&self) -> Result<(Arc<cave::CaveMap>, String), SpecError> {
        match &self.map {
            Some(path) => Ok((Arc::new(cave::read_map(path)?), path.display().to_string())),
            None => {
                let (text, name) = match self.rules {
                    RuleSet::Maze => (cave::STANDARD_CAVES_DAT, "the standard caves.dat"),
                    _ => (cave::STANDARD_MAP, "the standard dodecahedron"),
                };
                let map = cave::parse_map(text).expect("the built-in maps are valid");
                Ok((Arc::new(map), name.to_string()))
            }
        }
    }
}

/// A rule set every door can play: its sessions (rules, files and words), its actions and
/// observations by number, and its agents.
pub trait Playable: Roster + Files + Words + Numbered {}

impl<S: Roster + Files + Words + Numbered> Playable for S {}

/// A command written once for every rule set: `run` is generic over the rule set's session.
pub trait OnRules {
    /// What the command returns.
    type Out;
    /// Runs the command on a game of rule set `S`, set up.
    fn run<S: Playable>(self, game: Prepared<S>) -> Self::Out;
}

/// A game described and set up: what every command starts from.
pub struct Prepared<S: Session> {
    /// The description it was made from (checked).
    pub spec: GameSpec,
    /// The rule set's setup.
    pub setup: S::Setup,
    /// The agent chosen.
    pub agent: AgentKind,
    /// How the agent is set up.
    pub options: AgentOptions,
}

impl<S: Playable> Prepared<S> {
    /// The chosen agent, prepared for the games of `setup` (a world file's own, or the
    /// batch's); refused, saying why, when it does not fit the game.
    pub fn agents_for(&self, setup: &S::Setup) -> Result<Box<dyn AgentFactory<S>>, SpecError> {
        self.spec.check_agent()?;
        Ok(S::prepare(self.agent, setup, &self.options)?)
    }

    /// The chosen agent, prepared for the batch's games.
    pub fn agents(&self) -> Result<Box<dyn AgentFactory<S>>, SpecError> {
        self.agents_for(&self.setup)
    }

    /// The same game played by `kind`, explaining or not (a door's second agent: the logic
    /// agent behind an action mask), without the first agent's look-ahead and rollouts where
    /// `kind` takes none.
    pub fn with_agent(&self, kind: AgentKind, explain: bool) -> Prepared<S> {
        let mut spec = self.spec.clone();
        spec.agent = Some(kind);
        let mut options = AgentOptions {
            explain,
            ..self.options.clone()
        };
        if spec.check_agent().is_err() {
            (spec.depth, spec.rollouts) = (None, None);
            (options.depth, options.rollouts) = (None, None);
        }
        Prepared {
            spec,
            setup: self.setup.clone(),
            agent: kind,
            options,
        }
    }

    /// The game dealt from `seed` (a fresh one when `None`), or played on the world or
    /// hazards of `file` (its later random events, where the rules have any, from the seed).
    pub fn deal(&self, seed: Option<u64>, file: Option<&Path>) -> Result<Dealt<S>, GameError> {
        let seed = seed.unwrap_or_else(crate::rng::fresh_seed);
        let session = match file {
            Some(path) => S::load(&self.setup, path, seed)?,
            None => S::deal(&self.setup, seed)?,
        };
        Ok(Dealt {
            session,
            seed: (file.is_none() || !S::FILE_HOLDS_ALL).then_some(seed),
            file: file.map(Path::to_path_buf),
        })
    }

    /// The rule set's parameters for summaries and traces, with the agent's knowledge of the
    /// map where that is a choice.
    pub fn describe(&self) -> serde_json::Map<String, serde_json::Value> {
        self.describe_setup(&self.setup)
    }

    /// [`Prepared::describe`] for the setup of one game (a world file has its own size).
    pub fn describe_setup(&self, setup: &S::Setup) -> serde_json::Map<String, serde_json::Value> {
        self.with_options(S::parameters(setup))
    }

    /// [`Prepared::describe`] for a batch over files, each holding its own world.
    pub fn describe_files(&self) -> serde_json::Map<String, serde_json::Value> {
        self.with_options(S::files_parameters(&self.setup))
    }

    fn with_options(
        &self,
        mut map: serde_json::Map<String, serde_json::Value>,
    ) -> serde_json::Map<String, serde_json::Value> {
        if option("map_known").is_some_and(|o| o.fits(S::RULES)) {
            map.insert("map_known".into(), self.options.map_known.into());
        }
        map
    }
}

/// A game dealt or loaded for one command, with how to deal it again.
pub struct Dealt<S> {
    /// The game.
    pub session: S,
    /// The seed that deals or replays it, if one does.
    pub seed: Option<u64>,
    /// The file it came from, if one.
    pub file: Option<PathBuf>,
}

impl<S: Files + Words> Dealt<S> {
    /// The game's first line: what it is and where it came from (`Wumpus World, 5x5, seed
    /// 42`).
    pub fn title(&self) -> String {
        let mut t = self.session.title();
        if let Some(f) = &self.file {
            t.push_str(&format!(", {} from {}", S::FILE, f.display()));
        }
        if let Some(seed) = self.seed {
            t.push_str(&format!(", seed {seed}"));
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(pairs: &[(&str, Value)]) -> Result<GameSpec, SpecError> {
        GameSpec::from_pairs(pairs.iter().map(|(n, v)| (*n, v.clone())))
    }

    fn text(t: &str) -> Value {
        Value::Text(t.into())
    }

    #[test]
    fn an_option_that_does_not_fit_is_refused_in_each_doors_spelling() {
        let e = spec(&[("rules", text("cave")), ("scoring", text("aima"))]).unwrap_err();
        assert_eq!(
            e.spelled(Spelling::Flags),
            "the option --scoring does not apply to the classic cave (--rules cave); its \
             options are --depth, --rollouts, --map, --variant, --map-known, --agent"
        );
        assert!(e
            .to_string()
            .starts_with("the option scoring does not apply to the classic cave (rules='cave')"));
    }

    #[test]
    fn values_are_read_from_text_and_from_typed_values_alike() {
        let a = spec(&[("pit_prob", text("0.3")), ("depth", text("3"))]).unwrap();
        let b = spec(&[("pit_prob", Value::Float(0.3)), ("depth", Value::Int(3))]).unwrap();
        assert_eq!(a, b);
        let e = spec(&[("pit_prob", Value::Float(1.5))]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "pit_prob: probability 1.5 is not between 0 and 1"
        );
        let e = spec(&[("depth", Value::Int(7))]).unwrap_err();
        assert_eq!(e.spelled(Spelling::Flags), "--depth: 7 is not in 1 to 6");
        assert!(spec(&[("colour", text("red"))]).is_err());
    }

    #[test]
    fn agents_and_their_options_are_checked_against_the_rule_set() {
        let e = spec(&[("rules", text("maze")), ("agent", text("risk"))]).unwrap_err();
        assert_eq!(
            e.spelled(Spelling::Flags),
            "the risk agent does not play the caves.dat maze (--rules maze); its agents are logic"
        );
        let e = spec(&[("rules", text("cave")), ("depth", Value::Int(2))]).unwrap_err();
        assert!(e
            .spelled(Spelling::Flags)
            .contains("the look-ahead (--depth) needs the map (--map-known)"));
        assert!(spec(&[
            ("rules", text("cave")),
            ("depth", Value::Int(2)),
            ("map_known", Value::Bool(true))
        ])
        .is_ok());
        let e = spec(&[("size", text("4x4")), ("deal", text("course"))]).unwrap_err();
        assert_eq!(
            e.spelled(Spelling::Keywords),
            "the course's deal (deal='course') draws its own sizes: give size or deal, not both"
        );
    }

    #[test]
    fn a_spec_reads_back_what_was_given() {
        let s = spec(&[
            ("rules", text("aima")),
            ("size", text("4x4..6x6")),
            ("size_told", Value::Bool(false)),
        ])
        .unwrap();
        let back = GameSpec::from_pairs(s.given()).unwrap();
        assert_eq!(s, back);
        assert_eq!(
            Spelling::Flags.spell("size_told", Some("false")),
            "--size-hidden"
        );
    }

    #[test]
    fn sizes_parse_one_size_or_a_range() {
        assert_eq!(GridSizes::parse("5"), Ok(GridSizes::One(5, 5)));
        assert_eq!(GridSizes::parse("4X6"), Ok(GridSizes::One(4, 6)));
        assert_eq!(GridSizes::parse("4x4..4x4"), Ok(GridSizes::One(4, 4)));
        assert!(matches!(
            GridSizes::parse("4x4..7x7"),
            Ok(GridSizes::Range(_))
        ));
        assert!(GridSizes::parse("7x7..4x4").is_err());
        assert!(GridSizes::parse("1x5").is_err());
        assert!(GridSizes::parse("five").is_err());
    }
}
