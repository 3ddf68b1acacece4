//! The classic cave agent's policy: every tuned number that weighs shooting against walking,
//! named in one value ([`Policy`]), and what each comes to in the situation at hand.
//!
//! It must never decide anything itself: the rules (module `rules`) ask it for numbers.

use super::*;

/// Every tuned number of the classic cave agent, named: when to shoot, when to walk on and
/// what a risk costs. The agent values shooting exactly (the best arrow from here, and after
/// each miss the best again); walking on has no closed form, and these numbers weigh it.
/// What each was measured to be worth is in `docs/caves.md`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    /// Rule 3: shoot rather than explore when shooting from here is worth this share of a kill now (`100 − moves` points).
    pub shoot_share: f64,
    /// Rule 3: the most steps over proven-safe rooms the hunter walks to shoot from a better room.
    pub shooting_walk: usize,
    /// Rule 6: what walking on is worth, as a share of a kill, against shooting when nothing safe is left.
    pub explore_share: f64,
    /// `explore_share` with the last arrow (and rule 3's share, when larger): a last miss loses, so waiting to smell the wumpus is worth more.
    pub last_arrow_share: f64,
    /// `explore_share` once a tunnel is seen to go one way ([`MapKnowledge::one_way_seen`]): a step there may not be undone.
    pub one_way_explore_share: f64,
    /// The map being discovered: the least estimated chance of a kill for a shot past the known tunnels ([`blind::blind_shot`]).
    pub blind_chance: f64,
    /// ...shot only while more than this many arrows are left (the rest are kept for a wumpus smelt).
    pub blind_arrows_kept: u8,
    /// The map being discovered, nothing safe left: a step with at least this chance to die comes after a shot past the known tunnels.
    pub blind_before_gamble: f64,
    /// Rule 6: a bat flight's cost, as a share of the chance of being carried off, on top of the flight's chance of death.
    pub flight_penalty: f64,
    /// `flight_penalty` once a tunnel is seen to go one way while the map is discovered: the rooms proven safe may be out of reach anyway.
    pub one_way_flight_penalty: f64,
    /// Added to the risk of rule 6's step into a room with no known tunnel back, once a tunnel is seen to go one way while the map is discovered.
    pub one_way_no_way_back: f64,
    /// The map being discovered: the share of its estimated chance at which an arrow's tail past the known tunnels ([`blind::with_tail`]) is weighed.
    pub tail_trust: f64,
    /// `--depth 2`, the map known: weigh each step into the unknown by what may be felt there, rather than by `explore_share`.
    pub step_lookahead: bool,
    /// `--rollouts N`, the map known: weigh shooting against walking by this many rollouts a candidate ([`rollout`]; 0: off).
    pub rollouts: u32,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            shoot_share: 0.8,
            shooting_walk: 2,
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
    /// one-way tunnels (with the map given they are weighed as on two-way maps).
    pub(super) fn discovering_one_way(&self) -> bool {
        !self.map.whole() && self.map.one_way_seen()
    }

    /// What a bat flight costs the least-risk step now, as a share of the chance of being
    /// carried off: [`Policy::flight_penalty`], or [`Policy::one_way_flight_penalty`] once a
    /// tunnel is seen to go one way while the map is being discovered.
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
    /// leads back).
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
    /// woken wumpus is not where it was, so waiting to be sure of it is worth less. While the
    /// map is being discovered, 0: arrows reach only rooms next to where the hunter has stood,
    /// so a wumpus woken into the unknown must be found again, and weighing walking on makes
    /// the agent shoot more and score less.
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
