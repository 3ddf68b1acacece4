//! Which variables share a clause, and when each such component last changed: the union–find
//! over the variables, the stamp each clause leaves on its component, and the callers' watches
//! waiting for a component to change.
//!
//! It only records and answers; it must never solve, and never report a literal unchanged
//! when a clause touching its component came after the time asked.

use varisat::Lit;

use super::Sat;

/// A caller's token waiting for a change after a time.
#[derive(Clone, Copy, Debug)]
pub(super) struct Watch {
    token: u32,
    since: u64,
}

/// The representative of `i` in the union–find `parent`, halving paths on the way.
pub(super) fn find(parent: &mut [u32], mut i: usize) -> usize {
    while parent[i] as usize != i {
        let grand = parent[parent[i] as usize];
        parent[i] = grand;
        i = grand as usize;
    }
    i
}

impl Sat {
    /// Moves the watches of component `from` to `into`, which it has just joined (the longer
    /// list is kept and the shorter appended, so a watch moves O(log n) times in all).
    pub(super) fn merge_watches(&mut self, from: usize, into: usize) {
        let Some(mut moved) = self.watches.remove(&(from as u32)) else {
            return;
        };
        let kept = self.watches.entry(into as u32).or_default();
        if kept.len() < moved.len() {
            std::mem::swap(kept, &mut moved);
        }
        kept.append(&mut moved);
    }

    /// The representative of `i` without shortening paths (for `&self` questions).
    pub(super) fn root(&self, mut i: usize) -> usize {
        while self.parent[i] as usize != i {
            i = self.parent[i] as usize;
        }
        i
    }

    /// The component (a representative variable index) of `lit`'s variable: variables that
    /// share a clause, directly or through others, share a component.
    pub(crate) fn component(&mut self, lit: Lit) -> usize {
        find(&mut self.parent, lit.index())
    }

    /// True when a clause touching `lit`'s component was added after time `since`.
    pub(crate) fn changed_since(&mut self, lit: Lit, since: u64) -> bool {
        let root = find(&mut self.parent, lit.index());
        self.stamp[root] > since
    }

    /// Hands `token` back from [`Sat::drain_changed`] once a clause touching `lit`'s component
    /// is added after time `since` (at once when one already has been). A watch fires once.
    pub(crate) fn watch(&mut self, lit: Lit, token: u32, since: u64, fired: &mut Vec<u32>) {
        let root = find(&mut self.parent, lit.index());
        if self.stamp[root] > since {
            fired.push(token);
        } else {
            self.watches
                .entry(root as u32)
                .or_default()
                .push(Watch { token, since });
        }
    }

    /// Appends to `fired` the token of every watch whose component was stamped after the
    /// watch's time, and drops those watches. Costs the watches of the components stamped
    /// since the last call, not all of them.
    pub(crate) fn drain_changed(&mut self, fired: &mut Vec<u32>) {
        let stamped = std::mem::take(&mut self.stamped);
        for &r in &stamped {
            let root = find(&mut self.parent, r as usize);
            let stamp = self.stamp[root];
            let Some(list) = self.watches.get_mut(&(root as u32)) else {
                continue;
            };
            list.retain(|w| {
                let changed = stamp > w.since;
                if changed {
                    fired.push(w.token);
                }
                !changed
            });
            if list.is_empty() {
                self.watches.remove(&(root as u32));
            }
        }
        // Keep the log's allocation for the next turn.
        self.stamped = stamped;
        self.stamped.clear();
    }

    /// `lits` grouped by component: (representative, literal) pairs, sorted by
    /// representative and otherwise in their order.
    pub(super) fn by_component(&self, lits: &[Lit]) -> Vec<(u32, Lit)> {
        let mut grouped: Vec<(u32, Lit)> = lits
            .iter()
            .map(|&l| (self.root(l.index()) as u32, l))
            .collect();
        grouped.sort_by_key(|&(r, _)| r);
        grouped
    }
}
