//! The options a Python caller gives a game (rule set, size, pit chance, scoring, map,
//! variant, agent, depth) turned into the library's setups and agent options, with the same
//! defaults as the command line, so that `seed=S` deals what `wumpus play --seed S` deals.
//!
//! Bad options are refused with a `ValueError` naming the option; nothing here panics on
//! input.

use pyo3::exceptions::PyValueError;
use pyo3::PyResult;
use std::path::PathBuf;
use std::sync::Arc;
use wumpus::agent::{AgentKind, AgentOptions};
use wumpus::cave::classic::Variant;
use wumpus::cave::{self, ClassicSetup, MazeSetup};
use wumpus::game::RuleSet;
use wumpus::grid::{GridSetup, Scoring, SizeRange};

/// What a caller asked for, as given.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `grid`, `aima`, `cave` or `maze`.
    pub rules: String,
    /// `RxC`, `N` or a range `4x4..7x7` (grid and aima).
    pub size: Option<String>,
    /// `uniform` or `course` (grid and aima).
    pub deal: Option<String>,
    /// The chance of a pit (grid and aima).
    pub pit_prob: Option<f64>,
    /// `standard` or `aima` (grid).
    pub scoring: Option<String>,
    /// A map file (cave and maze).
    pub map: Option<PathBuf>,
    /// `event` or `yob` (cave).
    pub variant: Option<String>,
    /// Give the cave agents the map.
    pub map_known: bool,
    /// The agent that reasons (hints, baselines).
    pub agent: Option<String>,
    /// The risk agent's look-ahead.
    pub depth: Option<u32>,
}

fn bad(what: impl Into<String>) -> pyo3::PyErr {
    PyValueError::new_err(what.into())
}

/// `RxC` or `N`, each side 2 to the grid's limit.
fn parse_size(s: &str) -> PyResult<(usize, usize)> {
    let lower = s.trim().to_ascii_lowercase();
    let (r, c) = lower.split_once('x').unwrap_or((&lower, &lower));
    let side = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| bad(format!("size '{s}' is not a size like 5x5")))
    };
    let (rows, cols) = (side(r)?, side(c)?);
    let max = wumpus::topology::MAX_GRID_SIDE;
    if !(2..=max).contains(&rows) || !(2..=max).contains(&cols) {
        return Err(bad(format!(
            "size {rows}x{cols} is out of range (2x2 to {max}x{max})"
        )));
    }
    Ok((rows, cols))
}

impl Options {
    /// The rule set asked for.
    pub fn rule_set(&self) -> PyResult<RuleSet> {
        RuleSet::parse(&self.rules).ok_or_else(|| {
            bad(format!(
                "rules '{}' is none of grid, aima, cave, maze",
                self.rules
            ))
        })
    }

    /// Refuses options that do not fit the rule set, as the command line does.
    fn check(&self) -> PyResult<RuleSet> {
        let rules = self.rule_set()?;
        let grid = rules.on_grid();
        let given = [
            ("size", self.size.is_some(), grid),
            ("deal", self.deal.is_some(), grid),
            ("pit_prob", self.pit_prob.is_some(), grid),
            ("scoring", self.scoring.is_some(), rules == RuleSet::Grid),
            ("map", self.map.is_some(), !grid),
            ("variant", self.variant.is_some(), rules == RuleSet::Cave),
            ("map_known", self.map_known, !grid),
            ("depth", self.depth.is_some(), rules != RuleSet::Maze),
        ];
        if let Some((name, _, _)) = given.iter().find(|(_, g, fits)| *g && !fits) {
            return Err(bad(format!(
                "the option {name} does not apply to {} (rules='{}')",
                rules.title(),
                rules.name()
            )));
        }
        Ok(rules)
    }

    /// The grid setup (grid and aima): 5x5 on the grid and 4x4 under aima unless told, pits
    /// with chance 0.2, as the command line deals.
    pub fn grid_setup(&self) -> PyResult<GridSetup> {
        let rules = self.check()?;
        let pit_prob = self.pit_prob.unwrap_or(0.2);
        if !(0.0..=1.0).contains(&pit_prob) {
            return Err(bad(format!("pit_prob {pit_prob} is not between 0 and 1")));
        }
        let scoring = match (rules, self.scoring.as_deref()) {
            (RuleSet::Aima, _) | (_, Some("aima")) => Scoring::Aima,
            (_, None | Some("standard")) => Scoring::Standard,
            (_, Some(other)) => {
                return Err(bad(format!(
                    "scoring '{other}' is neither standard nor aima"
                )))
            }
        };
        match self.deal.as_deref() {
            None | Some("uniform") => {}
            Some("course") if self.size.is_none() => {
                return GridSetup::course(pit_prob, scoring).map_err(|e| bad(e.to_string()))
            }
            Some("course") => return Err(bad("deal='course' draws its own sizes: give no size")),
            Some(other) => {
                return Err(bad(format!("deal '{other}' is neither uniform nor course")))
            }
        }
        let default = if rules == RuleSet::Aima { "4x4" } else { "5x5" };
        let size = self.size.as_deref().unwrap_or(default);
        let setup = match size.split_once("..") {
            None => {
                let (rows, cols) = parse_size(size)?;
                GridSetup::new(rows, cols, pit_prob, scoring)
            }
            Some((low, high)) => {
                let range = SizeRange::new(parse_size(low)?, parse_size(high)?)
                    .ok_or_else(|| bad(format!("'{size}' is not a range of sizes")))?;
                GridSetup::ranged(range, pit_prob, scoring)
            }
        };
        setup.map_err(|e| bad(e.to_string()))
    }

    /// The map of a cave game: the file given, or the built-in one for its rules.
    fn map(&self, rules: RuleSet) -> PyResult<(Arc<cave::CaveMap>, String)> {
        match &self.map {
            Some(path) => {
                let map = cave::read_map(path).map_err(|e| bad(e.to_string()))?;
                Ok((Arc::new(map), path.display().to_string()))
            }
            None => {
                let (text, name) = match rules {
                    RuleSet::Maze => (cave::STANDARD_CAVES_DAT, "the standard caves.dat"),
                    _ => (cave::STANDARD_MAP, "the standard dodecahedron"),
                };
                let map = cave::parse_map(text).map_err(|e| bad(e.to_string()))?;
                Ok((Arc::new(map), name.to_string()))
            }
        }
    }

    /// The classic cave's setup.
    pub fn cave_setup(&self) -> PyResult<ClassicSetup> {
        let rules = self.check()?;
        let (map, map_name) = self.map(rules)?;
        let variant = match self.variant.as_deref() {
            None | Some("event") => Variant::Event,
            Some("yob") => Variant::Yob,
            Some(other) => return Err(bad(format!("variant '{other}' is neither event nor yob"))),
        };
        Ok(ClassicSetup {
            map,
            map_name,
            variant,
        })
    }

    /// The maze's setup.
    pub fn maze_setup(&self) -> PyResult<MazeSetup> {
        let rules = self.check()?;
        let (map, map_name) = self.map(rules)?;
        Ok(MazeSetup { map, map_name })
    }

    /// The reasoning agent asked for (`None`: the rule set's default), checked later against
    /// the rule set's roster.
    pub fn agent_kind(&self) -> PyResult<Option<AgentKind>> {
        self.agent
            .as_deref()
            .map(|name| {
                AgentKind::parse(name).ok_or_else(|| {
                    bad(format!(
                        "agent '{name}' is none of risk, logic, random, optimal"
                    ))
                })
            })
            .transpose()
    }

    /// The agents' options, explaining or not.
    pub fn agent_options(&self, explain: bool) -> AgentOptions {
        AgentOptions {
            explain,
            map_known: self.map_known,
            kb: None,
            depth: self.depth,
            rollouts: None,
        }
    }
}

/// Runs `$body` with `$S` the session type of `$options`' rule set and `$setup` its setup:
/// the one table from a rule set to its session and setup. With `=> Enum(body)`, the body's
/// value is wrapped in `Enum`'s variant of that rule set (`Grid`, `Aima`, `Cave`, `Maze`).
macro_rules! on_rules {
    ($options:expr, $setup:ident, $S:ident => $Enum:ident($body:expr)) => {
        on_rules!(@table $options, $setup, $S, $body,
            $Enum::Grid, $Enum::Aima, $Enum::Cave, $Enum::Maze)
    };
    ($options:expr, $setup:ident, $S:ident => $body:expr) => {
        on_rules!(@table $options, $setup, $S, $body,
            std::convert::identity, std::convert::identity,
            std::convert::identity, std::convert::identity)
    };
    (@table $options:expr, $setup:ident, $S:ident, $body:expr,
        $grid:path, $aima:path, $cave:path, $maze:path) => {
        match $options.rule_set()? {
            wumpus::game::RuleSet::Grid => {
                type $S = wumpus::grid::GridSession;
                let $setup = $options.grid_setup()?;
                $grid($body)
            }
            wumpus::game::RuleSet::Aima => {
                type $S = wumpus::grid::AimaSession;
                let $setup = $options.grid_setup()?;
                $aima($body)
            }
            wumpus::game::RuleSet::Cave => {
                type $S = wumpus::cave::ClassicSession;
                let $setup = $options.cave_setup()?;
                $cave($body)
            }
            wumpus::game::RuleSet::Maze => {
                type $S = wumpus::cave::MazeSession;
                let $setup = $options.maze_setup()?;
                $maze($body)
            }
        }
    };
}
pub(crate) use on_rules;
