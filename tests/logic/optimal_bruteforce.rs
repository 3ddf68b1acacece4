//! The optimal agent's solver against brute force on grids from 2x2 to 3x3, both scorings.
//!
//! The brute force shares nothing with the solver but the rules' simulator: it deals every
//! world with its prior probability, plays each in its own [`GridGame`], and does expectimax
//! over information sets by keeping, at each node, exactly the worlds whose games have shown
//! the same percepts so far. No factorisation, no posterior formulas: a world's weight is its
//! prior, and the score is the one the game itself reports at the end.
//!
//! Its plans are the player's own choices between informative events: walk the shortest way
//! over visited cells (where nothing new can be perceived) and step into an unvisited
//! neighbour, fire in any of the four directions from any visited cell while the arrow is
//! left (useless shots included), or walk home and climb; once the gold glints, grab it, walk
//! home and climb.

use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::sync::Arc;
use wumpus::agent::optimal::{Model, OptimalSolver};
use wumpus::grid::{Action, GridGame, GridWorld, Percepts, Scoring};
use wumpus::topology::{Direction, Link, Place, Topology};

const PIT: f64 = 0.2;

/// What every world of an information set shares, and the worlds.
struct Node {
    /// `(world number, prior weight, its game)`.
    games: Vec<(u32, f64, GridGame)>,
    at: Place,
    visited: Vec<bool>,
    arrow: bool,
    glint: bool,
}

/// An information set as the player knows it: where it stands, the cells visited, whether
/// the arrow is left, the moves made, and its worlds' games.
type InfoSet = (usize, Vec<bool>, bool, u32, Vec<u32>);

struct Brute {
    topology: Arc<Topology>,
    scoring: Scoring,
    memo: FxHashMap<InfoSet, f64>,
}

impl Brute {
    /// The shortest walk from `from` to `to` over visited cells (`to` may be unvisited).
    fn route(&self, from: Place, to: Place, visited: &[bool]) -> Vec<Action> {
        let mut back: Vec<Option<(Place, Direction)>> = vec![None; self.topology.len()];
        let mut seen = vec![false; self.topology.len()];
        seen[from.index()] = true;
        let mut queue = VecDeque::from([from]);
        while let Some(here) = queue.pop_front() {
            if here == to {
                break;
            }
            for dir in Direction::ALL {
                if let Some(next) = self.topology.follow(here, Link::Step(dir)) {
                    let open = visited[next.index()] || next == to;
                    if open && !seen[next.index()] {
                        seen[next.index()] = true;
                        back[next.index()] = Some((here, dir));
                        queue.push_back(next);
                    }
                }
            }
        }
        let mut actions = Vec::new();
        let mut here = to;
        while here != from {
            let (prev, dir) = back[here.index()].expect("reachable over visited cells");
            actions.push(Action::Move(dir));
            here = prev;
        }
        actions.reverse();
        actions
    }

    /// The sum over the node's worlds of weight × final score, playing best.
    fn value(&mut self, node: Node) -> f64 {
        let moves = node.games[0].2.moves();
        let key = (
            node.at.index(),
            node.visited.clone(),
            node.arrow,
            moves,
            // A world's game is known by its number and whether its wumpus still lives (the
            // same worlds can be reached with the wumpus shot or missed).
            node.games
                .iter()
                .map(|g| g.0 << 1 | g.2.wumpus_alive() as u32)
                .collect::<Vec<_>>(),
        );
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let start = Place::new(0);
        let mut plans: Vec<(Vec<Action>, Place, bool)> = Vec::new();
        if node.glint {
            let mut a = vec![Action::Grab];
            a.extend(self.route(node.at, start, &node.visited));
            a.push(Action::Climb);
            plans.push((a, start, false));
        } else {
            let mut a = self.route(node.at, start, &node.visited);
            a.push(Action::Climb);
            plans.push((a, start, false));
            for cell in self.topology.places() {
                let next_to_visited = self
                    .topology
                    .neighbours(cell)
                    .any(|n| node.visited[n.index()]);
                if !node.visited[cell.index()] && next_to_visited {
                    plans.push((self.route(node.at, cell, &node.visited), cell, false));
                }
            }
            if node.arrow {
                for from in self.topology.places().filter(|p| node.visited[p.index()]) {
                    for dir in Direction::ALL {
                        let mut a = self.route(node.at, from, &node.visited);
                        a.push(Action::Fire(dir));
                        plans.push((a, from, true));
                    }
                }
            }
        }
        let mut best = f64::NEG_INFINITY;
        for (actions, to, fires) in plans {
            let mut total = 0.0;
            let mut children: FxHashMap<Vec<Percepts>, Vec<(u32, f64, GridGame)>> =
                FxHashMap::default();
            for (id, weight, game) in &node.games {
                let mut game = game.clone();
                let seen: Vec<Percepts> = actions.iter().map(|&a| game.act(a).percepts).collect();
                match game.score(self.scoring) {
                    Some(score) => total += weight * score as f64,
                    None => children.entry(seen).or_default().push((*id, *weight, game)),
                }
            }
            let mut groups: Vec<_> = children.into_iter().collect();
            groups.sort_by_key(|(_, g)| g[0].0);
            for (seen, games) in groups {
                let mut visited = node.visited.clone();
                visited[to.index()] = true;
                total += self.value(Node {
                    games,
                    at: to,
                    visited,
                    arrow: node.arrow && !fires,
                    glint: seen.last().is_some_and(|p| p.glint),
                });
            }
            best = best.max(total);
        }
        self.memo.insert(key, best);
        best
    }
}

/// Every world of a `rows`×`cols` grid with its prior probability.
fn worlds(topology: &Arc<Topology>) -> Vec<(f64, GridWorld)> {
    let (rows, cols) = topology.grid_size().unwrap();
    let cells = rows * cols;
    let others = cells - 1;
    let mut out = Vec::new();
    for layout in 0u32..(1 << others) {
        let pits: Vec<(usize, usize)> = (1..cells)
            .filter(|i| layout >> (i - 1) & 1 == 1)
            .map(|i| (i / cols, i % cols))
            .collect();
        let k = pits.len() as i32;
        let p_pits = PIT.powi(k) * (1.0 - PIT).powi(others as i32 - k);
        for w in 1..cells {
            for g in 1..cells {
                let world = GridWorld::new(
                    topology.clone(),
                    &pits,
                    (w / cols, w % cols),
                    (g / cols, g % cols),
                )
                .unwrap();
                out.push((p_pits / (others * others) as f64, world));
            }
        }
    }
    out
}

fn brute_force(rows: usize, cols: usize, scoring: Scoring) -> f64 {
    let topology = Arc::new(Topology::grid(rows, cols).unwrap());
    let mut brute = Brute {
        topology: topology.clone(),
        scoring,
        memo: FxHashMap::default(),
    };
    let mut by_start: FxHashMap<Percepts, Vec<(u32, f64, GridGame)>> = FxHashMap::default();
    for (id, (weight, world)) in worlds(&topology).into_iter().enumerate() {
        let game = GridGame::new(world);
        let shown = game.start().percepts;
        by_start
            .entry(shown)
            .or_default()
            .push((id as u32, weight, game));
    }
    let mut visited = vec![false; topology.len()];
    visited[0] = true;
    by_start
        .into_values()
        .map(|games| {
            brute.value(Node {
                games,
                at: Place::new(0),
                visited: visited.clone(),
                arrow: true,
                glint: false,
            })
        })
        .sum()
}

fn exact(rows: usize, cols: usize, scoring: Scoring) -> f64 {
    let model = Model::new(rows, cols, PIT, scoring).unwrap();
    OptimalSolver::new(model).game_value().value.score
}

#[test]
fn solver_matches_brute_force_from_2x2_to_3x3() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (3, 3)] {
        for scoring in [Scoring::Standard, Scoring::Aima] {
            let brute = brute_force(rows, cols, scoring);
            let solved = exact(rows, cols, scoring);
            assert!(
                (brute - solved).abs() < 1e-9 * brute.abs().max(1.0),
                "{rows}x{cols} {}: brute force {brute}, solver {solved}",
                scoring.name()
            );
        }
    }
}
