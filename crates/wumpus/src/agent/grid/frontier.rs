//! The grid agent's frontier: the unvisited cells next to visited ones and not announced safe,
//! in the order they joined, and those of them that may have something new to ask.
//!
//! A turn costs what changed: a cell waits to be examined only when it is new to the frontier
//! or its watched atoms changed, and leavers are dropped in bulk. It must never make a turn
//! pay in proportion to the whole grid, nor leave a cell unexamined whose answers can have
//! changed.

use super::map::Map;
use crate::kb::KnowledgeBase;
use crate::topology::Place;
use std::collections::BTreeSet;

/// The cells in doubt next to where the agent walked, and which of them to examine next. It
/// only says where to look: what is proven of a cell is in the [`Map`], never here.
pub(super) struct Frontier {
    /// Unvisited cells next to visited ones and not announced safe, in the order they joined,
    /// plus some that have since been visited or announced (dropped in bulk once they are
    /// half the list, so that leaving costs nothing per turn); read it through
    /// [`Frontier::holds`].
    pub(super) places: Vec<Place>,
    /// How many of `places` are still in it.
    pub(super) live: usize,
    /// By cell: true from when it joins `places` until it is visited.
    pub(super) listed: Vec<bool>,
    /// Each cell's place in the order cells joined the frontier, from 1 (0: never joined),
    /// up to the highest cell that joined: grown on demand, so that a big grid mostly
    /// unexplored costs little here.
    pub(super) order: Vec<u32>,
    /// Every cell that ever joined the frontier, by its `order` − 1.
    pub(super) by_order: Vec<Place>,
    /// Frontier cells (by order) that may have something new to ask or announce: new ones,
    /// and those whose watched atoms changed. Every other frontier cell would ask nothing
    /// (its answers cannot have changed), so walking it in order does what walking the whole
    /// frontier did.
    pub(super) to_examine: BTreeSet<u32>,
    /// Scratch for the tokens (cell indices) the knowledge base hands back.
    pub(super) fired: Vec<u32>,
}

impl Frontier {
    /// An empty frontier on `n` cells.
    pub(super) fn new(n: usize) -> Frontier {
        Frontier {
            places: Vec::new(),
            live: 0,
            listed: vec![false; n],
            order: Vec::new(),
            by_order: Vec::new(),
            to_examine: BTreeSet::new(),
            fired: Vec::new(),
        }
    }

    /// True when `place` is in the frontier: unvisited, next to a visited cell, and not
    /// announced safe.
    pub(super) fn holds(&self, map: &Map, place: Place) -> bool {
        let c = &map.cells[place.index()];
        self.listed[place.index()] && !c.visited && !c.announced_safe
    }

    /// Adds `cell`, not listed before, at the end of the order, to be examined.
    pub(super) fn join(&mut self, cell: Place) {
        self.listed[cell.index()] = true;
        self.places.push(cell);
        self.live += 1;
        self.by_order.push(cell);
        let order = self.by_order.len() as u32;
        if cell.index() >= self.order.len() {
            let len = (cell.index() + 1).max(2 * self.order.len());
            self.order.resize(len, 0);
        }
        self.order[cell.index()] = order;
        self.to_examine.insert(order);
    }

    /// Marks every cell of the list neither visited nor announced safe to be examined (after
    /// the scream, when every answer about the wumpus changed).
    pub(super) fn examine_all(&mut self, map: &Map) {
        for &p in &self.places {
            let c = &map.cells[p.index()];
            if !c.visited && !c.announced_safe {
                self.to_examine.insert(self.order[p.index()]);
            }
        }
    }

    /// Moves the cells whose watched atoms changed into `to_examine`.
    pub(super) fn collect_changes(&mut self, kb: &mut KnowledgeBase, map: &Map) {
        let mut fired = std::mem::take(&mut self.fired);
        kb.take_changed(&mut fired);
        for &token in &fired {
            let place = Place::new(token as usize);
            if self.holds(map, place) {
                self.to_examine.insert(self.order[place.index()]);
            }
        }
        fired.clear();
        self.fired = fired;
    }

    /// A cell announced safe stays safe: nothing more is asked about it, and the shot and
    /// the gamble look only at cells not proven safe, so it leaves the frontier (on a big
    /// open grid this keeps the shot's and the gamble's work to the cells still in doubt).
    /// Leavers are dropped in bulk, keeping the order, once they are half the list.
    pub(super) fn drop_leavers(&mut self, map: &Map) {
        if self.places.len() > 2 * self.live + 16 {
            let cells = &map.cells;
            self.places.retain(|p| {
                let c = &cells[p.index()];
                !c.visited && !c.announced_safe
            });
        }
    }
}
