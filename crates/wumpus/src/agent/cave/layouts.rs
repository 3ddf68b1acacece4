//! Exact odds in the classic cave, by counting hazard layouts.
//!
//! A layout is where the two pits, the two bat rooms and the wumpus were dealt (six different
//! rooms with the hunter, all equally likely), together with where the wumpus went after each
//! wake (it stays or takes one of its out-tunnels, each with chance 1/4). The odds of a hazard
//! in a room are the weight of the layouts consistent with everything the hunter observed
//! that put it there, over the weight of all consistent layouts: an exact posterior, no
//! heuristic.
//!
//! The count is factored, not brute-forced: pits and bats are static and meet the wumpus only
//! in the deal (all rooms different), so the weight is a sum over the consistent pit pairs and
//! bat pairs, and the wumpus's wanderings are a hidden Markov chain whose forward weights from
//! each starting room, `G[x][r]`, are computed once. For `n` rooms and `e` wakes a computation
//! costs O(pit pairs × bat pairs + n² · e · tunnels).
//!
//! On a map only partly known, where an unknown tunnel leads is unknown too. **Decision:** the
//! odds take each unknown tunnel of a room to lead to any unvisited room alike (a tunnel into a
//! visited room would be known). This is the one assumption beyond the game's own rules; with
//! the whole map known the odds are exact. Warnings are told only for visited rooms, whose
//! tunnels are all known.

use super::map::MapKnowledge;
use crate::cave::map::TUNNELS;
use crate::topology::Place;

/// What the hunter has observed, in the terms the odds need.
#[derive(Clone, Debug)]
pub struct Evidence {
    start: Place,
    /// A draft told in a room: (the rooms joined to it, present).
    pit_near: Vec<Vec<Place>>,
    /// A flapping told in a room: the rooms joined to it, when present.
    bats_near: Vec<Vec<Place>>,
    no_pit: Vec<bool>,
    no_bats: Vec<bool>,
    bats: Vec<bool>,
    /// For each epoch of the wumpus (one more after each wake), the rooms it may be in by that
    /// epoch's evidence.
    wumpus: Vec<Vec<bool>>,
}

/// No layout fits what was observed (the rules the odds assume are not the game's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no hazard layout fits the observations")]
pub struct NoLayout;

impl Evidence {
    /// Nothing observed yet in a cave of `rooms` rooms, the hunter starting in `start`.
    pub fn new(rooms: usize, start: Place) -> Evidence {
        let mut no = vec![false; rooms];
        no[start.index()] = true;
        let mut wumpus = vec![true; rooms];
        wumpus[start.index()] = false;
        Evidence {
            start,
            pit_near: Vec::new(),
            bats_near: Vec::new(),
            no_pit: no.clone(),
            no_bats: no,
            bats: vec![false; rooms],
            wumpus: vec![wumpus],
        }
    }

    /// The number of rooms.
    pub fn rooms(&self) -> usize {
        self.no_pit.len()
    }

    /// The hunter's first room.
    pub fn start(&self) -> Place {
        self.start
    }

    /// Wakes so far: the wumpus's current epoch.
    pub fn epoch(&self) -> usize {
        self.wumpus.len() - 1
    }

    /// A draft felt (or not) in a room joined to `near`.
    pub fn draft(&mut self, near: &[Place], present: bool) {
        if present {
            self.pit_near.push(near.to_vec());
        } else {
            for r in near {
                self.no_pit[r.index()] = true;
            }
        }
    }

    /// Bats heard (or not) in a room joined to `near`.
    pub fn flapping(&mut self, near: &[Place], present: bool) {
        if present {
            self.bats_near.push(near.to_vec());
        } else {
            for r in near {
                self.no_bats[r.index()] = true;
            }
        }
    }

    /// The wumpus smelt (or not) now: it is (or is not) in one of `near`.
    pub fn stench(&mut self, near: &[Place], present: bool) {
        let now = self.wumpus.last_mut().expect("epoch 0 exists");
        if present {
            let mut keep = vec![false; now.len()];
            for r in near {
                keep[r.index()] = true;
            }
            for (w, k) in now.iter_mut().zip(keep) {
                *w &= k;
            }
        } else {
            for r in near {
                now[r.index()] = false;
            }
        }
    }

    /// The hunter stands in `room` alive: no pit, no bats, no wumpus there now.
    pub fn survived(&mut self, room: Place) {
        self.no_pit[room.index()] = true;
        self.no_bats[room.index()] = true;
        self.not_wumpus(room);
    }

    /// Snatched on walking into `room`: bats there, the wumpus not (now).
    pub fn snatched(&mut self, room: Place) {
        self.bats[room.index()] = true;
        self.not_wumpus(room);
    }

    /// The wumpus is not in `room` now (an arrow flew through it and missed).
    pub fn not_wumpus(&mut self, room: Place) {
        self.wumpus.last_mut().expect("epoch 0 exists")[room.index()] = false;
    }

    /// The wumpus woke: a new epoch.
    pub fn wake(&mut self) {
        let rooms = self.rooms();
        self.wumpus.push(vec![true; rooms]);
    }
}

/// Where the woken wumpus in `from` may go, with the chances: it stays or takes one of its
/// tunnels, each equally likely; an unknown tunnel leads to any unvisited room alike.
pub fn wake_moves(map: &MapKnowledge, from: Place) -> Vec<(Place, f64)> {
    let share = 1.0 / (TUNNELS as f64 + 1.0);
    let mut moves = vec![(from, share)];
    let known = map.outs(from);
    let known = &known[..known.len().min(TUNNELS)];
    for &to in known {
        moves.push((to, share));
    }
    let unknown = map.unknown_tunnels(from);
    if unknown > 0 {
        let unvisited: Vec<Place> = map.unvisited().collect();
        let each = share * unknown as f64 / unvisited.len().max(1) as f64;
        for to in unvisited {
            moves.push((to, each));
        }
    }
    moves
}

/// The odds of every hazard in every room, given the evidence.
#[derive(Clone, Debug)]
pub struct Odds {
    /// Chance of a pit, by room.
    pub pit: Vec<f64>,
    /// Chance of bats, by room.
    pub bats: Vec<f64>,
    /// Chance of the wumpus, now, by room.
    pub wumpus: Vec<f64>,
    /// Chance of a pit and the wumpus (now) in the same room, by room.
    pub pit_and_wumpus: Vec<f64>,
    /// Chance of bats and the wumpus (now) in the same room, by room.
    pub bats_and_wumpus: Vec<f64>,
    /// The number of consistent deals (pits, bats and the wumpus's first room); 0 when the
    /// odds were not counted deal by deal.
    pub deals: u64,
}

/// Chance of dying after a bat flight: it lands uniformly anywhere, a pit or the wumpus kills,
/// bats fly again. With `rooms` rooms, two pits, one wumpus and two bat rooms, about
/// 3 / (rooms − 2) (a little less when the wumpus sits in a pit room).
pub fn flight_death(rooms: usize) -> f64 {
    if rooms <= 2 {
        1.0
    } else {
        (3.0 / (rooms as f64 - 2.0)).min(1.0)
    }
}

impl Odds {
    /// Counts the layouts consistent with `evidence` on the map as known.
    pub fn compute(evidence: &Evidence, map: &MapKnowledge) -> Result<Odds, NoLayout> {
        Odds::compute_weighed(evidence, map).map(|(odds, _)| odds)
    }

    /// [`Odds::compute`], and the total weight of the consistent layouts: the ratio of two
    /// such weights, the second evidence adding observations to the first, is the chance of
    /// observing what was added.
    pub fn compute_weighed(
        evidence: &Evidence,
        map: &MapKnowledge,
    ) -> Result<(Odds, f64), NoLayout> {
        let n = evidence.rooms();
        let counted = Counted::of(evidence, map);
        let (g, s) = (&counted.g, &counted.s);
        let mut colsum = vec![0.0; n];
        for row in g {
            for (c, v) in colsum.iter_mut().zip(row) {
                *c += v;
            }
        }
        let mut z = 0.0;
        let mut pit = vec![0.0; n];
        let mut bats = vec![0.0; n];
        let mut pw = vec![0.0; n];
        let mut bw = vec![0.0; n];
        let mut count_in = vec![0u64; n];
        let mut deals_pb = 0u64;
        for (four, w) in counted.deals() {
            // Every deal counts for the wumpus's prior below, even one of zero weight.
            deals_pb += 1;
            for &x in &four {
                count_in[x] += 1;
            }
            if w <= 0.0 {
                continue;
            }
            let [p1, p2, b1, b2] = four;
            z += w;
            pit[p1] += w;
            pit[p2] += w;
            bats[b1] += w;
            bats[b2] += w;
            for r in [p1, p2] {
                pw[r] += colsum[r] - four.iter().map(|&x| g[x][r]).sum::<f64>();
            }
            for r in [b1, b2] {
                bw[r] += colsum[r] - four.iter().map(|&x| g[x][r]).sum::<f64>();
            }
        }
        if z <= 0.0 {
            return Err(NoLayout);
        }
        let mut wumpus = vec![0.0; n];
        let mut deals = 0u64;
        for x in 0..n {
            let c = (deals_pb - count_in[x]) as f64;
            if c == 0.0 || s[x] == 0.0 {
                continue;
            }
            if evidence.wumpus[0][x] {
                deals += deals_pb - count_in[x];
            }
            for (wr, gr) in wumpus.iter_mut().zip(&g[x]) {
                *wr += c * gr;
            }
        }
        let scale = |v: &mut Vec<f64>| {
            for x in v.iter_mut() {
                *x /= z;
            }
        };
        for v in [&mut pit, &mut bats, &mut wumpus, &mut pw, &mut bw] {
            scale(v);
        }
        Ok((
            Odds {
                pit,
                bats,
                wumpus,
                pit_and_wumpus: pw,
                bats_and_wumpus: bw,
                deals,
            },
            z,
        ))
    }

    /// Chance that an arrow through `rooms` kills the wumpus (it is in one of them now).
    pub fn kill_chance(&self, rooms: &[Place]) -> f64 {
        let mut seen: Vec<Place> = Vec::with_capacity(rooms.len());
        let mut p = 0.0;
        for &r in rooms {
            if !seen.contains(&r) {
                seen.push(r);
                p += self.wumpus[r.index()];
            }
        }
        p.min(1.0)
    }

    /// Chance that, after an arrow through `rooms` misses, the woken wumpus walks into the
    /// hunter's room `hunter`.
    pub fn eaten_after_miss(&self, rooms: &[Place], hunter: Place, map: &MapKnowledge) -> f64 {
        let mut left = 0.0;
        let mut eaten = 0.0;
        for (w, &p) in self.wumpus.iter().enumerate() {
            let w = Place::new(w);
            if p == 0.0 || rooms.contains(&w) {
                continue;
            }
            left += p;
            let to_hunter: f64 = wake_moves(map, w)
                .iter()
                .filter(|(to, _)| *to == hunter)
                .map(|(_, c)| c)
                .sum();
            eaten += p * to_hunter;
        }
        if left <= 0.0 {
            0.0
        } else {
            eaten / left
        }
    }

    /// Chance of death on walking into `room`: a pit or the wumpus there, or bats that drop the
    /// hunter somewhere deadly.
    pub fn death_on_entering(&self, room: Place) -> f64 {
        let r = room.index();
        let deadly = self.pit[r] + self.wumpus[r] - self.pit_and_wumpus[r];
        let flight = (self.bats[r] - self.bats_and_wumpus[r]).max(0.0);
        (deadly + flight * flight_death(self.pit.len())).clamp(0.0, 1.0)
    }

    /// Chance of being carried off by bats on walking into `room` (and surviving the walk in).
    pub fn snatch_on_entering(&self, room: Place) -> f64 {
        let r = room.index();
        (self.bats[r] - self.bats_and_wumpus[r]).max(0.0)
    }
}

/// Where every hazard is now, in one layout drawn from the posterior.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The wumpus's room now.
    pub wumpus: Place,
    /// The two pit rooms.
    pub pits: [Place; 2],
    /// The two bat rooms.
    pub bats: [Place; 2],
}

/// Draws layouts consistent with the evidence, each with its exact posterior chance: the
/// factored count of [`Odds::compute_weighed`], turned around. A deal of pits and bats is
/// drawn by its weight, then the wumpus's first room among the rest by the weight of its
/// wanderings, then where those wanderings have taken it now. The rollouts of
/// `--rollouts` play games out from such draws.
#[derive(Clone, Debug)]
pub struct LayoutSampler {
    g: Vec<Vec<f64>>,
    s: Vec<f64>,
    /// The pit and bat pairs that fit, with their weights summed as they go.
    deals: Vec<([usize; 4], f64)>,
    total: f64,
}

impl LayoutSampler {
    /// Counts the layouts consistent with `evidence` on the map as known.
    pub fn new(evidence: &Evidence, map: &MapKnowledge) -> Result<LayoutSampler, NoLayout> {
        let counted = Counted::of(evidence, map);
        let mut deals = Vec::new();
        let mut total = 0.0;
        for (four, w) in counted.deals() {
            if w > 0.0 {
                total += w;
                deals.push((four, total));
            }
        }
        if total <= 0.0 {
            return Err(NoLayout);
        }
        Ok(LayoutSampler {
            g: counted.g,
            s: counted.s,
            deals,
            total,
        })
    }

    /// One layout, drawn with its posterior chance.
    pub fn sample(&self, rng: &mut impl rand::Rng) -> Layout {
        let u = rng.random::<f64>() * self.total;
        let at = self
            .deals
            .partition_point(|&(_, cum)| cum <= u)
            .min(self.deals.len() - 1);
        let four = self.deals[at].0;
        let first = pick(
            self.s
                .iter()
                .enumerate()
                .map(|(x, &w)| if four.contains(&x) { 0.0 } else { w }),
            rng,
        );
        let now = pick(self.g[first].iter().copied(), rng);
        Layout {
            wumpus: Place::new(now),
            pits: [Place::new(four[0]), Place::new(four[1])],
            bats: [Place::new(four[2]), Place::new(four[3])],
        }
    }
}

/// An index drawn with chance proportional to its weight (the last positive one if rounding
/// leaves the draw past the end).
fn pick(weights: impl Iterator<Item = f64> + Clone, rng: &mut impl rand::Rng) -> usize {
    let total: f64 = weights.clone().sum();
    let mut u = rng.random::<f64>() * total;
    let mut last = 0;
    for (i, w) in weights.enumerate() {
        if w <= 0.0 {
            continue;
        }
        last = i;
        if u < w {
            return i;
        }
        u -= w;
    }
    last
}

/// The factored count's parts: the wumpus's forward weights (`g[x][r]`, and `s[x]` summed over
/// `r`) and the pit and bat pairs that fit the evidence.
struct Counted {
    g: Vec<Vec<f64>>,
    s: Vec<f64>,
    total_s: f64,
    pit_pairs: Vec<(usize, usize)>,
    bat_pairs: Vec<(usize, usize)>,
}

impl Counted {
    fn of(evidence: &Evidence, map: &MapKnowledge) -> Counted {
        let n = evidence.rooms();
        let g = forward_weights(evidence, map);
        let s: Vec<f64> = g.iter().map(|row| row.iter().sum()).collect();
        let total_s: f64 = s.iter().sum();
        let pit_pairs = pairs(
            n,
            |r| !evidence.no_pit[r] && !evidence.bats[r],
            &evidence.pit_near,
            &vec![false; n],
        );
        let bat_pairs = pairs(
            n,
            |r| !evidence.no_bats[r],
            &evidence.bats_near,
            &evidence.bats,
        );
        Counted {
            g,
            s,
            total_s,
            pit_pairs,
            bat_pairs,
        }
    }

    /// Every deal of the two pits and the two bat rooms, all four different: `[p1, p2, b1,
    /// b2]`, and the weight of the wumpus's ways (from any other room) that fit it.
    fn deals(&self) -> impl Iterator<Item = ([usize; 4], f64)> + '_ {
        self.pit_pairs.iter().flat_map(move |&(p1, p2)| {
            self.bat_pairs.iter().filter_map(move |&(b1, b2)| {
                if p1 == b1 || p1 == b2 || p2 == b1 || p2 == b2 {
                    return None;
                }
                let four = [p1, p2, b1, b2];
                let w = self.total_s - four.iter().map(|&x| self.s[x]).sum::<f64>();
                Some((four, w))
            })
        })
    }
}

/// The forward weights of the wumpus's wanderings: `g[x][r]` is the weight of the ways from
/// room `x` at the deal to room `r` now that fit every epoch's evidence.
fn forward_weights(evidence: &Evidence, map: &MapKnowledge) -> Vec<Vec<f64>> {
    let n = evidence.rooms();
    let epochs = &evidence.wumpus;
    let moves: Vec<Vec<(Place, f64)>> = if epochs.len() > 1 {
        (0..n).map(|x| wake_moves(map, Place::new(x))).collect()
    } else {
        Vec::new()
    };
    let mut g = vec![vec![0.0; n]; n];
    for (x, row) in g.iter_mut().enumerate() {
        if !epochs[0][x] {
            continue;
        }
        row[x] = 1.0;
        for allowed in &epochs[1..] {
            let mut next = vec![0.0; n];
            for (from, &w) in row.iter().enumerate() {
                if w == 0.0 {
                    continue;
                }
                for &(to, c) in &moves[from] {
                    next[to.index()] += w * c;
                }
            }
            for (v, &ok) in next.iter_mut().zip(allowed) {
                if !ok {
                    *v = 0.0;
                }
            }
            *row = next;
        }
    }
    g
}

/// The pairs of different rooms `(a, b)`, `a < b`, both allowed, that meet every "one of these
/// rooms" set and hold every room of `must`.
fn pairs(
    n: usize,
    allowed: impl Fn(usize) -> bool,
    sets: &[Vec<Place>],
    must: &[bool],
) -> Vec<(usize, usize)> {
    let rooms: Vec<usize> = (0..n).filter(|&r| allowed(r)).collect();
    let member: Vec<Vec<bool>> = sets
        .iter()
        .map(|set| {
            let mut m = vec![false; n];
            for r in set {
                m[r.index()] = true;
            }
            m
        })
        .collect();
    let musts: Vec<usize> = (0..n).filter(|&r| must[r]).collect();
    let mut out = Vec::new();
    for (i, &a) in rooms.iter().enumerate() {
        for &b in &rooms[i + 1..] {
            if musts.iter().any(|&m| m != a && m != b) {
                continue;
            }
            if member.iter().all(|m| m[a] || m[b]) {
                out.push((a, b));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::map::parse_map;

    fn p(i: usize) -> Place {
        Place::new(i)
    }

    #[test]
    fn nothing_observed_gives_the_deal_odds() {
        let map = parse_map(include_str!("../../../../../worlds/cave-standard.txt")).unwrap();
        let k = MapKnowledge::known(&map);
        let e = Evidence::new(20, p(0));
        let o = Odds::compute(&e, &k).unwrap();
        // 19 rooms for 2 pits, 2 bats and the wumpus, all alike.
        for r in 1..20 {
            assert!((o.pit[r] - 2.0 / 19.0).abs() < 1e-12);
            assert!((o.bats[r] - 2.0 / 19.0).abs() < 1e-12);
            assert!((o.wumpus[r] - 1.0 / 19.0).abs() < 1e-12);
        }
        assert_eq!(o.pit[0], 0.0);
        // 19 * C(18, 2) * C(16, 2) deals.
        assert_eq!(o.deals, 19 * 153 * 120);
    }

    #[test]
    fn a_stench_and_a_miss_then_a_wake() {
        let map = parse_map(include_str!("../../../../../worlds/cave-standard.txt")).unwrap();
        let k = MapKnowledge::known(&map);
        let mut e = Evidence::new(20, p(0));
        // Room 1 (index 0) joins 2, 5, 8: the wumpus is in one of them.
        let near: Vec<Place> = map.topology().linked(p(0));
        e.stench(&near, true);
        let o = Odds::compute(&e, &k).unwrap();
        for r in &near {
            assert!((o.wumpus[r.index()] - 1.0 / 3.0).abs() < 1e-12);
        }
        assert!((o.kill_chance(&near[..2]) - 2.0 / 3.0).abs() < 1e-12);
        // An arrow into room 2 misses; the woken wumpus was in 5 or 8 and may walk into room 1.
        let eaten = o.eaten_after_miss(&[near[0]], p(0), &k);
        assert!((eaten - 0.25).abs() < 1e-12, "{eaten}");
        e.not_wumpus(near[0]);
        e.wake();
        e.survived(p(0));
        let o = Odds::compute(&e, &k).unwrap();
        let total: f64 = o.wumpus.iter().sum();
        assert!((total - 1.0).abs() < 1e-12);
        // It stayed (1/3 of the surviving ways) or moved one tunnel from 5 or 8.
        assert!((o.wumpus[near[1].index()] - 1.0 / 6.0).abs() < 1e-12);
        assert_eq!(o.wumpus[0], 0.0);
    }

    #[test]
    fn layouts_are_drawn_with_their_posterior_chance() {
        use rand::SeedableRng;
        let map = parse_map(include_str!("../../../../../worlds/cave-risk.txt")).unwrap();
        let k = MapKnowledge::known(&map);
        let mut e = Evidence::new(20, p(5));
        let near: Vec<Place> = map.topology().linked(p(5));
        e.draft(&near, true);
        e.flapping(&near, false);
        e.stench(&near, true);
        e.not_wumpus(near[0]);
        e.wake();
        e.survived(p(5));
        e.stench(&near, false);
        let o = Odds::compute(&e, &k).unwrap();
        let sampler = LayoutSampler::new(&e, &k).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let draws = 200_000;
        let (mut wumpus, mut pit, mut bats) = (vec![0.0; 20], vec![0.0; 20], vec![0.0; 20]);
        for _ in 0..draws {
            let l = sampler.sample(&mut rng);
            wumpus[l.wumpus.index()] += 1.0 / draws as f64;
            for r in l.pits {
                pit[r.index()] += 1.0 / draws as f64;
            }
            for r in l.bats {
                bats[r.index()] += 1.0 / draws as f64;
            }
        }
        for r in 0..20 {
            // Five standard errors of a frequency near 1/2 in 200,000 draws.
            assert!((wumpus[r] - o.wumpus[r]).abs() < 0.006, "wumpus {r}");
            assert!((pit[r] - o.pit[r]).abs() < 0.006, "pit {r}");
            assert!((bats[r] - o.bats[r]).abs() < 0.006, "bats {r}");
        }
        assert_eq!(wumpus[5], 0.0);
        assert!(o.wumpus.iter().filter(|&&w| w > 0.0).count() > 1);
    }
}
