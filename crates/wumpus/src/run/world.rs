//! The files games are played on, as `world` makes, checks and draws them, for every rule set:
//! a new file dealt as a game of the description deals its world ([`new_file`]: the grid's
//! size and deal, or a random cave map in the rule set's format), what a file holds
//! ([`check_file`]) and its drawing ([`draw_file`]). A file given without a rule set is read as
//! the first rule set whose files it reads as ([`rules_of_file`]).

use crate::files::FileError;
use crate::game::{MapShape, NewFile, RuleSet};
use crate::game_spec::{for_rules, ForRules, GameSpec, OnRules, Playable, Prepared, SpecError};
use std::path::Path;

/// A new file of what `spec`'s games are played on, dealt from `seed` (a cave map in `shape`).
pub fn new_file(spec: &GameSpec, seed: u64, shape: MapShape) -> Result<NewFile, SpecError> {
    struct New {
        seed: u64,
        shape: MapShape,
    }
    impl OnRules for New {
        type Out = Result<NewFile, SpecError>;
        fn run<S: Playable>(self, game: Prepared<S>) -> Self::Out {
            Ok(S::new_file(&game.setup, self.seed, &self.shape)?)
        }
    }
    spec.dispatch(New { seed, shape }, false)?
}

/// The rule set whose files `path` reads as: the first of [`RuleSet::ALL`] that plays it.
pub fn rules_of_file(path: &Path) -> Result<RuleSet, FileError> {
    Ok(rules_of_text(&crate::files::read_text(path)?))
}

/// The rule set whose files `text` reads as: the first of [`RuleSet::ALL`] that plays it.
fn rules_of_text(text: &str) -> RuleSet {
    struct Plays<'a>(&'a str);
    impl ForRules for Plays<'_> {
        type Out = bool;
        fn run<S: Playable>(self) -> bool {
            S::plays_file(self.0)
        }
    }
    RuleSet::ALL
        .into_iter()
        .find(|&r| for_rules(r, Plays(text)))
        .unwrap_or_default()
}

/// The most problems [`check_file`] lists of one file.
pub const MAX_PROBLEMS: usize = 20;

/// What is wrong with a file, line by line: the first problem, then those found on later lines
/// once each line at fault is set aside (at most [`MAX_PROBLEMS`]).
#[derive(Debug)]
pub struct Problems {
    /// The problems, in the order of their lines.
    pub found: Vec<FileError>,
    /// Whether more were left unlisted.
    pub more: bool,
}

impl std::fmt::Display for Problems {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, problem) in self.found.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{problem}")?;
        }
        if self.more {
            write!(f, "\n(and more: only the first {MAX_PROBLEMS} are listed)")?;
        }
        Ok(())
    }
}

impl std::error::Error for Problems {}

/// What the file at `path` holds, checked as a file of `rules` (read by its look when
/// `None`): `5x5, 3 pits`; or every problem found, line by line ([`Problems`]).
pub fn check_file(path: &Path, rules: Option<RuleSet>) -> Result<String, Problems> {
    struct Check<'a>(&'a Path, &'a str);
    impl ForRules for Check<'_> {
        type Out = Result<String, FileError>;
        fn run<S: Playable>(self) -> Self::Out {
            S::check_text(self.0, self.1)
        }
    }
    let one = |e: FileError| Problems {
        found: vec![e],
        more: false,
    };
    let text = crate::files::read_text(path).map_err(one)?;
    let rules = rules.unwrap_or_else(|| rules_of_text(&text));
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut found: Vec<FileError> = Vec::new();
    loop {
        let checked = if found.is_empty() {
            for_rules(rules, Check(path, &text))
        } else {
            for_rules(rules, Check(path, &lines.concat()))
        };
        let problem = match checked {
            Ok(holds) if found.is_empty() => return Ok(holds),
            Ok(_) => break,
            Err(problem) => problem,
        };
        // Past the first, only a problem on a later line is listed: one of the whole file
        // (no wumpus, an empty file) may come of the lines set aside.
        let last = found.last().and_then(|p| p.line);
        match (problem.line, last) {
            (Some(line), Some(after)) if line <= after => break,
            (None, Some(_)) => break,
            _ => {}
        }
        if found.len() == MAX_PROBLEMS {
            return Err(Problems { found, more: true });
        }
        let line = problem.line;
        found.push(problem);
        match line {
            Some(line) if line <= lines.len() => {
                lines[line - 1] = if lines[line - 1].ends_with('\n') {
                    "\n"
                } else {
                    ""
                }
            }
            _ => break,
        }
    }
    Err(Problems { found, more: false })
}

/// The drawing of the file at `path` as a file of `rules` (read by its look when `None`), with
/// a cave's hazards from a hazard file or dealt from a seed.
pub fn draw_file(
    path: &Path,
    rules: Option<RuleSet>,
    hazards: Option<&Path>,
    seed: Option<u64>,
) -> Result<String, SpecError> {
    struct Draw<'a> {
        path: &'a Path,
        hazards: Option<&'a Path>,
        seed: Option<u64>,
    }
    impl ForRules for Draw<'_> {
        type Out = Result<String, SpecError>;
        fn run<S: Playable>(self) -> Self::Out {
            if S::FACTS.file_holds_all && (self.hazards.is_some() || self.seed.is_some()) {
                return Err(SpecError::refused(
                    "{hazards} and {seed} are for cave maps; a grid world file holds its own \
                     hazards",
                ));
            }
            Ok(S::draw_file(self.path, self.hazards, self.seed)?)
        }
    }
    let rules = match rules {
        Some(r) => r,
        None => rules_of_file(path)?,
    };
    for_rules(
        rules,
        Draw {
            path,
            hazards,
            seed,
        },
    )
}

/// What a file's text offers a page as a game's file: `world` for a grid world file whose
/// sides are at most `max_side`, `map` for a cave map; `None` for anything else.
pub fn offered_kind(text: &str, max_side: usize) -> Option<&'static str> {
    if crate::grid::parse_world_within(text, max_side).is_ok() {
        Some("world")
    } else if crate::cave::parse_map(text).is_ok() {
        Some("map")
    } else {
        None
    }
}

/// Checks the text of a grid world file named `name` (an upload), its sides at most
/// `max_side`, before anything is built for it.
pub fn check_world_text(name: &Path, text: &str, max_side: usize) -> Result<(), FileError> {
    crate::grid::parse_world_within(text, max_side)
        .map(drop)
        .map_err(|e| FileError::new(name, e.line, e))
}
