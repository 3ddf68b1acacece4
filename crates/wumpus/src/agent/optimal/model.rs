//! The optimal player's model of the grid game: the prior, the plans open from a belief, what
//! each plan leads to (the percepts and their chances) and what a walk costs.
//!
//! It must never hold a dealt world: it reasons over beliefs only.

use super::*;
use crate::agent::common::bits;
use crate::agent::grid::odds::pit_posterior;

impl Model {
    /// The model of a `rows`×`cols` grid at pit probability `pit`, scored by `scoring`.
    pub fn new(
        rows: usize,
        cols: usize,
        pit: f64,
        scoring: Scoring,
    ) -> Result<Model, OptimalError> {
        let cells = rows * cols;
        if cells > MAX_CELLS {
            return Err(OptimalError::TooLarge {
                rows,
                cols,
                cells,
                max: MAX_CELLS,
            });
        }
        let mut neighbours = vec![0u32; cells];
        let mut rays = vec![[0u32; 4]; cells];
        for r in 0..rows {
            for c in 0..cols {
                let i = r * cols + c;
                for (d, dir) in Direction::ALL.into_iter().enumerate() {
                    let (dr, dc) = dir.delta();
                    let (mut rr, mut cc) = (r as i64 + dr, c as i64 + dc);
                    let on = |rr: i64, cc: i64| {
                        rr >= 0 && cc >= 0 && (rr as usize) < rows && (cc as usize) < cols
                    };
                    if on(rr, cc) {
                        neighbours[i] |= 1 << (rr as usize * cols + cc as usize);
                    }
                    while on(rr, cc) {
                        rays[i][d] |= 1 << (rr as usize * cols + cc as usize);
                        rr += dr;
                        cc += dc;
                    }
                }
            }
        }
        let smells = (0..cells).map(|i| neighbours[i] | 1 << i).collect();
        Ok(Model {
            rows,
            cols,
            cells,
            neighbours,
            smells,
            rays,
            pit: pit.clamp(0.0, 1.0),
            scoring,
            moves: Moves::AnyDirection,
            // The most a game can have spent: its action limit (`GridSession::action_limit`)
            // and the arrow.
            horizon: (8 * cells + 1000 + 10) as f64,
        })
    }

    /// The same game under other rules of movement.
    pub fn with_moves(self, moves: Moves) -> Model {
        Model { moves, ..self }
    }

    /// The rules of movement.
    pub fn moves(&self) -> Moves {
        self.moves
    }

    /// The model of a game on `topology`.
    pub fn for_topology(
        topology: &Topology,
        pit: f64,
        scoring: Scoring,
    ) -> Result<Model, OptimalError> {
        let (rows, cols) = topology.grid_size().ok_or(OptimalError::NotAGrid)?;
        Model::new(rows, cols, pit, scoring)
    }

    /// The grid's rows and columns.
    pub fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The scoring in force.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    pub(super) fn all(&self) -> u32 {
        ((1u64 << self.cells) - 1) as u32
    }

    /// The table's key of `b`: on a square grid a belief and its mirror image in the diagonal
    /// through the start have the same value, so they share the key of the lower of the two
    /// (half the table). The mirror swaps rows and columns, so a heading north becomes one
    /// east and south one west; a turn left becomes one right, which costs the same.
    pub(super) fn key(&self, b: &Belief) -> u128 {
        let own = b.key();
        if self.rows != self.cols {
            return own;
        }
        let cols = self.cols;
        let mirror_cell = |i: usize| (i % cols) * cols + i / cols;
        let mirror = |set: u32| bits(set).fold(0u32, |m, i| m | 1 << mirror_cell(i));
        let at = match self.moves {
            Moves::AnyDirection => mirror_cell(b.at as usize),
            Moves::Heading => {
                let (cell, h) = (b.at as usize / 4, b.at as usize % 4);
                4 * mirror_cell(cell) + MIRROR[h]
            }
        };
        let image = Belief {
            visited: mirror(b.visited),
            breeze: mirror(b.breeze),
            wumpus: mirror(b.wumpus),
            arrow: b.arrow,
            at: at as Pose,
        };
        own.min(image.key())
    }

    /// The cell of a pose.
    pub(super) fn cell(&self, pose: Pose) -> usize {
        match self.moves {
            Moves::AnyDirection => pose as usize,
            Moves::Heading => pose as usize / 4,
        }
    }

    pub(super) fn reach(&self, set: u32) -> u32 {
        bits(set).fold(0, |out, i| out | self.neighbours[i])
    }

    /// The score of climbing out without the gold, before costs.
    pub(super) fn climb_out(&self) -> f64 {
        match self.scoring {
            Scoring::Standard => 100.0,
            Scoring::Aima => 0.0,
        }
    }

    /// The pose of a player in `cell` ready to step or fire in direction `d` (an index into
    /// [`Direction::ALL`]).
    pub(super) fn facing(&self, cell: usize, d: usize) -> usize {
        match self.moves {
            Moves::AnyDirection => cell,
            Moves::Heading => 4 * cell + d,
        }
    }

    /// The fewest moves from pose `from` to each pose walking over `over` only (`u16::MAX`
    /// where it cannot get). This is the move model: every move costs one, a turn included.
    pub(super) fn walks(&self, from: Pose, over: u32) -> Vec<u16> {
        let poses = match self.moves {
            Moves::AnyDirection => self.cells,
            Moves::Heading => 4 * self.cells,
        };
        let mut dist = vec![u16::MAX; poses];
        let mut queue = VecDeque::from([from as usize]);
        dist[from as usize] = 0;
        let mut next = Vec::with_capacity(4);
        while let Some(p) = queue.pop_front() {
            next.clear();
            match self.moves {
                Moves::AnyDirection => next.extend(bits(self.neighbours[p] & over)),
                Moves::Heading => {
                    let (cell, h) = (p / 4, p % 4);
                    next.push(4 * cell + LEFT[h]);
                    next.push(4 * cell + RIGHT[h]);
                    let ahead = self.neighbours[cell] & self.rays[cell][h] & over;
                    next.extend(bits(ahead).map(|c| 4 * c + h));
                }
            }
            for &n in &next {
                if dist[n] == u16::MAX {
                    dist[n] = dist[p] + 1;
                    queue.push_back(n);
                }
            }
        }
        dist
    }

    /// The fewest moves to the start cell, whatever the heading, given the walks from a pose.
    pub(super) fn to_start(&self, walks: &[u16]) -> u16 {
        (0..4)
            .map(|d| walks[self.facing(0, d)])
            .min()
            .expect("four headings")
    }

    /// The index in [`Direction::ALL`] of the way from cell `from` to its neighbour `to`.
    pub(super) fn heading(&self, from: usize, to: usize) -> usize {
        let dir = self.direction(from, to);
        Direction::ALL
            .iter()
            .position(|&d| d == dir)
            .expect("a direction")
    }

    /// The actions that walk from pose `from` to pose `to` over `over`, the fewest moves
    /// (turns included), as compass steps: under the textbook's heading the turns before each
    /// step are left to the door that carries the steps out, which turns the shortest way, so
    /// the walk costs what [`Model::walks`] says. Among equal walks the lowest pose is taken
    /// first, so that play is reproducible.
    pub(super) fn route(&self, from: Pose, to: usize, over: u32) -> Vec<Action> {
        let over = over | 1 << self.cell(from as Pose) | 1 << self.cell(to as Pose);
        let dist = self.walks(from, over);
        assert!(dist[to] != u16::MAX, "a route over visited cells");
        let mut poses = vec![to];
        let mut here = to;
        while here != from as usize {
            let before = self
                .before(here, over)
                .into_iter()
                .find(|&p| dist[p] != u16::MAX && dist[p] + 1 == dist[here])
                .expect("a route over visited cells");
            poses.push(before);
            here = before;
        }
        poses.reverse();
        poses
            .windows(2)
            .filter_map(|w| {
                let (a, b) = (self.cell(w[0] as Pose), self.cell(w[1] as Pose));
                (a != b).then(|| Action::Move(self.direction(a, b)))
            })
            .collect()
    }

    /// [`Model::route`] to cell `to`, facing whichever way is reached first.
    pub(super) fn route_to_cell(&self, from: Pose, to: usize, over: u32) -> Vec<Action> {
        let dist = self.walks(from, over | 1 << to);
        let pose = (0..4)
            .map(|d| self.facing(to, d))
            .min_by_key(|&p| dist[p])
            .expect("four headings");
        self.route(from, pose, over)
    }

    /// The poses one move before pose `p`, walking over `over`, lowest first.
    fn before(&self, p: usize, over: u32) -> Vec<usize> {
        let mut out = match self.moves {
            Moves::AnyDirection => bits(self.neighbours[p] & over).collect(),
            Moves::Heading => {
                let (cell, h) = (p / 4, p % 4);
                let mut v: Vec<usize> = (0..4)
                    .filter(|&g| LEFT[g] == h || RIGHT[g] == h)
                    .map(|g| 4 * cell + g)
                    .collect();
                v.extend(
                    bits(self.neighbours[cell] & over)
                        .filter(|&c| self.rays[c][h] >> cell & 1 == 1)
                        .map(|c| 4 * c + h),
                );
                v
            }
        };
        out.sort_unstable();
        out
    }

    pub(super) fn direction(&self, from: usize, to: usize) -> Direction {
        let (fr, fc) = (from / self.cols, from % self.cols);
        let (tr, tc) = (to / self.cols, to % self.cols);
        Direction::ALL
            .into_iter()
            .find(|d| {
                let (dr, dc) = d.delta();
                fr as i64 + dr == tr as i64 && fc as i64 + dc == tc as i64
            })
            .expect("neighbouring cells")
    }

    /// The belief at the start, after the start cell's percepts.
    pub fn start(&self, percepts: &Percepts) -> Belief {
        let others = self.all() & !1;
        Belief {
            visited: 1,
            breeze: percepts.breeze as u32,
            wumpus: if percepts.stench {
                others & self.smells[0]
            } else {
                others & !self.smells[0]
            },
            arrow: true,
            at: self.facing(0, EAST) as Pose,
        }
    }

    /// The pit posterior given the visited cells and the breezes felt among them, every
    /// fringe cell's layouts counted.
    pub(super) fn count_pits(&self, visited: u32, breeze: u32) -> PitPosterior {
        let fringe = self.reach(visited) & !visited;
        pit_posterior(
            &self.neighbours,
            self.pit,
            u64::from(visited),
            u64::from(breeze),
            u64::from(fringe),
        )
    }

    /// The chance of smelling the wumpus on entering cell `i` (having survived it) or not,
    /// with the cells the live wumpus may then be in.
    pub(super) fn smell_outcomes(&self, i: usize, wumpus: u32) -> [(f64, u32); 2] {
        if wumpus == 0 {
            return [(1.0, 0), (0.0, 0)];
        }
        let after = wumpus & !(1 << i);
        let smelly = after & self.smells[i];
        let p_smell = smelly.count_ones() as f64 / after.count_ones() as f64;
        [(p_smell, smelly), (1.0 - p_smell, after & !smelly)]
    }

    /// The score of dying, per chance of it, `cost` points after the plan began.
    fn death_line(&self, cost: f64) -> Line {
        match self.scoring {
            Scoring::Standard => Line {
                death: 1.0,
                ..Line::constant(0.0)
            },
            Scoring::Aima => Line {
                score: -1000.0 - cost,
                slope: -1.0,
                win: 0.0,
                death: 1.0,
            },
        }
    }

    /// Every plan open in `belief`, weighed by `e` (at every spend for the solve, at the
    /// spend so far for a decision), given the pit posterior. Climbing is always first; ties
    /// go to the earlier plan.
    pub(super) fn plans<E: Weigh>(
        &self,
        belief: &Belief,
        pits: &PitPosterior,
        e: &mut E,
    ) -> Vec<Weighed<E::W>> {
        let b = *belief;
        let here = self.walks(b.at, b.visited);
        let home = self.walks(self.facing(0, EAST) as Pose, b.visited);
        let mut out = Vec::new();
        let climb_cost = (self.to_start(&here) + 1) as f64;
        out.push(Weighed {
            plan: Plan::Climb,
            worth: e.line(Line {
                score: self.climb_out() - climb_cost,
                slope: -1.0,
                win: 0.0,
                death: 0.0,
            }),
            pit: 0.0,
            wumpus: 0.0,
            kill: 0.0,
        });
        if !pits.possible {
            return out;
        }
        let unvisited = (self.all() & !b.visited).count_ones() as f64;
        let live = b.wumpus.count_ones() as f64;
        let fringe = self.reach(b.visited) & !b.visited;
        for i in bits(fringe) {
            let (walk, from, d) = bits(self.neighbours[i] & b.visited)
                .map(|j| {
                    let d = self.heading(j, i);
                    (here[self.facing(j, d)], j, d)
                })
                .min()
                .expect("a fringe cell has a visited neighbour");
            let cost = (walk + 1) as f64;
            let arrived = self.facing(i, d) as Pose;
            let p_wumpus = if b.wumpus >> i & 1 == 1 {
                1.0 / live
            } else {
                0.0
            };
            let p_pit = pits.pit[i];
            let survive = (1.0 - p_pit) * (1.0 - p_wumpus);
            let mut worth = e.scaled(&e.line(self.death_line(cost)), 1.0 - survive);
            if survive > 0.0 {
                let gold = 1.0 / unvisited;
                // Found: grab, walk home over the visited cells and this one, climb.
                let way_home = match self.moves {
                    // Walks are symmetric: the way home is the way from home, reversed.
                    Moves::AnyDirection => bits(self.neighbours[i] & b.visited)
                        .map(|j| home[j] + 1)
                        .min()
                        .expect("a visited neighbour"),
                    Moves::Heading => self.to_start(&self.walks(arrived, b.visited | 1 << i)),
                };
                let won = Line {
                    score: 1000.0 - (cost + 1.0 + way_home as f64 + 1.0),
                    slope: -1.0,
                    win: 1.0,
                    death: 0.0,
                };
                worth = e.plus(&worth, &e.scaled(&e.line(won), survive * gold));
                let calm = (pits.clear_and_calm[i] / (1.0 - p_pit)).min(1.0);
                let mut rest: Option<E::W> = None;
                for (p_w, w_next) in self.smell_outcomes(i, b.wumpus) {
                    for (p_b, breezy) in [(1.0 - calm, true), (calm, false)] {
                        // Rounding leaves impossible branches a chance of about 1e-17.
                        if p_w <= 0.0 || p_b <= 1e-12 {
                            continue;
                        }
                        let next = Belief {
                            visited: b.visited | 1 << i,
                            breeze: b.breeze | (breezy as u32) << i,
                            wumpus: w_next,
                            arrow: b.arrow,
                            at: arrived,
                        };
                        let part = e.child(&next, cost);
                        let part = e.scaled(&part, p_w * p_b);
                        rest = Some(match rest {
                            None => part,
                            Some(r) => e.plus(&r, &part),
                        });
                    }
                }
                if let Some(rest) = rest {
                    worth = e.plus(&worth, &e.scaled(&rest, survive * (1.0 - gold)));
                }
            }
            out.push(Weighed {
                plan: Plan::Step {
                    into: i as u8,
                    from: from as u8,
                },
                worth,
                pit: p_pit,
                wumpus: p_wumpus,
                kill: 0.0,
            });
        }
        if b.arrow && b.wumpus != 0 {
            for from in bits(b.visited) {
                for (d, dir) in Direction::ALL.into_iter().enumerate() {
                    let line = self.rays[from][d] & b.wumpus;
                    if line == 0 {
                        continue;
                    }
                    // The walk, the shot's move and the arrow's 10.
                    let cost = (here[self.facing(from, d)] + 11) as f64;
                    let p_kill = line.count_ones() as f64 / live;
                    let mut worth: Option<E::W> = None;
                    for (p, wumpus) in [(p_kill, 0), (1.0 - p_kill, b.wumpus & !line)] {
                        if p > 0.0 {
                            let next = Belief {
                                wumpus,
                                arrow: false,
                                at: self.facing(from, d) as Pose,
                                ..b
                            };
                            let part = e.child(&next, cost);
                            let part = e.scaled(&part, p);
                            worth = Some(match worth {
                                None => part,
                                Some(w) => e.plus(&w, &part),
                            });
                        }
                    }
                    out.push(Weighed {
                        plan: Plan::Shoot {
                            from: from as u8,
                            dir,
                        },
                        worth: worth.unwrap_or_else(|| e.line(Line::constant(0.0))),
                        pit: 0.0,
                        wumpus: 0.0,
                        kill: p_kill,
                    });
                }
            }
        }
        out
    }
}

/// How the outcomes of a plan are weighed: [`Envelopes`] at every spend (the solve),
/// [`AtSpend`] at one (a decision, which needs no envelope of its own). The plans are the same
/// either way: [`Model::plans`] is the one description of them.
pub(super) trait Weigh {
    /// What a plan is worth.
    type W;
    /// A fixed outcome's worth.
    fn line(&self, l: Line) -> Self::W;
    /// The worth of going on from belief `b`, reached `cost` points after the plan began.
    fn child(&mut self, b: &Belief, cost: f64) -> Self::W;
    /// `w` weighted by a chance.
    fn scaled(&self, w: &Self::W, p: f64) -> Self::W;
    /// Two outcomes together.
    fn plus(&self, a: &Self::W, b: &Self::W) -> Self::W;
}

/// Weighs at every spend from 0 to `horizon`, each belief's worth from `child`.
pub(super) struct Envelopes<F> {
    pub(super) horizon: f64,
    pub(super) child: F,
}

impl<F: FnMut(&Belief) -> Worth> Weigh for Envelopes<F> {
    type W = Worth;

    fn line(&self, l: Line) -> Worth {
        Worth::line(l)
    }

    fn child(&mut self, b: &Belief, cost: f64) -> Worth {
        (self.child)(b).shifted(cost)
    }

    fn scaled(&self, w: &Worth, p: f64) -> Worth {
        w.scaled(p)
    }

    fn plus(&self, a: &Worth, b: &Worth) -> Worth {
        a.plus(b, self.horizon)
    }
}

/// Weighs at the one spend `spent`, each belief's worth from `child`.
pub(super) struct AtSpend<F> {
    pub(super) spent: f64,
    pub(super) child: F,
}

impl<F: FnMut(&Belief, f64) -> Value> Weigh for AtSpend<F> {
    type W = Value;

    fn line(&self, l: Line) -> Value {
        l.at(self.spent)
    }

    fn child(&mut self, b: &Belief, cost: f64) -> Value {
        (self.child)(b, self.spent + cost)
    }

    fn scaled(&self, w: &Value, p: f64) -> Value {
        w.scaled(p)
    }

    fn plus(&self, a: &Value, b: &Value) -> Value {
        a.plus(*b)
    }
}
