//! What a grenade does to the maze belief: the kill or the miss, the startled wumpi's runs to
//! caves next to theirs, and the chance that one runs into the player's cave.
//!
//! Where a startled wumpus goes depends on where the pit and the bats are; the runs take each
//! cave to be free of them with its current chance (the decision the belief module states).
//! They must never give a way the game allows chance nought, nor keep a set of wumpus caves
//! that would have ended the game.

use super::{MazeBelief, Parts};
use crate::cave::hazards::GRENADES_PER_WUMPUS;
use crate::cave::map::CaveMap;
use crate::topology::Place;
/// Where one startled wumpus goes (a cave, or `None`: it stays), with the chance of each.
type Runs = Vec<(Option<usize>, f64)>;

impl MazeBelief {
    /// The chance that a grenade tossed into `blast` from `player` makes a startled wumpus run
    /// into the player's cave.
    pub fn devour_chance(&self, map: &CaveMap, blast: Place, player: Place) -> f64 {
        self.devour_chances(map, &[blast], player)[0]
    }

    /// [`MazeBelief::devour_chance`] for each of `blasts`, counting the layouts once.
    pub fn devour_chances(&self, map: &CaveMap, blasts: &[Place], player: Place) -> Vec<f64> {
        let parts = self.parts();
        let before: f64 = parts.sets.iter().sum();
        blasts
            .iter()
            .map(|&blast| {
                if before <= 0.0 {
                    0.0
                } else {
                    self.runs(map, blast, player, parts, false).0 / before
                }
            })
            .collect()
    }

    /// A grenade tossed into `blast` from `player` killed (`hit`) or missed: the kill (if any),
    /// the startled wumpi's runs, and the survival of the player (no wumpus ran in). Returns
    /// the weight of the ways the player was devoured (removed).
    pub fn toss(&mut self, map: &CaveMap, blast: Place, player: Place, hit: bool) -> f64 {
        let b = blast.index();
        self.keep_sets(|m| (m >> b & 1 == 1) == hit);
        self.tosses += 1;
        let devoured = self.startle(map, blast, player);
        if hit {
            self.kills += 1;
        }
        // The game goes on: wumpi are left, and so are grenades.
        let (kills, tosses) = (self.kills, self.tosses);
        self.keep_sets(|m| m != 0 && GRENADES_PER_WUMPUS * (m.count_ones() + kills) > tosses);
        devoured
    }

    /// The blast's effect on every set: the kill, then each startled wumpus's run (one at a
    /// time, in the blast cave's tunnel order, to an empty cave among its tunnels' or staying
    /// when none is free). Drops the ways a wumpus runs into `player`'s cave and returns their
    /// weight.
    fn startle(&mut self, map: &CaveMap, blast: Place, player: Place) -> f64 {
        let (devoured, sets) = self.runs(map, blast, player, self.parts(), true);
        self.parts.take();
        self.sets = sets;
        devoured
    }

    /// The startled wumpi's runs from every set (see [`MazeBelief::startle`]), given the sets'
    /// layout weights: the weight of the ways the player is devoured, and (when `collect`) the
    /// sets after the runs, with their weights.
    fn runs(
        &self,
        map: &CaveMap,
        blast: Place,
        player: Place,
        parts: &Parts,
        collect: bool,
    ) -> (f64, Vec<(u64, f64)>) {
        let n = self.n;
        let b = blast.index();
        // A cave is free of the pit and the bats with its current chance (by decision).
        let set_w = &parts.sets;
        let zp: f64 = parts.pit.iter().sum();
        let free: Vec<f64> = (0..n)
            .map(|c| {
                if zp > 0.0 {
                    (1.0 - (parts.pit[c] + parts.bats[c]) / zp).max(0.0)
                } else {
                    1.0
                }
            })
            .collect();
        let mut order: Vec<usize> = Vec::new();
        for &c in map.outs(blast) {
            if !order.contains(&c.index()) {
                order.push(c.index());
            }
        }
        // Each startled cave's tunnels' caves, each once, itself excluded.
        let exits: Vec<Vec<usize>> = order
            .iter()
            .map(|&x| {
                let mut t: Vec<usize> = Vec::new();
                for &c in map.outs(Place::new(x)) {
                    if c.index() != x && !t.contains(&c.index()) {
                        t.push(c.index());
                    }
                }
                t
            })
            .collect();
        // Where a startled wumpus in each startled cave goes, for each pattern of its exits
        // that other wumpi hold: each free exit alike among those free of the pit and the
        // bats, or nowhere when none is, with its chance.
        let outcomes: Vec<Vec<Runs>> = exits
            .iter()
            .map(|exits| {
                (0..1usize << exits.len())
                    .map(|taken| {
                        let targets: Vec<usize> = exits
                            .iter()
                            .enumerate()
                            .filter(|&(j, _)| taken >> j & 1 == 0)
                            .map(|(_, &t)| t)
                            .collect();
                        let mut out: Runs = targets.iter().map(|&t| (Some(t), 0.0)).collect();
                        let mut stay = 0.0;
                        // Every pattern of which targets are free of the pit and the bats.
                        for pattern in 0u32..1 << targets.len() {
                            let mut chance = 1.0;
                            let mut open = 0usize;
                            for (j, &t) in targets.iter().enumerate() {
                                if pattern >> j & 1 == 1 {
                                    chance *= free[t];
                                    open += 1;
                                } else {
                                    chance *= 1.0 - free[t];
                                }
                            }
                            if open == 0 {
                                stay += chance;
                                continue;
                            }
                            for (j, o) in out.iter_mut().enumerate() {
                                if pattern >> j & 1 == 1 {
                                    o.1 += chance / open as f64;
                                }
                            }
                        }
                        out.push((None, stay));
                        out.retain(|o| o.1 > 0.0);
                        out
                    })
                    .collect()
            })
            .collect();
        let p = player.index();
        let startled: u64 = order.iter().fold(0, |m, &x| m | 1 << x);
        // The startled caves with a tunnel into the player's: only a wumpus there can run in,
        // so a set without one devours nobody, whatever the others do.
        let danger: u64 = order
            .iter()
            .zip(&exits)
            .filter(|(_, t)| t.contains(&p))
            .fold(0, |m, (&x, _)| m | 1 << x);
        // The sets nobody left, still in increasing order (the kill takes one cave out of
        // every set alike), and the sets the runs made.
        let mut stay: Vec<(u64, f64)> = Vec::new();
        let mut moved: Vec<(u64, f64)> = Vec::new();
        let mut devoured = 0.0;
        let mut ways: Vec<(u64, f64)> = Vec::new();
        let mut after: Vec<(u64, f64)> = Vec::new();
        for (&(m, w), &joint) in self.sets.iter().zip(set_w) {
            // Devouring is counted in layouts' weight: this set's share of it.
            let scale = if w > 0.0 { joint / w } else { 0.0 };
            let start = m & !(1 << b);
            if !collect && start & danger == 0 {
                continue;
            }
            if start & startled == 0 {
                // Nobody is startled: the set stays as it is (less its kill).
                if collect {
                    stay.push((start, w));
                }
                continue;
            }
            ways.clear();
            ways.push((start, w));
            // Who is startled is settled before anyone runs: a wumpus that runs into a cave
            // next to the blast is not startled again.
            for (i, &x) in order.iter().enumerate() {
                if start >> x & 1 == 0 {
                    continue;
                }
                after.clear();
                for &(m, w) in &ways {
                    let taken = exits[i]
                        .iter()
                        .enumerate()
                        .fold(0, |o, (j, &t)| o | ((m >> t & 1) as usize) << j);
                    for &(to, chance) in &outcomes[i][taken] {
                        match to {
                            None => after.push((m, w * chance)),
                            Some(t) if t == p => devoured += w * chance * scale,
                            Some(t) => after.push(((m & !(1 << x)) | 1 << t, w * chance)),
                        }
                    }
                }
                std::mem::swap(&mut ways, &mut after);
            }
            if collect {
                moved.extend_from_slice(&ways);
            }
        }
        if !collect {
            return (devoured, Vec::new());
        }
        // The same set reached in several ways: one entry, the weights added. A set left
        // empty would end the game, so it is not kept.
        debug_assert!(
            stay.windows(2).all(|w| w[0].0 < w[1].0),
            "a blast's kill takes the same cave out of every set, so their order stands"
        );
        moved.sort_unstable_by_key(|&(m, _)| m);
        let mut sets: Vec<(u64, f64)> = Vec::with_capacity(stay.len() + moved.len());
        let (mut a, mut b) = (stay.into_iter().peekable(), moved.into_iter().peekable());
        loop {
            let take_a = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) => x.0 <= y.0,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let (m, w) = if take_a { a.next() } else { b.next() }.expect("peeked");
            match sets.last_mut() {
                Some((last, sum)) if *last == m => *sum += w,
                _ if m != 0 => sets.push((m, w)),
                _ => {}
            }
        }
        sets.retain(|&(_, w)| w > 0.0);
        (devoured, sets)
    }
}
