//! How a game's description sets up each rule set's games ([`Playable::setup_of`]): the grid's
//! size, deal, pits and scoring; a cave's map and variant. Every value read here comes from a
//! resolved spec, whose defaults the option table gives: no default is written twice.

use super::rules::Playable;
use super::{GameSpec, GridSizes, SpecError};
use crate::cave::{self, ClassicSession, ClassicSetup, MazeSession, MazeSetup};
use crate::game::RuleSet;
#[cfg(test)]
use crate::game::Session;
use crate::grid::{AimaSession, Deal, GridSession, GridSetup, Scoring};
use std::sync::Arc;

impl Playable for GridSession {
    fn setup_of(spec: &GameSpec) -> Result<GridSetup, SpecError> {
        grid_setup(spec, spec.scoring.unwrap_or_default())
    }
}

impl Playable for AimaSession {
    fn setup_of(spec: &GameSpec) -> Result<GridSetup, SpecError> {
        // The textbook's rules score their own way; they take no scoring option.
        grid_setup(spec, Scoring::Aima)
    }
}

impl Playable for ClassicSession {
    fn setup_of(spec: &GameSpec) -> Result<ClassicSetup, SpecError> {
        let (map, map_name) = spec.map_file()?;
        Ok(ClassicSetup {
            map,
            map_name,
            variant: spec.variant.unwrap_or_default(),
        })
    }
}

impl Playable for MazeSession {
    fn setup_of(spec: &GameSpec) -> Result<MazeSetup, SpecError> {
        let (map, map_name) = spec.map_file()?;
        Ok(MazeSetup { map, map_name })
    }
}

/// The grid's setup from a resolved spec: its size or range of sizes, or the course's deal,
/// the chance of a pit, whether the size is told, and the door's largest side.
fn grid_setup(spec: &GameSpec, scoring: Scoring) -> Result<GridSetup, SpecError> {
    let pit_prob = spec.pit_prob.unwrap_or_default();
    let mut setup = if spec.deal == Some(Deal::Course) {
        GridSetup::course(pit_prob, scoring)?
    } else {
        match spec.size {
            Some(GridSizes::One(rows, cols)) => GridSetup::new(rows, cols, pit_prob, scoring)?,
            Some(GridSizes::Range(range)) => GridSetup::ranged(range, pit_prob, scoring)?,
            None => return Err(SpecError::refused("{size}: a grid needs a size")),
        }
    };
    setup.size_told = spec.size_told;
    setup.max_side = spec.limits.max_side;
    Ok(setup)
}

impl GameSpec {
    /// The map the spec names, or the rule set's built-in one, with a name to show.
    pub fn map_file(&self) -> Result<(Arc<cave::CaveMap>, String), SpecError> {
        match &self.map {
            Some(path) => Ok((Arc::new(cave::read_map(path)?), path.display().to_string())),
            None => {
                let built_in = super::facts(self.rules)
                    .default_map
                    .or(super::facts(RuleSet::Cave).default_map)
                    .expect("the caves carry a map");
                let map = cave::parse_map(built_in.text).expect("the built-in maps are valid");
                Ok((Arc::new(map), built_in.name.to_string()))
            }
        }
    }
}

/// True for a rule set whose session is `S`.
#[cfg(test)]
fn is<S: Session>(rules: RuleSet) -> bool {
    S::RULES == rules
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_sets_up_its_rule_sets_games_with_the_tables_defaults() {
        let spec = GameSpec::new(RuleSet::Aima).resolved();
        let setup = AimaSession::setup_of(&spec).unwrap();
        assert_eq!(setup.size(), (4, 4));
        assert_eq!(setup.scoring, Scoring::Aima);
        assert!((setup.pit_prob - 0.2).abs() < 1e-12);
        let spec = GameSpec::new(RuleSet::Maze).resolved();
        let setup = MazeSession::setup_of(&spec).unwrap();
        assert_eq!(setup.map_name, "the standard caves.dat");
        assert!(is::<MazeSession>(spec.rules));
    }
}
