//! What a grid player may assume of how its world was dealt, beside what it perceives: the
//! sizes the board may have, with their weights, and which cells may hold a pit
//! ([`GridPrior`]). The rules hand it to the agent in the [`crate::game::Briefing`]; it is
//! public knowledge (the deal's distribution, as the course's generator is public), never the
//! dealt world.
//!
//! It must never be read from a seed or a world: a session names the deal it was dealt from
//! (or, for a world file, the format the file was written in), nothing more. It lives beside
//! the briefing, not in `grid`, so that the game interface imports no rule set.

/// The course tournament's sizes, columns × rows, and how many of its 10,000 worlds each had
/// (`crate::grid::course`; docs/rules.md, "The course tournament").
pub const COURSE_SIZES: [(usize, usize, u32); 16] = [
    (4, 4, 2500),
    (4, 5, 500),
    (4, 6, 500),
    (4, 7, 500),
    (5, 4, 500),
    (5, 5, 500),
    (5, 6, 500),
    (5, 7, 500),
    (6, 4, 500),
    (6, 5, 500),
    (6, 6, 500),
    (6, 7, 500),
    (7, 4, 500),
    (7, 5, 500),
    (7, 6, 500),
    (7, 7, 500),
];

/// How a grid's worlds are dealt, as far as a player may assume.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridPrior {
    /// Every cell but the start may hold a pit; the size (rows, columns) lies between
    /// `smallest` and `largest`, all alike (square ends: N×N with N uniform; others: rows and
    /// columns each uniform), as `crate::grid::SizeRange` deals them.
    Uniform {
        /// The smallest size.
        smallest: (usize, usize),
        /// The largest size.
        largest: (usize, usize),
    },
    /// The course tournament's deal (`crate::grid::course`): its 16 sizes in the 2,500:500
    /// proportion, pits only in the lower-left min(rows, cols) square block.
    Course,
}

impl GridPrior {
    /// The prior of a world dealt on one known size, every cell but the start a pit alike.
    pub fn uniform(rows: usize, cols: usize) -> GridPrior {
        GridPrior::Uniform {
            smallest: (rows, cols),
            largest: (rows, cols),
        }
    }

    /// The sizes (rows, columns) the board may have, each with its weight (not normalised).
    pub fn sizes(&self) -> Vec<((usize, usize), f64)> {
        match self {
            GridPrior::Course => COURSE_SIZES
                .iter()
                .map(|&(cols, rows, n)| ((rows, cols), f64::from(n)))
                .collect(),
            &GridPrior::Uniform { smallest, largest }
                if smallest.0 == smallest.1 && largest.0 == largest.1 =>
            {
                (smallest.0..=largest.0).map(|n| ((n, n), 1.0)).collect()
            }
            &GridPrior::Uniform { smallest, largest } => (smallest.0..=largest.0)
                .flat_map(|r| (smallest.1..=largest.1).map(move |c| ((r, c), 1.0)))
                .collect(),
        }
    }

    /// The largest rows and the largest columns any size may have.
    pub fn largest(&self) -> (usize, usize) {
        let sizes = self.sizes();
        let rows = sizes.iter().map(|s| s.0 .0).max().unwrap_or(1);
        let cols = sizes.iter().map(|s| s.0 .1).max().unwrap_or(1);
        (rows, cols)
    }

    /// True when `size` is one of the sizes the board may have.
    pub fn allows(&self, size: (usize, usize)) -> bool {
        self.sizes().iter().any(|&(s, _)| s == size)
    }

    /// True when the cell at `row, col` may hold a pit on a board of `size`.
    pub fn pit_possible(&self, size: (usize, usize), row: usize, col: usize) -> bool {
        let (rows, cols) = size;
        let on_board = row < rows && col < cols && (row, col) != (0, 0);
        match self {
            GridPrior::Uniform { .. } => on_board,
            GridPrior::Course => on_board && row.max(col) < rows.min(cols),
        }
    }

    /// Each cell's chance of a pit on a `model.0 × model.1` grid (cells by index, row first),
    /// for a player who knows the board's rows lie in `rows` and its columns in `cols`
    /// (inclusive bounds): `pit_prob` times the prior weight of the sizes within the bounds on
    /// which the cell may hold a pit. With the size known this is `pit_prob` or 0.
    pub fn pit_chances(
        &self,
        model: (usize, usize),
        rows: (usize, usize),
        cols: (usize, usize),
        pit_prob: f64,
    ) -> Vec<f64> {
        self.weigh_cells(model, rows, cols, |size, row, col| {
            self.pit_possible(size, row, col)
        })
        .into_iter()
        .map(|w| pit_prob * w)
        .collect()
    }

    /// For each cell of the model, the prior weight of the sizes within the bounds on which
    /// `holds(size, row, col)`, over the weight of all of them (0 when none is within).
    fn weigh_cells(
        &self,
        model: (usize, usize),
        rows: (usize, usize),
        cols: (usize, usize),
        holds: impl Fn((usize, usize), usize, usize) -> bool,
    ) -> Vec<f64> {
        let sizes: Vec<_> = self
            .sizes()
            .into_iter()
            .filter(|&((r, c), _)| (rows.0..=rows.1).contains(&r) && (cols.0..=cols.1).contains(&c))
            .collect();
        let total: f64 = sizes.iter().map(|s| s.1).sum();
        let mut weights = vec![0.0; model.0 * model.1];
        if total <= 0.0 {
            return weights;
        }
        for row in 0..model.0 {
            for col in 0..model.1 {
                let held: f64 = sizes
                    .iter()
                    .filter(|&&(size, _)| holds(size, row, col))
                    .map(|s| s.1)
                    .sum();
                weights[row * model.1 + col] = held / total;
            }
        }
        weights
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_course_prior_has_its_sixteen_sizes_and_its_pit_block() {
        let prior = GridPrior::Course;
        let sizes = prior.sizes();
        assert_eq!(sizes.len(), 16);
        assert_eq!(prior.largest(), (7, 7));
        // 4 rows by 7 columns: pits only in the 4x4 block.
        assert!(prior.pit_possible((4, 7), 3, 3));
        assert!(!prior.pit_possible((4, 7), 2, 5));
        assert!(!prior.pit_possible((4, 7), 0, 0));
        // Known size: 0.2 in the block, 0 outside.
        let known = prior.pit_chances((4, 7), (4, 4), (7, 7), 0.2);
        assert_eq!(known[3 * 7 + 3], 0.2);
        assert_eq!(known[7 + 4], 0.0);
        // Hidden: a cell in column 4 holds pits only where rows and columns are both above 4.
        let hidden = prior.pit_chances((7, 7), (4, 7), (4, 7), 0.2);
        let both_above_4: f64 = sizes
            .iter()
            .filter(|((r, c), _)| *r > 4 && *c > 4)
            .map(|s| s.1)
            .sum();
        let total: f64 = sizes.iter().map(|s| s.1).sum();
        assert!((hidden[7 + 4] - 0.2 * both_above_4 / total).abs() < 1e-12);
        assert_eq!(hidden[7 + 1], 0.2);
    }

    #[test]
    fn a_uniform_range_weighs_its_sizes_alike() {
        let square = GridPrior::Uniform {
            smallest: (4, 4),
            largest: (7, 7),
        };
        assert_eq!(square.sizes().len(), 4);
        assert!(square.allows((6, 6)) && !square.allows((4, 6)));
        let chances = square.pit_chances((7, 7), (4, 7), (4, 7), 0.2);
        // Row 5 column 1 exists on 6x6 and 7x7: half the sizes.
        assert!((chances[5 * 7 + 1] - 0.1).abs() < 1e-12);
    }
}
