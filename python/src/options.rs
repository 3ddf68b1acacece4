//! A Python caller's game options (keyword arguments) read into the library's one description
//! of a game ([`wumpus::game_spec::GameSpec`]), so that `seed=S` deals what `wumpus play --seed S`
//! deals and an option is refused with the message every door gives. This file keeps no list
//! of options: the keywords are the catalogue's names.
//!
//! Nothing here panics on input: a bad option is a `ValueError` naming it.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};
use wumpus::game_spec::{GameSpec, SpecError, Spelling, Value};

/// A spec's refusal as a `ValueError`, its options spelled as keywords.
pub fn refused(e: SpecError) -> PyErr {
    PyValueError::new_err(e.spelled(Spelling::Keywords))
}

/// One Python value as an option's value: a bool, an int, a float, text, or a path
/// (`os.PathLike`, read as its text).
fn value(name: &str, v: &Bound<'_, PyAny>) -> PyResult<Value> {
    if v.is_instance_of::<PyBool>() {
        return Ok(Value::Bool(v.extract()?));
    }
    if v.is_instance_of::<PyInt>() {
        return v
            .extract::<i64>()
            .map(Value::Int)
            .map_err(|_| PyValueError::new_err(format!("{name}: {v} is out of range")));
    }
    if v.is_instance_of::<PyFloat>() {
        return Ok(Value::Float(v.extract()?));
    }
    if v.is_instance_of::<PyString>() {
        return Ok(Value::Text(v.extract()?));
    }
    if let Ok(path) = v.extract::<std::path::PathBuf>() {
        return Ok(Value::Text(path.display().to_string()));
    }
    Err(PyValueError::new_err(format!(
        "{name}: {} is not a value an option takes (a bool, a number, text or a path)",
        v.get_type().name()?
    )))
}

/// The game of `rules` set up by `options` (keyword arguments; `None` values are left out),
/// checked but for the agent, which is checked when it is prepared.
pub fn spec(rules: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<GameSpec> {
    let mut spec = GameSpec {
        cache: wumpus::game_spec::default_cache_dir(),
        ..GameSpec::default()
    };
    spec.set("rules", &Value::Text(rules.to_string()))
        .map_err(refused)?;
    if let Some(options) = options {
        for (k, v) in options.iter() {
            if v.is_none() {
                continue;
            }
            let name: String = k.extract()?;
            spec.set(&name, &value(&name, &v)?).map_err(refused)?;
        }
    }
    spec.check_game_with(&[]).map_err(refused)?;
    Ok(spec)
}

/// The options of `spec` as keyword arguments (those given, `rules` first).
pub fn given<'py>(py: Python<'py>, spec: &GameSpec) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for (name, v) in spec.given() {
        match v {
            Value::Bool(b) => out.set_item(name, b)?,
            Value::Int(i) => out.set_item(name, i)?,
            Value::Float(f) => out.set_item(name, f)?,
            Value::Text(t) => out.set_item(name, t)?,
        }
    }
    Ok(out)
}
