//! The planner: shortest paths over places the agent may walk, on the world's petgraph graph,
//! and the paths a crooked arrow can be aimed along.
//!
//! The planner knows nothing of clauses or percepts. It is handed the topology and a set of
//! walkable places (visited or proven safe) and answers "which way to the nearest place of a
//! kind, and how far" with petgraph's A* search, whose goal test may match many places (with a
//! zero estimate, A* is Dijkstra stopping at the first goal reached). An agent that replans
//! every turn on a big grid keeps a [`Searcher`] instead, which finds the very same routes
//! with tables kept between searches. For arrows it lists every path of a few rooms along the
//! graph's edges, taken either way ([`arrow_paths`]).

use crate::topology::{Direction, Link, Place, Topology};
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
    Some(route_along(topology, places))
}

/// The route to the goal that makes the walk there and on to the next goal shortest, over
/// walkable places. Where edges go one way the nearest goal can be a trap: stepping into it may
/// cut the walker off from the other goals, or leave them only a long way round. So each goal
/// reachable from `from` is weighed by the steps to it plus the fewest steps from it on to
/// any other goal; a goal from which no other can be reached comes after every goal from which
/// one can (a lone goal has nothing to walk on to). Among equal sums the nearer goal is taken,
/// then the one [`nearest`] finds first, then the lowest-numbered.
///
/// Complexity: one breadth-first search from `from` and one from each goal it reaches.
pub fn nearest_with_walk_on(
    topology: &Topology,
    from: Place,
    walkable: impl Fn(Place) -> bool,
    is_goal: impl Fn(Place) -> bool,
) -> Option<Route> {
    let goal = |p: Place| p != from && walkable(p) && is_goal(p);
    let here = distances_dense(topology, from, &walkable);
    let goals: Vec<Place> = (0..topology.len())
        .map(Place::new)
        .filter(|&p| here[p.index()].is_some() && goal(p))
        .collect();
    let first = nearest(topology, from, &walkable, goal)?.goal();
    // (cut off from every other goal, steps there and on, steps there, not `nearest`'s choice)
    let mut best: Option<((bool, u32, u32, bool), Place)> = None;
    for &g in &goals {
        let there = here[g.index()]?;
        let from_g = distances_dense(topology, g, &walkable);
        let on = goals
            .iter()
            .filter(|&&o| o != g)
            .map(|o| from_g[o.index()])
            .min_by_key(|d| d.unwrap_or(u32::MAX));
        let (cut_off, on) = match on {
            None => (false, 0),
            Some(None) => (true, 0),
            Some(Some(d)) => (false, d),
        };
        let key = (cut_off, there + on, there, g != first);
        if best.is_none_or(|(b, _)| key < b) {
            best = Some((key, g));
        }
    }
    let (_, chosen) = best?;
    nearest(topology, from, walkable, |p| p == chosen)
}

/// A place waiting in [`Searcher`]'s open set, ordered like petgraph's `MinScored` in its A*:
/// by cost alone, the cheapest greatest, equal costs equal whatever the place. The heap then
/// makes exactly A*'s moves, so equally near goals and equally short paths are chosen alike.
#[derive(Clone, Copy, Debug)]
struct Open {
    cost: u32,
    place: u32,
}

impl PartialEq for Open {
    fn eq(&self, other: &Open) -> bool {
        self.cost == other.cost
    }
}

impl Eq for Open {}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Open) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Open {
    fn cmp(&self, other: &Open) -> std::cmp::Ordering {
        other.cost.cmp(&self.cost)
    }
}

/// [`nearest`] with its tables kept between searches: the same route for the same question
/// (it replays petgraph's A* step for step, with a zero estimate and unit costs), but with a
/// dense per-place table, cleared by a generation count, in place of the hash maps and the
/// filtered graph A* builds on every call, and with a grid's neighbours computed rather than
/// read from the graph. An agent that replans after nearly every step of a big grid spends
/// most of a search on that overhead when the goal is a step or two away, and the walk home
/// with the gold replans across the whole explored region whenever it passes new ground.
#[derive(Clone, Debug, Default)]
pub struct Searcher {
    /// Per place, up to the highest place searched so far: the search that reached it (high
    /// half; older ones are stale) and the place it was first reached from (low half;
    /// `u32::MAX` for the start). One word, so that a place costs one memory access; grown
    /// on demand, so that a big grid costs only the part the searches reach.
    marks: Vec<u64>,
    generation: u32,
    open: std::collections::BinaryHeap<Open>,
}

/// Makes `marks` cover place `index` (doubling, so growing costs O(1) a place).
fn grow(marks: &mut Vec<u64>, index: usize) {
    if index >= marks.len() {
        marks.resize((index + 1).max(2 * marks.len()), 0);
    }
}

/// A mark of `generation` reached from `came_from`.
fn mark(generation: u32, came_from: u32) -> u64 {
    (u64::from(generation) << 32) | u64::from(came_from)
}

impl Searcher {
    /// A searcher with an empty table.
    pub fn new() -> Searcher {
        Searcher::default()
    }

    /// Exactly [`nearest`]`(topology, from, walkable, is_goal)`.
    ///
    /// Complexity: O((V + E) log V) over the walkable part of the graph searched, with no
    /// allocation but the route once the table has grown to the places searched.
    pub fn nearest(
        &mut self,
        topology: &Topology,
        from: Place,
        walkable: impl Fn(Place) -> bool,
        mut is_goal: impl FnMut(Place) -> bool,
    ) -> Option<Route> {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 2^32 searches a stale mark could look current: start over.
            self.marks.fill(0);
            self.generation = 1;
        }
        let generation = self.generation;
        let grid = topology.grid_size();
        let (marks, open) = (&mut self.marks, &mut self.open);
        open.clear();
        let start = from.index();
        grow(marks, start);
        marks[start] = mark(generation, u32::MAX);
        open.push(Open {
            cost: 0,
            place: start as u32,
        });
        // As in petgraph's astar: the goal test when a place leaves the open set, and a
        // neighbour's predecessor set only by a strictly cheaper cost. Places leave in order
        // of cost and each step costs 1, so a place reached once is never reached cheaper:
        // the first predecessor stands, and no cost need be kept.
        while let Some(Open { cost, place }) = open.pop() {
            let here = Place::new(place as usize);
            if is_goal(here) {
                let mut places = vec![here];
                let mut at = place;
                while marks[at as usize] as u32 != u32::MAX {
                    at = marks[at as usize] as u32;
                    places.push(Place::new(at as usize));
                }
                places.reverse();
                return Some(route_along(topology, places));
            }
            let mut reach = |next: Place| {
                grow(marks, next.index());
                let m = &mut marks[next.index()];
                if (*m >> 32) as u32 == generation || !(next == from || walkable(next)) {
                    return;
                }
                *m = mark(generation, place);
                open.push(Open {
                    cost: cost + 1,
                    place: next.index() as u32,
                });
            };
            match grid {
                // The grid's exits, in the graph's order (north, south, east, west; see
                // Topology::grid), without walking its edge lists.
                Some((rows, cols)) => {
                    let i = place as usize;
                    let (row, col) = (i / cols, i % cols);
                    if row + 1 < rows {
                        reach(Place::new(i + cols));
                    }
                    if row > 0 {
                        reach(Place::new(i - cols));
                    }
                    if col + 1 < cols {
                        reach(Place::new(i + 1));
                    }
                    if col > 0 {
                        reach(Place::new(i - 1));
                    }
                }
                None => topology.neighbours(here).for_each(reach),
            }
        }
        None
    }
}

/// The route through `places`, each joined to the next by the first exit leading there.
fn route_along(topology: &Topology, places: Vec<Place>) -> Route {
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
    Route { places, links }
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

/// A walker on the grid with a heading (the textbook's rules): where it stands and the way it
/// faces.
pub type Headed = (Place, Direction);

/// The costs, in actions, of reaching each state a walker with a heading can reach over
/// walkable places: a step forward costs 1 and so does each quarter turn. Found breadth first
/// over (place, heading) states, since every action costs the same.
#[derive(Clone, Debug, Default)]
pub struct HeadedCosts {
    /// Per state reached: its cost and the state it was first reached from (`None` for the
    /// start).
    reached: rustc_hash::FxHashMap<Headed, (u32, Option<Headed>)>,
}

impl HeadedCosts {
    /// The cost of reaching `place` facing `facing`, if it can be reached.
    pub fn to(&self, place: Place, facing: Direction) -> Option<u32> {
        self.reached.get(&(place, facing)).map(|&(c, _)| c)
    }

    /// The cheapest cost of standing on `place`, facing any way.
    pub fn to_place(&self, place: Place) -> Option<u32> {
        Direction::ALL
            .into_iter()
            .filter_map(|d| self.to(place, d))
            .min()
    }

    /// The steps (compass links) of the cheapest walk to `(place, facing)`; the turns between
    /// them are implied by the way each step goes.
    pub fn route(&self, place: Place, facing: Direction) -> Option<Route> {
        let mut state = (place, facing);
        let mut places = vec![place];
        let mut links = Vec::new();
        while let Some(&(_, Some(prev))) = self.reached.get(&state) {
            if prev.0 != state.0 {
                places.push(prev.0);
                links.push(Link::Step(state.1));
            }
            state = prev;
        }
        self.reached.get(&state)?;
        places.reverse();
        links.reverse();
        Some(Route { places, links })
    }
}

/// The states a walker reaches from `from` facing `facing` over places for which `walkable`
/// holds (`from` always counts), with the cost of each in actions (forward steps and quarter
/// turns), until `stop` holds for a state taken from the queue (`|_| false`: every state).
///
/// Complexity: O(V + E) over the walkable part of the grid times four headings.
pub fn headed_costs(
    topology: &Topology,
    from: Place,
    facing: Direction,
    walkable: impl Fn(Place) -> bool,
    mut stop: impl FnMut(Headed) -> bool,
) -> HeadedCosts {
    let mut reached = rustc_hash::FxHashMap::default();
    reached.insert((from, facing), (0, None));
    let mut queue = std::collections::VecDeque::from([(from, facing)]);
    while let Some(state) = queue.pop_front() {
        if stop(state) {
            break;
        }
        let (place, heading) = state;
        let cost = reached[&state].0;
        let forward = topology
            .follow(place, Link::Step(heading))
            .filter(|&next| next == from || walkable(next))
            .map(|next| (next, heading));
        let turns = [(place, heading.left()), (place, heading.right())];
        for next in forward.into_iter().chain(turns) {
            if let std::collections::hash_map::Entry::Vacant(e) = reached.entry(next) {
                e.insert((cost + 1, Some(state)));
                queue.push_back(next);
            }
        }
    }
    HeadedCosts { reached }
}

/// The cheapest walk, counting turns, from `from` facing `facing` to the nearest state for
/// which `is_goal` holds, over walkable places; with its cost in actions.
pub fn nearest_headed(
    topology: &Topology,
    from: Place,
    facing: Direction,
    walkable: impl Fn(Place) -> bool,
    mut is_goal: impl FnMut(Headed) -> bool,
) -> Option<(Route, u32)> {
    let mut found = None;
    let costs = headed_costs(topology, from, facing, walkable, |s| {
        let hit = is_goal(s);
        if hit {
            found = Some(s);
        }
        hit
    });
    let (place, heading) = found?;
    Some((costs.route(place, heading)?, costs.to(place, heading)?))
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
    fn the_goal_explored_is_the_one_with_the_shortest_walk_there_and_on() {
        let p = Place::new;
        let goals = |q: Place| q != p(0);
        // Room 0 leads one way to 1 and to 2, both one step away. Room 1 has no way out;
        // from 2 the walker goes on to 3 or back to 0. Stepping into 1 would cut it off from
        // 2 and 3. Both orders of room 0's tunnels, so that `nearest`'s own choice among
        // equals is the trap in one of them.
        for outs in [vec![1, 2], vec![2, 1]] {
            let tunnels = vec![outs, vec![], vec![3, 0], vec![2]];
            let t = Topology::cave(&tunnels, 0, vec![None; 4], vec![None; 4]);
            let route = nearest_with_walk_on(&t, p(0), |_| true, goals).unwrap();
            assert_eq!(route.goal(), p(2), "1 would leave 2 and 3 out of reach");
        }
        // The goals are 1, a step away, and 2 and 3, next to each other two and three steps
        // away. From 1 the way on to them goes round through 7, 8 and 6 (four steps): 1 then
        // 2 is five steps, 2 then 3 is three. `nearest` takes 1.
        let only = |q: Place| [p(1), p(2), p(3)].contains(&q);
        let tunnels = vec![
            vec![1, 6],
            vec![7],
            vec![3],
            vec![2],
            vec![],
            vec![],
            vec![2],
            vec![8],
            vec![6],
        ];
        let t = Topology::cave(&tunnels, 0, vec![None; 9], vec![None; 9]);
        assert_eq!(
            nearest(&t, p(0), |_| true, only).map(|r| r.goal()),
            Some(p(1))
        );
        let route = nearest_with_walk_on(&t, p(0), |_| true, only).unwrap();
        assert_eq!(route.goal(), p(2));
        assert_eq!(
            route.len(),
            2,
            "0, 6, 2: the shortest route to the goal chosen"
        );
        // A lone goal is walked to; unwalkable goals, and none at all, give no route.
        let lone = |q: Place| q == p(3);
        assert_eq!(
            nearest_with_walk_on(&t, p(0), |_| true, lone).map(|r| r.goal()),
            Some(p(3))
        );
        assert!(nearest_with_walk_on(&t, p(0), |q| q == p(0), goals).is_none());
        assert!(nearest_with_walk_on(&t, p(0), |_| true, |_| false).is_none());
    }

    #[test]
    fn headed_costs_count_quarter_turns() {
        // A 3x3 grid, all walkable, from 0,0 facing east.
        let t = Topology::grid(3, 3).unwrap();
        let cell = |r, c| t.cell(r, c).unwrap();
        let h = headed_costs(&t, cell(0, 0), Direction::East, |_| true, |_| false);
        assert_eq!(h.to(cell(0, 0), Direction::East), Some(0));
        assert_eq!(
            h.to(cell(0, 2), Direction::East),
            Some(2),
            "two steps ahead"
        );
        assert_eq!(
            h.to(cell(1, 0), Direction::North),
            Some(2),
            "a turn, a step"
        );
        assert_eq!(
            h.to(cell(0, 0), Direction::West),
            Some(2),
            "turning about is two"
        );
        // 2,2: two steps east, a left turn, two steps north.
        assert_eq!(h.to_place(cell(2, 2)), Some(5));
        let route = h.route(cell(2, 2), Direction::North).unwrap();
        assert_eq!(route.len(), 4);
        assert_eq!(route.goal(), cell(2, 2));
        // A wall of unwalkable places is walked around.
        let blocked = |p: Place| p != cell(0, 1);
        let h = headed_costs(&t, cell(0, 0), Direction::East, blocked, |_| false);
        assert_eq!(
            h.to_place(cell(0, 2)),
            Some(7),
            "left, up, right, two on, right, down"
        );
    }

    #[test]
    fn the_nearest_headed_goal_is_the_cheapest_in_actions() {
        // From 1,1 facing east, 1,2 (one step ahead) beats 2,1 (a turn and a step), though
        // both are one step away.
        let t = Topology::grid(3, 3).unwrap();
        let cell = |r, c| t.cell(r, c).unwrap();
        let goals = [cell(2, 1), cell(1, 2)];
        let (route, cost) = nearest_headed(
            &t,
            cell(1, 1),
            Direction::East,
            |_| true,
            |(p, _)| goals.contains(&p),
        )
        .unwrap();
        assert_eq!((route.goal(), cost), (cell(1, 2), 1));
    }

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
    fn the_searcher_finds_the_very_routes_astar_finds() {
        use rand::Rng;
        // Random walls and many goals, so that ties between equally near goals and equally
        // short paths are common: the searcher must break them as A* does.
        let mut rng = crate::rng::seeded(7);
        let mut searcher = Searcher::new();
        for round in 0..400 {
            let (rows, cols) = (rng.random_range(2..12), rng.random_range(2..12));
            let t = Topology::grid(rows, cols).unwrap();
            let wall_prob = rng.random_range(0.0..0.4);
            let goal_prob = rng.random_range(0.0..0.3);
            let walkable: Vec<bool> = t.places().map(|_| !rng.random_bool(wall_prob)).collect();
            let goal: Vec<bool> = t.places().map(|_| rng.random_bool(goal_prob)).collect();
            let from = Place::new(rng.random_range(0..t.len()));
            let expected = nearest(&t, from, |p| walkable[p.index()], |p| goal[p.index()]);
            let found = searcher.nearest(&t, from, |p| walkable[p.index()], |p| goal[p.index()]);
            assert_eq!(found, expected, "round {round}");
        }
        // The computed grid neighbours are the graph's, in its order.
        for (rows, cols) in [(2, 2), (3, 5), (6, 4)] {
            let t = Topology::grid(rows, cols).unwrap();
            for p in t.places() {
                let listed: Vec<Place> = t.neighbours(p).collect();
                let (row, col) = t.coords(p);
                let computed: Vec<Place> = Direction::ALL
                    .iter()
                    .filter_map(|d| {
                        let (dr, dc) = d.delta();
                        t.cell((row as i64 + dr) as usize, (col as i64 + dc) as usize)
                    })
                    .collect();
                assert_eq!(listed, computed);
            }
        }
        // On a cave, with one-way tunnels and a room with two tunnels to the same room.
        let t = Topology::cave(
            &[vec![1, 2, 2], vec![3], vec![3], vec![0]],
            0,
            vec![None; 4],
            vec![None; 4],
        );
        for from in t.places() {
            for goal in t.places() {
                assert_eq!(
                    searcher.nearest(&t, from, |_| true, |p| p == goal),
                    nearest(&t, from, |_| true, |p| p == goal)
                );
            }
        }
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
