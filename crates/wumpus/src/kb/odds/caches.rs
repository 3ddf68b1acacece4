//! What the knowledge base keeps between odds questions: the solver's clauses grouped by
//! component, brought up to date as clauses are added, and the counts of the last state
//! asked about.
//!
//! A cache only saves work; it must never change an answer, so whatever it holds is of the
//! clauses and the prior as they are now, or dropped.

use super::super::sat::Sat;
use super::model_count::{vars_of, Clause, ModelCounter};
use super::{Prior, Split};
use rustc_hash::FxHashMap as HashMap;
use varisat::Lit;

/// What odds questions keep between them: the solver's clauses grouped by component, and the
/// counts of the last state asked about. It must never change an answer: every group and
/// count is of the clauses as they are, brought up to date or dropped when they change.
#[derive(Default)]
pub(in crate::kb) struct OddsCaches {
    /// Clauses grouped by component, at a time.
    groups: Option<(u64, ComponentClauses)>,
    /// How many of the solver's clauses `groups` holds.
    grouped: usize,
    /// Counts kept between odds questions about the same state.
    pub(super) cache: Option<OddsCache>,
}

/// Clauses grouped by the component (representative variable) they belong to.
type ComponentClauses = std::collections::HashMap<usize, std::sync::Arc<SharedClauses>>;

impl OddsCaches {
    /// The clauses of one component (literals sorted) and their variables.
    ///
    /// The solver's clauses only grow, and components only merge as they grow, so the groups
    /// are kept from one question to the next and brought up to date with the clauses added
    /// since: a group that gained nothing is shared as it was.
    pub(super) fn component_clauses(
        &mut self,
        sat: &mut Sat,
        component: usize,
    ) -> std::sync::Arc<SharedClauses> {
        let total = sat.clauses().len();
        if self.groups.is_none() || self.grouped != total {
            let old = self.groups.take().map(|(_, g)| g).unwrap_or_default();
            // New clauses by their component.
            let mut fresh: HashMap<usize, Vec<Clause>> = HashMap::default();
            for i in self.grouped..total {
                let Some(&first) = sat.clauses()[i].first() else {
                    continue;
                };
                let root = sat.component(first);
                let mut clause = Clause::from(&sat.clauses()[i][..]);
                std::sync::Arc::get_mut(&mut clause)
                    .expect("a clause just made is not shared")
                    .sort_unstable();
                fresh.entry(root).or_default().push(clause);
            }
            // Old groups under their present component; those that merged, or gained
            // clauses, are rebuilt.
            let mut merged: HashMap<usize, Vec<std::sync::Arc<SharedClauses>>> = HashMap::default();
            for (root, group) in old {
                let now_root = sat.component(varisat::Var::from_index(root).positive());
                merged.entry(now_root).or_default().push(group);
            }
            let mut groups: ComponentClauses = Default::default();
            for (root, mut parts) in merged {
                let added = fresh.remove(&root);
                if parts.len() == 1 && added.is_none() {
                    groups.insert(root, parts.pop().expect("one part"));
                    continue;
                }
                let mut clauses: Vec<Clause> = parts
                    .iter()
                    .flat_map(|p| p.clauses.iter().cloned())
                    .collect();
                clauses.extend(added.into_iter().flatten());
                let vars = vars_of(&clauses);
                groups.insert(root, std::sync::Arc::new(SharedClauses { clauses, vars }));
            }
            for (root, clauses) in fresh {
                let vars = vars_of(&clauses);
                groups.insert(root, std::sync::Arc::new(SharedClauses { clauses, vars }));
            }
            self.grouped = total;
            self.groups = Some((sat.now(), groups));
        }
        let (_, groups) = self.groups.as_ref().expect("grouped above");
        groups.get(&component).cloned().unwrap_or_default()
    }
}

/// What the knowledge base keeps between odds questions asked of the same state.
pub(super) struct OddsCache {
    /// The time, clause count and variable count it was made at.
    pub(super) at: (u64, usize, usize),
    pub(super) prior: Prior,
    pub(super) counter: ModelCounter,
    /// Weighted counts of each component under each of its splits, shared by every question.
    pub(super) totals: HashMap<(usize, usize), f64>,
    /// The selectors of each component's observations, sorted.
    pub(super) selectors: HashMap<usize, std::sync::Arc<Vec<Lit>>>,
    /// The count splits of each component (they depend on the state alone).
    pub(super) splits: HashMap<usize, std::sync::Arc<Vec<Split>>>,
}

/// The clauses of one constraint component, ready for counting.
#[derive(Default)]
pub(super) struct SharedClauses {
    pub(super) clauses: Vec<Clause>,
    /// Their variables, sorted.
    pub(super) vars: Vec<usize>,
}
