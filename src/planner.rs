//! The planner: shortest paths over places the agent may walk, on the world's petgraph graph,
//! and the paths a crooked arrow can be aimed along.
//!
//! The planner knows nothing of clauses or percepts. It is handed the topology and a set of
//! walkable places (visited or proven safe) and answers "which way to the nearest place of a
//! kind, and how far" with petgraph's A* search, whose goal test may match many places (with a
//! zero estimate, A* is Dijkstra stopping at the first goal reached). For arrows it lists every
//! path of a few rooms along the graph's edges, taken either way ([`arrow_paths`]).

use crate::topology::{Link, Place, Topology};
use petgraph::algo::astar;
use petgraph::visit::NodeFiltered;

/// A path found by the planner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// The places from the start (first) to the goal (last).
    pub places: Vec<Place>,
    /// The link to follow at each step; one fewer than the places.
    pub links: Vec<Link>,
}

impl Route {
    /// The number of steps.
    pub fn len(&self) -> usize {
        self.links.len()
    }

    /// True when the start is the goal.
    pub fn is_empty(&self) -> bool {
        self.links.is_empty()
    }

    /// The goal.
    pub fn goal(&self) -> Place {
        *self.places.last().expect("a route has a start")
    }
}

/// The shortest route from `from` to the nearest place for which `is_goal` holds, stepping
/// only on places for which `walkable` holds (`from` itself always counts as walkable; the goal
/// must be walkable too). `None` when no goal can be reached.
///
/// Complexity: O((V + E) log V) over the walkable part of the graph.
pub fn nearest(
    topology: &Topology,
    from: Place,
    walkable: impl Fn(Place) -> bool,
    mut is_goal: impl FnMut(Place) -> bool,
) -> Option<Route> {
    let graph = NodeFiltered::from_fn(topology.graph(), |p| p == from || walkable(p));
    let (_, places) = astar(&graph, from, &mut is_goal, |_| 1u32, |_| 0u32)?;
    let links = places
        .windows(2)
        .map(|w| {
            topology
                .exits(w[0])
                .find(|&(_, to)| to == w[1])
                .map(|(link, _)| link)
                .expect("consecutive places of a path are joined")
        })
        .collect();
    Some(Route { places, links })
}

/// Distances (in steps) from one place to the walkable places it can reach, indexed by place
/// index: `dist[p.index()]` is `None` for a place out of reach. [`distances`] keeps them
/// sparse, so that asking on a 1024×1024 grid costs what the walkable region holds, not the
/// grid; [`distances_dense`] keeps a vector, faster when most of the grid is walkable.
#[derive(Clone, Debug)]
pub enum Distances {
    /// Only the places reached.
    Sparse(rustc_hash::FxHashMap<usize, Option<u32>>),
    /// Every place.
    Dense(Vec<Option<u32>>),
}

impl std::ops::Index<usize> for Distances {
    type Output = Option<u32>;
    fn index(&self, place: usize) -> &Option<u32> {
        const OUT_OF_REACH: Option<u32> = None;
        match self {
            Distances::Sparse(map) => map.get(&place).unwrap_or(&OUT_OF_REACH),
            Distances::Dense(v) => v.get(place).unwrap_or(&OUT_OF_REACH),
        }
    }
}

/// [`distances`] as a vector over every place: for questions about most of the grid (such as
/// whether a world is winnable), where a map would cost more than it saves.
pub fn distances_dense(
    topology: &Topology,
    from: Place,
    walkable: impl Fn(Place) -> bool,
) -> Distances {
    let mut dist = vec![None; topology.len()];
    let mut queue = std::collections::VecDeque::from([from]);
    dist[from.index()] = Some(0);
    while let Some(p) = queue.pop_front() {
        let d = dist[p.index()].expect("reached places have a distance");
        for q in topology.neighbours(p) {
            if dist[q.index()].is_none() && (q == from || walkable(q)) {
                dist[q.index()] = Some(d + 1);
                queue.push_back(q);
            }
        }
    }
    Distances::Dense(dist)
}

/// Distances (in steps) from `from` to every walkable place it can reach, `None` elsewhere.
///
/// Complexity: O(V + E) over the walkable part of the graph reached, breadth first.
pub fn distances(topology: &Topology, from: Place, walkable: impl Fn(Place) -> bool) -> Distances {
    let mut dist = rustc_hash::FxHashMap::default();
    let mut queue = std::collections::VecDeque::from([from]);
    dist.insert(from.index(), Some(0));
    while let Some(p) = queue.pop_front() {
        let d = dist[&p.index()].expect("reached places have a distance");
        for q in topology.neighbours(p) {
            if !dist.contains_key(&q.index()) && (q == from || walkable(q)) {
                dist.insert(q.index(), Some(d + 1));
                queue.push_back(q);
            }
        }
    }
    Distances::Sparse(dist)
}

/// Every path a crooked arrow can be aimed along from `from` on `topology`: 1 to `max_rooms`
/// rooms, each joined to the one before it by an edge either way (the arrow follows a tunnel
/// whichever way it runs), never doubling straight back (a room equal to the one two before
/// it, `from` counting as the first), never into `from` itself, and never the same room twice
/// (a repeat adds nothing). Shorter paths come before their extensions (depth-first order).
///
/// Complexity: O(d^max_rooms) for rooms of degree d (a few hundred paths on a cave).
pub fn arrow_paths(topology: &Topology, from: Place, max_rooms: usize) -> Vec<Vec<Place>> {
    fn extend(
        topology: &Topology,
        from: Place,
        max_rooms: usize,
        path: &mut Vec<Place>,
        out: &mut Vec<Vec<Place>>,
    ) {
        if path.len() == max_rooms {
            return;
        }
        let here = *path.last().unwrap_or(&from);
        for next in topology.linked(here) {
            if next == from || path.contains(&next) {
                continue;
            }
            path.push(next);
            out.push(path.clone());
            extend(topology, from, max_rooms, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    extend(topology, from, max_rooms, &mut Vec::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::Direction;

    #[test]
    fn arrow_paths_follow_edges_either_way_and_never_come_back() {
        // 0 -> 1 -> 2 -> 0, and 3 -> 1 one way.
        let t = Topology::cave(
            &[vec![1], vec![2], vec![0], vec![1]],
            0,
            vec![None; 4],
            vec![None; 4],
        );
        let p = Place::new;
        let paths = arrow_paths(&t, p(0), 5);
        assert!(paths.contains(&vec![p(1)]));
        assert!(paths.contains(&vec![p(2), p(1), p(3)]), "{paths:?}");
        assert!(paths.iter().all(|path| !path.contains(&p(0))));
        assert!(paths
            .iter()
            .all(|path| path.windows(3).all(|w| w[0] != w[2])));
        assert_eq!(arrow_paths(&t, p(0), 1).len(), 2);
    }

    #[test]
    fn nearest_goes_round_obstacles() {
        let t = Topology::grid(3, 3).unwrap();
        let blocked = [t.cell(0, 1).unwrap(), t.cell(1, 1).unwrap()];
        let goal = t.cell(0, 2).unwrap();
        let route = nearest(
            &t,
            t.cell(0, 0).unwrap(),
            |p| !blocked.contains(&p),
            |p| p == goal,
        )
        .unwrap();
        assert_eq!(route.len(), 6);
        assert_eq!(route.links[0], Link::Step(Direction::North));
        assert_eq!(route.goal(), goal);
    }

    #[test]
    fn unreachable_goal_is_none() {
        let t = Topology::grid(2, 2).unwrap();
        let goal = t.cell(1, 1).unwrap();
        assert!(nearest(&t, t.cell(0, 0).unwrap(), |p| p != goal, |p| p == goal).is_none());
    }

    #[test]
    fn distances_agree_with_nearest() {
        let t = Topology::grid(4, 4).unwrap();
        let from = t.cell(0, 0).unwrap();
        let wall = t.cell(1, 1).unwrap();
        let d = distances(&t, from, |p| p != wall);
        for p in t.places().filter(|&p| p != wall) {
            let r = nearest(&t, from, |q| q != wall, |q| q == p).unwrap();
            assert_eq!(d[p.index()], Some(r.len() as u32));
        }
        assert_eq!(d[wall.index()], None);
        let dense = distances_dense(&t, from, |p| p != wall);
        for p in t.places() {
            assert_eq!(dense[p.index()], d[p.index()]);
        }
    }
}
