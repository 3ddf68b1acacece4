//! World topology: the one graph type every rule set plays on.
//!
//! A world is a directed [`petgraph`] graph whose nodes are places and whose edges are the ways
//! from one place to the next. The grid *Wumpus World* is a graph whose edges carry a compass
//! [`Direction`] (every step has its way back); a cave is a graph whose edges carry a tunnel
//! number (a tunnel may be one-way, and a room may have a tunnel to itself). The simulators, the
//! knowledge base's grounder and the planner all read this one type, so each rule about
//! "neighbours" is written once.
//!
//! Invariant: a place is a [`Place`] (a `petgraph` node index) from `0` to `len() - 1`; on a grid
//! the place of `row,col` is `row * cols + col`.

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use std::fmt;

/// A place in a world: a cell of the grid or a room of a cave.
pub type Place = NodeIndex<u32>;

/// A compass direction on the grid. North is row + 1, east is column + 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Towards the next-higher row.
    North,
    /// Towards the next-lower row.
    South,
    /// Towards the next-higher column.
    East,
    /// Towards the next-lower column.
    West,
}

impl Direction {
    /// All four directions, in the order north, south, east, west.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::South,
        Direction::East,
        Direction::West,
    ];

    /// Where the direction stands in [`Direction::ALL`]: the index of per-direction tables.
    pub fn index(self) -> usize {
        match self {
            Direction::North => 0,
            Direction::South => 1,
            Direction::East => 2,
            Direction::West => 3,
        }
    }

    /// The lowercase name of the direction (`"north"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Direction::North => "north",
            Direction::South => "south",
            Direction::East => "east",
            Direction::West => "west",
        }
    }

    /// Reads a direction from its full name or its first letter, in any case.
    pub fn parse(word: &str) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| {
            word.eq_ignore_ascii_case(d.name()) || word.eq_ignore_ascii_case(&d.name()[..1])
        })
    }

    /// The way back.
    pub fn opposite(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::South => Direction::North,
            Direction::East => Direction::West,
            Direction::West => Direction::East,
        }
    }

    /// The way one faces after a quarter turn to the left (anticlockwise, north up).
    pub fn left(self) -> Direction {
        match self {
            Direction::North => Direction::West,
            Direction::West => Direction::South,
            Direction::South => Direction::East,
            Direction::East => Direction::North,
        }
    }

    /// The way one faces after a quarter turn to the right (clockwise, north up).
    pub fn right(self) -> Direction {
        self.left().opposite()
    }

    /// How many quarter turns it takes to face `to` from facing `self`: 0, 1 or 2.
    pub fn turns_to(self, to: Direction) -> u32 {
        if self == to {
            0
        } else if self.opposite() == to {
            2
        } else {
            1
        }
    }

    /// The change of (row, column) one step in this direction makes.
    pub fn delta(self) -> (i64, i64) {
        match self {
            Direction::North => (1, 0),
            Direction::South => (-1, 0),
            Direction::East => (0, 1),
            Direction::West => (0, -1),
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The label on an edge: how the player names the way from one place to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Link {
    /// A step on the grid.
    Step(Direction),
    /// A numbered tunnel of a cave (1-based, as the player names it).
    Tunnel(u8),
}

/// What kind of world the graph draws, with what is needed to name and draw its places.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A grid of `rows × cols` cells.
    Grid {
        /// Number of rows (north–south extent).
        rows: usize,
        /// Number of columns (east–west extent).
        cols: usize,
    },
    /// A cave of named rooms.
    Cave {
        /// The number a player uses for room 0 (1 for the event maps, 0 for `caves.dat`).
        first_number: usize,
        /// Each room's name, where the map gives one.
        names: Vec<Option<String>>,
        /// Each room's drawing position in the unit square, where the map gives one.
        positions: Vec<Option<(f64, f64)>>,
    },
}

/// Errors building a topology.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum TopologyError {
    /// The grid is smaller than 2×2 or larger than the program supports.
    #[error("grid size {rows}x{cols} is out of range (2x2 to {max}x{max})")]
    GridSize {
        /// Requested rows.
        rows: usize,
        /// Requested columns.
        cols: usize,
        /// The largest side allowed.
        max: usize,
    },
}

/// The largest grid side supported (a 4096×4096 grid has 16.7 million cells).
pub const MAX_GRID_SIDE: usize = 4096;

/// The graph of a world: places and the labelled ways between them.
#[derive(Clone, Debug)]
pub struct Topology {
    graph: DiGraph<(), Link>,
    shape: Shape,
}

impl Topology {
    /// A grid of `rows × cols` cells; each cell has an edge to each orthogonal neighbour,
    /// labelled with the direction of the step.
    pub fn grid(rows: usize, cols: usize) -> Result<Topology, TopologyError> {
        if !(2..=MAX_GRID_SIDE).contains(&rows) || !(2..=MAX_GRID_SIDE).contains(&cols) {
            return Err(TopologyError::GridSize {
                rows,
                cols,
                max: MAX_GRID_SIDE,
            });
        }
        let cells = rows * cols;
        let mut graph = DiGraph::with_capacity(cells, 4 * cells);
        for _ in 0..cells {
            graph.add_node(());
        }
        for row in 0..rows {
            for col in 0..cols {
                let here = NodeIndex::new(row * cols + col);
                // Added in reverse so that petgraph, which lists newest edges first, lists
                // neighbours in the order north, south, east, west.
                for dir in Direction::ALL.into_iter().rev() {
                    let (dr, dc) = dir.delta();
                    let (r, c) = (row as i64 + dr, col as i64 + dc);
                    if r >= 0 && c >= 0 && (r as usize) < rows && (c as usize) < cols {
                        let there = NodeIndex::new(r as usize * cols + c as usize);
                        graph.add_edge(here, there, Link::Step(dir));
                    }
                }
            }
        }
        Ok(Topology {
            graph,
            shape: Shape::Grid { rows, cols },
        })
    }

    /// A cave from its rooms' tunnels: `tunnels[r]` lists, in tunnel order, the rooms that
    /// tunnels 1, 2, 3, ... of room `r` lead to. Callers validate room numbers first.
    pub fn cave(
        tunnels: &[Vec<usize>],
        first_number: usize,
        names: Vec<Option<String>>,
        positions: Vec<Option<(f64, f64)>>,
    ) -> Topology {
        let mut graph = DiGraph::with_capacity(tunnels.len(), 3 * tunnels.len());
        for _ in tunnels {
            graph.add_node(());
        }
        for (room, outs) in tunnels.iter().enumerate() {
            for (i, &to) in outs.iter().enumerate().rev() {
                graph.add_edge(
                    NodeIndex::new(room),
                    NodeIndex::new(to),
                    Link::Tunnel(i as u8 + 1),
                );
            }
        }
        Topology {
            graph,
            shape: Shape::Cave {
                first_number,
                names,
                positions,
            },
        }
    }

    /// The underlying graph, for graph algorithms.
    pub fn graph(&self) -> &DiGraph<(), Link> {
        &self.graph
    }

    /// What kind of world this is.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The number of places.
    pub fn len(&self) -> usize {
        self.graph.node_count()
    }

    /// True when the world has no places (never the case for a built topology).
    pub fn is_empty(&self) -> bool {
        self.graph.node_count() == 0
    }

    /// Every place, in index order.
    pub fn places(&self) -> impl Iterator<Item = Place> + '_ {
        self.graph.node_indices()
    }

    /// The places one step away along an outgoing edge, in link order, with their links.
    pub fn exits(&self, place: Place) -> impl Iterator<Item = (Link, Place)> + '_ {
        self.graph
            .edges(place)
            .map(|edge| (*edge.weight(), edge.target()))
    }

    /// Which places `from` reaches over `passable` places (breadth first; `from` itself
    /// always counts), indexed by place. The simulators ask this of the world they hold; the
    /// agents' route finding lives in the planner.
    pub fn reachable(&self, from: Place, passable: impl Fn(Place) -> bool) -> Vec<bool> {
        let mut seen = vec![false; self.len()];
        let mut queue = std::collections::VecDeque::from([from]);
        seen[from.index()] = true;
        while let Some(p) = queue.pop_front() {
            for q in self.neighbours(p) {
                if !seen[q.index()] && passable(q) {
                    seen[q.index()] = true;
                    queue.push_back(q);
                }
            }
        }
        seen
    }

    /// The places reachable in one step (targets of outgoing edges, repeats kept).
    pub fn neighbours(&self, place: Place) -> impl Iterator<Item = Place> + '_ {
        self.graph.neighbors(place)
    }

    /// The places joined to `place` by an edge either way, each once, `place` itself included
    /// only when it has a tunnel to itself. On the grid these are the orthogonal neighbours.
    pub fn linked(&self, place: Place) -> Vec<Place> {
        let mut linked: Vec<Place> = self.graph.neighbors_undirected(place).collect();
        linked.sort_unstable();
        linked.dedup();
        linked
    }

    /// Where following `link` from `place` leads, if that way exists.
    pub fn follow(&self, place: Place, link: Link) -> Option<Place> {
        self.exits(place)
            .find(|&(l, _)| l == link)
            .map(|(_, target)| target)
    }

    /// The grid's size as `(rows, cols)`, or `None` for a cave.
    pub fn grid_size(&self) -> Option<(usize, usize)> {
        match self.shape {
            Shape::Grid { rows, cols } => Some((rows, cols)),
            Shape::Cave { .. } => None,
        }
    }

    /// The cell at `row,col` of a grid, if it is on the grid.
    pub fn cell(&self, row: usize, col: usize) -> Option<Place> {
        let (rows, cols) = self.grid_size()?;
        (row < rows && col < cols).then(|| NodeIndex::new(row * cols + col))
    }

    /// The `(row, col)` of a grid cell. For a cave, `(0, room)`.
    pub fn coords(&self, place: Place) -> (usize, usize) {
        match self.shape {
            Shape::Grid { cols, .. } => (place.index() / cols, place.index() % cols),
            Shape::Cave { .. } => (0, place.index()),
        }
    }

    /// How a player names a place: `row,col` on a grid, the room number in a cave.
    pub fn label(&self, place: Place) -> String {
        match &self.shape {
            Shape::Grid { .. } => {
                let (r, c) = self.coords(place);
                format!("{r},{c}")
            }
            Shape::Cave { first_number, .. } => (place.index() + first_number).to_string(),
        }
    }

    /// The cells from `from` (exclusive) in a straight line in `dir` to the wall, nearest first.
    pub fn ray(&self, from: Place, dir: Direction) -> Vec<Place> {
        let mut line = Vec::new();
        let mut here = from;
        while let Some(next) = self.follow(here, Link::Step(dir)) {
            line.push(next);
            here = next;
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directions_index_is_its_place_in_all() {
        for (i, d) in Direction::ALL.into_iter().enumerate() {
            assert_eq!(d.index(), i);
        }
    }

    #[test]
    fn grid_steps_follow_compass() {
        let t = Topology::grid(3, 4).unwrap();
        let origin = t.cell(0, 0).unwrap();
        assert_eq!(t.follow(origin, Link::Step(Direction::North)), t.cell(1, 0));
        assert_eq!(t.follow(origin, Link::Step(Direction::East)), t.cell(0, 1));
        assert_eq!(t.follow(origin, Link::Step(Direction::West)), None);
        assert_eq!(t.follow(origin, Link::Step(Direction::South)), None);
        let corner = t.cell(2, 3).unwrap();
        assert_eq!(t.neighbours(corner).count(), 2);
        assert_eq!(t.neighbours(t.cell(1, 1).unwrap()).count(), 4);
        assert_eq!(t.coords(corner), (2, 3));
        assert_eq!(t.label(corner), "2,3");
    }

    #[test]
    fn grid_neighbours_listed_north_south_east_west() {
        let t = Topology::grid(3, 3).unwrap();
        let centre = t.cell(1, 1).unwrap();
        let links: Vec<Link> = t.exits(centre).map(|(l, _)| l).collect();
        let want: Vec<Link> = Direction::ALL.iter().map(|&d| Link::Step(d)).collect();
        assert_eq!(links, want);
    }

    #[test]
    fn grid_size_limits() {
        assert!(Topology::grid(1, 5).is_err());
        assert!(Topology::grid(2, 2).is_ok());
        assert!(Topology::grid(MAX_GRID_SIDE + 1, 2).is_err());
    }

    #[test]
    fn ray_runs_to_the_wall() {
        let t = Topology::grid(5, 5).unwrap();
        let from = t.cell(1, 0).unwrap();
        let ray = t.ray(from, Direction::North);
        assert_eq!(
            ray,
            vec![
                t.cell(2, 0).unwrap(),
                t.cell(3, 0).unwrap(),
                t.cell(4, 0).unwrap()
            ]
        );
        assert!(t.ray(from, Direction::West).is_empty());
    }

    #[test]
    fn cave_tunnels_keep_order_and_self_loops() {
        let tunnels = vec![vec![1, 0, 2], vec![0, 2, 2], vec![0, 1, 1]];
        let t = Topology::cave(&tunnels, 1, vec![None; 3], vec![None; 3]);
        let r0 = NodeIndex::new(0);
        let exits: Vec<(Link, Place)> = t.exits(r0).collect();
        assert_eq!(
            exits,
            vec![
                (Link::Tunnel(1), NodeIndex::new(1)),
                (Link::Tunnel(2), NodeIndex::new(0)),
                (Link::Tunnel(3), NodeIndex::new(2)),
            ]
        );
        assert!(t.linked(r0).contains(&r0));
        assert_eq!(t.label(r0), "1");
    }
}
