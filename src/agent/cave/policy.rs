//! The classic cave agent's policy: every tuned number that weighs shooting against walking,
//! named in one value ([`Policy`]), and what each comes to in the situation at hand.
//!
//! It must never decide anything itself: the rules (module `rules`) ask it for numbers.

use super::*;

/// The few numbers that weigh shooting against walking.
///
/// The agent values shooting by an exact lookahead: the expected score of shooting the best
/// path from where it stands, and after each miss (the wumpus wakes; the hunter smells it or
/// not) the best path again, until a kill or no arrows are left, never moving. Walking on
/// has no such closed form; the policy weighs it with two numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    /// Shoot rather than explore proven-safe rooms when shooting from here is worth at least
    /// this share of a kill now (`100 − moves` points).
    pub shoot_share: f64,
    /// What exploring on is taken to be worth, as a share of a kill now: with nothing safe
    /// left, the agent steps into the least-risk room when surviving that step times this
    /// beats shooting from here.
    pub explore_share: f64,
    /// `explore_share` with one arrow left, and rule 3's share too when it is larger than
    /// `shoot_share`. A miss of the last arrow loses the game, and the wumpus only moves when
    /// an arrow wakes it, so walking on until it is smelt, and shooting then, is worth more
    /// than with arrows to spare.
    pub last_arrow_share: f64,
    /// `explore_share` (with arrows to spare) once a tunnel is known to go one way only
    /// ([`MapKnowledge::one_way_seen`]). Where tunnels need not lead back, a step into the
    /// unknown may not be undone and what it shows may not help the way back, so walking on
    /// is worth less and shooting from here more.
    pub one_way_explore_share: f64,
    /// On a map being discovered, shoot on past the known tunnels ([`blind::blind_shot`]) when
    /// the estimated chance of a kill is at least this...
    pub blind_chance: f64,
    /// ...and more than this many arrows are left (the rest are kept for a wumpus smelt).
    pub blind_arrows_kept: u8,
    /// On a map being discovered, with nothing safe left: when the least-risk step has at
    /// least this chance to die, shoot on past the known tunnels first, whatever the estimated
    /// chance, while the wumpus cannot be next door and two arrows or more are left. The
    /// step may kill; an arrow that kills first saves it, and one that misses leaves the
    /// same step to take (a fifth miss loses, so the last arrow is kept).
    pub blind_before_gamble: f64,
    /// What a bat flight costs in the least-risk step (rule 6), as a share of the chance of
    /// being carried off, on top of the flight's chance of death: the hunter lands anywhere,
    /// away from the rooms it has proven safe.
    pub flight_penalty: f64,
    /// `flight_penalty` once a tunnel is seen to go one way, while the map is being
    /// discovered. There a step into the unknown may strand the hunter where every way on is
    /// a gamble, and the rooms it has proven safe may be out of reach whatever it does, so
    /// being carried off loses less. Paired, the map discovered, against 0.3: waterslide +0.19
    /// (20,000 training games from seed 1,000,000), +0.04 (from 2,000,000) and +0.11 (100,000
    /// from seed 0); 20 training one-way maps +0.12, 40 unseen ones +0.16 (`docs/caves.md`,
    /// "Bat flights where tunnels go one way").
    pub one_way_flight_penalty: f64,
    /// Added to the risk of rule 6's step into a room with no known tunnel back into a room
    /// the hunter has stood in, once a tunnel is seen to go one way while the map is being
    /// discovered. Where tunnels go one way such a room may strand the hunter: if it warns,
    /// every way on may be another gamble, with the proven-safe rooms behind out of reach.
    /// Paired, the map discovered, against none: 20 training one-way maps +0.24, 40 unseen
    /// ones +0.11, 20 more +0.23 (`docs/caves.md`, "Steps with no way back").
    pub one_way_no_way_back: f64,
    /// On a map being discovered, an arrow along known tunnels that ends in an unvisited room
    /// not next to the hunter flies on past them ([`blind::with_tail`]), and the shooting
    /// look-ahead weighs the first arrow's tail at this share of its estimated chance of a
    /// kill (0: arrows still fly on, but the worth leaves the tail out). The estimate runs
    /// high where the map has few short loops: a tunnel between two unvisited rooms is less
    /// likely there than the model's "any unvisited room alike".
    pub tail_trust: f64,
    /// With the map known and nothing safe left, weigh every step into a room not proven
    /// safe by what may be felt there (each warning with its exact chance, then the better of
    /// the best shot from there and walking on) against shooting from here, rather than
    /// `explore_share` of surviving the least-risk step (`--depth 2`; off by default).
    pub step_lookahead: bool,
    /// With the map known, weigh shooting against walking by this many rollouts a
    /// candidate ([`rollout`]; `--rollouts N`; 0, the default, is off).
    pub rollouts: u32,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            shoot_share: 0.8,
            explore_share: 0.7,
            last_arrow_share: 0.9,
            one_way_explore_share: 0.5,
            blind_chance: 0.1,
            blind_arrows_kept: 3,
            blind_before_gamble: 0.15,
            flight_penalty: 0.3,
            one_way_flight_penalty: 0.1,
            one_way_no_way_back: 0.03,
            tail_trust: 0.75,
            step_lookahead: false,
            rollouts: 0,
        }
    }
}

impl CaveAgent {
    /// What walking on is taken to be worth now, as a share of a kill: more with the last
    /// arrow ([`Policy::last_arrow_share`]), less once a one-way tunnel has been seen
    /// ([`Policy::one_way_explore_share`]).
    pub(crate) fn explore_share_now(&self) -> f64 {
        match self.arrows {
            1 => self.config.policy.last_arrow_share,
            _ => self.spare_arrows_share(),
        }
    }

    /// What walking on is worth with arrows to spare, as a share of a kill:
    /// [`Policy::explore_share`], or [`Policy::one_way_explore_share`] once a one-way tunnel
    /// has been seen.
    pub(super) fn spare_arrows_share(&self) -> f64 {
        if self.map.one_way_seen() {
            self.config.policy.one_way_explore_share
        } else {
            self.config.policy.explore_share
        }
    }

    /// True while the map is being discovered once a tunnel has been seen to go one way: the
    /// state in which exploring, bat flights and steps with no way back are weighed for
    /// one-way tunnels (with the map given, those were not measured and are not).
    pub(super) fn discovering_one_way(&self) -> bool {
        !self.map.whole() && self.map.one_way_seen()
    }

    /// What a bat flight costs the least-risk step now, as a share of the chance of being
    /// carried off: [`Policy::flight_penalty`], or [`Policy::one_way_flight_penalty`] once a
    /// tunnel is seen to go one way while the map is being discovered (with the map given the
    /// one-way value was not measured, and the first is kept).
    pub(super) fn flight_penalty_now(&self) -> f64 {
        if self.discovering_one_way() {
            self.config.policy.one_way_flight_penalty
        } else {
            self.config.policy.flight_penalty
        }
    }

    /// What rule 6's least-risk step adds to the risk of a room with no known tunnel back
    /// into a visited room: [`Policy::one_way_no_way_back`] once a tunnel is seen to go one
    /// way while the map is being discovered, else nothing (on a two-way map every tunnel
    /// leads back; with the map given it was not measured).
    pub(super) fn no_way_back_now(&self) -> f64 {
        if self.discovering_one_way() {
            self.config.policy.one_way_no_way_back
        } else {
            0.0
        }
    }

    /// What walking on after a missed arrow is worth, as a share of a kill, when the chance of
    /// dying on the next step is `risk`: for the shooting look-ahead to weigh against
    /// shooting on ([`Stakes::walk_on`]).
    ///
    /// With the map known, the share walking on is worth with arrows to spare, times the
    /// chance of surviving the step. Not the last arrow's larger share: just after a miss the
    /// woken wumpus is not where it was, so waiting to be sure of it is worth less (measured:
    /// 0.9 with the last arrow gained a third as much). While the map is being discovered, 0:
    /// arrows reach only rooms next to where the hunter has stood, so a wumpus woken into the
    /// unknown must be found again, and weighing walking on at any share made the agent shoot
    /// more and score less (0.7: 4.7 points a game less; even 0.1: 0.07 less).
    pub(super) fn walk_on_share(&self, risk: f64) -> f64 {
        if self.map.whole() {
            self.spare_arrows_share() * (1.0 - risk)
        } else {
            0.0
        }
    }

    /// [`CaveAgent::walk_on_share`] for shooting from `room`: the step is free while a
    /// proven-safe room is left to explore from there, else the least-risk step.
    pub(super) fn walk_on_after_miss(&self, known: &Topology, room: Place, odds: &Odds) -> f64 {
        self.walk_on_weighed(
            || self.explore_route(known, room).is_some(),
            || {
                self.least_risk_step(known, room, odds)
                    .map(|(_, risk, _)| risk)
            },
        )
    }

    /// [`CaveAgent::walk_on_after_miss`] from what is asked of the room: whether a proven-safe
    /// room is left to explore, and else the least-risk step's chance of death. Neither is
    /// asked while the map is being discovered (walking on is not weighed then).
    pub(super) fn walk_on_weighed(
        &self,
        explore_left: impl FnOnce() -> bool,
        step_risk: impl FnOnce() -> Option<f64>,
    ) -> f64 {
        if !self.map.whole() {
            return 0.0;
        }
        let risk = if explore_left() {
            0.0
        } else {
            step_risk().unwrap_or(1.0)
        };
        self.walk_on_share(risk)
    }

    /// Rule 3's share of a kill that shooting must be worth: [`Policy::shoot_share`], but
    /// never less than what walking on is worth with the last arrow
    /// ([`Policy::last_arrow_share`]). With one arrow a miss loses the game, while the wumpus
    /// sleeps until an arrow wakes it, so exploring proven-safe rooms until it is smelt more
    /// surely costs a few moves and risks nothing.
    pub(super) fn shoot_share_now(&self) -> f64 {
        match self.arrows {
            1 => self
                .config
                .policy
                .shoot_share
                .max(self.config.policy.last_arrow_share),
            _ => self.config.policy.shoot_share,
        }
    }
}
