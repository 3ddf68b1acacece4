//! The public picture of a world: its places, the ways between them, and where to draw each,
//! for the pages that draw a game (`trace --html`, the live page). A grid is drawn as its grid;
//! a cave is drawn as a graph with a stable layout computed here, so the same map always looks
//! the same.
//!
//! The cave layout is a Tutte (barycentric) embedding: a short cycle of rooms is pinned to a
//! regular polygon and every other room sits at the mean of its neighbours. For a planar,
//! 3-connected map this draws without crossings (Tutte's theorem): the dodecahedron of the
//! classic cave comes out as its Schlegel diagram, a pentagon in a pentagon. Several short
//! cycles are tried as the outline and the drawing with the fewest crossings (then the widest
//! spacing) is kept; the choice depends only on the map, so the layout is stable.

use crate::topology::{Place, Shape, Topology};
use serde::Serialize;
use std::collections::{BTreeSet, VecDeque};

/// The public picture of a world.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Board {
    /// `grid` or `graph`.
    pub shape: &'static str,
    /// Rows of a grid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<usize>,
    /// Columns of a grid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cols: Option<usize>,
    /// The places, by index.
    pub places: Vec<BoardPlace>,
    /// The ways between places (graphs only; a grid's are implied).
    pub edges: Vec<BoardEdge>,
    /// The player is never shown this map: while the game goes on a page draws only the
    /// places and ways the player has been shown, laid out from those alone.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fog: bool,
}

/// One place of a board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardPlace {
    /// How a player names it.
    pub label: String,
    /// Where to draw it, across, from 0 to 1.
    pub x: f64,
    /// Where to draw it, down, from 0 to 1.
    pub y: f64,
}

/// A way between two places of a graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BoardEdge {
    /// One end (an index into the places).
    pub from: usize,
    /// The other end.
    pub to: usize,
    /// False for a one-way tunnel (from `from` to `to` only).
    pub both_ways: bool,
}

impl Board {
    /// A grid's board: row 0 at the bottom, column 0 on the left, as the game numbers them.
    pub fn grid(topology: &Topology) -> Board {
        let (rows, cols) = topology.grid_size().expect("a grid topology");
        let places = topology
            .places()
            .map(|p| {
                let (r, c) = topology.coords(p);
                BoardPlace {
                    label: topology.label(p),
                    x: (c as f64 + 0.5) / cols as f64,
                    y: 1.0 - (r as f64 + 0.5) / rows as f64,
                }
            })
            .collect();
        Board {
            shape: "grid",
            rows: Some(rows),
            cols: Some(cols),
            places,
            edges: Vec::new(),
            fog: false,
        }
    }

    /// A graph's board: `labels` by place, the directed ways `links` (a tunnel from the first
    /// to the second), and the map's own drawing positions when it gives them for every place.
    pub fn graph(
        labels: Vec<String>,
        links: &[(usize, usize)],
        positions: Option<Vec<(f64, f64)>>,
    ) -> Board {
        let n = labels.len();
        let mut directed: BTreeSet<(usize, usize)> = BTreeSet::new();
        for &(a, b) in links {
            if a != b && a < n && b < n {
                directed.insert((a, b));
            }
        }
        let mut edges = Vec::new();
        for &(a, b) in &directed {
            let back = directed.contains(&(b, a));
            if back && b < a {
                continue; // listed once, from the lower end
            }
            edges.push(BoardEdge {
                from: a,
                to: b,
                both_ways: back,
            });
        }
        let xy = match positions {
            Some(p) if p.len() == n => normalise(p),
            _ => layout(n, &edges),
        };
        let places = labels
            .into_iter()
            .zip(xy)
            .map(|(label, (x, y))| BoardPlace { label, x, y })
            .collect();
        Board {
            shape: "graph",
            rows: None,
            cols: None,
            places,
            edges,
            fog: false,
        }
    }

    /// A cave topology's board, rooms labelled by `label`.
    pub fn cave(topology: &Topology, label: impl Fn(Place) -> String) -> Board {
        let labels = topology.places().map(&label).collect();
        let links: Vec<(usize, usize)> = topology
            .places()
            .flat_map(|p| topology.neighbours(p).map(move |q| (p.index(), q.index())))
            .collect();
        let positions = match topology.shape() {
            Shape::Cave { positions, .. } => positions.iter().copied().collect::<Option<Vec<_>>>(),
            Shape::Grid { .. } => None,
        };
        Board::graph(labels, &links, positions)
    }
}

/// Scales positions into the unit square, keeping their proportions, with a margin.
fn normalise(points: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    if points.is_empty() {
        return points;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in &points {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    let span = (x1 - x0).max(y1 - y0).max(1e-9);
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    points
        .into_iter()
        .map(|(x, y)| (0.5 + 0.9 * (x - cx) / span, 0.5 + 0.9 * (y - cy) / span))
        .collect()
}

/// A drawing of `n` places joined by `edges`: the best of several Tutte embeddings.
fn layout(n: usize, edges: &[BoardEdge]) -> Vec<(f64, f64)> {
    if n == 0 {
        return Vec::new();
    }
    let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in edges {
        if !adjacent[e.from].contains(&e.to) {
            adjacent[e.from].push(e.to);
            adjacent[e.to].push(e.from);
        }
    }
    for list in &mut adjacent {
        list.sort_unstable();
    }
    let cycles = short_cycles(&adjacent, 40);
    // The best drawing so far: its crossings, its spacing, its points.
    type Drawing = (usize, f64, Vec<(f64, f64)>);
    let mut best: Option<Drawing> = None;
    for cycle in &cycles {
        let points = tutte(&adjacent, cycle);
        let crossings = crossings(&points, edges);
        let spread = spread(&points);
        let better = match &best {
            None => true,
            Some((c, s, _)) => crossings < *c || (crossings == *c && spread > *s + 1e-9),
        };
        if better {
            best = Some((crossings, spread, points));
        }
    }
    let points = match best {
        Some((_, _, points)) => points,
        // No cycle (a tree, or no ways at all): a ring.
        None => ring(n),
    };
    normalise(points)
}

/// Places on a circle, in order.
fn ring(n: usize) -> Vec<(f64, f64)> {
    (0..n)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / n as f64;
            (a.sin(), -a.cos())
        })
        .collect()
}

/// Up to `most` distinct short cycles: for each edge, the shortest cycle through it, shortest
/// cycles first, each a list of places in order around it.
fn short_cycles(adjacent: &[Vec<usize>], most: usize) -> Vec<Vec<usize>> {
    let n = adjacent.len();
    let mut found: Vec<Vec<usize>> = Vec::new();
    let mut seen: BTreeSet<Vec<usize>> = BTreeSet::new();
    for a in 0..n {
        for &b in &adjacent[a] {
            if b < a {
                continue;
            }
            // The shortest path from b back to a not using the edge a-b.
            let mut parent = vec![usize::MAX; n];
            parent[b] = b;
            let mut queue = VecDeque::from([b]);
            while let Some(v) = queue.pop_front() {
                if v == a {
                    break;
                }
                for &w in &adjacent[v] {
                    if parent[w] == usize::MAX && !(v == b && w == a) {
                        parent[w] = v;
                        queue.push_back(w);
                    }
                }
            }
            if parent[a] == usize::MAX {
                continue;
            }
            let mut cycle = vec![a];
            let mut v = a;
            while v != b {
                v = parent[v];
                cycle.push(v);
            }
            let mut key = cycle.clone();
            key.sort_unstable();
            if cycle.len() >= 3 && seen.insert(key) {
                found.push(cycle);
            }
        }
    }
    found.sort_by_key(|c| c.len());
    // Prefer the shortest cycles, but keep a few longer outlines too: on a map that is not
    // planar a longer outline can leave fewer crossings.
    let shortest = found.first().map_or(0, |c| c.len());
    let (short, long): (Vec<_>, Vec<_>) = found.into_iter().partition(|c| c.len() == shortest);
    short.into_iter().chain(long).take(most).collect()
}

/// The Tutte embedding with `outline` pinned to a regular polygon: every other place at the
/// mean of its neighbours (found by Gauss-Seidel sweeps, which converge for a connected
/// graph). Places not joined to the outline go on a small inner ring.
fn tutte(adjacent: &[Vec<usize>], outline: &[usize]) -> Vec<(f64, f64)> {
    let n = adjacent.len();
    let mut points = vec![(0.0, 0.0); n];
    let mut pinned = vec![false; n];
    for (i, &p) in outline.iter().enumerate() {
        let a = std::f64::consts::TAU * i as f64 / outline.len() as f64;
        points[p] = (a.sin(), -a.cos());
        pinned[p] = true;
    }
    // Start each free place from a spread guess so that sweeps converge to the same answer
    // however the places are numbered.
    let free: Vec<usize> = (0..n).filter(|&p| !pinned[p]).collect();
    for (i, &p) in free.iter().enumerate() {
        let a = std::f64::consts::TAU * i as f64 / free.len().max(1) as f64;
        points[p] = (0.1 * a.sin(), -0.1 * a.cos());
    }
    for _ in 0..2000 {
        let mut moved: f64 = 0.0;
        for &p in &free {
            if adjacent[p].is_empty() {
                continue;
            }
            let k = adjacent[p].len() as f64;
            let (sx, sy) = adjacent[p]
                .iter()
                .fold((0.0, 0.0), |(x, y), &q| (x + points[q].0, y + points[q].1));
            let next = (sx / k, sy / k);
            moved = moved.max((next.0 - points[p].0).abs() + (next.1 - points[p].1).abs());
            points[p] = next;
        }
        if moved < 1e-9 {
            break;
        }
    }
    // Tutte drawings crowd the middle; spread the places out by the rank of their distance
    // from the centre, keeping each one's direction (so the rings stay rings).
    let mut by_radius: Vec<usize> = free.clone();
    let radius = |p: usize| (points[p].0.powi(2) + points[p].1.powi(2)).sqrt();
    by_radius.sort_by(|&a, &b| radius(a).total_cmp(&radius(b)).then(a.cmp(&b)));
    let mut spread = points.clone();
    let count = by_radius.len().max(1) as f64;
    for (rank, &p) in by_radius.iter().enumerate() {
        let r = radius(p);
        let target = 0.2 + 0.65 * (rank as f64 + 0.5) / count;
        if r > 1e-9 {
            spread[p] = (points[p].0 / r * target, points[p].1 / r * target);
        }
    }
    spread
}

/// How many pairs of edges cross in a drawing.
fn crossings(points: &[(f64, f64)], edges: &[BoardEdge]) -> usize {
    let mut count = 0;
    for (i, e) in edges.iter().enumerate() {
        for f in &edges[i + 1..] {
            if e.from == f.from || e.from == f.to || e.to == f.from || e.to == f.to {
                continue;
            }
            if segments_cross(points[e.from], points[e.to], points[f.from], points[f.to]) {
                count += 1;
            }
        }
    }
    count
}

fn segments_cross(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> bool {
    let orient = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
    };
    let (d1, d2) = (orient(a, b, c), orient(a, b, d));
    let (d3, d4) = (orient(c, d, a), orient(c, d, b));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// The smallest distance between two places: larger reads better.
fn spread(points: &[(f64, f64)]) -> f64 {
    let mut least = f64::MAX;
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            least = least.min(((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)).sqrt());
        }
    }
    least
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dodecahedron() -> Board {
        let map = crate::cave::parse_map(crate::cave::STANDARD_MAP).unwrap();
        Board::cave(map.topology(), |p| map.label(p).to_string())
    }

    #[test]
    fn the_dodecahedron_is_drawn_without_crossings() {
        let board = dodecahedron();
        assert_eq!(board.places.len(), 20);
        assert_eq!(board.edges.len(), 30);
        let points: Vec<(f64, f64)> = board.places.iter().map(|p| (p.x, p.y)).collect();
        assert_eq!(crossings(&points, &board.edges), 0);
        assert!(spread(&points) > 0.05, "{}", spread(&points));
        assert!(points
            .iter()
            .all(|&(x, y)| (0.0..=1.0).contains(&x) && (0.0..=1.0).contains(&y)));
    }

    #[test]
    fn the_layout_is_stable() {
        assert_eq!(dodecahedron(), dodecahedron());
    }

    #[test]
    fn a_grid_has_row_zero_at_the_bottom() {
        let t = Topology::grid(3, 4).unwrap();
        let b = Board::grid(&t);
        let origin = &b.places[t.cell(0, 0).unwrap().index()];
        let top = &b.places[t.cell(2, 0).unwrap().index()];
        assert!(origin.y > top.y);
        assert_eq!(origin.label, "0,0");
    }

    #[test]
    fn one_way_tunnels_are_kept_apart() {
        let b = Board::graph(
            vec!["a".into(), "b".into(), "c".into()],
            &[(0, 1), (1, 0), (1, 2), (2, 0)],
            None,
        );
        assert_eq!(b.edges.len(), 3);
        assert!(b
            .edges
            .iter()
            .any(|e| e.from == 0 && e.to == 1 && e.both_ways));
        assert!(b
            .edges
            .iter()
            .any(|e| e.from == 1 && e.to == 2 && !e.both_ways));
    }
}
