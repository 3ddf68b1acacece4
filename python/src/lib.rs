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
mod offer;
mod setup;
mod vector;

use offer::Offered;
use pyo3::prelude::*;
use wumpus::cave::{ClassicSession, MazeSession};
use wumpus::grid::{AimaSession, GridSession};

/// The names of a rule set's actions, of its observation's values, and each value's count
/// of possible values (`nvec`), for the environments' spaces.
type Spaces = (Vec<&'static str>, Vec<&'static str>, Vec<i64>);

fn spaces_of<S: Offered>(nvec: Vec<i64>) -> Spaces {
    (S::ACTIONS.to_vec(), S::OBSERVATION.to_vec(), nvec)
}

/// The spaces of `rules`: action names, observation names and each observation value's
/// count of values; in a cave of `places` rooms the room number is 0 to `places - 1`.
#[pyfunction]
#[pyo3(signature = (rules, places=20))]
fn spaces(rules: &str, places: i64) -> PyResult<Spaces> {
    let binary = |s: &[&str]| vec![2; s.len()];
    Ok(match rules {
        "grid" => spaces_of::<GridSession>(binary(GridSession::OBSERVATION)),
        "aima" => spaces_of::<AimaSession>(binary(AimaSession::OBSERVATION)),
        "cave" => spaces_of::<ClassicSession>(vec![places, 2, 2, 2]),
        "maze" => spaces_of::<MazeSession>(binary(MazeSession::OBSERVATION)),
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "rules '{other}' is none of grid, aima, cave, maze"
            )))
        }
    })
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<game::Game>()?;
    m.add_class::<vector::Worlds>()?;
    m.add_class::<batch::Tally>()?;
    m.add_function(wrap_pyfunction!(spaces, m)?)?;
    m.add_function(wrap_pyfunction!(batch::trace, m)?)?;
    m.add_function(wrap_pyfunction!(batch::solve, m)?)?;
    Ok(())
}
