//! What the look-ahead's walks cost: the fewest actions from a cell (and, with a heading, a
//! way faced) to every cell over the cells walked on, home included, counted once a search
//! node so that every option it weighs is priced alike.
//!
//! It must never price a walk over a cell not yet visited, but for the one step into it.

use super::*;
use crate::agent::common::bits;

impl Lookahead {
    /// The fewest actions from `from`, facing `facing`, to stand in every cell over `over`
    /// facing each way: a breadth-first walk over cells under compass moves, over (cell,
    /// heading) with a heading, where a step forward and a quarter turn cost 1 each.
    pub(super) fn costs(&self, from: usize, facing: usize, over: u64) -> Costs {
        let mut dist = vec![[u32::MAX; 4]; self.cells];
        if !self.headed {
            let mut flat = vec![u32::MAX; self.cells];
            flat[from] = 0;
            let mut queue = VecDeque::from([from]);
            while let Some(p) = queue.pop_front() {
                for n in bits(self.neighbours[p] & over) {
                    if flat[n] == u32::MAX {
                        flat[n] = flat[p] + 1;
                        queue.push_back(n);
                    }
                }
            }
            for (d, f) in dist.iter_mut().zip(flat) {
                *d = [f; 4];
            }
            return dist;
        }
        dist[from][facing] = 0;
        let mut queue = VecDeque::from([(from, facing)]);
        while let Some((p, h)) = queue.pop_front() {
            let d = dist[p][h] + 1;
            let dir = Direction::ALL[h];
            let forward = self.ahead[p][h].filter(|&n| over >> n & 1 == 1);
            let next = [
                Some((p, dir.left().index())),
                Some((p, dir.right().index())),
                forward.map(|n| (n, h)),
            ];
            for (q, g) in next.into_iter().flatten() {
                if dist[q][g] == u32::MAX {
                    dist[q][g] = d;
                    queue.push_back((q, g));
                }
            }
        }
        dist
    }

    /// The cheapest way to stand in `cell`, facing any way.
    pub(super) fn any_facing(costs: &Costs, cell: usize) -> u32 {
        costs[cell].iter().copied().min().unwrap_or(u32::MAX)
    }

    /// The fewest actions from each cell, facing each way, to stand at the start (`0,0`),
    /// walking over `over`: a breadth-first walk back from the start.
    pub(super) fn home_costs(&self, over: u64) -> Costs {
        if !self.headed {
            return self.costs(0, 0, over);
        }
        let mut dist = vec![[u32::MAX; 4]; self.cells];
        let mut queue = VecDeque::new();
        dist[0] = [0; 4];
        queue.extend((0..4).map(|h| (0, h)));
        while let Some((p, h)) = queue.pop_front() {
            let d = dist[p][h] + 1;
            let dir = Direction::ALL[h];
            // Whoever turned left or right into facing `h`, or stepped forward into `p`.
            let back = self.ahead[p][dir.opposite().index()];
            let before = [
                Some((p, dir.right().index())),
                Some((p, dir.left().index())),
                back.filter(|&q| over >> q & 1 == 1).map(|q| (q, h)),
            ];
            for (q, g) in before.into_iter().flatten() {
                if dist[q][g] == u32::MAX {
                    dist[q][g] = d;
                    queue.push_back((q, g));
                }
            }
        }
        dist
    }

    /// The actions to step into cell `i` from its visited neighbour `j`, from where `here`
    /// was counted: the walk to `j`, the turns to face `i` (with a heading), the step.
    pub(super) fn step_in(&self, here: &Costs, j: usize, i: usize) -> u32 {
        let to_j = if self.headed {
            facing_cost(here, j, self.way(j, i))
        } else {
            here[j][0]
        };
        to_j.saturating_add(1)
    }

    /// With a heading: the actions from cell `i`, facing `facing`, to the start, through a
    /// visited neighbour (`home`: [`Lookahead::home_costs`] over the visited cells).
    pub(super) fn home_from(&self, home: &Costs, visited: u64, i: usize, facing: usize) -> u32 {
        bits(self.neighbours[i] & visited)
            .map(|j| {
                let w = self.way(i, j);
                home[j][w].saturating_add(turns(facing, w) + 1)
            })
            .min()
            .unwrap_or(u32::MAX)
    }

    /// The index into [`Direction::ALL`] of the way from cell `from` to its neighbour `to`.
    pub(super) fn way(&self, from: usize, to: usize) -> usize {
        (0..4)
            .find(|&d| self.ahead[from][d] == Some(to))
            .expect("neighbouring cells")
    }
}
