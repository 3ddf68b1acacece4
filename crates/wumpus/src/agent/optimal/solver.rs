//! The optimal player's solver: expectimax over belief states, solved once for the game and
//! shared read-only by every game and thread of a batch.
//!
//! It must never depend on the order games are played in: the values are the same whatever
//! the number of threads.

use super::*;

/// The value of `belief` after spending `spent`, from `base` when it holds it, otherwise
/// solved into `table`.
pub(super) fn solve(
    model: &Model,
    base: Option<&Table>,
    table: &mut Table,
    b: &Belief,
    spent: u16,
) -> Value {
    let keyed = if model.costs_always_charged() {
        0
    } else {
        spent
    };
    let shift = (spent - keyed) as f64;
    let key = model.key(b, keyed);
    if let Some(s) = base
        .and_then(|t| t.values.get(&key))
        .or_else(|| table.values.get(&key))
    {
        return Value {
            score: s.score - shift,
            win: s.win as f64,
            death: s.death as f64,
        };
    }
    let pits = pit_posterior(model, base, table, b.visited, b.breeze);
    let candidates = model.candidates(b, keyed, &pits, &mut |next, after| {
        solve(model, base, table, next, after)
    });
    let v = candidates[best(&candidates)].value;
    table.values.insert(
        key,
        Stored {
            score: v.score,
            win: v.win as f32,
            death: v.death as f32,
        },
    );
    Value {
        score: v.score - shift,
        ..v
    }
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
}

impl OptimalSolver {
    /// A solver for `model`; nothing is solved until asked.
    pub fn new(model: Model) -> OptimalSolver {
        OptimalSolver {
            model,
            solved: OnceLock::new(),
        }
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
                    let v = solve(m, None, &mut table, &start, 0);
                    value = value.plus(v.scaled(p_s * p_b));
                }
            }
            let game = GameValue {
                value,
                states: table.values.len(),
                seconds: started.elapsed().as_secs_f64(),
            };
            (table, game)
        })
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
        m.candidates(belief, spent, &pits, &mut |next, after| {
            solve(m, Some(table), local, next, after)
        })
    }
}
