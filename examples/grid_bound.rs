//! The best expected score any agent can reach on small random grids, computed exactly: what
//! the game allows, to judge an agent's score against.
//!
//! The game is a POMDP; this solves a relaxation of it by exhaustive expectimax over belief
//! states. The relaxation only helps the player, so its value bounds every real agent from
//! above: walking over visited cells is free (a step into a new cell, a shot, a grab and the
//! climb cost their one move each, nothing else), and the player may fire from any visited cell.
//! Everything else is the game of seed 001 as `wumpus` deals it: pits independent with
//! probability `PIT` in every cell but the start, the wumpus and the gold uniform over those
//! cells, all three independent; breeze next to a pit, stench next to the wumpus and in its
//! cell, glint in the gold's cell only, one arrow that flies to the wall, a scream on a kill.
//!
//! A belief state is the set of visited cells, where breeze was felt, the cells that may still
//! hold the live wumpus (or that it is dead), and whether the arrow is left: the posterior over
//! pits, the wumpus and the gold factorises given those (their priors are independent and each
//! percept speaks of one of them). The pit posterior is counted over the fringe cells (unvisited
//! neighbours of visited cells) only, the rest stay at the prior.
//!
//! With `headed` (AIMA scoring) nothing is relaxed: the game is the textbook's (`--rules
//! aima`), the player standing at a cell facing a way, starting at `0,0` facing east. A state
//! adds where the player stands and faces, each option pays its walk over visited cells in
//! actions (a step forward or a quarter turn, 1 each) before its own, and the gold pays the
//! grab, the walk home and the climb, so the value is the exact optimum of that game.
//!
//! `cargo run --release --example grid_bound -- ROWS COLS aima|standard|wins [PIT] [nowumpus|headed]`
//! prints the bound on the mean score (`wins`: on the win rate), with the win and death rates
//! of the policy that reaches it, then plays that policy in `CHECK` worlds (100,000; 0 for
//! none) dealt by the game's generator from seed `CHECK_SEED` (3,000,000) up, under the same
//! accounting, as a check of the model. `nowumpus` leaves the wumpus out, which still bounds
//! the win rate (see `main`) with far fewer belief states.
//!
//! With `wins`, moves cost nothing, so a step into a cell proven safe is taken as soon as one
//! exists (see `options`); that is exact, not a further relaxation, and it is what makes 5x5
//! tractable: 1.4 M belief states and about a minute without the wumpus, 96 M states, 15 GB
//! and over half an hour with it.
use rustc_hash::FxHashMap;
use std::sync::Arc;
use wumpus::agent::grid::odds::pit_posterior;
use wumpus::grid::GridWorld;
use wumpus::rng::seeded;
use wumpus::topology::Topology;

#[derive(Clone, Copy, PartialEq)]
enum Scoring {
    Aima,
    Standard,
    /// Only winning counts: the value is the best chance of climbing out with the gold.
    Wins,
}

struct Solver {
    cells: usize,
    neighbours: Vec<u32>,
    /// Cells whose stench the wumpus in this cell causes: its neighbours and itself.
    smells: Vec<u32>,
    /// For each cell and direction, the cells an arrow fired from it crosses.
    rays: Vec<[u32; 4]>,
    pit: f64,
    scoring: Scoring,
    memo: FxHashMap<u128, Value>,
    pits: FxHashMap<u64, PitPosterior>,
    /// Without the wumpus and scoring wins only: the values by visited cells and breeze alone,
    /// a state and its mirror image on the diagonal of a square grid sharing one entry, and no
    /// cache of pit posteriors (each state needs one once). It keeps 5x5 small.
    compact: Option<FxHashMap<u64, f32>>,
    /// Each cell's mirror image on the diagonal, on a square grid.
    mirror: Option<Vec<usize>>,
    /// The textbook's rules (`headed`): the player stands somewhere facing a way, and every
    /// walk, quarter turn included, costs its actions. No relaxation is left: the value is the
    /// exact optimum of the game with a heading.
    headed: bool,
    cols: usize,
}

/// Where a player with a heading stands: its cell and the way it faces (0 north, 1 south,
/// 2 east, 3 west, the order of `rays`).
type At = (usize, usize);

/// The way one faces after a quarter turn left, by heading (north, south, east, west).
const LEFT: [usize; 4] = [3, 2, 0, 1];
/// After a quarter turn right.
const RIGHT: [usize; 4] = [2, 3, 1, 0];

/// The optimal value of a belief state and how it splits into wins and deaths.
#[derive(Clone, Copy, Default)]
struct Value {
    score: f64,
    win: f64,
    death: f64,
}

impl Value {
    fn scaled(self, p: f64) -> Value {
        Value {
            score: self.score * p,
            win: self.win * p,
            death: self.death * p,
        }
    }
    fn plus(self, o: Value) -> Value {
        Value {
            score: self.score + o.score,
            win: self.win + o.win,
            death: self.death + o.death,
        }
    }
}

/// P(pit) for each cell, and for each cell P(no pit there and no breeze there).
struct PitPosterior {
    pit: Vec<f64>,
    clear_and_calm: Vec<f64>,
}

impl Solver {
    fn new(rows: usize, cols: usize, pit: f64, scoring: Scoring) -> Solver {
        let cells = rows * cols;
        let mut neighbours = vec![0u32; cells];
        let mut rays = vec![[0u32; 4]; cells];
        for r in 0..rows {
            for c in 0..cols {
                let i = r * cols + c;
                let mut n = 0u32;
                if r > 0 {
                    n |= 1 << (i - cols);
                }
                if r + 1 < rows {
                    n |= 1 << (i + cols);
                }
                if c > 0 {
                    n |= 1 << (i - 1);
                }
                if c + 1 < cols {
                    n |= 1 << (i + 1);
                }
                neighbours[i] = n;
                let mut ray = [0u32; 4];
                for rr in r + 1..rows {
                    ray[0] |= 1 << (rr * cols + c);
                }
                for rr in 0..r {
                    ray[1] |= 1 << (rr * cols + c);
                }
                for cc in c + 1..cols {
                    ray[2] |= 1 << (r * cols + cc);
                }
                for cc in 0..c {
                    ray[3] |= 1 << (r * cols + cc);
                }
                rays[i] = ray;
            }
        }
        let smells = (0..cells).map(|i| neighbours[i] | 1 << i).collect();
        Solver {
            cells,
            neighbours,
            smells,
            rays,
            pit,
            scoring,
            memo: FxHashMap::default(),
            pits: FxHashMap::default(),
            compact: None,
            headed: false,
            cols,
            mirror: (rows == cols)
                .then(|| (0..cells).map(|i| (i % cols) * cols + i / cols).collect()),
        }
    }

    fn mirrored(&self, mask: u32) -> u32 {
        let mirror = self.mirror.as_ref().expect("a square grid");
        let mut out = 0;
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            out |= 1 << mirror[i];
        }
        out
    }

    fn all(&self) -> u32 {
        if self.cells == 32 {
            u32::MAX
        } else {
            (1u32 << self.cells) - 1
        }
    }

    fn reach(&self, set: u32) -> u32 {
        let mut out = 0;
        let mut s = set;
        while s != 0 {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            out |= self.neighbours[i];
        }
        out
    }

    /// The pit posterior given the visited cells and where breeze was felt among them.
    fn pit_posterior(&mut self, visited: u32, breeze: u32) -> PitPosterior {
        if self.compact.is_some() {
            return self.count_pits(visited, breeze);
        }
        let key = (visited as u64) << 32 | breeze as u64;
        if !self.pits.contains_key(&key) {
            let posterior = self.count_pits(visited, breeze);
            self.pits.insert(key, posterior);
        }
        let p = &self.pits[&key];
        PitPosterior {
            pit: p.pit.clone(),
            clear_and_calm: p.clear_and_calm.clone(),
        }
    }

    /// The pit posterior, every fringe cell's layouts counted (the library's one routine).
    fn count_pits(&self, visited: u32, breeze: u32) -> PitPosterior {
        let fringe = self.reach(visited) & !visited;
        let p = pit_posterior(
            &self.neighbours,
            self.pit,
            u64::from(visited),
            u64::from(breeze),
            u64::from(fringe),
        );
        PitPosterior {
            pit: p.pit,
            clear_and_calm: p.clear_and_calm,
        }
    }

    /// The value of a belief state. `wumpus` is the set of cells the live wumpus may be in, 0
    /// when it is dead.
    fn value(&mut self, visited: u32, breeze: u32, wumpus: u32, arrow: bool, at: At) -> Value {
        let key = (visited as u128)
            | (breeze as u128) << 32
            | (wumpus as u128) << 64
            | (arrow as u128) << 96
            | (at.0 as u128) << 97
            | (at.1 as u128) << 103;
        let compact_key = self.compact.as_ref().map(|_| {
            let key = (visited as u64) << 32 | breeze as u64;
            match self.mirror {
                Some(_) => {
                    key.min((self.mirrored(visited) as u64) << 32 | self.mirrored(breeze) as u64)
                }
                None => key,
            }
        });
        if let Some(k) = compact_key {
            if let Some(&v) = self.compact.as_ref().and_then(|m| m.get(&k)) {
                let v = v as f64;
                return Value {
                    score: v,
                    win: v,
                    death: f64::NAN,
                };
            }
        } else if let Some(v) = self.memo.get(&key) {
            return *v;
        }
        let best = self
            .options(visited, breeze, wumpus, arrow, at)
            .into_iter()
            .map(|(_, v)| v)
            .fold(None::<Value>, |b, v| match b {
                Some(b) if b.score >= v.score => Some(b),
                _ => Some(v),
            })
            .expect("climbing is always an option");
        match (compact_key, self.compact.as_mut()) {
            (Some(k), Some(memo)) => {
                memo.insert(k, best.score as f32);
            }
            _ => {
                self.memo.insert(key, best);
            }
        }
        best
    }

    /// Every move open in a belief state with its value (the optimal play after it).
    fn options(
        &mut self,
        visited: u32,
        breeze: u32,
        wumpus: u32,
        arrow: bool,
        at: At,
    ) -> Vec<(Move, Value)> {
        if self.headed {
            return self.headed_options(visited, breeze, wumpus, arrow, at);
        }
        // Climbing out without the gold: the climb itself is a move.
        let out = match self.scoring {
            Scoring::Aima => -1.0,
            Scoring::Standard => 99.0,
            Scoring::Wins => 0.0,
        };
        let cost = if self.scoring == Scoring::Wins {
            0.0
        } else {
            1.0
        };
        let mut options = vec![(
            Move::Climb,
            Value {
                score: out,
                ..Value::default()
            },
        )];
        let fringe = self.reach(visited) & !visited;
        let PitPosterior {
            pit,
            clear_and_calm: calm,
        } = self.pit_posterior(visited, breeze);
        let live = wumpus.count_ones() as f64;
        let death = match self.scoring {
            Scoring::Aima => -1000.0,
            Scoring::Standard | Scoring::Wins => 0.0,
        };
        // Won: grab, and the climb (walking home is free here).
        let won = match self.scoring {
            Scoring::Wins => 1.0,
            _ => 1000.0 - 2.0,
        };
        // When only winning counts, moves are free, so stepping into a cell proven safe is never
        // worse than anything else: it risks nothing, and any play from before the step can be
        // played after it (a later step into that cell is a no-op, and finding the gold there
        // early is a win). So where such a cell exists it is the only step worth weighing, and
        // one fixed choice (the lowest) keeps the states a visiting order would multiply out.
        // Such cells are exactly the fringe cells next to a visited cell without breeze that the
        // wumpus cannot be in: breeze only ever says "some pit among these", which cannot prove
        // a cell free.
        let mut f = fringe;
        if self.scoring == Scoring::Wins {
            let proven_clear = self.reach(visited & !breeze) & fringe & !wumpus;
            if proven_clear != 0 {
                f = proven_clear & proven_clear.wrapping_neg();
                options.clear();
            }
        }
        while f != 0 {
            let i = f.trailing_zeros() as usize;
            f &= f - 1;
            let Some(mut v) = self.step_value(
                i,
                (visited, breeze, wumpus, arrow),
                (&pit, &calm),
                (death, won),
                (0, 0),
            ) else {
                continue;
            };
            v.score -= cost;
            debug_assert!(!v.score.is_nan(), "an impossible belief state was entered");
            options.push((Move::Step(i, (0, 0), 0.0), v));
        }
        if arrow && wumpus != 0 {
            for line in self.shot_lines(visited, wumpus) {
                let p_kill = (line & wumpus).count_ones() as f64 / live;
                let mut v = Value::default();
                if p_kill > 0.0 {
                    v = v.plus(self.value(visited, breeze, 0, false, (0, 0)).scaled(p_kill));
                }
                if p_kill < 1.0 {
                    v = v.plus(
                        self.value(visited, breeze, wumpus & !line, false, (0, 0))
                            .scaled(1.0 - p_kill),
                    );
                }
                v.score -= 11.0 * cost;
                options.push((Move::Shoot(line, (0, 0), 0.0), v));
            }
        }
        options
    }

    /// The value of stepping into fringe cell `i` from belief `(visited, breeze, wumpus,
    /// arrow)`, before the step's own cost: death (`death`) or the gold (`won`), else the
    /// optimal play from the new belief, standing at `next_at`. `None` when the step is
    /// certain death.
    fn step_value(
        &mut self,
        i: usize,
        (visited, breeze, wumpus, arrow): (u32, u32, u32, bool),
        (pit, calm): (&[f64], &[f64]),
        (death, won): (f64, f64),
        next_at: At,
    ) -> Option<Value> {
        let unvisited = (self.all() & !visited).count_ones() as f64;
        let live = wumpus.count_ones() as f64;
        let p_wumpus = if wumpus >> i & 1 == 1 {
            1.0 / live
        } else {
            0.0
        };
        let p_pit = pit[i];
        let survive = (1.0 - p_pit) * (1.0 - p_wumpus);
        if survive <= 0.0 {
            return None;
        }
        let gold = 1.0 / unvisited;
        let v = Value {
            score: (1.0 - survive) * death,
            death: 1.0 - survive,
            win: 0.0,
        }
        .plus(
            Value {
                score: won,
                win: 1.0,
                death: 0.0,
            }
            .scaled(survive * gold),
        );
        // Alive, no gold: the percepts of cell i.
        let calm_given_clear = (calm[i] / (1.0 - p_pit)).min(1.0);
        let next_visited = visited | 1 << i;
        let mut rest = Value::default();
        for (p_w, w_next) in self.smell_outcomes(i, wumpus) {
            for (p_b, breezy) in [(1.0 - calm_given_clear, true), (calm_given_clear, false)] {
                // Rounding leaves impossible branches a chance of about 1e-17.
                if p_w <= 0.0 || p_b <= 1e-12 {
                    continue;
                }
                let b_next = if breezy { breeze | 1 << i } else { breeze };
                let sub = self.value(next_visited, b_next, w_next, arrow, next_at);
                rest = rest.plus(sub.scaled(p_w * p_b));
            }
        }
        Some(v.plus(rest.scaled(survive * (1.0 - gold))))
    }

    /// The cell one step from `cell` the way `heading` goes, if on the grid.
    fn ahead(&self, cell: usize, heading: usize) -> Option<usize> {
        let (r, c) = (cell / self.cols, cell % self.cols);
        let rows = self.cells / self.cols;
        match heading {
            0 if r + 1 < rows => Some(cell + self.cols),
            1 if r > 0 => Some(cell - self.cols),
            2 if c + 1 < self.cols => Some(cell + 1),
            3 if c > 0 => Some(cell - 1),
            _ => None,
        }
    }

    /// The cost in actions (a step forward or a quarter turn, 1 each) of reaching each
    /// (cell, heading) from `at` over `walkable` cells, by `cell * 4 + heading`.
    fn walks(&self, walkable: u32, at: At) -> Vec<Option<u32>> {
        let mut cost = vec![None; self.cells * 4];
        cost[at.0 * 4 + at.1] = Some(0);
        let mut queue = std::collections::VecDeque::from([at]);
        while let Some((cell, h)) = queue.pop_front() {
            let c = cost[cell * 4 + h].expect("queued states have a cost");
            let forward = self
                .ahead(cell, h)
                .filter(|&n| walkable >> n & 1 == 1)
                .map(|n| (n, h));
            for (n, nh) in forward
                .into_iter()
                .chain([(cell, LEFT[h]), (cell, RIGHT[h])])
            {
                if cost[n * 4 + nh].is_none() {
                    cost[n * 4 + nh] = Some(c + 1);
                    queue.push_back((n, nh));
                }
            }
        }
        cost
    }

    /// The cost of walking from `at` to the start over `walkable` cells and climbing out.
    fn home(&self, walkable: u32, at: At) -> f64 {
        let walks = self.walks(walkable, at);
        let walk = (0..4)
            .filter_map(|h| walks[h])
            .min()
            .expect("the start is reached over visited cells");
        walk as f64 + 1.0
    }

    /// [`Solver::options`] under the textbook's rules: standing at `at`, each option pays its
    /// walk (turns included) and its own actions; the gold pays the grab, the walk home and
    /// the climb.
    fn headed_options(
        &mut self,
        visited: u32,
        breeze: u32,
        wumpus: u32,
        arrow: bool,
        at: At,
    ) -> Vec<(Move, Value)> {
        let walks = self.walks(visited, at);
        let mut options = vec![(
            Move::Climb,
            Value {
                score: -self.home(visited, at),
                ..Value::default()
            },
        )];
        let fringe = self.reach(visited) & !visited;
        let PitPosterior {
            pit,
            clear_and_calm: calm,
        } = self.pit_posterior(visited, breeze);
        let mut f = fringe;
        while f != 0 {
            let i = f.trailing_zeros() as usize;
            f &= f - 1;
            // Each way into i: from the visited neighbour behind it, facing i.
            for h in 0..4 {
                let Some(n) = self.ahead(i, LEFT[LEFT[h]]) else {
                    continue;
                };
                let Some(walk) = walks[n * 4 + h].filter(|_| visited >> n & 1 == 1) else {
                    continue;
                };
                // Found: grab, walk home (over i too), climb.
                let won = 1000.0 - 1.0 - self.home(visited | 1 << i, (i, h));
                let Some(mut v) = self.step_value(
                    i,
                    (visited, breeze, wumpus, arrow),
                    (&pit, &calm),
                    (-1000.0, won),
                    (i, h),
                ) else {
                    continue;
                };
                v.score -= walk as f64 + 1.0;
                options.push((Move::Step(i, (i, h), walk as f64 + 1.0), v));
            }
        }
        if arrow && wumpus != 0 {
            let live = wumpus.count_ones() as f64;
            let mut s = visited;
            while s != 0 {
                let cell = s.trailing_zeros() as usize;
                s &= s - 1;
                for h in 0..4 {
                    let line = self.rays[cell][h] & wumpus;
                    let Some(walk) = walks[cell * 4 + h].filter(|_| line != 0) else {
                        continue;
                    };
                    let p_kill = (line & wumpus).count_ones() as f64 / live;
                    let mut v = Value::default();
                    if p_kill > 0.0 {
                        v = v.plus(
                            self.value(visited, breeze, 0, false, (cell, h))
                                .scaled(p_kill),
                        );
                    }
                    if p_kill < 1.0 {
                        v = v.plus(
                            self.value(visited, breeze, wumpus & !line, false, (cell, h))
                                .scaled(1.0 - p_kill),
                        );
                    }
                    v.score -= walk as f64 + 11.0;
                    options.push((Move::Shoot(line, (cell, h), walk as f64 + 11.0), v));
                }
            }
        }
        options
    }

    /// The chance of smelling the wumpus in newly entered cell `i` (having survived it) or
    /// not, with the cells the live wumpus may then be in.
    fn smell_outcomes(&self, i: usize, wumpus: u32) -> Vec<(f64, u32)> {
        if wumpus == 0 {
            return vec![(1.0, 0)];
        }
        let after = wumpus & !(1 << i);
        let smelly = after & self.smells[i];
        let p_smell = smelly.count_ones() as f64 / after.count_ones() as f64;
        vec![(p_smell, smelly), (1.0 - p_smell, after & !smelly)]
    }

    /// The distinct sets of possible wumpus cells one shot from a visited cell can cross.
    fn shot_lines(&self, visited: u32, wumpus: u32) -> Vec<u32> {
        let mut lines: Vec<u32> = Vec::new();
        let mut s = visited;
        while s != 0 {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            for d in 0..4 {
                let line = self.rays[i][d] & wumpus;
                if line != 0 && !lines.contains(&line) {
                    lines.push(line);
                }
            }
        }
        lines
    }

    /// Plays the optimal policy of the relaxed game in a real world dealt by `wumpus`, with the
    /// relaxed game's accounting: the score, whether it won and whether it died.
    fn play(&mut self, world: &GridWorld, no_wumpus: bool) -> (f64, bool, bool) {
        let w_real = world.wumpus().index();
        let pits: u32 = world.pits().fold(0, |m, p| m | 1 << p.index());
        let gold = world.gold().index();
        let breeze_of = |s: &Solver, i: usize| s.neighbours[i] & pits != 0;
        let mut visited = 1u32;
        let mut breeze = if breeze_of(self, 0) { 1 } else { 0 };
        let mut wumpus = if no_wumpus {
            0
        } else {
            let all = self.all() & !1;
            if self.smells[0] >> w_real & 1 == 1 {
                all & self.smells[0]
            } else {
                all & !self.smells[0]
            }
        };
        let mut arrow = true;
        let mut score = 0.0;
        let mut at: At = if self.headed { (0, 2) } else { (0, 0) };
        let cost = if self.scoring == Scoring::Wins {
            0.0
        } else {
            1.0
        };
        loop {
            let options = self.options(visited, breeze, wumpus, arrow, at);
            let (chosen, _) = options
                .iter()
                .copied()
                .fold(None::<(Move, Value)>, |b, o| match b {
                    Some(b) if b.1.score >= o.1.score => Some(b),
                    _ => Some(o),
                })
                .expect("climbing is always an option");
            match chosen {
                Move::Climb if self.headed => {
                    return (score - self.home(visited, at), false, false);
                }
                Move::Climb => {
                    let out = match self.scoring {
                        Scoring::Aima => -1.0,
                        Scoring::Standard => 99.0,
                        Scoring::Wins => 0.0,
                    };
                    return (score + out, false, false);
                }
                Move::Shoot(line, next_at, paid) => {
                    score -= if self.headed { paid } else { 11.0 * cost };
                    at = next_at;
                    arrow = false;
                    // The whole ray is flown; the real wumpus is always among the possible.
                    wumpus = if line >> w_real & 1 == 1 {
                        0
                    } else {
                        wumpus & !line
                    };
                }
                Move::Step(i, next_at, paid) => {
                    score -= if self.headed { paid } else { cost };
                    let eaten = !no_wumpus && wumpus != 0 && i == w_real;
                    if pits >> i & 1 == 1 || eaten {
                        let death = match self.scoring {
                            Scoring::Aima => -1000.0,
                            _ => 0.0,
                        };
                        return (score + death, false, true);
                    }
                    if i == gold {
                        let won = if self.headed {
                            1000.0 - 1.0 - self.home(visited | 1 << i, next_at)
                        } else if self.scoring == Scoring::Wins {
                            1.0
                        } else {
                            998.0
                        };
                        return (score + won, true, false);
                    }
                    at = next_at;
                    visited |= 1 << i;
                    if breeze_of(self, i) {
                        breeze |= 1 << i;
                    }
                    if wumpus != 0 {
                        let after = wumpus & !(1 << i);
                        wumpus = if self.smells[i] >> w_real & 1 == 1 {
                            after & self.smells[i]
                        } else {
                            after & !self.smells[i]
                        };
                    }
                }
            }
        }
    }
}

/// A move of the relaxed game: walking to the cell it needs is free. Under the textbook's
/// rules a move also says where the player then stands and what the move cost in actions
/// (walk and turns included); elsewhere those are `(0, 0)` and 0, unused.
#[derive(Clone, Copy)]
enum Move {
    Climb,
    /// Step into a fringe cell.
    Step(usize, At, f64),
    /// Fire along a line crossing these possible wumpus cells.
    Shoot(u32, At, f64),
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rows: usize = args.get(1).map_or(4, |a| a.parse().expect("ROWS"));
    let cols: usize = args.get(2).map_or(4, |a| a.parse().expect("COLS"));
    let scoring = match args.get(3).map(String::as_str) {
        Some("standard") => Scoring::Standard,
        Some("wins") => Scoring::Wins,
        _ => Scoring::Aima,
    };
    // Without the wumpus the bound on the win rate still holds: any player of the real game
    // can play the wumpus-free one against a wumpus it draws itself from the same prior (its
    // own stench, its own scream), and it then wins exactly when it would have won the real
    // world made of the dealt one and its own wumpus. Far fewer belief states arise.
    let no_wumpus = args.get(5).is_some_and(|a| a == "nowumpus");
    // `headed`: the textbook's rules, exactly (AIMA scoring, start facing east).
    let headed = args.get(5).is_some_and(|a| a == "headed");
    let pit: f64 = args.get(4).map_or(0.2, |a| a.parse().expect("PIT"));
    assert!(rows * cols <= 32, "at most 32 cells");
    let started = std::time::Instant::now();
    let mut solver = Solver::new(rows, cols, pit, scoring);
    solver.headed = headed;
    let root: At = if headed { (0, 2) } else { (0, 0) };
    if no_wumpus && scoring == Scoring::Wins {
        solver.compact = Some(FxHashMap::default());
    }
    let start = 1u32;
    let wumpus = if no_wumpus { 0 } else { solver.all() & !start };
    // The start cell's own percepts: breeze if a neighbour holds a pit, stench likewise.
    let p_calm = (1.0 - pit).powi(solver.neighbours[0].count_ones() as i32);
    let others = (solver.cells - 1) as f64;
    let smelly = wumpus & solver.smells[0];
    let p_smell = if no_wumpus {
        0.0
    } else {
        smelly.count_ones() as f64 / others
    };
    let mut total = Value::default();
    for (p_w, w) in [(p_smell, smelly), (1.0 - p_smell, wumpus & !smelly)] {
        for (p_b, b) in [(1.0 - p_calm, 1u32), (p_calm, 0)] {
            total = total.plus(solver.value(start, b, w, true, root).scaled(p_w * p_b));
        }
    }
    println!(
        "{rows}x{cols}, pit {pit}, {} scoring: bound on the mean score {:.3} (wins {:.2}%, {}); {} belief states, {:.1} s",
        match scoring {
            Scoring::Aima => "aima",
            Scoring::Standard => "standard",
            Scoring::Wins => "win-rate",
        },
        total.score,
        100.0 * total.win,
        if total.death.is_nan() {
            "deaths not kept".to_string()
        } else {
            format!("deaths {:.2}%", 100.0 * total.death)
        },
        solver.memo.len() + solver.compact.as_ref().map_or(0, |m| m.len()),
        started.elapsed().as_secs_f64()
    );
    // Check the model against the game: play its policy in worlds dealt by the game's own
    // generator; the mean must agree with the value within sampling error.
    let games: u64 = std::env::var("CHECK")
        .ok()
        .map_or(100_000, |v| v.parse().expect("CHECK"));
    if games == 0 {
        return;
    }
    // CHECK_SEED=0 deals the worlds `wumpus solve --seed 0` plays.
    let first: u64 = std::env::var("CHECK_SEED")
        .ok()
        .map_or(3_000_000, |v| v.parse().expect("CHECK_SEED"));
    let topology = Arc::new(Topology::grid(rows, cols).expect("a valid grid"));
    let (mut sum, mut sum_sq, mut wins, mut deaths) = (0.0, 0.0, 0u64, 0u64);
    for seed in 0..games {
        let world = GridWorld::random(topology.clone(), pit, &mut seeded(first + seed));
        let (score, won, died) = solver.play(&world, no_wumpus);
        sum += score;
        sum_sq += score * score;
        wins += won as u64;
        deaths += died as u64;
    }
    let n = games as f64;
    let mean = sum / n;
    let error = ((sum_sq / n - mean * mean) / n).sqrt();
    println!(
        "its policy on {games} dealt worlds (seeds {first} up), same accounting: mean {mean:.1} +- {error:.1} (wins {:.1}%, deaths {:.1}%)",
        100.0 * wins as f64 / n,
        100.0 * deaths as f64 / n
    );
}
