//! The hidden layout of a grid *Wumpus World*: where the pits, the wumpus and the gold are.
//!
//! A [`GridWorld`] can only be built valid: every coordinate on the grid, exactly one wumpus and
//! one gold, no pit listed twice, and the origin `0,0` free of pit, wumpus and gold. The world
//! file reader and the random generator both go through [`GridWorld::new`], so the check lives
//! in one place. The agent never sees this type; the simulator in [`super::game`] holds it.

use crate::topology::{Place, Topology};
use rand::Rng;
use std::sync::Arc;

/// Why a layout is not a valid world.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorldError {
    /// A feature lies off the grid.
    #[error("{feature} at {row},{col} is off the {rows}x{cols} grid")]
    OffGrid {
        /// `PIT`, `WUMPUS` or `GOLD`.
        feature: &'static str,
        /// The row given.
        row: usize,
        /// The column given.
        col: usize,
        /// The grid's rows.
        rows: usize,
        /// The grid's columns.
        cols: usize,
    },
    /// A feature is at the origin, which must be free.
    #[error(
        "{feature} at the origin 0,0: the start must be free of pits, the wumpus and the gold"
    )]
    AtOrigin {
        /// `PIT`, `WUMPUS` or `GOLD`.
        feature: &'static str,
    },
    /// The same pit is listed twice.
    #[error("duplicate pit at {row},{col}")]
    DuplicatePit {
        /// Row of the pit.
        row: usize,
        /// Column of the pit.
        col: usize,
    },
}

/// A valid grid world: the topology plus where each hazard and the gold lie.
#[derive(Clone, Debug)]
pub struct GridWorld {
    topology: Arc<Topology>,
    pits: Vec<bool>,
    wumpus: Place,
    gold: Place,
}

impl GridWorld {
    /// Builds a world from cell coordinates, checking every rule of a valid layout.
    /// `topology` must be a grid.
    pub fn new(
        topology: Arc<Topology>,
        pits: &[(usize, usize)],
        wumpus: (usize, usize),
        gold: (usize, usize),
    ) -> Result<GridWorld, WorldError> {
        let mut pit_cells = vec![false; topology.len()];
        for &(row, col) in pits {
            let place = locate(&topology, "PIT", row, col)?;
            if pit_cells[place.index()] {
                return Err(WorldError::DuplicatePit { row, col });
            }
            pit_cells[place.index()] = true;
        }
        let wumpus = locate(&topology, "WUMPUS", wumpus.0, wumpus.1)?;
        let gold = locate(&topology, "GOLD", gold.0, gold.1)?;
        Ok(GridWorld {
            topology,
            pits: pit_cells,
            wumpus,
            gold,
        })
    }

    /// A random world, as seed 001 deals them: the wumpus and the gold each uniform over the
    /// cells other than `0,0`, and every other cell a pit with probability `pit_prob`.
    /// Wumpus, pit and gold may share a cell.
    pub fn random(topology: Arc<Topology>, pit_prob: f64, rng: &mut impl Rng) -> GridWorld {
        let cells = topology.len();
        let pit_prob = pit_prob.clamp(0.0, 1.0);
        let pits = (0..cells)
            .map(|i| i != 0 && rng.random_bool(pit_prob))
            .collect();
        let wumpus = Place::new(rng.random_range(1..cells));
        let gold = Place::new(rng.random_range(1..cells));
        GridWorld {
            topology,
            pits,
            wumpus,
            gold,
        }
    }

    /// The grid this world lies on.
    pub fn topology(&self) -> &Arc<Topology> {
        &self.topology
    }

    /// `(rows, cols)` of the grid.
    pub fn size(&self) -> (usize, usize) {
        self.topology.grid_size().expect("a grid world has a grid")
    }

    /// The start cell `0,0`.
    pub fn start(&self) -> Place {
        Place::new(0)
    }

    /// True when `place` holds a pit.
    pub fn has_pit(&self, place: Place) -> bool {
        self.pits[place.index()]
    }

    /// Every pit, in cell order.
    pub fn pits(&self) -> impl Iterator<Item = Place> + '_ {
        self.pits
            .iter()
            .enumerate()
            .filter(|(_, &p)| p)
            .map(|(i, _)| Place::new(i))
    }

    /// The wumpus's cell.
    pub fn wumpus(&self) -> Place {
        self.wumpus
    }

    /// The gold's cell.
    pub fn gold(&self) -> Place {
        self.gold
    }
    /// True when an all-knowing player could win: the gold lies on a cell reachable from
    /// `0,0` over pit-free cells, passing the wumpus's cell only after shooting it from a
    /// reachable cell in line with it (the arrow flies over pits, so any reachable cell in
    /// the wumpus's row or column will do).
    pub fn winnable(&self) -> bool {
        let topology = &*self.topology;
        if self.has_pit(self.gold) {
            return false;
        }
        let reach = topology.reachable(self.start(), |p| !self.has_pit(p) && p != self.wumpus);
        if reach[self.gold.index()] {
            return true;
        }
        let (wr, wc) = topology.coords(self.wumpus);
        let can_shoot = topology.places().any(|p| {
            let (r, c) = topology.coords(p);
            reach[p.index()] && (r == wr || c == wc)
        });
        can_shoot && topology.reachable(self.start(), |p| !self.has_pit(p))[self.gold.index()]
    }
}

fn locate(
    topology: &Topology,
    feature: &'static str,
    row: usize,
    col: usize,
) -> Result<Place, WorldError> {
    let (rows, cols) = topology.grid_size().expect("a grid world has a grid");
    let place = topology.cell(row, col).ok_or(WorldError::OffGrid {
        feature,
        row,
        col,
        rows,
        cols,
    })?;
    if place.index() == 0 {
        return Err(WorldError::AtOrigin { feature });
    }
    Ok(place)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::seeded;

    fn grid(r: usize, c: usize) -> Arc<Topology> {
        Arc::new(Topology::grid(r, c).unwrap())
    }

    #[test]
    fn valid_layout_builds() {
        let w = GridWorld::new(grid(5, 5), &[(0, 2)], (2, 0), (3, 2)).unwrap();
        assert!(w.has_pit(w.topology().cell(0, 2).unwrap()));
        assert_eq!(w.topology().coords(w.wumpus()), (2, 0));
        assert_eq!(w.topology().coords(w.gold()), (3, 2));
    }

    #[test]
    fn invalid_layouts_are_refused() {
        let g = grid(5, 5);
        assert!(matches!(
            GridWorld::new(g.clone(), &[(0, 0)], (2, 0), (3, 2)),
            Err(WorldError::AtOrigin { feature: "PIT" })
        ));
        assert!(matches!(
            GridWorld::new(g.clone(), &[], (0, 0), (3, 2)),
            Err(WorldError::AtOrigin { feature: "WUMPUS" })
        ));
        assert!(matches!(
            GridWorld::new(g.clone(), &[], (1, 0), (0, 0)),
            Err(WorldError::AtOrigin { feature: "GOLD" })
        ));
        assert!(matches!(
            GridWorld::new(g.clone(), &[(1, 1), (1, 1)], (2, 0), (3, 2)),
            Err(WorldError::DuplicatePit { row: 1, col: 1 })
        ));
        assert!(matches!(
            GridWorld::new(g, &[], (5, 0), (3, 2)),
            Err(WorldError::OffGrid { .. })
        ));
    }

    #[test]
    fn random_worlds_keep_the_origin_free_and_replay() {
        for seed in 0..200 {
            let a = GridWorld::random(grid(4, 4), 0.2, &mut seeded(seed));
            assert!(!a.has_pit(a.start()));
            assert_ne!(a.wumpus(), a.start());
            assert_ne!(a.gold(), a.start());
            let b = GridWorld::random(grid(4, 4), 0.2, &mut seeded(seed));
            assert_eq!(a.pits().collect::<Vec<_>>(), b.pits().collect::<Vec<_>>());
            assert_eq!((a.wumpus(), a.gold()), (b.wumpus(), b.gold()));
        }
    }

    #[test]
    fn winnable_follows_the_rules() {
        let g = grid(3, 3);
        // Gold in a pit.
        assert!(!GridWorld::new(g.clone(), &[(1, 1)], (2, 2), (1, 1))
            .unwrap()
            .winnable());
        // Gold behind the wumpus in a corridor, shootable from the start's row.
        let corridor = grid(2, 4);
        let w = GridWorld::new(corridor.clone(), &[(1, 0), (1, 1), (1, 2)], (0, 2), (0, 3));
        assert!(w.unwrap().winnable());
        // Gold walled off by pits.
        let w = GridWorld::new(g.clone(), &[(0, 1), (1, 0)], (2, 0), (2, 2)).unwrap();
        assert!(!w.winnable());
        // Open ground.
        assert!(GridWorld::new(g, &[], (2, 0), (2, 2)).unwrap().winnable());
    }

    #[test]
    fn pit_probability_is_respected() {
        let g = grid(30, 30);
        let w = GridWorld::random(g, 0.2, &mut seeded(7));
        let share = w.pits().count() as f64 / 899.0;
        assert!((0.15..0.25).contains(&share), "pit share {share}");
    }
}
