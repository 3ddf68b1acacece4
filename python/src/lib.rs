//! The Python extension module `wumpus_logic._core`: the `wumpus` library's games, agents and
//! batches, offered to Python. [`game::Game`] is one game stepped by action number with its
//! action mask and the reasoning agent's hints; [`vector::Worlds`] steps many games in one
//! call; [`batch`] holds the traced game, the batch of the project's agents, and the tally of
//! an outside agent's games. The Gymnasium environments, the harness and the line protocol
//! are the Python package around it (`wumpus_logic/`).
//!
//! This crate only translates: it must never play, deal or reason its own way, only call the
//! library's one session, agent and runner.

mod batch;
mod game;
mod options;
mod vector;

use pyo3::prelude::*;
use wumpus::game_spec::{OnRules, Playable, Prepared};

/// The names of a rule set's actions, of its observation's values, and each value's count
/// of possible values (`nvec`), for the environments' spaces.
type Spaces = (Vec<&'static str>, Vec<&'static str>, Vec<i64>);

/// A rule set's spaces, in a world of `places` places.
struct SpacesOf {
    places: i64,
}

impl OnRules for SpacesOf {
    type Out = Spaces;

    fn run<S: Playable>(self, _: Prepared<S>) -> Spaces {
        let nvec = S::OBSERVATION_VALUES
            .iter()
            .map(|&n| if n == 0 { self.places } else { n })
            .collect();
        (S::ACTIONS.to_vec(), S::OBSERVATION.to_vec(), nvec)
    }
}

/// The spaces of `rules`: action names, observation names and each observation value's
/// count of values; in a cave of `places` rooms the room number is 0 to `places - 1`.
#[pyfunction]
#[pyo3(signature = (rules, places=20))]
fn spaces(rules: &str, places: i64) -> PyResult<Spaces> {
    let spec = options::spec(rules, None)?;
    spec.dispatch(SpacesOf { places }, false)
        .map_err(options::refused)
}

/// The library's catalogue (rule sets, their options and agents), as JSON: what the
/// keywords of `Game`, `solve`, `trace` and the environments are.
#[pyfunction]
fn catalogue() -> PyResult<String> {
    game::to_json(&wumpus::game_spec::catalogue())
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<game::Game>()?;
    m.add_class::<vector::Worlds>()?;
    m.add_class::<batch::Tally>()?;
    m.add_function(wrap_pyfunction!(spaces, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue, m)?)?;
    m.add_function(wrap_pyfunction!(game::_restore_game, m)?)?;
    m.add_function(wrap_pyfunction!(batch::trace, m)?)?;
    m.add_function(wrap_pyfunction!(batch::solve, m)?)?;
    m.add_function(wrap_pyfunction!(batch::merge, m)?)?;
    m.add_function(wrap_pyfunction!(batch::shard_range, m)?)?;
    m.add_function(wrap_pyfunction!(batch::game_files, m)?)?;
    Ok(())
}
