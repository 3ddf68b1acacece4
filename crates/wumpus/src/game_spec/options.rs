//! The options of a game, one row each ([`OPTIONS`]): its name, kind, the rule sets that take
//! it, its default under each, its help, and how a given value is read into a [`GameSpec`].
//!
//! This table is the only place an option is described. The command line makes its flags
//! from it, the server reads a request's fields by it, the page builds its form from it and
//! Python takes its keywords by it; none of them may keep a list of options of its own.

use super::{GameSpec, GridSizes, Value};
use crate::agent::AgentKind;
use crate::cave::classic::Variant;
use crate::game::RuleSet;
use crate::grid::{Deal, Scoring};
use serde::Serialize;
use std::path::PathBuf;

/// The deepest look-ahead (`depth`).
pub const MAX_DEPTH: u32 = 6;

/// The most rollouts a decision (`rollouts`).
pub const MAX_ROLLOUTS: u32 = 100_000;

/// What kind of value an option takes: how a door asks for it and how it is read.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Kind {
    /// A grid size `RxC` (or `N`), or where `ranges` a range `4x4..7x7`.
    Size {
        /// The largest side.
        max_side: usize,
    },
    /// One of a few names.
    Choice {
        /// The names, the default first where there is one.
        choices: &'static [&'static str],
    },
    /// A probability, 0 to 1.
    Probability,
    /// A whole number within bounds.
    Count {
        /// The least.
        min: u32,
        /// The most.
        max: u32,
    },
    /// On or off. With no default, the rules decide when it is not given.
    Flag,
    /// A file's path.
    File {
        /// What the file holds: `rules` (a `.kb` file) or `map` (a cave map).
        holds: &'static str,
    },
}

/// One option of a game.
#[derive(Serialize)]
pub struct OptionInfo {
    /// Its name, in the library, JSON and Python (`pit_prob`); the command line spells it
    /// `--pit-prob`.
    pub name: &'static str,
    /// For a flag with no default, the name of its opposite (`size_hidden` for `size_told`),
    /// which the command line offers as a flag of its own.
    pub opposite: Option<&'static str>,
    /// What it takes.
    #[serde(flatten)]
    pub kind: Kind,
    /// The rule sets that take it.
    pub rules: &'static [RuleSet],
    /// What it does, for people.
    pub help: &'static str,
    /// Its default under `rules`, in words a door can show (`None`: not set, the rules
    /// decide, or the built-in file).
    #[serde(skip)]
    pub default: fn(RuleSet) -> Option<&'static str>,
    /// Reads a value into a spec.
    #[serde(skip)]
    pub(super) set: fn(&mut GameSpec, &Value) -> Result<(), String>,
    /// The value a spec holds, if given.
    #[serde(skip)]
    pub(super) get: fn(&GameSpec) -> Option<Value>,
    /// A value in the words a summary's header prints (`pit probability 0.2`), or nothing;
    /// the flag is true for games played on files, whose worlds were not dealt by it.
    #[serde(skip)]
    pub(super) words: fn(&Value, bool) -> Option<String>,
}

impl OptionInfo {
    /// True when `rules` takes this option.
    pub fn fits(&self, rules: RuleSet) -> bool {
        self.rules.contains(&rules)
    }
}

use RuleSet::{Aima, Cave, Grid, Maze};

const GRIDS: &[RuleSet] = &[Grid, Aima];
const MAPS: &[RuleSet] = &[Cave, Maze];

/// Every option but the rule set itself, in the order the command line lists them.
pub static OPTIONS: [OptionInfo; 12] = [
    OptionInfo {
        name: "size",
        opposite: None,
        kind: Kind::Size {
            max_side: crate::topology::MAX_GRID_SIDE,
        },
        rules: GRIDS,
        help: "The grid's size, rows x columns (5x5, or 5 for 5x5), or a range such as \
               4x4..7x7 that deals each game's size from its seed (square ends: NxN, N \
               uniform).",
        default: |r| Some(if r == Aima { "4x4" } else { "5x5" }),
        set: |s, v| {
            s.size = Some(GridSizes::parse(&v.text()?)?);
            Ok(())
        },
        get: |s| s.size.map(|z| Value::Text(z.to_string())),
        words: |v, _| Some(v.shown_plain()),
    },
    OptionInfo {
        name: "deal",
        opposite: None,
        kind: Kind::Choice {
            choices: &["uniform", "course"],
        },
        rules: GRIDS,
        help: "How worlds are dealt: uniform (every cell but 0,0 a pit with the pit chance, the \
               wumpus and the gold anywhere else, on the size given), or course, the course \
               tournament's deal (its 16 sizes from 4x4 to 7x7 in its 2,500:500 proportion, \
               the pits where its shells put them; docs/rules.md).",
        default: |_| Some("uniform"),
        set: |s, v| {
            s.deal = Some(match v.choice(&["uniform", "course"])? {
                0 => Deal::Uniform,
                _ => Deal::Course,
            });
            Ok(())
        },
        get: |s| {
            s.deal.map(|d| {
                Value::Text(
                    match d {
                        Deal::Uniform => "uniform",
                        Deal::Course => "course",
                    }
                    .into(),
                )
            })
        },
        words: |v, _| (v == &Value::Text("course".into())).then(|| "the course's deal".into()),
    },
    OptionInfo {
        name: "size_told",
        opposite: Some("size_hidden"),
        kind: Kind::Flag,
        rules: GRIDS,
        help: "Tell the agent the board's size (on), or not (off: it learns each wall from a \
               bump and weighs the sizes the deal allows). Not given: told, but for the \
               course's deal and the course's world files.",
        default: |_| None,
        set: |s, v| {
            s.size_told = Some(v.flag()?);
            Ok(())
        },
        get: |s| s.size_told.map(Value::Bool),
        words: |v, _| (v == &Value::Bool(false)).then(|| "size hidden".into()),
    },
    OptionInfo {
        name: "pit_prob",
        opposite: None,
        kind: Kind::Probability,
        rules: GRIDS,
        help: "The chance that a cell other than 0,0 holds a pit.",
        default: |_| Some("0.2"),
        set: |s, v| {
            s.pit_prob = Some(v.probability()?);
            Ok(())
        },
        get: |s| s.pit_prob.map(Value::Float),
        // A file holds its own pits: the chance is what the player is told to expect.
        words: |v, files| {
            Some(match files {
                false => format!("pit probability {}", v.shown_plain()),
                true => format!("pit probability {} told to the player", v.shown_plain()),
            })
        },
    },
    OptionInfo {
        name: "scoring",
        opposite: None,
        kind: Kind::Choice {
            choices: &["standard", "aima"],
        },
        rules: &[Grid],
        help: "How the final score is counted: standard (+1000 out with the gold, +100 out \
               without, -10 for firing, -1 a move, 0 if dead) or aima, the textbook's scoring \
               on compass moves (+1000 out with the gold, -1000 for dying, -10 firing, -1 a \
               move).",
        default: |_| Some("standard"),
        set: |s, v| {
            s.scoring = Some(match v.choice(&["standard", "aima"])? {
                0 => Scoring::Standard,
                _ => Scoring::Aima,
            });
            Ok(())
        },
        get: |s| s.scoring.map(|x| Value::Text(x.name().into())),
        words: |v, _| Some(format!("{} scoring", v.shown_plain())),
    },
    OptionInfo {
        name: "depth",
        opposite: None,
        kind: Kind::Count {
            min: 1,
            max: MAX_DEPTH,
        },
        rules: &[Grid, Aima, Cave],
        help: "How many steps the agent looks ahead when logic runs out. Grid and aima: 1 \
               weighs each step by a one-step estimate; from 2 it searches the exact odds of \
               each step's and each shot's outcomes (grids of up to 64 cells). Cave, with the \
               map known: from 2, each way into an unknown room is weighed by what may be \
               felt there.",
        default: |r| Some(if r == Cave { "1" } else { "2" }),
        set: |s, v| {
            s.depth = Some(v.count(1, MAX_DEPTH)?);
            Ok(())
        },
        get: |s| s.depth.map(|d| Value::Int(d.into())),
        words: |_, _| None,
    },
    OptionInfo {
        name: "rollouts",
        opposite: None,
        kind: Kind::Count {
            min: 1,
            max: MAX_ROLLOUTS,
        },
        rules: &[Cave],
        help: "With the map known: weigh shooting against walking by playing each choice on \
               from layouts drawn from what the agent believes, up to N draws a decision (256 \
               is a good strength for its speed; slow: a few games a second).",
        default: |_| None,
        set: |s, v| {
            s.rollouts = Some(v.count(1, MAX_ROLLOUTS)?);
            Ok(())
        },
        get: |s| s.rollouts.map(|d| Value::Int(d.into())),
        words: |v, _| Some(format!("{} rollouts a decision", v.shown_plain())),
    },
    OptionInfo {
        name: "kb",
        opposite: None,
        kind: Kind::File { holds: "rules" },
        rules: GRIDS,
        help: "Reason with the rules in this file instead of the built-in kb/grid.kb \
               (docs/kb.md).",
        default: |_| None,
        set: |s, v| {
            s.kb = Some(v.path()?);
            Ok(())
        },
        get: |s| s.kb.as_ref().map(|p| Value::Text(p.display().to_string())),
        words: |v, _| Some(format!("rules from {}", v.shown_plain())),
    },
    OptionInfo {
        name: "map",
        opposite: None,
        kind: Kind::File { holds: "map" },
        rules: MAPS,
        help: "The map file, either format (default: the standard dodecahedron in the cave, \
               the standard caves.dat in the maze).",
        default: |_| None,
        set: |s, v| {
            s.map = Some(v.path()?);
            Ok(())
        },
        get: |s| s.map.as_ref().map(|p| Value::Text(p.display().to_string())),
        words: |v, _| Some(format!("on {}", v.shown_plain())),
    },
    OptionInfo {
        name: "variant",
        opposite: None,
        kind: Kind::Choice {
            choices: &["event", "yob"],
        },
        rules: &[Cave],
        help: "The rules: event, those of the Hunt the Wumpus tournament the classic cave comes \
               from (docs/caves.md), or yob, Gregory Yob's 1973 rules (bumping into the wumpus \
               wakes it).",
        default: |_| Some("event"),
        set: |s, v| {
            s.variant = Some(match v.choice(&["event", "yob"])? {
                0 => Variant::Event,
                _ => Variant::Yob,
            });
            Ok(())
        },
        get: |s| s.variant.map(|x| Value::Text(x.name().into())),
        words: |v, _| Some(format!("{} rules", v.shown_plain())),
    },
    OptionInfo {
        name: "map_known",
        opposite: None,
        kind: Kind::Flag,
        rules: MAPS,
        help: "Give the agent the whole map (off: it learns the tunnels as it walks them, as a \
               player does).",
        default: |_| Some("false"),
        set: |s, v| {
            s.map_known = Some(v.flag()?);
            Ok(())
        },
        get: |s| s.map_known.map(Value::Bool),
        words: |v, _| {
            Some(
                if v == &Value::Bool(true) {
                    "map known"
                } else {
                    "map discovered"
                }
                .into(),
            )
        },
    },
    OptionInfo {
        name: "agent",
        opposite: None,
        kind: Kind::Choice {
            choices: &["risk", "logic", "random", "optimal"],
        },
        rules: &[Grid, Aima, Cave, Maze],
        help: "Which agent plays (each rule set offers its own; the catalogue lists them).",
        default: |r| Some(super::agents_of(r)[0].name()),
        set: |s, v| {
            let names: Vec<&str> = AgentKind::ALL.iter().map(|a| a.name()).collect();
            s.agent = Some(AgentKind::ALL[v.choice(&names)?]);
            Ok(())
        },
        get: |s| s.agent.map(|a| Value::Text(a.name().into())),
        words: |_, _| None,
    },
];

/// The option named `name`.
pub fn option(name: &str) -> Option<&'static OptionInfo> {
    OPTIONS.iter().find(|o| o.name == name)
}

impl Value {
    /// The value as text (a number given where text is asked for is read as its digits).
    fn text(&self) -> Result<String, String> {
        match self {
            Value::Text(t) => Ok(t.clone()),
            Value::Int(i) => Ok(i.to_string()),
            Value::Float(f) => Ok(f.to_string()),
            Value::Bool(b) => Err(format!("{b} is not text")),
        }
    }

    /// The index of the value among `names`.
    fn choice(&self, names: &[&str]) -> Result<usize, String> {
        let given = self.text()?;
        names.iter().position(|n| *n == given).ok_or_else(|| {
            format!(
                "{} is none of {}",
                crate::files::quoted(&given),
                names.join(", ")
            )
        })
    }

    fn flag(&self) -> Result<bool, String> {
        match self {
            Value::Bool(b) => Ok(*b),
            Value::Text(t) if t == "true" => Ok(true),
            Value::Text(t) if t == "false" => Ok(false),
            other => Err(format!("{} is not true or false", other.shown())),
        }
    }

    fn probability(&self) -> Result<f64, String> {
        let p = match self {
            Value::Float(f) => *f,
            Value::Int(i) => *i as f64,
            Value::Text(t) => t.trim().parse().map_err(|_| {
                format!(
                    "{} is not a probability (a number from 0 to 1)",
                    crate::files::quoted(t)
                )
            })?,
            Value::Bool(b) => return Err(format!("{b} is not a probability")),
        };
        if (0.0..=1.0).contains(&p) {
            Ok(p)
        } else {
            Err(format!("probability {p} is not between 0 and 1"))
        }
    }

    fn count(&self, min: u32, max: u32) -> Result<u32, String> {
        let n: i64 = match self {
            Value::Int(i) => *i,
            Value::Text(t) => t
                .trim()
                .parse()
                .map_err(|_| format!("{} is not a whole number", crate::files::quoted(t)))?,
            Value::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => *f as i64,
            other => return Err(format!("{} is not a whole number", other.shown())),
        };
        if (i64::from(min)..=i64::from(max)).contains(&n) {
            Ok(n as u32)
        } else {
            Err(format!("{n} is not in {min} to {max}"))
        }
    }

    fn path(&self) -> Result<PathBuf, String> {
        match self {
            Value::Text(t) if !t.is_empty() => Ok(PathBuf::from(t)),
            other => Err(format!("{} is not a file's path", other.shown())),
        }
    }

    /// The value as plain words (`5x5`, `0.2`).
    pub(super) fn shown_plain(&self) -> String {
        match self {
            Value::Text(t) => t.clone(),
            other => other.shown(),
        }
    }

    /// The value as a person reads it in a message.
    pub(super) fn shown(&self) -> String {
        match self {
            Value::Text(t) => crate::files::quoted(t),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => f.to_string(),
            Value::Bool(b) => b.to_string(),
        }
    }
}
