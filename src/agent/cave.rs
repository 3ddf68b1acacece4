//! The reasoning agent for the classic cave: proofs for what is certain, exact odds for the
//! rest, crooked arrows aimed where the wumpus most likely is.
//!
//! Each turn the agent (1) takes in its last action's result and the new [`Status`]: the
//! tunnels of the room it stands in (when the map is being discovered), the three warnings,
//! a bat snatch, a missed arrow; a miss wakes the wumpus, which the knowledge base models as a
//! new epoch of wumpus atoms ([`KnowledgeBase::happen`]); (2) counts the hazard layouts
//! consistent with everything it saw ([`layouts::Odds`]), and asks the knowledge base to prove
//! each fact the odds call certain, so every certainty rests on a proof with its observations;
//! (3) decides by fixed priorities (module `rules`):
//!
//! 1. the 99th move is made: shoot the best arrow rather than collapse;
//! 2. the wumpus is proven in a room an arrow can reach: shoot it;
//! 3. shooting from here is worth enough: an exact look-ahead over the arrows left (module
//!    `shoot`), weighing the danger of waking the wumpus next door and, with the map known,
//!    walking on after a miss; the first path is the one worth most, among every path of up
//!    to five rooms through known tunnels, never back into its own room, never doubling back;
//! 4. while the map is being discovered, the wumpus cannot be next door and arrows are to
//!    spare: shoot on past the known tunnels when the estimated chance is good enough
//!    ([`blind`]: the arrow provably cannot come back);
//! 5. walk to the nearest proven-safe room not yet visited (petgraph paths over proven-safe
//!    rooms), to learn more; once a tunnel is seen to go one way, the room that makes the walk
//!    there and on to the next such room shortest;
//! 6. with nothing safe left: shoot if the best arrow beats the least-risk step, else take the
//!    least-risk step into an unknown room; while the map is being discovered, a step with a
//!    fair chance to die comes after a shot past the known tunnels, whatever its chance.
//!
//! Invariant: the agent sees only statuses and its own results (the one interface,
//! [`crate::agent::Agent`], hands it nothing else); it never walks into a room the knowledge base proves deadly when any
//! other choice is open; its arrows never fly back into its own room; and a miss tells it that
//! the wumpus was not in the rooms the arrow reached by known tunnels (only those).

pub mod blind;
pub mod layouts;
pub mod map;
pub mod rollout;
mod rules;
mod shoot;
mod steps;

use self::layouts::{Evidence, Odds};
use self::map::MapKnowledge;
pub use self::shoot::worth_weighing;
use super::grid::Insight;
use super::{Conclusion, Fact, Reason, Rule};
use crate::cave::classic::{Action, MoveResult, ShotResult, Status, TurnResult, MOVE_LIMIT};
use crate::cave::hazards::ARROWS;
use crate::cave::map::CaveMap;
use crate::kb::ground::{Atom, GroundLit};
use crate::kb::odds::Prior;
use crate::kb::rules::{parse_rules, require, EventId, PredKind, Rules, CAVE_RULES};
use crate::kb::{KbError, KnowledgeBase, Proofs};
use crate::topology::{Place, Topology};
use std::sync::{Arc, OnceLock};

/// How the agent is set up for one game.
#[derive(Clone, Debug)]
pub struct CaveAgentConfig {
    /// The number of rooms (all the agent knows of a map it discovers).
    pub rooms: usize,
    /// How rooms are numbered to a player (1 on event maps, 0 in the bot protocol's eyes the
    /// agent still uses 0-based places; this is only for words).
    pub first_number: usize,
    /// The whole map, when the agent is given it (`--map-known`); `None`: discovered as it goes.
    pub map: Option<Arc<CaveMap>>,
    /// How far the wumpus is smelt (1 on every event map). Beyond 1 the map must be known.
    pub warning_distance: u32,
    /// How much the agent explains.
    pub insight: Insight,
    /// When to shoot and when to walk.
    pub policy: Policy,
    /// Where the odds come from.
    pub odds: OddsSource,
}

/// Where the agent's odds come from. Both are exact counts of the layouts consistent with
/// what the hunter saw (`tests/cave_bruteforce.rs` checks them against each other and
/// against brute force to 1e-9); they differ in speed and in what they assume.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OddsSource {
    /// The factored count of [`layouts::Odds`]: microseconds a decision, exact on every map
    /// (each possible wumpus move weighed by its chance).
    #[default]
    Layouts,
    /// The knowledge base's weighted model count ([`crate::kb::odds`]) under a uniform prior:
    /// milliseconds a question, exact when every move of a woken wumpus is equally likely
    /// (no doubled tunnels, no tunnel to its own room, the map known).
    KnowledgeBase,
}

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

impl CaveAgentConfig {
    /// An agent that discovers a map of `rooms` rooms as it goes.
    pub fn discovering(rooms: usize) -> CaveAgentConfig {
        CaveAgentConfig {
            rooms,
            first_number: 1,
            map: None,
            warning_distance: 1,
            insight: Insight::Decisions,
            policy: Policy::default(),
            odds: OddsSource::Layouts,
        }
    }

    /// The agent `wumpus bot` plays a `game ROOMS` with: given the whole `map` when there is
    /// one (it must have that many rooms), otherwise learning a map of `rooms` rooms as it
    /// goes, numbered from 0 as the protocol numbers them. The error says what does not fit.
    pub fn for_bot(rooms: usize, map: Option<&Arc<CaveMap>>) -> Result<CaveAgentConfig, String> {
        match map {
            Some(m) if m.len() != rooms => Err(format!(
                "the map given has {} rooms, the game {rooms}",
                m.len()
            )),
            Some(m) => Ok(CaveAgentConfig::for_map(m, true)),
            None => {
                let mut c = CaveAgentConfig::discovering(rooms);
                c.first_number = 0;
                Ok(c)
            }
        }
    }

    /// An agent for `map`: given the whole map when `known`, else only its room count.
    pub fn for_map(map: &Arc<CaveMap>, known: bool) -> CaveAgentConfig {
        CaveAgentConfig {
            rooms: map.len(),
            first_number: map.first_number(),
            map: known.then(|| map.clone()),
            warning_distance: map.warning_distance(),
            insight: Insight::Decisions,
            policy: Policy::default(),
            odds: OddsSource::Layouts,
        }
    }

    /// The same, explaining its conclusions (for `trace` and `hint`).
    pub fn explained(mut self) -> CaveAgentConfig {
        self.insight = Insight::Explained;
        self
    }

    /// The same, looking `depth` steps ahead where nothing safe is left: from 2 it weighs
    /// every step by what may be felt there ([`Policy::step_lookahead`]; one level, so any
    /// depth from 2 is the same). It needs the map: without it nothing changes, and the command
    /// line refuses `--depth`.
    pub fn with_depth(mut self, depth: u32) -> CaveAgentConfig {
        self.policy.step_lookahead = depth >= 2;
        self
    }
}

/// Errors setting up the agent.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CaveAgentError {
    /// A warning distance beyond 1 on a map the agent must discover.
    #[error("the wumpus is smelt {0} tunnels away: the agent must be given the map (--map-known)")]
    FarSmellNeedsMap(u32),
    /// The knowledge base failed.
    #[error(transparent)]
    Kb(#[from] KbError),
    /// Too many rooms to discover: a decision's cost grows about as the fourth power of the
    /// room count while any room may lead anywhere.
    #[error(
        "the agent discovers caves of up to {MAX_DISCOVERED_ROOMS} rooms, not {0} \
         (give it the map to play a larger one)"
    )]
    TooManyRooms(usize),
}

/// The most rooms the agent plays without the map. Measured (release build, the bot's first
/// two decisions): 0.4 s at 80 rooms, 1.3 s at 100, 6.4 s at 160, 8.5 minutes at 500; every
/// event map has 20.
pub const MAX_DISCOVERED_ROOMS: usize = 100;

/// The predicates of the cave rules the agent uses.
#[derive(Clone, Copy, Debug)]
struct Vocabulary {
    pit: usize,
    bats: usize,
    wumpus: usize,
    draft: usize,
    flapping: usize,
    stench: usize,
    survived: usize,
    snatched: usize,
    missed: usize,
    wake: EventId,
}

impl Vocabulary {
    fn of(rules: &Rules) -> Result<Vocabulary, KbError> {
        let found = require(
            rules,
            &[
                ("pit", PredKind::Hidden, true),
                ("bats", PredKind::Hidden, true),
                ("wumpus", PredKind::Hidden, true),
                ("draft", PredKind::Percept, true),
                ("flapping", PredKind::Percept, true),
                ("stench", PredKind::Percept, true),
                ("survived", PredKind::Percept, true),
                ("snatched", PredKind::Percept, true),
                ("missed", PredKind::Percept, true),
            ],
        )
        .map_err(|e| KbError::NotObservable(e.message))?;
        let wake = rules
            .event("wake")
            .ok_or_else(|| KbError::NotObservable("the event 'wake'".to_string()))?;
        Ok(Vocabulary {
            pit: found["pit"],
            bats: found["bats"],
            wumpus: found["wumpus"],
            draft: found["draft"],
            flapping: found["flapping"],
            stench: found["stench"],
            survived: found["survived"],
            snatched: found["snatched"],
            missed: found["missed"],
            wake,
        })
    }
}

/// The classic cave's rules with the wumpus smelt `distance` tunnels away (`kb/cave.kb` for 1).
pub fn cave_rules(distance: u32) -> Arc<Rules> {
    static ONE: OnceLock<Arc<Rules>> = OnceLock::new();
    if distance <= 1 {
        return ONE
            .get_or_init(|| Arc::new(parse_rules(CAVE_RULES).expect("kb/cave.kb is valid")))
            .clone();
    }
    // Within d tunnels: a neighbour holds it, or is within d - 1 of it.
    let mut body = "wumpus(N1)".to_string();
    for d in (2..=distance).rev() {
        body = format!("(wumpus(N{d}) | any N{} in adj(N{d}): {body})", d + 1);
    }
    let body = body.replace("N1)", &format!("N{})", distance + 1));
    let text = CAVE_RULES.replace(
        "percept stench(X) <-> any N in adj(X): wumpus(N).",
        &format!("percept stench(X) <-> any N2 in adj(X): {body}."),
    );
    Arc::new(parse_rules(&text).expect("the generated cave rules are valid"))
}

/// What is proven about one room.
#[derive(Clone, Copy, Debug, Default)]
struct RoomFacts {
    no_pit: bool,
    no_bats: bool,
    pit: bool,
    bats: bool,
    /// The wumpus epoch in which the room was proven free of it.
    no_wumpus: Option<u32>,
    /// The wumpus epoch in which it was proven to hold it.
    wumpus: Option<u32>,
    /// The epoch in which the room was last announced safe.
    announced_safe: Option<u32>,
}

/// What the agent believes of a room, for maps and traces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomView {
    /// The hunter is here.
    Here,
    /// Proven to hold the wumpus now.
    Wumpus,
    /// Proven a pit room.
    Pit,
    /// Proven a bat room.
    Bats,
    /// The hunter has stood here, and it is proven safe now.
    Visited,
    /// Proven free of pit, bats and the wumpus, not visited.
    Safe,
    /// Not known.
    Unknown,
}

/// A chosen action and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The action.
    pub action: Action,
    /// Why.
    pub reason: Reason,
    /// The chance of a kill, for a shot.
    pub kill_chance: Option<f64>,
    /// The chance of dying, for a step into an unknown room.
    pub risk: Option<f64>,
    /// With the look-ahead (`--depth 2`) and nothing safe left, or with rollouts: every
    /// option valued.
    pub weighed: Vec<Weighed>,
    /// How many rollouts valued the options (0: the rules or the look-ahead did).
    pub rollouts: u32,
}

/// One option the look-ahead valued when nothing safe was left ([`Policy::step_lookahead`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Weighed {
    /// A step into this room after a walk over proven-safe rooms; `None`: the best shot from
    /// here.
    pub step: Option<Place>,
    /// The chance of dying on the step, or of a kill for the shot.
    pub chance: f64,
    /// What it is worth, in points.
    pub worth: f64,
    /// Whether it was taken.
    pub chosen: bool,
}

/// The classic cave's reasoning agent.
pub struct CaveAgent {
    config: CaveAgentConfig,
    words: Vocabulary,
    rules: Arc<Rules>,
    map: MapKnowledge,
    kb: Option<KnowledgeBase>,
    kb_map_version: u64,
    evidence: Option<Evidence>,
    odds: Option<Odds>,
    here: Option<Place>,
    arrows: u8,
    moves: u32,
    facts: Vec<RoomFacts>,
    warned: Vec<bool>,
    learned: Vec<Conclusion>,
    /// Set when what was observed contradicts the rules (another variant's game): the agent
    /// then plays on without its knowledge.
    lost: Option<String>,
    /// The out-tunnels the last status showed.
    shown_outs: Vec<Place>,
    known_cache: Option<(u64, Arc<Topology>)>,
    /// A rollout's copy ([`CaveAgent::rollout_copy`]): no knowledge base, the exact odds
    /// trusted for what is certain, no rollouts of its own.
    trust_odds: bool,
    /// A digest of every status seen: seeds the rollouts' draws, so a game replays.
    history: u64,
    /// The room rule 3 last chose to step into toward a better shooting room (the room it
    /// leaves is `here` until the next status).
    shooting_step: Option<Place>,
    /// The rooms the hunter has walked out of toward a better shooting room since its last
    /// arrow (rule 3 never walks back to one).
    left_for_a_shot: Vec<Place>,
}

impl CaveAgent {
    /// A fresh agent for one game.
    pub fn new(config: CaveAgentConfig) -> Result<CaveAgent, CaveAgentError> {
        if config.warning_distance > 1 && config.map.is_none() {
            return Err(CaveAgentError::FarSmellNeedsMap(config.warning_distance));
        }
        if config.map.is_none() && config.rooms > MAX_DISCOVERED_ROOMS {
            return Err(CaveAgentError::TooManyRooms(config.rooms));
        }
        let rules = cave_rules(config.warning_distance);
        let words = Vocabulary::of(&rules)?;
        let map = match &config.map {
            Some(m) => MapKnowledge::known(m),
            None => MapKnowledge::unknown(config.rooms, config.first_number),
        };
        let n = config.rooms;
        Ok(CaveAgent {
            words,
            rules,
            map,
            kb: None,
            kb_map_version: 0,
            evidence: None,
            odds: None,
            here: None,
            arrows: ARROWS,
            moves: 0,
            facts: vec![RoomFacts::default(); n],
            warned: vec![false; n],
            learned: Vec::new(),
            lost: None,
            shown_outs: Vec::new(),
            known_cache: None,
            trust_odds: false,
            history: 0,
            shooting_step: None,
            left_for_a_shot: Vec::new(),
            config,
        })
    }

    /// The room the hunter is in.
    pub fn here(&self) -> Option<Place> {
        self.here
    }

    /// Arrows left.
    pub fn arrows(&self) -> u8 {
        self.arrows
    }

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
    fn spare_arrows_share(&self) -> f64 {
        if self.map.one_way_seen() {
            self.config.policy.one_way_explore_share
        } else {
            self.config.policy.explore_share
        }
    }

    /// True while the map is being discovered once a tunnel has been seen to go one way: the
    /// state in which exploring, bat flights and steps with no way back are weighed for
    /// one-way tunnels (with the map given, those were not measured and are not).
    fn discovering_one_way(&self) -> bool {
        !self.map.whole() && self.map.one_way_seen()
    }

    /// What a bat flight costs the least-risk step now, as a share of the chance of being
    /// carried off: [`Policy::flight_penalty`], or [`Policy::one_way_flight_penalty`] once a
    /// tunnel is seen to go one way while the map is being discovered (with the map given the
    /// one-way value was not measured, and the first is kept).
    fn flight_penalty_now(&self) -> f64 {
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
    fn no_way_back_now(&self) -> f64 {
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
    fn walk_on_share(&self, risk: f64) -> f64 {
        if self.map.whole() {
            self.spare_arrows_share() * (1.0 - risk)
        } else {
            0.0
        }
    }

    /// [`CaveAgent::walk_on_share`] for shooting from `room`: the step is free while a
    /// proven-safe room is left to explore from there, else the least-risk step.
    fn walk_on_after_miss(&self, known: &Topology, room: Place, odds: &Odds) -> f64 {
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
    fn walk_on_weighed(
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
    fn shoot_share_now(&self) -> f64 {
        match self.arrows {
            1 => self
                .config
                .policy
                .shoot_share
                .max(self.config.policy.last_arrow_share),
            _ => self.config.policy.shoot_share,
        }
    }

    /// Moves made.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// The current odds, once a status has been taken in.
    pub fn odds(&self) -> Option<&Odds> {
        self.odds.as_ref()
    }

    /// What the agent knows of the map.
    pub fn map(&self) -> &MapKnowledge {
        &self.map
    }

    /// The knowledge base, for statistics.
    pub fn kb(&self) -> Option<&KnowledgeBase> {
        self.kb.as_ref()
    }

    /// The knowledge base, to ask it questions (tests, exports).
    pub fn knowledge_base(&mut self) -> Option<&mut KnowledgeBase> {
        self.kb.as_mut()
    }

    /// Why the agent stopped trusting its knowledge, if it did.
    pub fn lost(&self) -> Option<&str> {
        self.lost.as_deref()
    }

    /// How a player names `room`.
    fn label(&self, room: Place) -> String {
        (room.index() + self.config.first_number).to_string()
    }

    /// The wumpus's current epoch.
    fn epoch(&self) -> u32 {
        self.evidence.as_ref().map_or(0, |e| e.epoch() as u32)
    }

    /// Takes in the last action (`None` at the start of a game), its result, and the status
    /// that followed. Returns what became proven, with reasons when explanations are on.
    pub fn perceive(
        &mut self,
        last: Option<&Action>,
        result: Option<&TurnResult>,
        status: &Status,
    ) -> Result<Vec<Conclusion>, KbError> {
        self.learned.clear();
        match (last, self.shooting_step.take(), self.here) {
            (Some(Action::Move(to)), Some(planned), Some(left)) if *to == planned => {
                self.left_for_a_shot.push(left);
            }
            _ => self.left_for_a_shot.clear(),
        }
        self.shown_outs = status.outs.clone();
        if self.config.policy.rollouts > 0 {
            self.history = rollout::digest(self.history, status);
        }
        if self.lost.is_none() && self.map.contradicts(status.room, &status.outs) {
            self.lost = Some(format!(
                "the tunnels shown from room {} are not the map's",
                self.label(status.room)
            ));
            self.odds = None;
        }
        if self.lost.is_some() {
            self.here = Some(status.room);
            self.map.stand_in(status.room, &status.outs, &status.ins);
            return Ok(Vec::new());
        }
        match self.take_in(last, result, status) {
            Ok(()) => Ok(std::mem::take(&mut self.learned)),
            Err(e) => {
                // Walk on blind from where the status says the hunter is, by its tunnels: the
                // knowledge that clashed may have stopped before taking the status in.
                self.lost = Some(e.to_string());
                self.odds = None;
                self.here = Some(status.room);
                self.map.stand_in(status.room, &status.outs, &status.ins);
                Err(e)
            }
        }
    }

    fn take_in(
        &mut self,
        last: Option<&Action>,
        result: Option<&TurnResult>,
        status: &Status,
    ) -> Result<(), KbError> {
        let w = self.words;
        if self.evidence.is_none() {
            let start = status.room;
            let topology = self.map.possible_topology();
            let proofs = match self.config.insight {
                Insight::Decisions => Proofs::Fast,
                Insight::Explained => Proofs::Explained,
            };
            if !self.trust_odds {
                self.kb = Some(KnowledgeBase::new(
                    self.rules.clone(),
                    topology,
                    Some(start),
                    proofs,
                )?);
            }
            self.kb_map_version = self.map.version();
            self.evidence = Some(Evidence::new(self.config.rooms, start));
        } else {
            match (last, result) {
                (Some(Action::Move(_)), Some(TurnResult::Move(MoveResult::Moved))) => {
                    self.moves += 1;
                }
                (Some(Action::Move(to)), Some(TurnResult::Move(MoveResult::Snatched))) => {
                    self.moves += 1;
                    if let Some(kb) = self.kb.as_mut() {
                        kb.tell(w.snatched, Some(*to), true)?;
                    }
                    self.evidence_mut().snatched(*to);
                }
                (Some(Action::Shoot(path)), Some(TurnResult::Shot(ShotResult::Missed))) => {
                    let from = self.here.unwrap_or(status.room);
                    for room in self.sure_flight(from, path.rooms()) {
                        if let Some(kb) = self.kb.as_mut() {
                            kb.tell(w.missed, Some(room), true)?;
                        }
                        self.evidence_mut().not_wumpus(room);
                    }
                    self.arrows = self.arrows.saturating_sub(1);
                    if let Some(kb) = self.kb.as_mut() {
                        kb.happen(w.wake, None)?;
                    }
                    self.evidence_mut().wake();
                }
                _ => {}
            }
        }
        let here = status.room;
        self.here = Some(here);
        if self.map.stand_in(here, &status.outs, &status.ins)
            || self.kb_map_version != self.map.version()
        {
            let topology = self.map.possible_topology();
            if let Some(kb) = self.kb.as_mut() {
                kb.set_topology(topology)?;
            }
            self.kb_map_version = self.map.version();
        }
        let near = self.map.linked(here);
        if !self.warned[here.index()] {
            self.warned[here.index()] = true;
            if let Some(kb) = self.kb.as_mut() {
                kb.tell(w.draft, Some(here), status.pit)?;
            }
            if let Some(kb) = self.kb.as_mut() {
                kb.tell(w.flapping, Some(here), status.bats)?;
            }
            self.evidence_mut().draft(&near, status.pit);
            self.evidence_mut().flapping(&near, status.bats);
        }
        if let Some(kb) = self.kb.as_mut() {
            kb.tell(w.survived, Some(here), true)?;
        }
        if let Some(kb) = self.kb.as_mut() {
            kb.tell(w.stench, Some(here), status.wumpus)?;
        }
        let smell_near = self.smell_near(here);
        let e = self.evidence_mut();
        e.survived(here);
        e.stench(&smell_near, status.wumpus);
        if let Some(kb) = self.kb.as_mut() {
            kb.check_consistent()?;
        }
        let odds = match self.config.odds {
            OddsSource::Layouts => {
                Odds::compute(self.evidence.as_ref().expect("set above"), &self.map)
                    .map_err(|e| KbError::Contradiction(e.to_string()))?
            }
            OddsSource::KnowledgeBase => self.counted_odds()?,
        };
        self.odds = Some(odds);
        self.prove()
    }

    /// The odds by the knowledge base's weighted model count (every layout alike).
    fn counted_odds(&mut self) -> Result<Odds, KbError> {
        let w = self.words;
        let n = self.config.rooms;
        let woken = self.epoch() > 0;
        let kb = self.kb.as_mut().expect("built");
        let prior = Prior::uniform(kb.rules());
        let marginals = |pred: usize, kb: &mut KnowledgeBase| {
            let atoms: Vec<Atom> = (0..n).map(|r| kb.atom(pred, Some(Place::new(r)))).collect();
            kb.marginals(&atoms, &prior)
        };
        let pit = marginals(w.pit, kb)?;
        let bats = marginals(w.bats, kb)?;
        let wumpus = marginals(w.wumpus, kb)?;
        let both = |pred: usize, kb: &mut KnowledgeBase| -> Result<Vec<f64>, KbError> {
            (0..n)
                .map(|r| {
                    let room = Some(Place::new(r));
                    let (a, b) = (kb.atom(pred, room), kb.atom(w.wumpus, room));
                    if woken {
                        kb.probability(&[(a, true), (b, true)], &prior)
                    } else {
                        // As dealt, no room holds two things.
                        Ok(0.0)
                    }
                })
                .collect()
        };
        let pit_and_wumpus = both(w.pit, kb)?;
        let bats_and_wumpus = both(w.bats, kb)?;
        Ok(Odds {
            pit,
            bats,
            wumpus,
            pit_and_wumpus,
            bats_and_wumpus,
            deals: 0,
        })
    }

    /// The rooms within smelling distance of `room`.
    fn smell_near(&self, room: Place) -> Vec<Place> {
        match (&self.config.map, self.config.warning_distance) {
            (Some(m), d) if d > 1 => m
                .within(room, d)
                .iter()
                .enumerate()
                .filter(|(_, &near)| near)
                .map(|(i, _)| Place::new(i))
                .collect(),
            _ => self.map.linked(room),
        }
    }

    /// The rooms an arrow told `rooms` certainly flew through from `from`: as long as each is
    /// joined to the one before by a known tunnel (after that it may have swerved anywhere).
    fn sure_flight(&self, from: Place, rooms: &[Place]) -> Vec<Place> {
        let mut at = from;
        let mut flown = Vec::new();
        for &r in rooms {
            if !self.map.joined(at, r) {
                break;
            }
            flown.push(r);
            at = r;
        }
        flown
    }

    fn evidence_mut(&mut self) -> &mut Evidence {
        self.evidence
            .as_mut()
            .expect("the evidence is kept from the first status")
    }

    /// Asks the knowledge base to prove what the odds call certain, and notes conclusions.
    fn prove(&mut self) -> Result<(), KbError> {
        let odds = self.odds.clone().expect("computed before proving");
        let epoch = self.epoch();
        let w = self.words;
        for i in 0..self.config.rooms {
            let room = Place::new(i);
            let mut f = self.facts[i];
            if !f.no_pit && odds.pit[i] == 0.0 {
                f.no_pit = self.proves(w.pit, room, false)?;
            }
            if !f.pit && odds.pit[i] >= 1.0 - 1e-9 && self.proves(w.pit, room, true)? {
                f.pit = true;
                self.conclude(room, Fact::Pit)?;
            }
            if !f.no_bats && odds.bats[i] == 0.0 {
                f.no_bats = self.proves(w.bats, room, false)?;
            }
            if !f.bats && odds.bats[i] >= 1.0 - 1e-9 && self.proves(w.bats, room, true)? {
                f.bats = true;
                self.conclude(room, Fact::Bats)?;
            }
            if f.no_wumpus != Some(epoch)
                && odds.wumpus[i] == 0.0
                && self.proves(w.wumpus, room, false)?
            {
                f.no_wumpus = Some(epoch);
            }
            if f.wumpus != Some(epoch)
                && odds.wumpus[i] >= 1.0 - 1e-9
                && self.proves(w.wumpus, room, true)?
            {
                f.wumpus = Some(epoch);
                self.conclude(room, Fact::Wumpus)?;
            }
            let safe = f.no_pit && f.no_bats && f.no_wumpus == Some(epoch);
            let announce = safe
                && f.announced_safe != Some(epoch)
                && !self.map.visited(room)
                && self.config.insight == Insight::Explained;
            if safe && f.announced_safe != Some(epoch) {
                f.announced_safe = Some(epoch);
            }
            self.facts[i] = f;
            if announce {
                self.conclude(room, Fact::Safe)?;
            }
        }
        Ok(())
    }

    /// True when the knowledge base proves `pred(room)` has the value `value`.
    fn proves(&mut self, pred: usize, room: Place, value: bool) -> Result<bool, KbError> {
        let Some(kb) = self.kb.as_mut() else {
            // A rollout's copy has no knowledge base: it trusts the exact odds.
            return Ok(true);
        };
        let atom = kb.atom(pred, Some(room));
        kb.entails((atom, value))
    }

    fn conclude(&mut self, room: Place, fact: Fact) -> Result<(), KbError> {
        let because = if self.config.insight == Insight::Explained {
            let w = self.words;
            let kb = self.kb.as_mut().expect("built");
            let lits: Vec<GroundLit> = match fact {
                Fact::Pit => vec![(kb.atom(w.pit, Some(room)), false)],
                Fact::Bats => vec![(kb.atom(w.bats, Some(room)), false)],
                Fact::Wumpus => vec![(kb.atom(w.wumpus, Some(room)), false)],
                Fact::Safe => vec![
                    (kb.atom(w.pit, Some(room)), true),
                    (kb.atom(w.bats, Some(room)), true),
                    (kb.atom(w.wumpus, Some(room)), true),
                ],
            };
            let mut ids = Vec::new();
            for lit in lits {
                ids.extend(kb.explain(&[lit])?.unwrap_or_default());
            }
            ids.sort_unstable();
            ids.dedup();
            let mut words: Vec<String> = ids.iter().map(|&i| self.describe(i)).collect();
            if words.is_empty() {
                words.push("the rules alone".to_string());
            }
            words
        } else {
            Vec::new()
        };
        self.learned.push(Conclusion {
            place: room,
            fact,
            because,
        });
        Ok(())
    }

    /// An observation in a player's words.
    fn describe(&self, index: usize) -> String {
        let kb = self.kb.as_ref().expect("built");
        let obs = kb.observations()[index];
        let at = obs.place.map(|p| self.label(p)).unwrap_or_default();
        let w = self.words;
        let when = if obs.time > 0 {
            format!(
                " after the {} wake",
                match obs.time {
                    1 => "1st".to_string(),
                    2 => "2nd".to_string(),
                    3 => "3rd".to_string(),
                    n => format!("{n}th"),
                }
            )
        } else {
            String::new()
        };
        match (obs.pred, obs.present) {
            (p, true) if p == w.draft => format!("a draft in room {at}"),
            (p, false) if p == w.draft => format!("no draft in room {at}"),
            (p, true) if p == w.flapping => format!("bats heard in room {at}"),
            (p, false) if p == w.flapping => format!("no bats heard in room {at}"),
            (p, true) if p == w.stench => format!("the wumpus smelt in room {at}{when}"),
            (p, false) if p == w.stench => format!("no wumpus smelt in room {at}{when}"),
            (p, _) if p == w.survived => format!("room {at} entered alive{when}"),
            (p, _) if p == w.snatched => format!("snatched by bats in room {at}{when}"),
            (p, _) if p == w.missed => format!("an arrow missed through room {at}{when}"),
            _ => kb.describe(&obs),
        }
    }

    /// True when `room` is proven free of pits, bats and the wumpus now.
    pub fn is_safe(&self, room: Place) -> bool {
        let f = &self.facts[room.index()];
        f.no_pit && f.no_bats && f.no_wumpus == Some(self.epoch())
    }

    /// What the agent believes of `room`.
    pub fn view(&self, room: Place) -> RoomView {
        let f = &self.facts[room.index()];
        let epoch = self.epoch();
        if Some(room) == self.here {
            RoomView::Here
        } else if f.wumpus == Some(epoch) {
            RoomView::Wumpus
        } else if f.pit {
            RoomView::Pit
        } else if f.bats {
            RoomView::Bats
        } else if self.is_safe(room) && self.map.visited(room) {
            RoomView::Visited
        } else if self.is_safe(room) {
            RoomView::Safe
        } else {
            RoomView::Unknown
        }
    }

    /// The graph of known tunnels.
    fn known(&mut self) -> Arc<Topology> {
        let v = self.map.version();
        match &self.known_cache {
            Some((version, t)) if *version == v => t.clone(),
            _ => {
                let t = self.map.known_topology();
                self.known_cache = Some((v, t.clone()));
                t
            }
        }
    }

    /// Chooses the next action: by the rules, then, with `--rollouts`, weighed against the
    /// other choices by playing the game on ([`rollout`]).
    pub fn decide(&mut self) -> Decision {
        let ruled = self.decide_by_rules();
        self.shooting_step = match (&ruled.action, ruled.reason.rule) {
            (Action::Move(to), Rule::BestShot) => Some(*to),
            _ => None,
        };
        if self.rollouts_apply(&ruled) {
            self.weigh_by_rollouts(ruled)
        } else {
            ruled
        }
    }
}

/// A chance as a percentage for people: `37%`, `<1%`, `0%`, `100%`.
pub fn percent(p: f64) -> String {
    if p <= 0.0 {
        "0%".to_string()
    } else if p >= 1.0 {
        "100%".to_string()
    } else if p < 0.005 {
        "<1%".to_string()
    } else if p > 0.995 {
        ">99%".to_string()
    } else {
        format!("{:.0}%", p * 100.0)
    }
}
