//! What the discovered-maze agent holds of each tunnel of a cave on its map: the hazards the
//! knowledge base proves there or proves absent, and where it proves nothing the estimated
//! chances (a draft, a smell and wings shared among the open tunnels, misses as evidence); with
//! the counts of wumpi and grenades the game's answers bound.
//!
//! An estimate must never stand in for a proof: a tunnel is free or a hazard proven only when
//! the knowledge base proves it.

use super::{seen, DiscoveredMazeAgent, TunnelOdds, MISS_DECAY};
use crate::cave::hazards::{MazeHazards, GRENADES_PER_WUMPUS};

/// A hazard behind a tunnel: proven absent, proven present, or an estimated chance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Hazard {
    Free,
    Proven,
    Chance(f64),
}

impl Hazard {
    pub(super) fn chance(self) -> f64 {
        match self {
            Hazard::Free => 0.0,
            Hazard::Proven => 1.0,
            Hazard::Chance(p) => p,
        }
    }
}

/// What the agent holds of one tunnel of one node.
#[derive(Clone, Copy, Debug)]
pub(super) struct Assessed {
    pub(super) pit: Hazard,
    pub(super) wumpus: Hazard,
    pub(super) bats: Hazard,
    /// The tunnel showed `unknown`: it leads to a cave never visited (or, on a first stay,
    /// back to this one).
    pub(super) unknown: bool,
}

impl DiscoveredMazeAgent {
    /// What the knowledge base proves of the cave behind tunnel `k` of `node`; for a node that
    /// may be any of several caves, also what it proves of that tunnel of every one of them.
    pub(super) fn proven(&self, node: usize, k: usize) -> seen::Proven {
        let n = &self.nodes[node];
        let tunnel = |c: usize| {
            self.far(c, k)
                .map(|f| self.seen.proven(f))
                .unwrap_or_default()
        };
        // A tunnel learnt to lead to a node after its place was made: both places are that cave.
        let there = n.edges.get(k - 1).copied().flatten();
        let own = tunnel(node).or(there.map_or_else(Default::default, |to| {
            self.seen.proven(self.nodes[to].place)
        }));
        let mut each = n.may_be.iter().map(|&c| tunnel(c));
        match each.next() {
            Some(first) => own.or(each.fold(first, seen::Proven::alike)),
            None => own,
        }
    }

    /// What the agent holds of each tunnel of `node`, from what it sensed there last.
    pub(super) fn assess(&self, node: usize) -> Vec<Assessed> {
        let n = &self.nodes[node];
        let tunnels = n.shown.len();
        let senses = n.senses;
        let bats_known = self.colony().is_some();
        let visited: Vec<bool> = (1..=tunnels)
            .map(|k| self.leads_to_visited(node, k))
            .collect();
        // What the knowledge base proves of each tunnel's cave.
        let proven: Vec<seen::Proven> = (1..=tunnels).map(|k| self.proven(node, k)).collect();
        let pit_free: Vec<bool> = proven.iter().map(|p| p.pit == Some(false)).collect();
        let wumpus_free: Vec<bool> = proven.iter().map(|p| p.wumpus == Some(false)).collect();
        let bats_free: Vec<bool> = proven.iter().map(|p| p.bats == Some(false)).collect();
        let q = self.density;
        let open = |free: &[bool]| free.iter().filter(|f| !**f).count();
        // A tunnel a grenade just missed: likely empty, but not proven (a wumpus startled by
        // that very blast may have run in).
        let just_missed: Vec<bool> = (0..tunnels)
            .map(|i| n.missed.get(i).copied().flatten() == Some(self.epoch))
            .collect();
        let (pits_open, bats_open) = (open(&pit_free), open(&bats_free));
        let likely: Vec<bool> = (0..tunnels)
            .map(|i| wumpus_free[i] || just_missed[i])
            .collect();
        let wumpi_open = open(&wumpus_free);
        let wumpi_likely = open(&likely).max(1);
        (0..tunnels)
            .map(|i| {
                let pit = if pit_free[i] {
                    Hazard::Free
                } else if proven[i].pit == Some(true) {
                    Hazard::Proven
                } else {
                    Hazard::Chance(1.0 / pits_open as f64)
                };
                let wumpus = if wumpus_free[i] {
                    Hazard::Free
                } else if proven[i].wumpus == Some(true) {
                    Hazard::Proven
                } else if just_missed[i] && wumpi_open > 1 {
                    Hazard::Chance(q)
                } else if senses.is_some_and(|s| s.smell) {
                    // A smell since the last blast proves; an older one still says where
                    // the wumpus most likely is (only wumpi next to a blast run).
                    // At least one of the open tunnels holds a wumpus; each miss through this
                    // one since the smell began makes it less likely the one.
                    let none = (1.0 - q).powi(wumpi_likely as i32);
                    let misses = n.misses.get(i).copied().unwrap_or(0);
                    let decay = MISS_DECAY.powi(misses as i32);
                    Hazard::Chance((q / (1.0 - none).max(q)).min(1.0) * decay)
                } else {
                    // Nothing smelt, but before the last blast: a wumpus may have run in.
                    Hazard::Chance(q)
                };
                let bats = if bats_free[i] {
                    Hazard::Free
                } else if proven[i].bats == Some(true) {
                    Hazard::Proven
                } else if !visited[i] && bats_known {
                    // One colony, and its cave has been entered: a tunnel that shows no name
                    // leads elsewhere. True, but not told to the knowledge base (which holds no
                    // counts), so given as a chance of none rather than a proof.
                    Hazard::Chance(0.0)
                } else if senses.is_some_and(|s| s.hear) {
                    Hazard::Chance(1.0 / bats_open as f64)
                } else {
                    Hazard::Chance(1.0 / self.unvisited as f64)
                };
                Assessed {
                    pit,
                    wumpus,
                    bats,
                    unknown: !visited[i],
                }
            })
            .collect()
    }

    /// Caves not yet stood in, as far as the agent can count them: by names, since a cave may
    /// be on its map twice (so caves sharing a name count once, and the count may be high).
    pub(super) fn count_unvisited(&self) -> usize {
        let mut names: Vec<&str> = self
            .nodes
            .iter()
            .filter(|n| n.stood.is_some())
            .filter_map(|n| n.name.as_deref())
            .collect();
        names.sort_unstable();
        names.dedup();
        self.caves.saturating_sub(names.len()).max(1)
    }

    /// The fewest wumpi the game can have dealt, from its answers: while it goes on one is
    /// alive, so more than were killed, and a grenade is left, so more than a quarter of those
    /// tossed (four a wumpus).
    pub fn fewest_dealt(&self) -> u32 {
        (self.kills + 1).max(self.tosses / GRENADES_PER_WUMPUS + 1)
    }

    /// The fewest grenades the player can still hold.
    pub fn grenades_at_least(&self) -> u32 {
        GRENADES_PER_WUMPUS * self.fewest_dealt() - self.tosses
    }

    /// The chance that the next grenade is the last: the deal's count of wumpi (1 to caves/4
    /// alike) given the fewest it can have been, with exactly one grenade left.
    pub fn last_grenade(&self) -> f64 {
        let (fewest, most) = (self.fewest_dealt(), self.most_dealt());
        if fewest > most {
            return 0.0;
        }
        let last = (fewest..=most)
            .filter(|&w| GRENADES_PER_WUMPUS * w == self.tosses + 1)
            .count();
        last as f64 / (most - fewest + 1) as f64
    }

    fn most_dealt(&self) -> u32 {
        MazeHazards::most_wumpi(self.caves) as u32
    }

    /// The estimated chance that a cave not yet visited holds a live wumpus: the wumpi the
    /// deal leaves alive on average, given the fewest it can have dealt, over the caves not yet
    /// visited.
    pub(super) fn wumpus_density(&self) -> f64 {
        let (fewest, most) = (
            self.fewest_dealt(),
            self.most_dealt().max(self.fewest_dealt()),
        );
        let mean = (fewest + most) as f64 / 2.0;
        let left = (mean - self.kills as f64).max(1.0);
        (left / self.unvisited as f64).min(1.0)
    }

    /// The estimated odds of each tunnel of the player's cave.
    pub fn tunnels(&self) -> Vec<TunnelOdds> {
        if self.nodes.is_empty() {
            return Vec::new();
        }
        let here = &self.nodes[self.at];
        self.assess(self.at)
            .iter()
            .enumerate()
            .map(|(i, a)| TunnelOdds {
                tunnel: i + 1,
                name: here.shown[i].clone().unwrap_or_else(|| "unknown".into()),
                wumpus: a.wumpus.chance(),
                pit: a.pit.chance(),
                bats: a.bats.chance(),
                devour: 0.0,
                estimated: true,
                safe: a.pit == Hazard::Free && a.wumpus == Hazard::Free,
                proven_wumpus: a.wumpus == Hazard::Proven,
            })
            .collect()
    }
}
