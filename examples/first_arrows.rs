//! How well can arrows shot from the first room find a wumpus that was not smelt
//! there? The wumpus is taken to be in any room neither the hunter's nor next to it, alike (the
//! pits and bats are left out). After each miss it wakes: it stays or takes one of its
//! out-tunnels, one chance in four each, eats the hunter if it walks in, and is smelt or not.
//! For 1 to `ARROWS` arrows the example prints, averaged over every first room, the chance
//! that no arrow kills (a miss of them all or the hunter eaten):
//!
//! - `best`: the exact best, an expectimax over every path an arrow can fly (1 to 5 rooms
//!   along tunnels, either way, never doubling back or into the hunter's room) after each
//!   outcome;
//! - `best chance`: each arrow the path with the best chance of a kill now;
//! - `agent plan`: the classic agent's look-ahead as a plan: the first arrow chosen among
//!   every path by its chance now and the best chance each time after it
//!   (`agent::cave::shoot`, `Lookahead::value_first`), then the best chance each time;
//! - `agent`: what the agent does, re-planning each arrow that way after each outcome.
//!
//! `cargo run --release --example first_arrows -- worlds/cave-standard.txt [ARROWS]`
//! (default 4). See docs/caves.md, "The first arrow", for what it measured.
use std::path::Path;
use wumpus::agent::cave::worth_weighing;
use wumpus::cave::read_map;
use wumpus::planner;
use wumpus::topology::Place;

struct Cave<'a> {
    paths: Vec<Vec<Place>>,
    outs: &'a [Vec<usize>],
    near: Vec<bool>,
    here: usize,
}

#[derive(Clone, Copy, PartialEq)]
enum Way {
    Best,
    BestChance,
    Agent,
}

impl Cave<'_> {
    fn chance(&self, belief: &[f64], path: &[Place]) -> f64 {
        path.iter().map(|r| belief[r.index()]).sum()
    }

    /// The chance of a kill with `arrows` arrows, choosing each arrow `way`.
    fn kill(&self, belief: &[f64], arrows: usize, way: Way, first: bool) -> f64 {
        if arrows == 0 {
            return 0.0;
        }
        let chances: Vec<f64> = self.paths.iter().map(|p| self.chance(belief, p)).collect();
        let weigh_all = way == Way::Best || (way == Way::Agent && first);
        if !weigh_all {
            let mut best = 0;
            for (i, &c) in chances.iter().enumerate() {
                if c > chances[best] {
                    best = i;
                }
            }
            return self.after(belief, arrows, best, chances[best], way);
        }
        self.weigh_all(belief, arrows, way).2
    }

    /// The path worth most among every path worth weighing, going on `way` after it: its
    /// index, its chance of a kill now and its chance of a kill in all.
    fn weigh_all(&self, belief: &[f64], arrows: usize, way: Way) -> (usize, f64, f64) {
        // Paths whose rooms another path covers are never better (`worth_weighing`).
        let mut best = (0, 0.0, 0.0);
        for (i, c) in worth_weighing(&self.paths, belief) {
            let v = self.after(belief, arrows, i, c, way);
            if v > best.2 + 1e-9 {
                best = (i, c, v);
            }
        }
        best
    }

    /// The chance of a kill with `arrows` arrows when each arrow is chosen by the agent's
    /// look-ahead anew, after each outcome.
    fn replanned(&self, belief: &[f64], arrows: usize) -> f64 {
        if arrows == 0 {
            return 0.0;
        }
        let (index, chance, _) = self.weigh_all(belief, arrows, Way::Agent);
        self.then(belief, arrows, index, chance, &|b, a| self.replanned(b, a))
    }

    /// Shoot path `index` (kill chance `chance`), then go on `way`.
    fn after(&self, belief: &[f64], arrows: usize, index: usize, chance: f64, way: Way) -> f64 {
        self.then(belief, arrows, index, chance, &|b, a| {
            self.kill(b, a, way, false)
        })
    }

    /// Shoot path `index` (kill chance `chance`), then go on by `next` after a miss.
    fn then(
        &self,
        belief: &[f64],
        arrows: usize,
        index: usize,
        chance: f64,
        next: &dyn Fn(&[f64], usize) -> f64,
    ) -> f64 {
        let mut kill = chance;
        if arrows == 1 {
            return kill;
        }
        let n = belief.len();
        let mut woken = vec![0.0; n];
        for (w, &b) in belief.iter().enumerate() {
            if b > 0.0 && !self.paths[index].contains(&Place::new(w)) {
                let share = b / (self.outs[w].len() as f64 + 1.0);
                woken[w] += share;
                for &to in &self.outs[w] {
                    woken[to] += share;
                }
            }
        }
        woken[self.here] = 0.0; // eaten
        for smelt in [true, false] {
            let mut part: Vec<f64> = (0..n)
                .map(|r| if self.near[r] == smelt { woken[r] } else { 0.0 })
                .collect();
            let mass: f64 = part.iter().sum();
            if mass > 1e-12 {
                part.iter_mut().for_each(|p| *p /= mass);
                kill += mass * next(&part, arrows - 1);
            }
        }
        kill
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(file) = args.get(1) else {
        eprintln!("usage: first_arrows MAP [ARROWS]");
        std::process::exit(2);
    };
    let arrows: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(4);
    let map = match read_map(Path::new(file)) {
        Ok(map) => map,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let n = map.len();
    let outs: Vec<Vec<usize>> = map
        .rooms()
        .map(|r| map.outs(r).iter().map(|o| o.index()).collect())
        .collect();
    let ways = [Way::Best, Way::BestChance, Way::Agent];
    let mut missed = vec![[0.0; 4]; arrows];
    for here in map.rooms() {
        let paths = planner::arrow_paths(map.topology(), here, 5);
        let near: Vec<bool> = (0..n).map(|r| map.joined(here, Place::new(r))).collect();
        let mut belief: Vec<f64> = (0..n)
            .map(|r| {
                if r == here.index() || near[r] {
                    0.0
                } else {
                    1.0
                }
            })
            .collect();
        let total: f64 = belief.iter().sum();
        belief.iter_mut().for_each(|b| *b /= total);
        let cave = Cave {
            paths,
            outs: &outs,
            near,
            here: here.index(),
        };
        for (w, &way) in ways.iter().enumerate() {
            for k in 1..=arrows {
                missed[k - 1][w] += (1.0 - cave.kill(&belief, k, way, true)) / n as f64;
            }
        }
        for k in 1..=arrows {
            missed[k - 1][3] += (1.0 - cave.replanned(&belief, k)) / n as f64;
        }
    }
    println!("{file}: chance that no arrow kills a wumpus not smelt in the first room");
    println!("arrows  best     best chance  agent plan  agent");
    for (k, [best, chance, plan, agent]) in missed.iter().enumerate() {
        println!(
            "{:<7} {best:<8.4} {chance:<12.4} {plan:<11.4} {agent:.4}",
            k + 1
        );
    }
}
