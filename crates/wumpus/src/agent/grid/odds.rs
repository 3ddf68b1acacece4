//! The grid's pit odds: the exact posterior over pits given the cells visited and where a
//! breeze was felt, pits dealt independently with the same prior in every cell but the
//! start. The one routine behind the look-ahead ([`super::lookahead`]), the optimal player
//! ([`crate::agent::optimal`]) and `examples/grid_bound.rs`.
//!
//! Only fringe cells (unvisited neighbours of visited cells) are constrained by what was
//! felt, so only their layouts are counted; cells beyond the fringe keep the prior. It must
//! never see a dealt world: it counts layouts of what a player has seen.

/// The pit posterior of what a player has seen.
#[derive(Clone, Debug, PartialEq)]
pub struct PitPosterior {
    /// P(pit) in each cell (0 in visited cells, the prior beyond the fringe).
    pub pit: Vec<f64>,
    /// For each fringe cell, P(no pit in it and none next to it): from it follows the chance
    /// of no breeze on entering.
    pub clear_and_calm: Vec<f64>,
    /// The prior weight of the layouts of the counted cells that fit the breezes felt (with
    /// their pits' own chances; the other cells' weights left out).
    pub total: f64,
    /// False when no pit layout fits the breezes felt (a world the prior cannot deal, such
    /// as a world file with pits played at pit probability 0); the odds are then all 0.
    pub possible: bool,
}

/// The cells next to any cell of `set`.
fn reach<N: Copy + Into<u64>>(neighbours: &[N], set: u64) -> u64 {
    (0..neighbours.len())
        .filter(|&i| set >> i & 1 == 1)
        .fold(0, |m, i| m | neighbours[i].into())
}

/// The pit posterior on a grid of `neighbours.len()` cells (each cell's neighbours as a bit
/// set), with prior `pit` per cell, given the cells `visited` and the ones among them where a
/// breeze was felt (`breeze`).
///
/// `counted` are the cells whose pit layouts are enumerated: the fringe, or the fringe less
/// the cells next to a calm visited cell (which cannot hold a pit: fewer layouts, the same
/// posterior up to rounding). Cost: 2^|counted| layouts, each checked against every visited
/// cell's breeze.
pub fn pit_posterior<N: Copy + Into<u64>>(
    neighbours: &[N],
    pit: f64,
    visited: u64,
    breeze: u64,
    counted: u64,
) -> PitPosterior {
    posterior(neighbours, Chances::Same(pit), visited, breeze, counted)
}

/// [`pit_posterior`] with each cell's own prior chance of a pit, `pits[i]` (where the deal puts
/// pits in some cells only, or the board's size is not known); `counted` should leave out the
/// cells whose chance is 0.
pub fn pit_posterior_by_cell<N: Copy + Into<u64>>(
    neighbours: &[N],
    pits: &[f64],
    visited: u64,
    breeze: u64,
    counted: u64,
) -> PitPosterior {
    posterior(neighbours, Chances::ByCell(pits), visited, breeze, counted)
}

/// The prior chance of a pit: one for every cell, or each cell's own.
#[derive(Clone, Copy)]
enum Chances<'a> {
    Same(f64),
    ByCell(&'a [f64]),
}

impl Chances<'_> {
    fn of(&self, cell: usize) -> f64 {
        match self {
            Chances::Same(p) => *p,
            Chances::ByCell(pits) => pits[cell],
        }
    }

    /// The prior weight of a layout of the cells `open` with `pits` among them holding a pit.
    fn layout(&self, open: &[usize], pits: u64) -> f64 {
        match self {
            Chances::Same(p) => {
                let k = pits.count_ones() as i32;
                p.powi(k) * (1.0 - p).powi(open.len() as i32 - k)
            }
            Chances::ByCell(chances) => open
                .iter()
                .map(|&i| {
                    if pits >> i & 1 == 1 {
                        chances[i]
                    } else {
                        1.0 - chances[i]
                    }
                })
                .product(),
        }
    }

    /// The prior chance that no cell of `set` holds a pit.
    fn none_in(&self, set: u64) -> f64 {
        match self {
            Chances::Same(p) => (1.0 - p).powi(set.count_ones() as i32),
            Chances::ByCell(chances) => {
                let mut m = set;
                let mut q = 1.0;
                while m != 0 {
                    q *= 1.0 - chances[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                q
            }
        }
    }
}

fn posterior<N: Copy + Into<u64>>(
    neighbours: &[N],
    pit: Chances,
    visited: u64,
    breeze: u64,
    counted: u64,
) -> PitPosterior {
    let cells = neighbours.len();
    let all = if cells == 64 {
        u64::MAX
    } else {
        (1u64 << cells) - 1
    };
    let fringe = reach(neighbours, visited) & !visited;
    let beyond = all & !visited & !fringe;
    let open: Vec<usize> = (0..cells).filter(|&i| counted >> i & 1 == 1).collect();
    let mut total = 0.0;
    let mut pit_mass = vec![0.0; cells];
    let mut calm_mass = vec![0.0; cells];
    for layout in 0u64..(1 << open.len()) {
        let pits = open
            .iter()
            .enumerate()
            .filter(|(k, _)| layout >> k & 1 == 1)
            .fold(0u64, |m, (_, &i)| m | 1 << i);
        if reach(neighbours, pits) & visited != breeze {
            continue;
        }
        let w = pit.layout(&open, pits);
        total += w;
        for i in (0..cells).filter(|&i| fringe >> i & 1 == 1) {
            let near: u64 = neighbours[i].into();
            if pits >> i & 1 == 1 {
                pit_mass[i] += w;
            } else if near & pits == 0 {
                // Calm in i: no counted pit next to it, and its neighbours beyond the fringe
                // pit-free at the prior.
                calm_mass[i] += w * pit.none_in(near & beyond);
            }
        }
    }
    let possible = total > 0.0;
    let norm = |m: Vec<f64>| -> Vec<f64> {
        m.into_iter()
            .map(|x| if possible { x / total } else { 0.0 })
            .collect()
    };
    let mut pit_odds = norm(pit_mass);
    for i in (0..cells).filter(|&i| beyond >> i & 1 == 1) {
        pit_odds[i] = pit.of(i);
    }
    PitPosterior {
        pit: pit_odds,
        clear_and_calm: norm(calm_mass),
        possible,
        total,
    }
}

/// The chance of dying on stepping into a cell with chance `pit` of a pit and `wumpus` of the
/// live wumpus: the two are dealt independently, so the step is survived only when both miss.
/// The one figure the board, the hint's reason and its choices name ("to die").
pub fn death_chance(pit: f64, wumpus: f64) -> f64 {
    // Written as a sum, not 1 - (1 - pit)(1 - wumpus): with either chance 0 the other comes
    // back exactly (0.2, not 0.19999999999999996).
    pit + wumpus - pit * wumpus
}
