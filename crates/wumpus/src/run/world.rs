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
    let text = crate::files::read_text(path)?;
    struct Plays<'a>(&'a str);
    impl ForRules for Plays<'_> {
        type Out = bool;
        fn run<S: Playable>(self) -> bool {
            S::plays_file(self.0)
        }
    }
    Ok(RuleSet::ALL
        .into_iter()
        .find(|&r| for_rules(r, Plays(&text)))
        .unwrap_or_default())
}

/// What the file at `path` holds, checked as a file of `rules` (read by its look when
/// `None`): `5x5, 3 pits`.
pub fn check_file(path: &Path, rules: Option<RuleSet>) -> Result<String, FileError> {
    struct Check<'a>(&'a Path);
    impl ForRules for Check<'_> {
        type Out = Result<String, FileError>;
        fn run<S: Playable>(self) -> Self::Out {
            S::check_file(self.0)
        }
    }
    let rules = match rules {
        Some(r) => r,
        None => rules_of_file(path)?,
    };
    for_rules(rules, Check(path))
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
