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
//! A checked spec becomes a game of its rule set through [`GameSpec::dispatch`], over the one
//! table from a rule set to its types ([`rules::for_rules`]), so a command is written once
//! over [`Playable`]. Resolved ([`GameSpec::resolved`]), a spec is the typed description
//! summaries, traces and the page carry, written as JSON in one place (`resolve.rs`). Nothing
//! here must read the hidden world or decide anything for an agent.

pub mod catalogue;
mod check;
pub mod options;
mod prepared;
mod resolve;
pub mod rules;
mod setups;

pub use crate::agent::optimal::default_cache_dir;
pub use crate::agent::AgentKind;
pub use crate::rng::fresh_seed;
pub use catalogue::{catalogue, Catalogue};
pub use options::{option, Kind, OptionInfo, MAX_DEPTH, MAX_ROLLOUTS, OPTIONS};
pub use prepared::{dice_of, title_of, Dealt, OnRules, Prepared};
pub use rules::{agents_of, facts, for_rules, ForRules, Playable};

use crate::agent::AgentError;
use crate::cave::classic::Variant;
use crate::files::FileError;
use crate::game::{GameError, RuleSet};
use crate::grid::{Deal, Scoring, SizeRange};
use std::fmt;
use std::path::PathBuf;

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
                    "{} is not a range of sizes: the second must be at least the first on \
                 both sides",
                    crate::files::quoted(text)
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
            .map_err(|_| format!("{} is not a size like 5x5", crate::files::quoted(text)))
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
    /// length (1.8 GB and about a minute for 16 cells, 71 MB and a second for 12).
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
/// `pit_prob=0.3` for JSON and Python, `pit prob 0.3` on a form whose fields are labelled by
/// the options' names (the live page).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    /// Command-line flags.
    Flags,
    /// Keywords and JSON fields.
    Keywords,
    /// A form's fields, labelled by the options' names with spaces for underscores.
    Form,
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
            Spelling::Form => {
                let label = name.replace('_', " ");
                match value {
                    None => format!("the {label} field"),
                    Some(v) => format!("{label} {v}"),
                }
            }
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

    pub(crate) fn refused(text: impl Into<String>) -> SpecError {
        SpecError::Refused(Refusal(text.into()))
    }
}

/// `a, b and c`.
pub(crate) fn and_list(items: &[String]) -> String {
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
                    "{{rules}}: {} is none of {}",
                    crate::files::quoted(&text),
                    names.join(", ")
                ))
            })?;
            return Ok(());
        }
        let Some(info) = option(name) else {
            let mut names = vec!["rules".to_string()];
            names.extend(OPTIONS.iter().map(|o| format!("{{{}}}", o.name)));
            return Err(SpecError::refused(format!(
                "there is no option {}: the options are {}",
                crate::files::quoted(name),
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
