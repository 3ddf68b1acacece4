//! An upper bound on the best mean score any player can reach under the textbook's
//! rules (`--rules aima`) on grids too large for the exact solver (`grid_bound ... headed` and
//! the optimal agent stop at 16 cells), the size told (so it bounds a player not told it too).
//! Two deals: square boards dealt as `wumpus` deals them, and the course tournament's
//! (docs/rules.md, "The course tournament"; `wumpus::grid::course`): its 16 sizes, columns ×
//! rows 4 to 7 each, in its 2,500:500 proportion, and pits only in the lower-left
//! min(C,R) × min(C,R) block, the rest of the board never pitted but walked and charged alike.
//!
//! The bound is the value of a game that is easier than the real one in every respect, so no
//! player of the real game can expect more:
//!
//! 1. **No wumpus.** A player of the wumpus-free game can draw a wumpus from the same prior and
//!    play any real-game policy against it (its own stench, its own scream, the same arrow
//!    cost); the two games go the same way until the drawn wumpus would eat it, where the real
//!    game scores −1000 and more, and the wumpus-free player walks home and climbs instead.
//! 2. **Only the unavoidable actions are charged.** A win scores 1000 less the larger of: the
//!    fewest actions of any win with the gold in that cell on an empty grid (walk there from
//!    `0,0` facing east, grab, walk home, climb, turns counted), and a step forward into every
//!    cell entered before the grab plus the shortest walk home, the grab and the climb. A game
//!    that ends alive without the gold scores minus the cells entered and the climb (the real
//!    game: that or less), a death −1000 less the cells entered. Every other action is free.
//! 3. **Told everything after the last risk.** The player first walks every cell it can prove
//!    safe: without the wumpus a cell is proven safe exactly when a visited neighbour had no
//!    breeze (a pit added anywhere else keeps every breeze) or the deal never pits it (the
//!    course's cells outside its block), and walking it first is optimal here, since it holds the gold with chance at least 1/48, worth over 900, for one action.
//!    With nothing left to prove it stops, or steps into one fringe cell at that cell's exact
//!    chance of a pit, walks all that this proves, and may go on the same way; after surviving
//!    its last allowed risk (the second, with `SAMPLES` `100,100`) it is shown the whole world
//!    and wins whenever a pit-free path leads from where it has been to the gold.
//!
//! The outer expectation is over worlds as the deal deals them (pits independent with
//! probability 0.2 off the start, where the deal puts pits; the gold uniform off the start). The value of each step
//! survived is estimated from posterior samples (the fringe cells' pits drawn exactly from their
//! posterior by enumeration, that cell pit-free, the rest at the prior; the gold summed over
//! every unvisited cell); each estimate is unbiased, and the maximum of unbiased estimates is
//! biased up (Jensen), so the sampled bound is, in expectation, at or above the easier game's
//! value. Each world's figure lies in [−cells, 1000], so besides the normal upper confidence
//! limit the example prints Hoeffding's, which holds with chance 1 − 10⁻⁶ whatever the
//! distribution; for a mix of sizes, Hoeffding's over all its worlds at once (the mix is a sum
//! of independent terms, a world of size s in a range of its weight × (1000 + cells) / WORLDS).
//!
//! `cargo run --release --example tournament_bound -- SIZE [WORLDS] [SAMPLES] [SEED] [free]`,
//! `SIZE` one side or a range (`5..7`) of the square deal, sizes alike; `CxR` one of the
//! course's sizes, C columns and R rows; or `course`, its 16 sizes in its proportion (4×4,
//! which it deals as the square deal does, at the exact value the optimal agent's solver
//! found). `SAMPLES` the posterior draws at each level, comma-separated, one level a risk
//! (default `100,100`); `free` charges only the gold's own walk. Prints each size's bound and,
//! for several, their mix. `docs/agents.md` has the figures of `-- 5..7 100000 100,100 0` (the
//! square deal; `solve --size 4x4..7x7`'s 276.13) and of `-- course 20000 100,100 0` (the
//! course's; `solve --deal course`'s figure, `wumpus::agent::optimal::best_course_score`).
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use wumpus::agent::optimal::{best_textbook_score, BestScore};
use wumpus::grid::course::COURSE_SIZES;

const PIT: f64 = 0.2;
/// z for a one-sided upper confidence limit of 1 − 1e-6.
const Z: f64 = 4.753;

struct Grid {
    cols: usize,
    rows: usize,
    neighbours: Vec<Vec<usize>>,
    /// Whether the deal may put a pit in each cell (every cell but the start on the square
    /// deal; on the course's, the cells of the lower-left min(C,R) × min(C,R) block but the
    /// start). A cell it never pits is proven safe from the start.
    may_pit: Vec<bool>,
    /// Fewest actions of a win with the gold in each cell, on an empty grid.
    win_cost: Vec<f64>,
    /// Each cell's distance from the start in steps.
    home: Vec<f64>,
    /// Charge every first entry into a cell (off: `free`, only the gold's own walk).
    charge: bool,
}

impl Grid {
    /// The most a win with the gold in `g` can score when `entered` cells were first entered
    /// before the grab: each of those took a step forward, and the walk home at least
    /// `home[g]` more, besides the grab and the climb; and never more than the gold's own walk
    /// allows.
    fn win(&self, g: usize, entered: usize) -> f64 {
        let actions = if self.charge {
            self.win_cost[g].max(entered as f64 + self.home[g] + 2.0)
        } else {
            self.win_cost[g]
        };
        1000.0 - actions
    }

    /// The most a game can score that ends without the gold and alive, `visited` cells (the
    /// start among them) stood in: a step into each but the start, and the climb.
    fn stop(&self, visited: usize) -> f64 {
        if self.charge {
            -(visited as f64)
        } else {
            0.0
        }
    }

    fn cells(&self) -> usize {
        self.cols * self.rows
    }
}

impl Grid {
    /// A board `cols` wide and `rows` high (cell `r * cols + c`), pits dealt only in its
    /// lower-left `block` × `block` cells (`block` the larger side: anywhere).
    fn new(cols: usize, rows: usize, block: usize) -> Grid {
        let cells = cols * rows;
        let mut neighbours = vec![Vec::new(); cells];
        for r in 0..rows {
            for c in 0..cols {
                let i = r * cols + c;
                if r + 1 < rows {
                    neighbours[i].push(i + cols);
                }
                if r > 0 {
                    neighbours[i].push(i - cols);
                }
                if c + 1 < cols {
                    neighbours[i].push(i + 1);
                }
                if c > 0 {
                    neighbours[i].push(i - 1);
                }
            }
        }
        let may_pit = (0..cells)
            .map(|i| i != 0 && i / cols < block && i % cols < block)
            .collect();
        let out = pose_distances(cols, rows, (0, 1));
        let win_cost = (0..cells)
            .map(|g| headed_win_cost(cols, rows, &out, g))
            .collect();
        let home = (0..cells).map(|g| (g / cols + g % cols) as f64).collect();
        Grid {
            cols,
            rows,
            neighbours,
            may_pit,
            win_cost,
            home,
            charge: true,
        }
    }

    /// The project's square deal: `n` × `n`, a pit anywhere but the start.
    fn square(n: usize) -> Grid {
        Grid::new(n, n, n)
    }

    /// The course's deal at one size: pits only in the lower-left min(C,R) block.
    fn course(cols: usize, rows: usize) -> Grid {
        Grid::new(cols, rows, cols.min(rows))
    }
}

/// Headings 0 north, 1 east, 2 south, 3 west; a step forward from `cell` facing `h`.
fn forward(cols: usize, rows: usize, cell: usize, h: usize) -> Option<usize> {
    let (r, c) = (cell / cols, cell % cols);
    match h {
        0 if r + 1 < rows => Some(cell + cols),
        1 if c + 1 < cols => Some(cell + 1),
        2 if r > 0 => Some(cell - cols),
        3 if c > 0 => Some(cell - 1),
        _ => None,
    }
}

/// Breadth-first distances in actions over (cell, heading) from one pose, on an empty grid.
fn pose_distances(cols: usize, rows: usize, from: (usize, usize)) -> Vec<u32> {
    let mut dist = vec![u32::MAX; cols * rows * 4];
    let mut queue = std::collections::VecDeque::new();
    dist[from.0 * 4 + from.1] = 0;
    queue.push_back(from);
    while let Some((cell, h)) = queue.pop_front() {
        let d = dist[cell * 4 + h];
        let mut next = vec![(cell, (h + 1) % 4), (cell, (h + 3) % 4)];
        if let Some(to) = forward(cols, rows, cell, h) {
            next.push((to, h));
        }
        for (c2, h2) in next {
            if dist[c2 * 4 + h2] == u32::MAX {
                dist[c2 * 4 + h2] = d + 1;
                queue.push_back((c2, h2));
            }
        }
    }
    dist
}

/// The fewest actions of any win with the gold in `gold`: from `0,0` facing east to the gold
/// (`out`: the distances from that start), grab, back to `0,0` (any heading), climb.
fn headed_win_cost(cols: usize, rows: usize, out: &[u32], gold: usize) -> f64 {
    (0..4)
        .map(|h| {
            let back = pose_distances(cols, rows, (gold, h));
            let home = (0..4).map(|h2| back[h2]).min().unwrap();
            out[gold * 4 + h] + home + 2
        })
        .min()
        .unwrap() as f64
}

/// A fringe component's posterior: its cells and every pit assignment consistent with the
/// breezes, with cumulative weights for sampling.
struct Component {
    cells: Vec<usize>,
    assignments: Vec<u64>,
    cumulative: Vec<f64>,
}

/// What the player has seen: the cells it has stood in, and where it felt a breeze. The gold
/// lies uniformly in one of the other cells (it would have glinted in a visited one).
#[derive(Clone)]
struct Belief {
    visited: Vec<bool>,
    breezy: Vec<bool>,
}

impl Belief {
    /// Walks from `start` (cells known pit-free, entered now) over everything proven safe: a
    /// visited cell without breeze proves its neighbours safe, and a cell the deal never pits
    /// is safe next to any visited one.
    fn explore(&mut self, grid: &Grid, pits: &[bool], start: &[usize]) {
        let mut stack: Vec<usize> = Vec::new();
        for &s in start {
            if !self.visited[s] {
                self.visited[s] = true;
                stack.push(s);
            }
        }
        while let Some(v) = stack.pop() {
            self.breezy[v] = grid.neighbours[v].iter().any(|&u| pits[u]);
            for &u in &grid.neighbours[v] {
                if !self.visited[u] && (!self.breezy[v] || !grid.may_pit[u]) {
                    self.visited[u] = true;
                    stack.push(u);
                }
            }
        }
    }

    fn unvisited(&self) -> Vec<usize> {
        (0..self.visited.len())
            .filter(|&i| !self.visited[i])
            .collect()
    }

    /// Unvisited cells next to a visited one: every such cell may hold a pit and has only
    /// breezy visited neighbours (else it would be proven safe, and visited).
    fn fringe(&self, grid: &Grid) -> Vec<usize> {
        (0..self.visited.len())
            .filter(|&i| !self.visited[i] && grid.neighbours[i].iter().any(|&u| self.visited[u]))
            .collect()
    }

    /// The fringe's exact posterior, by components of cells linked by breeze constraints.
    fn posterior(&self, grid: &Grid, stats: &mut Stats) -> Vec<Component> {
        let cells = self.visited.len();
        let constraints: Vec<Vec<usize>> = (0..cells)
            .filter(|&v| self.visited[v] && self.breezy[v])
            .map(|v| {
                grid.neighbours[v]
                    .iter()
                    .copied()
                    .filter(|&u| !self.visited[u])
                    .collect()
            })
            .collect();
        let mut comp_of = vec![usize::MAX; cells];
        let mut components: Vec<Component> = Vec::new();
        for f in self.fringe(grid) {
            if comp_of[f] != usize::MAX {
                continue;
            }
            let id = components.len();
            let mut members = vec![f];
            comp_of[f] = id;
            let mut i = 0;
            while i < members.len() {
                let x = members[i];
                for con in constraints.iter().filter(|c| c.contains(&x)) {
                    for &y in con {
                        if comp_of[y] == usize::MAX {
                            comp_of[y] = id;
                            members.push(y);
                        }
                    }
                }
                i += 1;
            }
            let local: Vec<u64> = constraints
                .iter()
                .filter(|c| comp_of[c[0]] == id)
                .map(|c| {
                    c.iter().fold(0u64, |m, y| {
                        m | 1 << members.iter().position(|x| x == y).unwrap()
                    })
                })
                .collect();
            let k = members.len();
            stats.largest = stats.largest.max(k);
            assert!(k <= 26, "a fringe component of {k} cells");
            let mut assignments = Vec::new();
            let mut cumulative = Vec::new();
            let mut total = 0.0;
            for a in 0u64..(1 << k) {
                if local.iter().all(|&c| a & c != 0) {
                    let ones = a.count_ones() as i32;
                    total += PIT.powi(ones) * (1.0 - PIT).powi(k as i32 - ones);
                    assignments.push(a);
                    cumulative.push(total);
                }
            }
            components.push(Component {
                cells: members,
                assignments,
                cumulative,
            });
        }
        components
    }

    /// Draws the unvisited cells' pits from the posterior (visited cells have none).
    fn sample(
        &self,
        grid: &Grid,
        components: &[Component],
        rng: &mut ChaCha8Rng,
        pits: &mut [bool],
    ) {
        for (i, p) in pits.iter_mut().enumerate() {
            *p = !self.visited[i] && grid.may_pit[i] && rng.random_bool(PIT);
        }
        for comp in components {
            let x = rng.random::<f64>() * comp.cumulative.last().unwrap();
            let at = comp.cumulative.partition_point(|&c| c <= x);
            let a = comp.assignments[at.min(comp.assignments.len() - 1)];
            for (j, &cell) in comp.cells.iter().enumerate() {
                pits[cell] = a >> j & 1 == 1;
            }
        }
    }
}

/// Values already estimated in one world, by (visited cells, breezy cells, risks left): the
/// same belief is met along many branches, and an estimate reused is still an estimate whose
/// expectation is at or above the belief's value.
type Memo = rustc_hash::FxHashMap<(u64, u64, usize), f64>;

fn bits(flags: &[bool]) -> u64 {
    flags
        .iter()
        .enumerate()
        .fold(0, |m, (i, &f)| if f { m | 1 << i } else { m })
}

/// The best the player can expect from belief `b`, stuck (nothing left to prove safe) and the
/// gold not yet found, when it may take `risks` more real risks before it is told everything:
/// stop (0), or step into a fringe cell. A step's chance of a pit is exact; what follows a step
/// survived is estimated from `samples[0]` posterior draws with that cell pit-free.
fn stuck_value(
    grid: &Grid,
    b: &Belief,
    risks: usize,
    samples: &[usize],
    rng: &mut ChaCha8Rng,
    memo: &mut Memo,
    stats: &mut Stats,
) -> f64 {
    let key = (bits(&b.visited), bits(&b.breezy), risks);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let unvisited = b.unvisited();
    let fringe = b.fringe(grid);
    let seen = b.visited.len() - unvisited.len();
    let stop = grid.stop(seen);
    if unvisited.is_empty() || fringe.is_empty() {
        return stop;
    }
    let components = b.posterior(grid, stats);
    let cells = b.visited.len();
    let mut pits = vec![false; cells];
    let mut reach = vec![false; cells];
    let count = samples[0];
    let mut best = stop;
    for &f in &fringe {
        let (ci, j) = components
            .iter()
            .enumerate()
            .find_map(|(ci, c)| c.cells.iter().position(|&x| x == f).map(|j| (ci, j)))
            .expect("every fringe cell is in a component");
        let comp = &components[ci];
        // The component's assignments with `f` pit-free, and their weights.
        let mut safe = Vec::new();
        let mut cumulative = Vec::new();
        let mut total = 0.0;
        let mut last = 0.0;
        for (a, &c) in comp.assignments.iter().zip(&comp.cumulative) {
            if a >> j & 1 == 0 {
                total += c - last;
                safe.push(*a);
                cumulative.push(total);
            }
            last = c;
        }
        let p_safe = total / last;
        if p_safe <= 0.0 {
            continue;
        }
        let mut sum = 0.0;
        for _ in 0..count {
            b.sample(grid, &components, rng, &mut pits);
            let x = rng.random::<f64>() * total;
            let a = safe[cumulative.partition_point(|&c| c <= x).min(safe.len() - 1)];
            for (k, &cell) in comp.cells.iter().enumerate() {
                pits[cell] = a >> k & 1 == 1;
            }
            sum += if risks == 0 {
                // Told everything: the gold is won wherever a pit-free path leads to it.
                reach.copy_from_slice(&b.visited);
                let mut stack: Vec<usize> = (0..cells).filter(|&i| b.visited[i]).collect();
                while let Some(v) = stack.pop() {
                    for &u in &grid.neighbours[v] {
                        if !reach[u] && !pits[u] {
                            reach[u] = true;
                            stack.push(u);
                        }
                    }
                }
                // Entering `f` and, for any other cell, the gold's cell at least.
                unvisited
                    .iter()
                    .map(|&g| {
                        if reach[g] {
                            grid.win(g, seen + usize::from(g != f))
                        } else {
                            grid.stop(seen + 1)
                        }
                    })
                    .sum::<f64>()
                    / unvisited.len() as f64
            } else {
                let mut next = b.clone();
                next.explore(grid, &pits, &[f]);
                let left = next.unvisited().len();
                let found: f64 = unvisited
                    .iter()
                    .filter(|&&g| next.visited[g])
                    .map(|&g| grid.win(g, seen + usize::from(g != f)))
                    .sum::<f64>()
                    / unvisited.len() as f64;
                let on = if left == 0 {
                    0.0
                } else {
                    left as f64 / unvisited.len() as f64
                        * stuck_value(grid, &next, risks - 1, &samples[1..], rng, memo, stats)
                };
                found + on
            };
        }
        // A death: −1000, and the steps into every cell entered, this one included.
        let dead = -1000.0 - if grid.charge { seen as f64 } else { 0.0 };
        let value = dead * (1.0 - p_safe) + p_safe * sum / count as f64;
        best = best.max(value);
    }
    memo.insert(key, best);
    best
}

/// The bound's value for one world.
fn world_bound(
    grid: &Grid,
    rng: &mut ChaCha8Rng,
    risks: usize,
    samples: &[usize],
    stats: &mut Stats,
) -> f64 {
    let cells = grid.cells();
    let pits: Vec<bool> = (0..cells)
        .map(|i| grid.may_pit[i] && rng.random_bool(PIT))
        .collect();
    let gold = rng.random_range(1..cells);
    let mut b = Belief {
        visited: vec![false; cells],
        breezy: vec![false; cells],
    };
    b.explore(grid, &pits, &[0]);
    if b.visited[gold] {
        stats.found += 1;
        return 1000.0 - grid.win_cost[gold];
    }
    let mut memo = Memo::default();
    let best = stuck_value(grid, &b, risks, samples, rng, &mut memo, stats);
    if best > grid.stop(b.visited.iter().filter(|&&v| v).count()) {
        stats.gambled += 1;
    }
    best
}

#[derive(Default, Clone, Copy)]
struct Stats {
    found: usize,
    gambled: usize,
    largest: usize,
}

struct Estimate {
    mean: f64,
    se: f64,
}

/// The bound on `grid` from `worlds` worlds, world `i` dealt from seed `first_seed + i`.
fn bound(
    grid: &Grid,
    worlds: usize,
    risks: usize,
    samples: &[usize],
    first_seed: u64,
) -> (Estimate, Stats) {
    let results: Vec<(f64, Stats)> = (0..worlds)
        .into_par_iter()
        .map(|i| {
            let mut rng = ChaCha8Rng::seed_from_u64(first_seed.wrapping_add(i as u64));
            let mut stats = Stats::default();
            let b = world_bound(grid, &mut rng, risks, samples, &mut stats);
            (b, stats)
        })
        .collect();
    let count = results.len() as f64;
    let mean = results.iter().map(|r| r.0).sum::<f64>() / count;
    let var = results.iter().map(|r| (r.0 - mean).powi(2)).sum::<f64>() / (count - 1.0);
    let mut stats = Stats::default();
    for (_, s) in &results {
        stats.found += s.found;
        stats.gambled += s.gambled;
        stats.largest = stats.largest.max(s.largest);
    }
    (
        Estimate {
            mean,
            se: (var / count).sqrt(),
        },
        stats,
    )
}

/// One size of a run: its board, its share of the deal, and its exact value where the optimal
/// agent's solver knows it (then nothing is sampled).
struct Size {
    grid: Grid,
    weight: f64,
    exact: Option<f64>,
    /// The seed of its first world.
    first_seed: u64,
}

/// The sizes `arg` names: `N` or `A..B` (the square deal, sizes alike, every size's world `i`
/// from seed `seed + i`), `CxR` (one of the course's sizes, columns × rows) or `course` (its 16
/// sizes in its proportion; 4×4, which it deals as the square deal does, at its exact value).
/// A course size's worlds come from seeds of their own, so that the sizes' figures are
/// independent and one size run alone gives the figure it has in the whole.
fn sizes(arg: &str, worlds: usize, seed: u64) -> Vec<Size> {
    let square = |n: usize| Size {
        grid: Grid::square(n),
        weight: 1.0,
        exact: None,
        first_seed: seed,
    };
    let total: u32 = COURSE_SIZES.iter().map(|s| s.2).sum();
    let course = |k: usize| {
        let (cols, rows, count) = COURSE_SIZES[k];
        Size {
            grid: Grid::course(cols, rows),
            weight: f64::from(count) / f64::from(total),
            exact: None,
            first_seed: seed.wrapping_add((k * worlds) as u64),
        }
    };
    if arg == "course" {
        return (0..COURSE_SIZES.len())
            .map(|k| {
                let mut size = course(k);
                let (cols, rows) = (size.grid.cols, size.grid.rows);
                // A square course size is dealt as the square deal is, its value solved where
                // the solver reaches.
                if cols == rows {
                    if let Some(BestScore::Exact(v)) = best_textbook_score(rows, cols, PIT) {
                        size.exact = Some(v);
                    }
                }
                size
            })
            .collect();
    }
    if let Some((c, r)) = arg.split_once('x') {
        let (cols, rows) = (c.parse().expect("SIZE"), r.parse().expect("SIZE"));
        let k = COURSE_SIZES
            .iter()
            .position(|s| (s.0, s.1) == (cols, rows))
            .expect("CxR: one of the course's sizes");
        return vec![course(k)];
    }
    if let Some((a, b)) = arg.split_once("..") {
        return (a.parse().expect("SIZE")..=b.parse().expect("SIZE"))
            .map(square)
            .collect();
    }
    vec![square(arg.parse().expect("SIZE"))]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let worlds: usize = args.get(2).map_or(100_000, |a| a.parse().expect("WORLDS"));
    // SAMPLES: posterior draws at each level, comma-separated, one a risk: told everything
    // after the last (`100,100`: after the second).
    let samples: Vec<usize> = args.get(3).map_or(vec![100, 100], |a| {
        a.split(',').map(|s| s.parse().expect("SAMPLES")).collect()
    });
    let risks = samples.len() - 1;
    let seed: u64 = args.get(4).map_or(0, |a| a.parse().expect("SEED"));
    // `free`: charge only the gold's own walk, not every first entry into a cell.
    let charge = args.get(5).is_none_or(|a| a != "free");
    let mut sizes = sizes(args.get(1).map_or("4..7", String::as_str), worlds, seed);
    let weights: f64 = sizes.iter().map(|s| s.weight).sum();
    // The mix: Σ w·mean over the sizes (weights summing to 1), its variance, and for
    // Hoeffding Σ w²·range²/worlds over the sampled sizes.
    let (mut mix_mean, mut mix_var, mut mix_spread) = (0.0, 0.0, 0.0);
    for size in &mut sizes {
        size.grid.charge = charge;
        let w = size.weight / weights;
        let (cols, rows) = (size.grid.cols, size.grid.rows);
        let label = if cols == rows {
            format!("{cols}x{rows}")
        } else {
            format!("{cols}x{rows} (columns x rows)")
        };
        if let Some(v) = size.exact {
            println!("{label}: exact {v:.2} (the optimal agent's solver; nothing sampled)");
            mix_mean += w * v;
            continue;
        }
        let started = std::time::Instant::now();
        let (e, stats) = bound(&size.grid, worlds, risks, &samples, size.first_seed);
        // Hoeffding: each world's value lies in [−cells, 1000], so the mean of `worlds` of
        // them exceeds its expectation by more than this with chance under 1e-6, whatever
        // their distribution.
        let range = 1000.0 + size.grid.cells() as f64;
        let hoeffding = range * ((1e6f64).ln() / (2.0 * worlds as f64)).sqrt();
        println!(
            "{label}: bound {:.2} ± {:.2} (upper limits {:.2} normal, {:.2} Hoeffding); gold found \
             safely in {:.1}%, a risk worth taking in {:.1}%; largest fringe component {}; {:.1} s",
            e.mean,
            e.se,
            e.mean + Z * e.se,
            e.mean + hoeffding,
            100.0 * stats.found as f64 / worlds as f64,
            100.0 * stats.gambled as f64 / worlds as f64,
            stats.largest,
            started.elapsed().as_secs_f64()
        );
        mix_mean += w * e.mean;
        mix_var += w * w * e.se * e.se;
        mix_spread += w * w * range * range / worlds as f64;
    }
    if sizes.len() > 1 {
        let se = mix_var.sqrt();
        // Hoeffding over every sampled world at once: the mix is a sum of independent terms,
        // world i of size s in a range of w_s·range_s/worlds.
        let hoeffding = ((1e6f64).ln() / 2.0 * mix_spread).sqrt();
        let how = if sizes.iter().all(|s| s.weight == 1.0) {
            "sizes alike"
        } else {
            "the course's proportions"
        };
        println!(
            "mix ({how}): bound {mix_mean:.2} ± {se:.2} (upper limits {:.2} normal, {:.2} \
             Hoeffding)",
            mix_mean + Z * se,
            mix_mean + hoeffding
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_costs_the_walk_there_and_back_turns_counted() {
        let grid = Grid::square(4);
        // Forward, grab, turn about (2), forward, climb.
        assert_eq!(grid.win_cost[1], 6.0);
        // Turn left, forward, grab, turn about (2), forward, climb.
        assert_eq!(grid.win_cost[4], 7.0);
        // Forward, left, forward (3); grab; left, forward, left, forward (4); climb.
        assert_eq!(grid.win_cost[5], 9.0);
    }

    #[test]
    fn a_cell_the_course_never_pits_is_proven_safe_next_to_a_breeze() {
        // 5 columns, 4 rows: pits only in columns 0 to 3. One pit at row 1, column 3 (cell 8)
        // makes both neighbours of row 0, column 4 (cell 4) breezy; that cell, off the block,
        // is safe all the same, and the square deal's rule would leave it unvisited.
        let mut pits = vec![false; 20];
        pits[8] = true;
        let walk = |grid: &Grid| {
            assert_eq!(grid.may_pit.iter().filter(|&&m| m).count(), 15);
            let mut b = Belief {
                visited: vec![false; 20],
                breezy: vec![false; 20],
            };
            b.explore(grid, &pits, &[0]);
            b
        };
        let course = walk(&Grid::course(5, 4));
        assert_eq!(course.unvisited(), vec![8]);
        assert!(course.fringe(&Grid::course(5, 4)).iter().all(|&f| f == 8));
        let breezes_only = Grid {
            may_pit: (0..20).map(|i| i != 0).collect(),
            ..Grid::course(5, 4)
        };
        let mut b = Belief {
            visited: vec![false; 20],
            breezy: vec![false; 20],
        };
        b.explore(&breezes_only, &pits, &[0]);
        assert_eq!(b.unvisited(), vec![4, 8]);
        // A win in the far corner of 7 columns by 4 rows: 6 forward, turn left, 3 forward (10);
        // grab; turn left, 6 forward, turn left, 3 forward (11); climb.
        let wide = Grid::course(7, 4);
        assert_eq!(wide.win_cost[3 * 7 + 6], 10.0 + 1.0 + 11.0 + 1.0);
    }

    #[test]
    fn the_bound_is_above_the_exact_optimum_where_that_is_known() {
        // The textbook game's exact optimum on 3x3 (examples/grid_bound.rs ... headed, and the
        // optimal agent's solver): a bound under it would be no bound.
        let (e, _) = bound(&Grid::square(3), 20_000, 1, &[40, 40], 11);
        assert!(
            e.mean + 4.0 * e.se >= 434.41,
            "bound {:.2} ± {:.2} under the exact optimum 434.41",
            e.mean,
            e.se
        );
        // And it says something: the all-knowing player's share of wins is far above it.
        assert!(e.mean < 600.0, "bound {:.2}", e.mean);
    }
}
