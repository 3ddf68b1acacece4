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
mod interface;
pub mod layouts;
pub mod map;
mod perceive;
mod policy;
pub mod rollout;
mod rules;
mod shoot;
mod steps;
pub use policy::Policy;

use self::layouts::{Evidence, Odds};
use self::map::MapKnowledge;
pub use self::shoot::worth_weighing;
use super::common::{self, percent, Insight};
use super::{Conclusion, Fact, Reason, Rule};
use crate::cave::classic::{Action, MoveResult, ShotResult, Status, TurnResult, MOVE_LIMIT};
use crate::cave::hazards::ARROWS;
use crate::cave::map::CaveMap;
use crate::kb::ground::{Atom, GroundLit};
use crate::kb::odds::Prior;
use crate::kb::rules::{parse_rules, EventId, Rules, CAVE_RULES};
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
/// what the hunter saw (`tests/logic/cave_bruteforce.rs` checks them against each other and
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
        let words = common::Vocabulary::of(
            rules,
            ["pit", "bats", "wumpus"],
            [
                "draft", "flapping", "stench", "survived", "snatched", "missed",
            ],
            Some("wake"),
            KbError::NotObservable,
        )?;
        let [pit, bats, wumpus] = words.hidden;
        let [draft, flapping, stench, survived, snatched, missed] = words.percepts;
        Ok(Vocabulary {
            pit,
            bats,
            wumpus,
            draft,
            flapping,
            stench,
            survived,
            snatched,
            missed,
            wake: words.event.expect("asked for"),
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

/// What the agent's rules (or rollouts) chose, with the chances behind it: the agent puts it
/// in the one [`Decision`](super::Decision) when asked to decide.
#[derive(Clone, Debug, PartialEq)]
struct Chosen {
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
    pub fn knowledge_base_mut(&mut self) -> Option<&mut KnowledgeBase> {
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
    fn chosen(&mut self) -> Chosen {
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
