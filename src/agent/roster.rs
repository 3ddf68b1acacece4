//! Which agents play which rule set, and how each is seen through the one interface: the
//! [`Roster`] of a rule set names its agents ([`AgentKind`]) and prepares one for a batch of
//! games ([`AgentFactory`]), checking once what every game's agent needs; the adapters here
//! turn each agent's own calls into [`Agent`]'s.
//!
//! The adapters only translate: each agent is told exactly what it was told before the one
//! interface existed, in the same order, so its decisions are the same.

use super::cave::{CaveAgent, CaveAgentConfig, RoomView};
use super::common::Insight;
use super::grid::{default_rules, GridAgent, Strategy};
use super::maze::discovered::DiscoveredMazeAgent;
use super::maze::{MazeAgent, MazeDecision, TunnelOdds};
use super::optimal::{Model, OptimalAgent, OptimalSolver};
use super::random::RandomAgent;
use super::{Agent, AgentError, Choice, Conclusion, Decision, Dice, Knowledge, PlaceOdds, Rule};
use crate::cave::classic::{Action as CaveAction, Variant};
use crate::cave::maze::MazeAction;
use crate::cave::{CaveShown, ClassicSession, MazeSession, MazeShown};
use crate::game::{Briefing, RuleSet, Session};
use crate::grid::{
    Action as GridAction, AimaSession, AimaShown, GridSession, HeadedAction, Scoring, Turn,
};
use crate::kb::rules::Rules;
use crate::kb::{Grounding, KnowledgeBase};
use crate::topology::{Direction, Place, Topology};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The agents, across rule sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentKind {
    /// Logic first, then exact odds and the best expected score (the grid's default).
    Risk,
    /// The reasoning agent: proofs, and in the caves exact odds too (the caves' default).
    Logic,
    /// The classic cave event's random player.
    Random,
    /// The exact optimal policy of a small grid, by expectimax over belief states.
    Optimal,
}

impl AgentKind {
    /// Every agent.
    pub const ALL: [AgentKind; 4] = [
        AgentKind::Risk,
        AgentKind::Logic,
        AgentKind::Random,
        AgentKind::Optimal,
    ];

    /// The name on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Risk => "risk",
            AgentKind::Logic => "logic",
            AgentKind::Random => "random",
            AgentKind::Optimal => "optimal",
        }
    }

    /// The agent named `name`, if any.
    pub fn parse(name: &str) -> Option<AgentKind> {
        AgentKind::ALL.into_iter().find(|a| a.name() == name)
    }
}

impl std::fmt::Display for AgentKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How the agents of a batch or a game are set up beyond the rule set's setup.
#[derive(Clone, Debug, Default)]
pub struct AgentOptions {
    /// Explain conclusions (for `trace`, hints and pages): slower.
    pub explain: bool,
    /// Give a cave agent the whole map (default: it learns each room by standing in it).
    pub map_known: bool,
    /// Other grid rules than the built-in `kb/grid.kb`.
    pub kb: Option<Arc<Rules>>,
    /// How many steps the grid's risk agent looks ahead when it gambles (`None`: one).
    pub depth: Option<u32>,
    /// Classic cave, the map known: the most rollouts a decision (`None`: none).
    pub rollouts: Option<u32>,
}

/// Makes the agent of each game of a batch.
pub trait AgentFactory<S: Session>: Send + Sync {
    /// A fresh agent for a game whose player was told `briefing` at the start
    /// ([`Session::briefing`]); `dice` seeds the agent's own random draws (only the random
    /// player draws any).
    fn make(&self, briefing: &Briefing, dice: Dice) -> Result<Box<dyn Agent<S>>, AgentError>;
}

/// The agents of a rule set.
pub trait Roster: Session {
    /// The agents that play this rule set, its default first.
    const AGENTS: &'static [AgentKind];

    /// Prepares `kind` for the games of `setup`, checking once what every game's agent needs.
    fn prepare(
        kind: AgentKind,
        setup: &Self::Setup,
        options: &AgentOptions,
    ) -> Result<Box<dyn AgentFactory<Self>>, AgentError>;

    /// The default agent.
    fn default_agent() -> AgentKind {
        Self::AGENTS[0]
    }
}

/// The refusal of an agent that does not play `rules`.
fn unfit(kind: AgentKind, rules: RuleSet, agents: &[AgentKind]) -> AgentError {
    let names: Vec<&str> = agents.iter().map(|a| a.name()).collect();
    AgentError::Unfit(format!(
        "the {kind} agent does not play {}; its agents are {}",
        rules.title(),
        names.join(" and ")
    ))
}

/// An agent of one of this crate's kinds, with what the adapter needs to put its choices in
/// a player's words.
struct Playing<A> {
    agent: A,
    explain: bool,
    labels: Labels,
}

/// How a player names places, for choices in words.
#[derive(Clone)]
enum Labels {
    Grid(Arc<Topology>),
    Numbered(usize),
}

impl Labels {
    fn of(&self, place: Place) -> String {
        match self {
            Labels::Grid(t) => t.label(place),
            Labels::Numbered(first) => (place.index() + first).to_string(),
        }
    }
}

/// Makes the grid agents of a batch, under compass moves or the textbook's heading. The
/// rules are grounded once per grid size: once for a batch of one size, and once for each size
/// met in a batch whose sizes are drawn from a range.
struct GridFactory {
    setup: crate::grid::GridSetup,
    rules: Arc<Rules>,
    /// The grounding of each grid size met so far, by (rows, cols).
    groundings: std::sync::Mutex<rustc_hash::FxHashMap<(usize, usize), Arc<Grounding>>>,
    strategy: Strategy,
    explain: bool,
    depth: u32,
}

impl GridFactory {
    /// Prepares `kind` for the games of `setup` under `rules`.
    fn prepare(
        kind: AgentKind,
        setup: &crate::grid::GridSetup,
        options: &AgentOptions,
        rules: RuleSet,
        agents: &[AgentKind],
    ) -> Result<GridFactory, AgentError> {
        let strategy = match kind {
            AgentKind::Logic => Strategy::Logic,
            AgentKind::Risk => Strategy::Risk {
                pit_prob: setup.pit_prob,
                scoring: setup.scoring,
            },
            other => return Err(unfit(other, rules, agents)),
        };
        let factory = GridFactory {
            setup: setup.clone(),
            rules: options.kb.clone().unwrap_or_else(default_rules),
            groundings: Default::default(),
            strategy,
            explain: options.explain,
            depth: options.depth.unwrap_or(1),
        };
        // Every game's agent is made the same way: one made now shows the rules fit.
        factory.agent(setup.topology.clone())?;
        Ok(factory)
    }

    /// The grounding of the rules on `topology`'s size, made the first time it is asked for.
    fn grounding(&self, topology: Arc<Topology>) -> Result<Arc<Grounding>, AgentError> {
        let size = topology.grid_size().expect("a grid");
        let mut groundings = self
            .groundings
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(g) = groundings.get(&size) {
            return Ok(g.clone());
        }
        let start = topology.cell(0, 0);
        let grounding = Grounding::new(self.rules.clone(), topology, start)?;
        groundings.insert(size, grounding.clone());
        Ok(grounding)
    }

    /// The grid a player told `briefing` plays on.
    fn topology(&self, briefing: &Briefing) -> Result<Arc<Topology>, AgentError> {
        let size = briefing
            .grid_size()
            .ok_or_else(|| AgentError::Unfit("a grid agent plays grid games only".into()))?;
        if self.setup.topology.grid_size() == Some(size) {
            return Ok(self.setup.topology.clone());
        }
        Topology::grid(size.0, size.1)
            .map(Arc::new)
            .map_err(|e| AgentError::Unfit(e.to_string()))
    }

    /// An agent on `topology`, a grid of the setup's.
    fn agent(&self, topology: Arc<Topology>) -> Result<(GridAgent, Labels), AgentError> {
        let grounding = self.grounding(topology)?;
        let insight = Insight::of(self.explain);
        let agent = GridAgent::with_grounding(grounding.clone(), insight)?
            .with_strategy(self.strategy)
            .with_depth(self.depth);
        Ok((agent, Labels::Grid(grounding.topology().clone())))
    }
}

impl AgentFactory<GridSession> for GridFactory {
    fn make(
        &self,
        briefing: &Briefing,
        _: Dice,
    ) -> Result<Box<dyn Agent<GridSession>>, AgentError> {
        let (agent, labels) = self.agent(self.topology(briefing)?)?;
        Ok(Box::new(Playing {
            agent,
            explain: self.explain,
            labels,
        }))
    }
}

impl Roster for GridSession {
    const AGENTS: &'static [AgentKind] = &[AgentKind::Risk, AgentKind::Logic, AgentKind::Optimal];

    fn prepare(
        kind: AgentKind,
        setup: &crate::grid::GridSetup,
        options: &AgentOptions,
    ) -> Result<Box<dyn AgentFactory<GridSession>>, AgentError> {
        if kind == AgentKind::Optimal {
            if setup.sizes.is_some() {
                return Err(AgentError::Unfit(
                    "the optimal agent solves one grid size exactly: give --size one size, \
                     not a range"
                        .into(),
                ));
            }
            // One solver for the whole batch: its values are solved once, on the first
            // decision, and shared read-only by every game and thread.
            let model = Model::for_topology(&setup.topology, setup.pit_prob, setup.scoring)?;
            return Ok(Box::new(OptimalFactory {
                solver: Arc::new(OptimalSolver::new(model)),
                explain: options.explain,
                topology: setup.topology.clone(),
            }));
        }
        Ok(Box::new(GridFactory::prepare(
            kind,
            setup,
            options,
            RuleSet::Grid,
            Self::AGENTS,
        )?))
    }
}

impl AgentFactory<AimaSession> for GridFactory {
    fn make(
        &self,
        briefing: &Briefing,
        _: Dice,
    ) -> Result<Box<dyn Agent<AimaSession>>, AgentError> {
        let (agent, labels) = self.agent(self.topology(briefing)?)?;
        let facing = Direction::East;
        Ok(Box::new(Headed {
            grid: Playing {
                agent: agent
                    .headed(facing)
                    .with_action_budget(crate::grid::aima::SCORE_FLOOR.unsigned_abs() as u32),
                explain: self.explain,
                labels,
            },
            facing,
        }))
    }
}

impl Roster for AimaSession {
    const AGENTS: &'static [AgentKind] = &[AgentKind::Risk, AgentKind::Logic];

    fn prepare(
        kind: AgentKind,
        setup: &crate::grid::GridSetup,
        options: &AgentOptions,
    ) -> Result<Box<dyn AgentFactory<AimaSession>>, AgentError> {
        let setup = crate::grid::GridSetup {
            scoring: Scoring::Aima,
            ..setup.clone()
        };
        Ok(Box::new(GridFactory::prepare(
            kind,
            &setup,
            options,
            RuleSet::Aima,
            Self::AGENTS,
        )?))
    }
}

/// A grid agent playing the textbook's rules: it decides in compass steps and shots, planned
/// with turns counted (see [`GridAgent::headed`]), and this adapter carries each out in the
/// textbook's actions, the quarter turns first, telling the agent each turn.
struct Headed {
    grid: Playing<GridAgent>,
    facing: Direction,
}

impl Agent<AimaSession> for Headed {
    fn observe(
        &mut self,
        last: Option<&HeadedAction>,
        shown: &AimaShown,
    ) -> Result<Vec<Conclusion>, AgentError> {
        let agent = &mut self.grid.agent;
        let compass = match last {
            Some(HeadedAction::TurnLeft | HeadedAction::TurnRight) => {
                self.facing = shown.facing;
                agent.turned(shown.facing);
                return Ok(Vec::new());
            }
            None => None,
            Some(HeadedAction::Forward) => Some(GridAction::Move(self.facing)),
            Some(HeadedAction::Shoot) => Some(GridAction::Fire(self.facing)),
            Some(HeadedAction::Grab) => Some(GridAction::Grab),
            Some(HeadedAction::Climb) => Some(GridAction::Climb),
        };
        Ok(agent.observe(compass, &shown.turn.percepts)?)
    }

    fn decide(&mut self) -> Decision<HeadedAction> {
        let d = Agent::<GridSession>::decide(&mut self.grid);
        let actions = HeadedAction::carrying_out(d.action, self.facing);
        let words: Vec<&str> = actions.iter().map(|a| a.words()).collect();
        let mut reason = d.reason;
        reason.text = format!("{}: {}", words.join(", then "), reason.text);
        Decision {
            action: actions[0],
            reason,
            choices: d.choices,
            depth: d.depth,
        }
    }

    fn knowledge(&mut self) -> Knowledge {
        Agent::<GridSession>::knowledge(&mut self.grid)
    }

    fn solver_calls(&self) -> u64 {
        Agent::<GridSession>::solver_calls(&self.grid)
    }

    fn knowledge_base(&self) -> Option<&KnowledgeBase> {
        Agent::<GridSession>::knowledge_base(&self.grid)
    }
}

impl Agent<GridSession> for Playing<GridAgent> {
    fn observe(
        &mut self,
        last: Option<&GridAction>,
        shown: &Turn,
    ) -> Result<Vec<Conclusion>, AgentError> {
        Ok(self.agent.observe(last.copied(), &shown.percepts)?)
    }

    fn decide(&mut self) -> Decision<GridAction> {
        let d = self.agent.decide();
        let mut choices = Vec::new();
        if let (true, Some(odds)) = (self.explain, &d.odds) {
            for c in &odds.candidates {
                choices.push(Choice {
                    what: format!("step into {}", self.labels.of(c.place)),
                    place: Some(c.place),
                    expected: Some(c.expected),
                    bound: c.bound,
                    pit: Some(c.pit),
                    wumpus: Some(c.wumpus),
                    chosen: d.reason.rule == Rule::Gamble && d.reason.target == Some(c.place),
                    ..Choice::new("")
                });
            }
            for shot in &odds.shots {
                choices.push(Choice {
                    place: Some(shot.from),
                    expected: Some(shot.expected),
                    kill: Some(shot.kill),
                    chosen: shot.chosen,
                    ..Choice::new(format!(
                        "fire {} from {}",
                        shot.dir,
                        self.labels.of(shot.from)
                    ))
                });
            }
            choices.push(Choice {
                expected: Some(odds.climb),
                chosen: d.reason.rule != Rule::Gamble && !odds.shots.iter().any(|s| s.chosen),
                ..Choice::new("walk home and climb out")
            });
        }
        Decision {
            action: d.action,
            reason: d.reason,
            choices,
            depth: d.odds.as_ref().map(|o| o.depth),
        }
    }

    fn knowledge(&mut self) -> Knowledge {
        let a = &self.agent;
        let safe = a.proven_safe();
        Knowledge {
            at: Some(a.position()),
            visited: safe
                .iter()
                .copied()
                .filter(|&p| a.view(p) == super::grid::CellView::Visited)
                .collect(),
            safe,
            pit: a.proven_pits(),
            wumpus: a.proven_wumpus().into_iter().collect(),
            bats: Vec::new(),
            odds: Vec::new(),
            whereabouts: Vec::new(),
            wumpus_alive: a.wumpus_alive(),
            ways: Vec::new(),
        }
    }

    fn solver_calls(&self) -> u64 {
        self.agent.kb().solver_calls()
    }

    fn knowledge_base(&self) -> Option<&KnowledgeBase> {
        Some(self.agent.kb())
    }
}

struct OptimalFactory {
    solver: Arc<OptimalSolver>,
    explain: bool,
    topology: Arc<Topology>,
}

impl AgentFactory<GridSession> for OptimalFactory {
    fn make(
        &self,
        briefing: &Briefing,
        _: Dice,
    ) -> Result<Box<dyn Agent<GridSession>>, AgentError> {
        if briefing.grid_size() != self.topology.grid_size() {
            return Err(AgentError::Unfit(
                "the optimal agent was solved for another grid size".into(),
            ));
        }
        Ok(Box::new(Playing {
            agent: OptimalAgent::new(self.solver.clone(), self.explain),
            explain: self.explain,
            labels: Labels::Grid(self.topology.clone()),
        }))
    }
}

impl Agent<GridSession> for Playing<OptimalAgent> {
    fn observe(
        &mut self,
        last: Option<&GridAction>,
        shown: &Turn,
    ) -> Result<Vec<Conclusion>, AgentError> {
        self.agent.observe(last.copied(), &shown.percepts);
        Ok(Vec::new())
    }

    fn decide(&mut self) -> Decision<GridAction> {
        self.agent.decide()
    }

    fn knowledge(&mut self) -> Knowledge {
        let b = self.agent.belief();
        let places = |set: u32| {
            (0..32)
                .filter(|i| set >> i & 1 == 1)
                .map(Place::new)
                .collect::<Vec<_>>()
        };
        let visited = places(b.visited);
        let mut k = Knowledge {
            at: Some(self.agent.position()),
            safe: visited.clone(),
            visited,
            wumpus_alive: b.wumpus != 0,
            ..Knowledge::default()
        };
        // What the exact posterior makes certain is proven; the rest are odds.
        for (place, pit, wumpus) in self.agent.odds() {
            if pit <= 0.0 && wumpus <= 0.0 {
                k.safe.push(place);
            } else if pit >= 1.0 {
                k.pit.push(place);
            } else if wumpus >= 1.0 {
                k.wumpus.push(place);
            } else {
                k.odds.push(PlaceOdds {
                    place,
                    pit,
                    wumpus,
                    bats: 0.0,
                });
            }
        }
        k.safe.sort();
        k
    }
}

struct CaveFactory {
    config: CaveAgentConfig,
    first_number: usize,
}

impl AgentFactory<ClassicSession> for CaveFactory {
    fn make(
        &self,
        briefing: &Briefing,
        _: Dice,
    ) -> Result<Box<dyn Agent<ClassicSession>>, AgentError> {
        if briefing.places() != self.config.rooms {
            return Err(AgentError::Unfit(format!(
                "the agent was prepared for {} rooms; this game has {}",
                self.config.rooms,
                briefing.places()
            )));
        }
        self.agent()
    }
}

impl CaveFactory {
    /// The agent of one game.
    fn agent(&self) -> Result<Box<dyn Agent<ClassicSession>>, AgentError> {
        Ok(Box::new(Playing {
            explain: self.config.insight == Insight::Explained,
            agent: CaveAgent::new(self.config.clone())?,
            labels: Labels::Numbered(self.first_number),
        }))
    }
}

struct RandomFactory;

impl AgentFactory<ClassicSession> for RandomFactory {
    fn make(&self, _: &Briefing, dice: Dice) -> Result<Box<dyn Agent<ClassicSession>>, AgentError> {
        Ok(Box::new(RandomAgent::for_game(dice.0)))
    }
}

impl Roster for ClassicSession {
    const AGENTS: &'static [AgentKind] = &[AgentKind::Logic, AgentKind::Random];

    fn prepare(
        kind: AgentKind,
        setup: &crate::cave::ClassicSetup,
        options: &AgentOptions,
    ) -> Result<Box<dyn AgentFactory<ClassicSession>>, AgentError> {
        match kind {
            AgentKind::Logic => {
                if setup.variant != Variant::Event {
                    return Err(AgentError::Unfit(
                        "the logic agent plays the tournament rules (--variant event); use --agent random for \
                         --variant yob"
                            .to_string(),
                    ));
                }
                let depth = options.depth.unwrap_or(1);
                if depth > 1 && !options.map_known {
                    return Err(AgentError::Unfit(
                        "in the classic cave the look-ahead (--depth) needs the map \
                         (--map-known): where a room's tunnels are unknown, what may be felt \
                         there is not weighed"
                            .to_string(),
                    ));
                }
                let mut config =
                    CaveAgentConfig::for_map(&setup.map, options.map_known).with_depth(depth);
                if options.explain {
                    config = config.explained();
                }
                if let Some(n) = options.rollouts {
                    if !options.map_known {
                        return Err(AgentError::Unfit(
                            "rollouts (--rollouts) need the map (--map-known): what lies \
                             behind tunnels not yet seen cannot be drawn"
                                .to_string(),
                        ));
                    }
                    config.policy.rollouts = n;
                }
                let factory = CaveFactory {
                    config,
                    first_number: setup.map.first_number(),
                };
                factory.agent()?;
                Ok(Box::new(factory))
            }
            AgentKind::Random if options.rollouts.is_some() => Err(AgentError::Unfit(
                "the random player does not weigh its choices: --rollouts is for the logic agent"
                    .to_string(),
            )),
            AgentKind::Random if options.depth.is_some_and(|d| d > 1) => Err(AgentError::Unfit(
                "the random player does not look ahead: --depth is for the logic agent".to_string(),
            )),
            AgentKind::Random => Ok(Box::new(RandomFactory)),
            other => Err(unfit(other, RuleSet::Cave, Self::AGENTS)),
        }
    }
}

/// The classic cave's logic agent for a bot game (`wumpus bot`) of `rooms` rooms: given `map`
/// when the host's map is known, otherwise it learns each room's tunnels by standing in it.
/// Refused, saying why, when the map does not fit the game.
pub fn classic_bot_agent(
    rooms: usize,
    map: Option<&Arc<crate::cave::CaveMap>>,
) -> Result<Box<dyn Agent<ClassicSession>>, String> {
    let config = CaveAgentConfig::for_bot(rooms, map)?;
    let factory = CaveFactory {
        config,
        first_number: map.map_or(0, |m| m.first_number()),
    };
    factory.agent().map_err(|e| e.to_string())
}

/// A shot's or a step's chances as the one choice weighed (the cave and maze agents weigh
/// their choices by fixed priorities and report the chances of the one they take).
fn chosen_chances(what: String, kill: Option<f64>, risk: Option<f64>) -> Vec<Choice> {
    if kill.is_none() && risk.is_none() {
        return Vec::new();
    }
    vec![Choice {
        kill,
        risk,
        chosen: true,
        ..Choice::new(what)
    }]
}

impl Playing<CaveAgent> {
    /// One option of the cave's look-ahead as a choice: a step with its chance of dying, or
    /// the best shot (`shot`: the shot in words, when it was the one taken) with its chance
    /// of a kill.
    fn weighed_choice(&self, w: &super::cave::Weighed, shot: &str) -> Choice {
        match w.step {
            Some(room) => Choice {
                place: Some(room),
                risk: Some(w.chance),
                expected: Some(w.worth),
                chosen: w.chosen,
                ..Choice::new(format!("step into {}", self.labels.of(room)))
            },
            None => Choice {
                kill: Some(w.chance),
                expected: Some(w.worth),
                chosen: w.chosen,
                ..Choice::new(if w.chosen {
                    shot
                } else {
                    "the best shot from here"
                })
            },
        }
    }
}

impl Agent<ClassicSession> for Playing<CaveAgent> {
    fn observe(
        &mut self,
        last: Option<&CaveAction>,
        shown: &CaveShown,
    ) -> Result<Vec<Conclusion>, AgentError> {
        // A contradiction (a game of another variant) leaves the agent playing on without its
        // knowledge; its reasons say so.
        Ok(self
            .agent
            .perceive(last, shown.result.as_ref(), &shown.status)
            .unwrap_or_default())
    }

    fn decide(&mut self) -> Decision<CaveAction> {
        let d = self.agent.decide();
        let choices = if self.explain {
            let what = match &d.action {
                CaveAction::Move(r) => format!("move {}", self.labels.of(*r)),
                CaveAction::Shoot(path) => {
                    let rooms: Vec<String> =
                        path.rooms().iter().map(|&r| self.labels.of(r)).collect();
                    format!("shoot {}", rooms.join(" "))
                }
            };
            if d.weighed.is_empty() {
                chosen_chances(what, d.kill_chance, d.risk)
            } else {
                d.weighed
                    .iter()
                    .map(|w| self.weighed_choice(w, &what))
                    .collect()
            }
        } else {
            Vec::new()
        };
        Decision {
            depth: (!d.weighed.is_empty() && d.rollouts == 0).then_some(2),
            action: d.action,
            reason: d.reason,
            choices,
        }
    }

    fn knowledge(&mut self) -> Knowledge {
        let a = &self.agent;
        let mut k = Knowledge {
            at: a.here(),
            wumpus_alive: true,
            ..Knowledge::default()
        };
        for room in (0..a.map().rooms()).map(Place::new) {
            match a.view(room) {
                RoomView::Here | RoomView::Visited => {
                    k.visited.push(room);
                    k.safe.push(room);
                }
                RoomView::Safe => k.safe.push(room),
                RoomView::Pit => k.pit.push(room),
                RoomView::Bats => k.bats.push(room),
                RoomView::Wumpus => k.wumpus.push(room),
                RoomView::Unknown => {}
            }
        }
        if let Some(o) = a.odds() {
            let open = |x: f64| x > 0.0 && x < 1.0;
            for (i, ((&pit, &wumpus), &bats)) in
                o.pit.iter().zip(&o.wumpus).zip(&o.bats).enumerate()
            {
                if open(pit) || open(wumpus) || open(bats) {
                    k.odds.push(PlaceOdds {
                        place: Place::new(i),
                        pit,
                        wumpus,
                        bats,
                    });
                }
            }
        }
        k
    }

    fn solver_calls(&self) -> u64 {
        self.agent.kb().map_or(0, |kb| kb.solver_calls())
    }

    fn knowledge_base(&self) -> Option<&KnowledgeBase> {
        self.agent.kb()
    }
}

struct MazeFactory {
    map: Arc<crate::cave::CaveMap>,
    explain: bool,
    map_known: bool,
}

impl AgentFactory<MazeSession> for MazeFactory {
    fn make(
        &self,
        briefing: &Briefing,
        _: Dice,
    ) -> Result<Box<dyn Agent<MazeSession>>, AgentError> {
        if briefing.places() != self.map.len() {
            return Err(AgentError::Unfit(format!(
                "the agent was prepared for {} caves; this game has {}",
                self.map.len(),
                briefing.places()
            )));
        }
        self.agent()
    }
}

impl MazeFactory {
    /// The agent of one game.
    fn agent(&self) -> Result<Box<dyn Agent<MazeSession>>, AgentError> {
        if !self.map_known {
            // Told the number of caves only: see agent::maze::discovered.
            return Ok(Box::new(MazePlaying {
                agent: DiscoveredMazeAgent::new(self.map.len()),
                explain: self.explain,
            }));
        }
        let insight = Insight::of(self.explain);
        Ok(Box::new(MazePlaying {
            agent: MazeAgent::new(self.map.clone(), insight)?,
            explain: self.explain,
        }))
    }
}

impl Roster for MazeSession {
    const AGENTS: &'static [AgentKind] = &[AgentKind::Logic];

    fn prepare(
        kind: AgentKind,
        setup: &crate::cave::MazeSetup,
        options: &AgentOptions,
    ) -> Result<Box<dyn AgentFactory<MazeSession>>, AgentError> {
        if kind != AgentKind::Logic {
            return Err(unfit(kind, RuleSet::Maze, Self::AGENTS));
        }
        let factory = MazeFactory {
            map: setup.map.clone(),
            explain: options.explain,
            map_known: options.map_known,
        };
        factory.agent()?;
        Ok(Box::new(factory))
    }
}

/// What the maze adapter needs of a maze player: the agent given the map
/// ([`MazeAgent`]) or the one that learns it ([`DiscoveredMazeAgent`]).
trait MazeMind {
    fn take_in(
        &mut self,
        last: Option<MazeAction>,
        result: Option<crate::cave::maze::MazeResult>,
        view: &crate::cave::maze::MazeView,
    ) -> Vec<Conclusion>;
    fn choose(&mut self) -> MazeDecision;
    fn odds(&self) -> Vec<TunnelOdds>;
    fn words(&self, tunnel: usize) -> String;
    fn known(&self) -> Knowledge;
    fn calls(&self) -> u64;
    fn base(&self) -> Option<&KnowledgeBase>;
}

impl MazeMind for MazeAgent {
    fn take_in(
        &mut self,
        last: Option<MazeAction>,
        result: Option<crate::cave::maze::MazeResult>,
        view: &crate::cave::maze::MazeView,
    ) -> Vec<Conclusion> {
        // A contradiction leaves the agent walking blind; it shows in its reasons.
        self.perceive(last, result, view).unwrap_or_default()
    }
    fn choose(&mut self) -> MazeDecision {
        self.decide()
    }
    fn odds(&self) -> Vec<TunnelOdds> {
        self.tunnels()
    }
    fn words(&self, tunnel: usize) -> String {
        self.through(tunnel)
    }
    fn known(&self) -> Knowledge {
        self.knowledge()
    }
    fn calls(&self) -> u64 {
        self.solver_calls()
    }
    fn base(&self) -> Option<&KnowledgeBase> {
        self.kb()
    }
}

impl MazeMind for DiscoveredMazeAgent {
    fn take_in(
        &mut self,
        last: Option<MazeAction>,
        result: Option<crate::cave::maze::MazeResult>,
        view: &crate::cave::maze::MazeView,
    ) -> Vec<Conclusion> {
        self.perceive(last, result, view);
        Vec::new()
    }
    fn choose(&mut self) -> MazeDecision {
        self.decide()
    }
    fn odds(&self) -> Vec<TunnelOdds> {
        self.tunnels()
    }
    fn words(&self, tunnel: usize) -> String {
        self.through(tunnel)
    }
    fn known(&self) -> Knowledge {
        self.knowledge()
    }
    fn calls(&self) -> u64 {
        0
    }
    fn base(&self) -> Option<&KnowledgeBase> {
        None
    }
}

/// The maze's agent through the one interface.
struct MazePlaying<M> {
    agent: M,
    explain: bool,
}

impl<M: MazeMind> Agent<MazeSession> for MazePlaying<M> {
    fn observe(
        &mut self,
        last: Option<&MazeAction>,
        shown: &MazeShown,
    ) -> Result<Vec<Conclusion>, AgentError> {
        Ok(self.agent.take_in(last.copied(), shown.result, &shown.view))
    }

    fn decide(&mut self) -> Decision<MazeAction> {
        let d = self.agent.choose();
        // Every way on, stepped into or tossed into, with its chances: what the choice was
        // weighed against (the agent's priorities are in agent::maze).
        let mut choices = Vec::new();
        if self.explain {
            let tunnels = self.agent.odds();
            for t in &tunnels {
                choices.push(Choice {
                    pit: Some(t.pit),
                    wumpus: Some(t.wumpus),
                    risk: Some(t.pit + t.wumpus),
                    chosen: d.action == MazeAction::Move(t.tunnel),
                    ..Choice::new(format!("move {}", self.agent.words(t.tunnel)))
                });
            }
            for t in &tunnels {
                choices.push(Choice {
                    kill: Some(t.wumpus),
                    // Without the map the chance of a startled wumpus running in is not
                    // counted: no figure rather than a wrong one.
                    risk: (!t.estimated).then_some(t.devour),
                    chosen: d.action == MazeAction::Toss(t.tunnel),
                    ..Choice::new(format!("toss {}", self.agent.words(t.tunnel)))
                });
            }
        }
        Decision {
            action: d.action,
            reason: d.reason,
            choices,
            depth: None,
        }
    }

    fn knowledge(&mut self) -> Knowledge {
        self.agent.known()
    }

    fn solver_calls(&self) -> u64 {
        self.agent.calls()
    }

    fn knowledge_base(&self) -> Option<&KnowledgeBase> {
        self.agent.base()
    }
}
