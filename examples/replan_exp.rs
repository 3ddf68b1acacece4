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

impl Cave<'_> {
    fn chance(&self, belief: &[f64], path: &[Place]) -> f64 {
        path.iter().map(|r| belief[r.index()]).sum()
    }
    fn greedy(&self, belief: &[f64]) -> (usize, f64) {
        let mut best = (0, -1.0);
        for (i, p) in self.paths.iter().enumerate() {
            let c = self.chance(belief, p);
            if c > best.1 {
                best = (i, c);
            }
        }
        best
    }
    /// model value: next `levels` arrows weigh all paths, then greedy
    fn choose(&self, belief: &[f64], arrows: usize, levels: usize) -> (usize, f64, f64) {
        if levels == 0 {
            let (i, c) = self.greedy(belief);
            return (
                i,
                c,
                self.after(belief, arrows, i, c, &|b, a| self.model(b, a, 0)),
            );
        }
        let mut best = (0, 0.0, -1.0);
        for (i, c) in worth_weighing(&self.paths, belief) {
            let v = self.after(belief, arrows, i, c, &|b, a| self.model(b, a, levels - 1));
            if v > best.2 + 1e-12 {
                best = (i, c, v);
            }
        }
        best
    }
    fn model(&self, belief: &[f64], arrows: usize, levels: usize) -> f64 {
        if arrows == 0 {
            return 0.0;
        }
        self.choose(belief, arrows, levels).2
    }
    /// realised: re-plan each arrow with `levels`
    fn realised(&self, belief: &[f64], arrows: usize, levels: usize) -> f64 {
        if arrows == 0 {
            return 0.0;
        }
        let (i, c, _) = self.choose(belief, arrows, levels);
        self.after(belief, arrows, i, c, &|b, a| self.realised(b, a, levels))
    }
    fn after(
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
        woken[self.here] = 0.0;
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
    let file = &args[1];
    let arrows: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(4);
    let map = read_map(Path::new(file)).unwrap();
    let n = map.len();
    let outs: Vec<Vec<usize>> = map
        .rooms()
        .map(|r| map.outs(r).iter().map(|o| o.index()).collect())
        .collect();
    let configs: Vec<(&str, usize, bool)> = vec![
        ("greedy", 0, true),
        ("agent1 plan", 1, false),
        ("agent1 replan", 1, true),
        ("deep2 plan", 2, false),
        ("deep2 replan", 2, true),
    ];
    let mut missed = vec![0.0; configs.len()];
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
        for (k, (_, levels, replan)) in configs.iter().enumerate() {
            let kill = if *replan {
                cave.realised(&belief, arrows, *levels)
            } else {
                cave.model(&belief, arrows, *levels)
            };
            missed[k] += (1.0 - kill) / n as f64;
        }
    }
    for (k, (name, ..)) in configs.iter().enumerate() {
        println!("{name:<16} {:.4}", missed[k]);
    }
}
