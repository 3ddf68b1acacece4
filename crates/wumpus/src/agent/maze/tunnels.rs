//! The map-known maze agent's view of its three tunnels: where each leads in the player's
//! words, the odds of its cave mixed over the tracks ([`TunnelOdds`]), and the figures a
//! choice weighs them by (a toss's worth, a step's risk, the chance of dying).
//!
//! A tunnel's cave must never be named before the player has been shown where it leads.

use super::{discovered, MazeAgent};
use crate::topology::Place;

/// What the agent believes of each tunnel's cave, mixed over its tracks.
#[derive(Clone, Debug, PartialEq)]
pub struct TunnelOdds {
    /// The tunnel (1 to 3).
    pub tunnel: usize,
    /// The cave's name.
    pub name: String,
    /// Chance of a live wumpus there.
    pub wumpus: f64,
    /// Chance of the pit.
    pub pit: f64,
    /// Chance of the bats.
    pub bats: f64,
    /// Chance that a grenade there makes a wumpus run into the player's cave (not counted
    /// when `estimated`).
    pub devour: f64,
    /// The chances are estimates (the agent does not hold the map), not exact odds.
    pub estimated: bool,
    /// Proven free of the pit and wumpi on every track.
    pub safe: bool,
    /// Proven to hold a wumpus on every track.
    pub proven_wumpus: bool,
}

impl MazeAgent {
    /// Tunnel `tunnel` in the player's words: where it leads once the player has seen it, so
    /// that a reason never names a cave the player has not been shown.
    pub fn through(&self, tunnel: usize) -> String {
        match self.seen.get(tunnel - 1).cloned().flatten() {
            Some(name) => format!("tunnel {tunnel} to {name}"),
            None => format!("tunnel {tunnel} (not yet seen)"),
        }
    }

    /// A cave as the player knows it: its name, with its number when names repeat.
    pub fn cave_name(&self, cave: Place) -> String {
        let name = self.map.name(cave);
        let twins = self
            .map
            .rooms()
            .filter(|&c| self.map.name(c) == name)
            .count();
        if twins > 1 {
            format!("{name} (cave {})", self.map.label(cave))
        } else {
            name
        }
    }

    /// The odds of each tunnel's cave, mixed over the tracks.
    pub fn tunnels(&self) -> Vec<TunnelOdds> {
        self.tunnel_odds(true)
    }

    /// The same; the chance of being devoured after a toss only when `devour` (it is the
    /// costly part, and exploring needs none of it).
    pub(super) fn tunnel_odds(&self, devour: bool) -> Vec<TunnelOdds> {
        let weights = self.weights();
        // Each track's devouring chance through each tunnel, counted once a track.
        let devours: Vec<[f64; 3]> = self
            .tracks
            .iter()
            .map(|t| {
                let mut d = [0.0; 3];
                let o = t.odds.as_ref().expect("counted");
                let outs = self.map.outs(t.pos);
                let blasts: Vec<Place> = outs
                    .iter()
                    .copied()
                    .filter(|c| devour && o.wumpus[c.index()] > 0.0)
                    .collect();
                let chances = t.belief.devour_chances(&self.map, &blasts, t.pos);
                let mut next = chances.iter();
                for (k, c) in outs.iter().enumerate() {
                    if devour && o.wumpus[c.index()] > 0.0 {
                        d[k] = *next.next().expect("one a blast");
                    }
                }
                d
            })
            .collect();
        (1..=3)
            .map(|k| {
                let mut to = TunnelOdds {
                    tunnel: k,
                    name: String::new(),
                    wumpus: 0.0,
                    pit: 0.0,
                    bats: 0.0,
                    devour: 0.0,
                    estimated: false,
                    safe: true,
                    proven_wumpus: true,
                };
                let mut names: Vec<String> = Vec::new();
                for ((t, &wt), d) in self.tracks.iter().zip(&weights).zip(&devours) {
                    let c = self.map.outs(t.pos)[k - 1];
                    let o = t.odds.as_ref().expect("counted");
                    to.wumpus += wt * o.wumpus[c.index()];
                    to.pit += wt * o.pit[c.index()];
                    to.bats += wt * o.bats[c.index()];
                    to.devour += wt * d[k - 1];
                    to.safe &= t.safe[c.index()];
                    to.proven_wumpus &= t.wumpus[c.index()];
                    let name = self.cave_name(c);
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
                to.name = names.join(" or ");
                to
            })
            .collect()
    }
}

/// The least chance of a kill for which a maze agent tosses while something else is left to
/// try: higher when the grenade is likely the last (a miss then loses the game).
pub(crate) fn toss_threshold(last_grenade: f64) -> f64 {
    if last_grenade > 0.5 {
        0.75
    } else {
        discovered::TOSS_AT_LEAST
    }
}

/// A grenade's worth: the chance of a kill less the chance of being devoured.
pub(super) fn toss_value(t: &TunnelOdds) -> f64 {
    t.wumpus - t.devour
}

/// A step's risk: the pit or a wumpus through the tunnel.
pub(super) fn step_risk(t: &TunnelOdds) -> f64 {
    death_chance(t.pit, t.wumpus)
}

/// The chance of dying on stepping into a cave with chance `pit` of a pit and `wumpus` of a
/// wumpus: a maze's cave holds one hazard at most, so the chances add. The figure the board
/// and the reasons ("to die") name.
pub(crate) fn death_chance(pit: f64, wumpus: f64) -> f64 {
    (pit + wumpus).min(1.0)
}
