//! The optimal player's solver: expectimax over belief states, solved once for the game and
//! shared read-only by every game and thread of a batch.
//!
//! It must never depend on the order games are played in: the values are the same whatever
//! the number of threads.

use super::*;
use std::path::PathBuf;

/// The worth of `belief` at every spend, from `base` when it holds it, otherwise solved into
/// `table`.
pub(super) fn solve(model: &Model, base: Option<&Table>, table: &mut Table, b: &Belief) -> Worth {
    let key = model.key(b);
    if let Some(w) = base
        .and_then(|t| t.values.get(&key))
        .or_else(|| table.values.get(&key))
    {
        return w.clone();
    }
    let pits = pit_posterior(model, base, table, b.visited, b.breeze);
    let mut weigh = model::Envelopes {
        horizon: model.horizon,
        child: |next: &Belief| solve(model, base, table, next),
    };
    let plans = model.plans(b, &pits, &mut weigh);
    let worth = Worth::best_of(plans.iter().map(|p| &p.worth), model.horizon);
    table.values.insert(key, worth.clone());
    worth
}

pub(super) fn pit_posterior(
    model: &Model,
    base: Option<&Table>,
    table: &mut Table,
    visited: u32,
    breeze: u32,
) -> Arc<PitPosterior> {
    let key = (visited as u64) << 32 | breeze as u64;
    if let Some(p) = base.and_then(|t| t.pits.get(&key)) {
        return p.clone();
    }
    table
        .pits
        .entry(key)
        .or_insert_with(|| Arc::new(model.count_pits(visited, breeze)))
        .clone()
}

/// The model and its solved values, shared by every game of a batch.
pub struct OptimalSolver {
    pub(super) model: Model,
    pub(super) solved: OnceLock<(Table, GameValue)>,
    /// The folder whose file keeps the solved values between runs.
    cache: Option<PathBuf>,
    event: OnceLock<CacheEvent>,
}

impl OptimalSolver {
    /// A solver for `model`; nothing is solved until asked.
    pub fn new(model: Model) -> OptimalSolver {
        OptimalSolver {
            model,
            solved: OnceLock::new(),
            cache: None,
            event: OnceLock::new(),
        }
    }

    /// The same solver keeping its values in a file of folder `dir` ([`Model::cache_file`]):
    /// read from it when it holds this game's values, written to it after a solve otherwise.
    pub fn with_cache(self, dir: PathBuf) -> OptimalSolver {
        OptimalSolver {
            cache: Some(dir),
            ..self
        }
    }

    /// What became of the cache file, once the game is solved (`None` before, or without a
    /// cache folder).
    pub fn cache_event(&self) -> Option<&CacheEvent> {
        self.event.get()
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The exact value of the game, solving it on first call (every thread asking meanwhile
    /// waits for the one solve).
    pub fn game_value(&self) -> GameValue {
        self.solved().1
    }

    pub(super) fn solved(&self) -> &(Table, GameValue) {
        self.solved.get_or_init(|| {
            let Some(dir) = &self.cache else {
                return self.solve_game();
            };
            let path = self.model.cache_file(dir);
            let started = Instant::now();
            let why = match cache::load(&self.model, &path) {
                Ok(solved) => {
                    let seconds = started.elapsed().as_secs_f64();
                    let _ = self.event.set(CacheEvent::Loaded { path, seconds });
                    return solved;
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => "no file yet".to_string(),
                Err(e) => e.to_string(),
            };
            let solved = self.solve_game();
            let event = match cache::save(&self.model, &solved.0, &solved.1, &path) {
                Ok(()) => CacheEvent::Saved { path, why },
                Err(e) => CacheEvent::NotSaved {
                    path,
                    why: e.to_string(),
                },
            };
            let _ = self.event.set(event);
            solved
        })
    }

    /// Solves the whole game from its start.
    fn solve_game(&self) -> (Table, GameValue) {
        {
            let started = Instant::now();
            let m = &self.model;
            let mut table = Table::default();
            let p_calm = (1.0 - m.pit).powi(m.neighbours[0].count_ones() as i32);
            let p_smell = (m.smells[0] & !1).count_ones() as f64 / (m.cells - 1) as f64;
            let mut value = Value::default();
            for (p_s, stench) in [(p_smell, true), (1.0 - p_smell, false)] {
                for (p_b, breeze) in [(1.0 - p_calm, true), (p_calm, false)] {
                    if p_s * p_b <= 0.0 {
                        continue;
                    }
                    let start = m.start(&Percepts {
                        breeze,
                        stench,
                        ..Percepts::default()
                    });
                    let v = solve(m, None, &mut table, &start).at(0.0);
                    value = value.plus(v.scaled(p_s * p_b));
                }
            }
            let game = GameValue {
                value,
                states: table.values.len(),
                seconds: started.elapsed().as_secs_f64(),
            };
            (table, game)
        }
    }

    /// The plans open in `belief` after spending `spent`, valued; `local` keeps what had to
    /// be solved afresh (a belief the game's solve never reached, such as one a person's
    /// detour led to).
    pub(super) fn candidates(
        &self,
        belief: &Belief,
        spent: u16,
        local: &mut Table,
    ) -> Vec<Candidate> {
        let (table, _) = self.solved();
        let m = &self.model;
        let pits = pit_posterior(m, Some(table), local, belief.visited, belief.breeze);
        // Each outcome's worth at the spend it is reached at: a decision needs no envelope.
        let mut weigh = model::AtSpend {
            spent: spent as f64,
            child: |next: &Belief, at: f64| match table.values.get(&m.key(next)) {
                Some(w) => w.at(at),
                None => solve(m, Some(table), local, next).at(at),
            },
        };
        m.plans(belief, &pits, &mut weigh)
            .into_iter()
            .map(|w| Candidate {
                plan: w.plan,
                value: w.worth,
                pit: w.pit,
                wumpus: w.wumpus,
                kill: w.kill,
            })
            .collect()
    }
}
