//! The course tournament's worlds (docs/rules.md, "The course tournament"): its world files,
//! read as the course's shells read them, and its deal, which reproduces the distribution of
//! the course's generator as the shells see its files.
//!
//! A course file is `C R` (columns, then rows), the wumpus `c r`, the gold `c r`, the pit
//! count, then one pit a line, every line column first, origin bottom-left. The generator
//! writes each pit row first, so on a board that is not square the shells move the pits, and
//! silently drop those that land off the board: pits only ever lie in the lower-left
//! min(C,R) × min(C,R) block. This module reads and deals exactly that. It must never "fix"
//! the transposition: the tournament was played on the boards the shells built.

use super::file::{WorldFileError, WorldFileErrorKind};
use super::world::GridWorld;
use crate::topology::Topology;
use rand::Rng;
use std::sync::Arc;

pub use crate::game::prior::COURSE_SIZES;

/// The course's chance that a square other than the start is dealt a pit (before the shells
/// move or drop it).
pub const COURSE_PIT_PROB: f64 = 0.2;

/// True when `text` looks like a course world file: its first line that is not blank holds
/// exactly two whole numbers (the project's own format starts with a keyword).
pub fn looks_like_course_world(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words.len() == 2 && words.iter().all(|w| w.parse::<usize>().is_ok())
        })
}

/// Reads a course world file as the course's shells read it, refusing a grid with a side
/// over `max_side`: pits off the board are dropped (as the shells drop them), and a pit listed
/// twice counts once. A wumpus or gold off the board, a missing line, or a line that is not
/// what its place says is an error naming the line.
pub fn parse_course_world(text: &str, max_side: usize) -> Result<GridWorld, WorldFileError> {
    let err = |line: usize, what: String| WorldFileError {
        line: Some(line),
        kind: WorldFileErrorKind::Course(what),
    };
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let last = text.lines().count().max(1);
    let mut numbers = |what: &str, count: usize| -> Result<(usize, Vec<usize>), WorldFileError> {
        let Some((line, l)) = lines.next() else {
            return Err(err(last, format!("the file ends before {what}")));
        };
        let words: Vec<&str> = l.split_whitespace().collect();
        if words.len() != count {
            return Err(err(
                line,
                format!("{what} takes {count} whole numbers, found {}", words.len()),
            ));
        }
        let values = words
            .iter()
            .map(|w| {
                w.parse::<usize>().map_err(|_| {
                    err(
                        line,
                        format!("{} is not a whole number ({what})", crate::files::quoted(w)),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok((line, values))
    };
    let (size_line, size) = numbers("the size (columns rows)", 2)?;
    let (cols, rows) = (size[0], size[1]);
    if rows.max(cols) > max_side {
        return Err(WorldFileError {
            line: Some(size_line),
            kind: WorldFileErrorKind::TooLarge {
                rows,
                cols,
                max: max_side,
            },
        });
    }
    let topology = Topology::grid(rows, cols).map_err(|e| WorldFileError {
        line: Some(size_line),
        kind: e.into(),
    })?;
    let mut on_board = |what: &str| -> Result<(usize, (usize, usize)), WorldFileError> {
        let (line, v) = numbers(what, 2)?;
        let (c, r) = (v[0], v[1]);
        if c >= cols || r >= rows {
            return Err(err(
                line,
                format!("the {what} at column {c}, row {r} is off the {cols}x{rows} board"),
            ));
        }
        Ok((line, (r, c)))
    };
    let (wumpus_line, wumpus) = on_board("wumpus")?;
    let (gold_line, gold) = on_board("gold")?;
    let (_, count) = numbers("the pit count", 1)?;
    let mut pits = Vec::new();
    for _ in 0..count[0] {
        let (_, v) = numbers("a pit", 2)?;
        // Read column first, as the shells read it; off the board it is dropped, as they
        // drop it.
        let (c, r) = (v[0], v[1]);
        if c < cols && r < rows && !pits.contains(&(r, c)) {
            pits.push((r, c));
        }
    }
    if let Some((line, _)) = lines.next() {
        return Err(err(
            line,
            format!("more lines than the pit count ({}) says", count[0]),
        ));
    }
    GridWorld::new(Arc::new(topology), &pits, wumpus, gold).map_err(|e| {
        let line = match &e {
            super::world::WorldError::AtOrigin { feature: "WUMPUS" } => Some(wumpus_line),
            super::world::WorldError::AtOrigin { feature: "GOLD" } => Some(gold_line),
            _ => None,
        };
        WorldFileError {
            line,
            kind: e.into(),
        }
    })
}

/// A world dealt as the course dealt its tournament and its shells read the files: a size
/// drawn in the 2,500:500 proportion, every square but the start a pit with chance `pit_prob`
/// (written row first by the generator, so moved or dropped on a board that is not square),
/// and the wumpus and the gold each uniform over the squares but the start.
pub fn deal_course_world(pit_prob: f64, rng: &mut impl Rng) -> GridWorld {
    let (cols, rows) = draw_course_size(rng);
    let topology = Arc::new(Topology::grid(rows, cols).expect("the course's sizes are valid"));
    let mut pits = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if (c != 0 || r != 0) && rng.random_bool(pit_prob.clamp(0.0, 1.0)) {
                // Written `r c`, read back as column r, row c.
                let (col, row) = (r, c);
                if col < cols && row < rows {
                    pits.push((row, col));
                }
            }
        }
    }
    let mut off_start = || loop {
        let (c, r) = (rng.random_range(0..cols), rng.random_range(0..rows));
        if c != 0 || r != 0 {
            return (r, c);
        }
    };
    let wumpus = off_start();
    let gold = off_start();
    GridWorld::new(topology, &pits, wumpus, gold).expect("dealt off the start, each pit once")
}

/// A size drawn in the course's proportion: `(columns, rows)`.
pub fn draw_course_size(rng: &mut impl Rng) -> (usize, usize) {
    let total: u32 = COURSE_SIZES.iter().map(|s| s.2).sum();
    let mut pick = rng.random_range(0..total);
    for &(cols, rows, weight) in &COURSE_SIZES {
        if pick < weight {
            return (cols, rows);
        }
        pick -= weight;
    }
    unreachable!("the weights add up to the total")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::Place;

    /// `TournamentWorld5x7_3.txt` of the published set, CRLF and tabs as published.
    const PUBLISHED: &str =
        "5\t7\r\n4\t6\r\n2\t6\r\n7\r\n0\t2\r\n2\t2\r\n2\t4\r\n3\t1\r\n4\t1\r\n5\t0\r\n6\t1";

    fn pit_cells(world: &GridWorld) -> Vec<(usize, usize)> {
        let (_, cols) = world.size();
        world
            .pits()
            .map(|p: Place| (p.index() / cols, p.index() % cols))
            .collect()
    }

    #[test]
    fn a_published_file_is_read_as_the_shells_read_it() {
        assert!(looks_like_course_world(PUBLISHED));
        let world = parse_course_world(PUBLISHED, 64).unwrap();
        // 5 columns, 7 rows: rows then columns here.
        assert_eq!(world.size(), (7, 5));
        let (_, cols) = world.size();
        let at = |p: Place| (p.index() / cols, p.index() % cols);
        assert_eq!(at(world.wumpus()), (6, 4), "column 4, row 6");
        assert_eq!(at(world.gold()), (6, 2));
        // Seven pits listed; `5 0` and `6 1` fall off a board 5 columns wide and are dropped.
        let mut pits = pit_cells(&world);
        pits.sort();
        assert_eq!(pits, vec![(1, 3), (1, 4), (2, 0), (2, 2), (4, 2)]);
    }

    #[test]
    fn the_project_format_is_not_taken_for_a_course_file() {
        assert!(!looks_like_course_world("SIZE 4 4\nWUMPUS 1 1\nGOLD 2 2\n"));
        assert!(!looks_like_course_world("# a comment\nPIT 1 2\n"));
    }

    #[test]
    fn a_wrong_file_names_its_line() {
        let line = |text: &str| parse_course_world(text, 64).unwrap_err().line;
        assert_eq!(line("4 4\n1 1\n2 x\n0\n"), Some(3));
        assert_eq!(line("4 4\n1 1\n2 2\n"), Some(3), "no pit count");
        assert_eq!(line("4 4\n9 1\n2 2\n0\n"), Some(2), "wumpus off the board");
        assert_eq!(
            line("4 4\n1 1\n2 2\n1\n1\n"),
            Some(5),
            "a pit with one number"
        );
        assert_eq!(
            line("4 4\n1 1\n2 2\n0\n3 3\n"),
            Some(5),
            "more lines than pits"
        );
        assert_eq!(
            line("4 4\n0 0\n2 2\n0\n"),
            Some(2),
            "the wumpus at the start"
        );
        assert_eq!(line("99 4\n1 1\n2 2\n0\n"), Some(1), "over the limit");
    }

    #[test]
    fn the_course_deal_puts_pits_only_where_the_shells_put_them() {
        let mut rng = crate::rng::seeded(7);
        let mut sizes = std::collections::HashMap::new();
        for _ in 0..4000 {
            let world = deal_course_world(0.2, &mut rng);
            let (rows, cols) = world.size();
            *sizes.entry((cols, rows)).or_insert(0) += 1;
            let block = rows.min(cols);
            for (r, c) in pit_cells(&world) {
                assert!(r < block && c < block, "{r},{c} on {cols}x{rows}");
                assert_ne!((r, c), (0, 0));
            }
            assert_ne!(world.wumpus().index(), 0);
            assert_ne!(world.gold().index(), 0);
        }
        assert_eq!(sizes.len(), 16);
        // 4x4 is a quarter of the deal, each other size a twentieth.
        let four = f64::from(sizes[&(4, 4)]) / 4000.0;
        assert!((four - 0.25).abs() < 0.03, "{four}");
    }
}
