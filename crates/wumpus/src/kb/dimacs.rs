//! The knowledge base in DIMACS CNF, with a comment table naming each atom's variable, so that
//! any SAT solver can check its conclusions (`wumpus kb --dimacs`).
//!
//! The export only reads the knowledge base: it must never add a clause or a variable to it.

use crate::topology::Place;

use super::KnowledgeBase;

impl KnowledgeBase {
    /// The grounded formula in DIMACS CNF, with a comment table naming each atom's variable,
    /// so that any SAT solver can check the knowledge base's conclusions.
    ///
    /// Atoms fixed outside the solver (most unit observations) get fresh variables after the
    /// solver's, each with its unit clause, so the file says everything the knowledge base
    /// knows: for a question about atom `a`, the formula with the unit `a` added is
    /// unsatisfiable exactly when the knowledge base entails `not a`. Atoms no clause mentions
    /// have no variable (nothing constrains them but their counters, which count them as "the
    /// rest"). In explained mode the observations' selectors are added as unit clauses too.
    pub fn to_dimacs(&self) -> String {
        use std::fmt::Write;
        if let Some(explainer) = &self.explaining.explainer {
            // The explainer holds the formula with the observations' selectors.
            return explainer.to_dimacs();
        }
        let mut out = String::new();
        let _ = writeln!(out, "c wumpus knowledge base");
        let rules = self.rules();
        let mut next = self.sat.var_count();
        let mut units: Vec<isize> = Vec::new();
        for (pred, slots) in self.atoms.slots.iter().enumerate() {
            for (slot, state) in slots.iter() {
                if state.lit.is_none() && state.fixed.is_none() {
                    continue;
                }
                let (base, epoch) = self.epochs.epoch_of[pred];
                let name = if epoch == 0 {
                    rules.predicates[base].name.clone()
                } else {
                    format!("{}@{epoch}", rules.predicates[base].name)
                };
                let place = if rules.predicates[base].per_place {
                    format!("({})", self.topology().label(Place::new(slot)))
                } else {
                    String::new()
                };
                match (state.lit, state.fixed) {
                    (Some(l), _) => {
                        let _ = writeln!(out, "c var {} {name}{place}", l.to_dimacs());
                    }
                    (None, Some(v)) => {
                        next += 1;
                        let _ = writeln!(out, "c var {next} {name}{place}");
                        let _ = writeln!(out, "c fixed {name}{place} = {v} (a unit clause)");
                        units.push(if v { next as isize } else { -(next as isize) });
                    }
                    (None, None) => {}
                }
            }
        }
        for (obs, sel) in self.told.observations.iter().zip(&self.told.selectors) {
            let _ = writeln!(
                out,
                "c observation {} {}",
                sel.to_dimacs(),
                self.describe(obs)
            );
        }
        let clauses = self.sat.clauses();
        let _ = writeln!(
            out,
            "p cnf {} {}",
            next,
            clauses.len() + self.told.selectors.len() + units.len()
        );
        for clause in clauses {
            for l in clause {
                let _ = write!(out, "{} ", l.to_dimacs());
            }
            let _ = writeln!(out, "0");
        }
        for s in &self.told.selectors {
            let _ = writeln!(out, "{} 0", s.to_dimacs());
        }
        for u in units {
            let _ = writeln!(out, "{u} 0");
        }
        out
    }
}
