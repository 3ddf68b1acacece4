//! Grid world files: seed 001's format, one feature a line.
//!
//! ```text
//! # seed 001's example game
//! SIZE 5 5
//! PIT 0 2
//! WUMPUS 2 0
//! GOLD 3 2
//! ```
//!
//! `GOLD r c`, `PIT r c` and `WUMPUS r c` in any order, keywords in any case; an optional
//! `SIZE rows cols` (5×5 when absent); blank lines and `#` comments. The parser reads the loose
//! lines first, then builds a [`GridWorld`], whose constructor holds the rules of a valid
//! layout; every error names the line at fault. [`format_world`] writes the same format back.

use super::world::{GridWorld, WorldError};
use crate::files::{quoted, LineError};
use crate::topology::{Topology, TopologyError};
use std::fmt::Write as _;
use std::sync::Arc;

/// The grid size used when a file has no `SIZE` line.
pub const DEFAULT_SIZE: (usize, usize) = (5, 5);

/// What is wrong with a world file, and on which line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct WorldFileError {
    /// The 1-based line, or `None` when the fault is the file as a whole (a missing feature).
    pub line: Option<usize>,
    /// What is wrong.
    pub kind: WorldFileErrorKind,
}

impl LineError for WorldFileError {
    fn line(&self) -> Option<usize> {
        self.line
    }
}

/// The ways a world file can be wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorldFileErrorKind {
    /// The first word is not a feature.
    #[error("unknown keyword {} (expected GOLD, PIT, WUMPUS or SIZE)", quoted(.0))]
    UnknownKeyword(String),
    /// The wrong number of values after the keyword.
    #[error("{keyword} takes 2 numbers ({what}), found {found}")]
    ArgumentCount {
        /// The keyword.
        keyword: &'static str,
        /// What the numbers mean.
        what: &'static str,
        /// How many values were there.
        found: usize,
    },
    /// A value that is not a whole number.
    #[error("{} is not a whole number", quoted(.0))]
    NotANumber(String),
    /// A second `SIZE` line.
    #[error("second SIZE line (the first is on line {first})")]
    SecondSize {
        /// Line of the first `SIZE`.
        first: usize,
    },
    /// A second wumpus.
    #[error("second WUMPUS (the first is on line {first}): a world has exactly one")]
    SecondWumpus {
        /// Line of the first `WUMPUS`.
        first: usize,
    },
    /// A second gold.
    #[error("second GOLD (the first is on line {first}): a world has exactly one")]
    SecondGold {
        /// Line of the first `GOLD`.
        first: usize,
    },
    /// Nothing but blank lines and comments.
    #[error("the file is empty (nothing but blank lines and comments): a world needs a WUMPUS and a GOLD line")]
    Empty,
    /// No wumpus at all.
    #[error("no WUMPUS line: a world has exactly one wumpus")]
    NoWumpus,
    /// No gold at all.
    #[error("no GOLD line: a world has exactly one gold")]
    NoGold,
    /// The size is out of range.
    #[error(transparent)]
    Size(#[from] TopologyError),
    /// A grid larger than the reader takes (the live page plays smaller grids than `trace`).
    #[error("a {rows}x{cols} grid is larger than the {max}x{max} taken here")]
    TooLarge {
        /// The rows asked for.
        rows: usize,
        /// The columns asked for.
        cols: usize,
        /// The longest side taken.
        max: usize,
    },
    /// The layout breaks a rule of valid worlds.
    #[error(transparent)]
    Layout(#[from] WorldError),
    /// A course world file's line is not what its place says (docs/world-files.md).
    #[error("{0}")]
    Course(String),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Feature {
    Pit,
    Wumpus,
    Gold,
}

/// Parses a world file's text in the project's own format, refusing a grid with a side over
/// `max_side` before anything is built for it ([`super::parse_world_within`] also reads the
/// course tournament's format).
pub fn parse_own_world(text: &str, max_side: usize) -> Result<GridWorld, WorldFileError> {
    let err = |line: usize, kind| WorldFileError {
        line: Some(line),
        kind,
    };
    let mut size: Option<((usize, usize), usize)> = None;
    let mut features: Vec<(Feature, (usize, usize), usize)> = Vec::new();
    let blank = |raw: &str| raw.split('#').next().unwrap_or("").trim().is_empty();
    if text.lines().all(blank) {
        return Err(WorldFileError {
            line: None,
            kind: WorldFileErrorKind::Empty,
        });
    }
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.split('#').next().unwrap_or("");
        let words: Vec<&str> = content.split_whitespace().collect();
        let Some((&keyword, args)) = words.split_first() else {
            continue;
        };
        let (keyword, what, feature) = match keyword.to_ascii_uppercase().as_str() {
            "SIZE" => ("SIZE", "rows cols", None),
            "PIT" => ("PIT", "row col", Some(Feature::Pit)),
            "WUMPUS" => ("WUMPUS", "row col", Some(Feature::Wumpus)),
            "GOLD" => ("GOLD", "row col", Some(Feature::Gold)),
            _ => {
                return Err(err(
                    line,
                    WorldFileErrorKind::UnknownKeyword(keyword.into()),
                ))
            }
        };
        if args.len() != 2 {
            return Err(err(
                line,
                WorldFileErrorKind::ArgumentCount {
                    keyword,
                    what,
                    found: args.len(),
                },
            ));
        }
        let number = |word: &str| {
            word.parse::<usize>()
                .map_err(|_| err(line, WorldFileErrorKind::NotANumber(word.into())))
        };
        let pair = (number(args[0])?, number(args[1])?);
        match feature {
            None => {
                if let Some((_, first)) = size {
                    return Err(err(line, WorldFileErrorKind::SecondSize { first }));
                }
                size = Some((pair, line));
            }
            Some(f) => {
                if let Some(&(_, _, first)) = features
                    .iter()
                    .find(|(g, _, _)| *g == f && f != Feature::Pit)
                {
                    let kind = if f == Feature::Wumpus {
                        WorldFileErrorKind::SecondWumpus { first }
                    } else {
                        WorldFileErrorKind::SecondGold { first }
                    };
                    return Err(err(line, kind));
                }
                features.push((f, pair, line));
            }
        }
    }
    let ((rows, cols), size_line) = size.unwrap_or((DEFAULT_SIZE, 0));
    if rows.max(cols) > max_side {
        return Err(WorldFileError {
            line: (size_line > 0).then_some(size_line),
            kind: WorldFileErrorKind::TooLarge {
                rows,
                cols,
                max: max_side,
            },
        });
    }
    let topology = Topology::grid(rows, cols).map_err(|e| WorldFileError {
        line: (size_line > 0).then_some(size_line),
        kind: e.into(),
    })?;
    let find = |f: Feature, missing: WorldFileErrorKind| {
        features
            .iter()
            .find(|(g, _, _)| *g == f)
            .map(|&(_, at, _)| at)
            .ok_or(WorldFileError {
                line: None,
                kind: missing,
            })
    };
    let wumpus = find(Feature::Wumpus, WorldFileErrorKind::NoWumpus)?;
    let gold = find(Feature::Gold, WorldFileErrorKind::NoGold)?;
    // Check each feature line alone first, so an error names the line that caused it.
    let mut pits = Vec::new();
    let mut pit_lines = std::collections::HashMap::new();
    for &(f, at, line) in &features {
        let name = match f {
            Feature::Pit => "PIT",
            Feature::Wumpus => "WUMPUS",
            Feature::Gold => "GOLD",
        };
        check_alone(&topology, name, at).map_err(|e| err(line, e.into()))?;
        if f == Feature::Pit {
            if pit_lines.insert(at, line).is_some() {
                let (row, col) = at;
                return Err(err(line, WorldError::DuplicatePit { row, col }.into()));
            }
            pits.push(at);
        }
    }
    GridWorld::new(Arc::new(topology), &pits, wumpus, gold).map_err(|e| WorldFileError {
        line: None,
        kind: e.into(),
    })
}

fn check_alone(
    topology: &Topology,
    feature: &'static str,
    at: (usize, usize),
) -> Result<(), WorldError> {
    let (rows, cols) = topology.grid_size().expect("grid");
    if at.0 >= rows || at.1 >= cols {
        return Err(WorldError::OffGrid {
            feature,
            row: at.0,
            col: at.1,
            rows,
            cols,
        });
    }
    if at == (0, 0) {
        return Err(WorldError::AtOrigin { feature });
    }
    Ok(())
}

/// Writes a world in the file format, `SIZE` first, then the wumpus, the gold and the pits.
pub fn format_world(world: &GridWorld) -> String {
    let topology = world.topology();
    let (rows, cols) = world.size();
    let mut out = String::new();
    let _ = writeln!(out, "SIZE {rows} {cols}");
    let (r, c) = topology.coords(world.wumpus());
    let _ = writeln!(out, "WUMPUS {r} {c}");
    let (r, c) = topology.coords(world.gold());
    let _ = writeln!(out, "GOLD {r} {c}");
    for pit in world.pits() {
        let (r, c) = topology.coords(pit);
        let _ = writeln!(out, "PIT {r} {c}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{parse_world, parse_world_within};

    fn kind(text: &str) -> (Option<usize>, WorldFileErrorKind) {
        let e = parse_world(text).unwrap_err();
        (e.line, e.kind)
    }

    #[test]
    fn seed_example_parses_with_default_size() {
        let w = parse_world("GOLD 3 2\nPIT 0 2\nPIT 4 1\nWUMPUS 1 2\n").unwrap();
        assert_eq!(w.size(), (5, 5));
        assert_eq!(w.pits().count(), 2);
    }

    #[test]
    fn comments_blank_lines_and_case() {
        let w = parse_world("# hi\n\n size 3 4 # small\nwumpus 2 3\nGold 1 1\n").unwrap();
        assert_eq!(w.size(), (3, 4));
    }

    #[test]
    fn a_reader_with_a_smaller_limit_refuses_on_the_size_line() {
        let text = "# big\nSIZE 4096 4096\nWUMPUS 4095 4095\nGOLD 4095 4094\n";
        let e = parse_world_within(text, 64).unwrap_err();
        assert_eq!(e.line, Some(2));
        assert!(matches!(
            e.kind,
            WorldFileErrorKind::TooLarge {
                rows: 4096,
                cols: 4096,
                max: 64
            }
        ));
        assert!(parse_world_within("SIZE 64 64\nWUMPUS 1 1\nGOLD 2 2\n", 64).is_ok());
    }

    #[test]
    fn round_trip() {
        let text = "SIZE 6 7\nWUMPUS 5 6\nGOLD 2 2\nPIT 0 1\nPIT 3 3\n";
        let w = parse_world(text).unwrap();
        assert_eq!(format_world(&w), text);
    }

    #[test]
    fn every_error_names_its_line() {
        use WorldFileErrorKind as K;
        assert!(matches!(
            kind("GOLD 1 1\nTREASURE 1 2\n"),
            (Some(2), K::UnknownKeyword(_))
        ));
        assert!(matches!(
            kind("PIT 02\n"),
            (Some(1), K::ArgumentCount { found: 1, .. })
        ));
        assert!(matches!(kind("PIT 0 x\n"), (Some(1), K::NotANumber(_))));
        assert!(matches!(kind("PIT -1 2\n"), (Some(1), K::NotANumber(_))));
        assert!(matches!(
            kind("WUMPUS 1 1\nGOLD 2 2\nWUMPUS 3 3\n"),
            (Some(3), K::SecondWumpus { first: 1 })
        ));
        assert!(matches!(
            kind("GOLD 1 1\nWUMPUS 2 2\nGOLD 3 3\n"),
            (Some(3), K::SecondGold { first: 1 })
        ));
        assert!(matches!(kind("GOLD 1 1\n"), (None, K::NoWumpus)));
        assert!(matches!(kind("WUMPUS 1 1\n"), (None, K::NoGold)));
        assert!(matches!(
            kind("WUMPUS 1 1\nGOLD 2 2\nPIT 3 3\nPIT 3 3\n"),
            (Some(4), K::Layout(WorldError::DuplicatePit { .. }))
        ));
        assert!(matches!(
            kind("WUMPUS 1 1\nGOLD 2 2\nPIT 0 0\n"),
            (Some(3), K::Layout(WorldError::AtOrigin { .. }))
        ));
        assert!(matches!(
            kind("WUMPUS 0 0\nGOLD 2 2\n"),
            (Some(1), K::Layout(WorldError::AtOrigin { .. }))
        ));
        assert!(matches!(
            kind("WUMPUS 1 1\nGOLD 2 9\n"),
            (Some(2), K::Layout(WorldError::OffGrid { .. }))
        ));
        assert!(matches!(
            kind("SIZE 1 9\nWUMPUS 0 1\nGOLD 0 2\n"),
            (Some(1), K::Size(_))
        ));
        assert!(matches!(
            kind("SIZE 3 3\nSIZE 4 4\n"),
            (Some(2), K::SecondSize { first: 1 })
        ));
        assert!(matches!(
            kind("WUMPUS 1 1\nGOLD 2 2\nSIZE 2 2\n"),
            (Some(2), K::Layout(WorldError::OffGrid { .. }))
        ));
    }
}
