//! Which agents play which rule set: the [`Roster`] of a rule set names its agents
//! ([`AgentKind`]) and prepares one for a batch of games ([`AgentFactory`]), checking once
//! what every game's agent needs, then builds each game's agent from its [`Briefing`].
//!
//! It must never adapt or wrap an agent: every agent implements [`Agent`] itself, in its own
//! module; the roster only lists and builds them.

use super::cave::{CaveAgent, CaveAgentConfig};
use super::common::Insight;
use super::grid::{default_rules, GridAgent, HeadedAgent, Strategy};
use super::maze::discovered::DiscoveredMazeAgent;
use super::maze::MazeAgent;
use super::optimal::{HeadedOptimalAgent, Model, Moves, OptimalAgent, OptimalSolver};
use super::random::RandomAgent;
use super::{Agent, AgentError, Dice};
use crate::cave::classic::Variant;
use crate::cave::{ClassicSession, MazeSession};
use crate::game::{Briefing, GridPrior, RuleFacts, Session};
use crate::grid::{AimaSession, GridSession, Scoring};
use crate::kb::rules::Rules;
use crate::kb::Grounding;
use crate::topology::Topology;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How far the grid's risk agent looks ahead unless told: the strongest depth that keeps at
/// least 10,000 5x5 games a second on two cores (docs/agents.md, "Looking further ahead").
pub const DEFAULT_GRID_DEPTH: u32 = 2;

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

    /// What the agent does, for people.
    pub fn help(self) -> &'static str {
        match self {
            AgentKind::Risk => {
                "Grid and aima (the default there): logic first, then exact odds and the best \
                 expected score, looking ahead (depth)."
            }
            AgentKind::Logic => {
                "Grid and aima: moves only where the knowledge base proves it safe, never \
                 dies. Cave and maze (the default there): the reasoning agent, with proofs and \
                 exact odds."
            }
            AgentKind::Random => {
                "Cave: the classic cave event's random player. Grid and aima: each action \
                 with the same chance (a yardstick)."
            }
            AgentKind::Optimal => {
                "Grid, up to 16 cells (4x4): the exact optimal policy, solved once for the \
                 batch by expectimax over belief states."
            }
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
    /// The folder the optimal agent keeps its solved values in (`None`: solved every run).
    pub cache: Option<std::path::PathBuf>,
}

/// Makes the agent of each game of a batch.
pub trait AgentFactory<S: Session>: Send + Sync {
    /// A fresh agent for a game whose player was told `briefing` at the start
    /// ([`Session::briefing`]), throwing `dice` for its own random draws (only the random
    /// player draws any).
    fn make(&self, briefing: &Briefing, dice: Dice) -> Result<Box<dyn Agent<S>>, AgentError>;

    /// What the door may tell its user about the batch's agents once it is played (where the
    /// optimal agent's solved values came from), if anything.
    fn report(&self) -> Option<String> {
        None
    }

    /// Does the batch's one-off work now (the optimal agent's solve, or reading its values),
    /// so that no game's first decision is charged with it. Otherwise it is done on the
    /// first decision that needs it.
    fn ready(&self) {}
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
fn unfit(kind: AgentKind, rules: &RuleFacts, agents: &[AgentKind]) -> AgentError {
    let names: Vec<&str> = agents.iter().map(|a| a.name()).collect();
    AgentError::Unfit(format!(
        "the {kind} agent does not play {}; its agents are {}",
        rules.title,
        names.join(" and ")
    ))
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
        rules: &RuleFacts,
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
            depth: options.depth.unwrap_or(DEFAULT_GRID_DEPTH),
        };
        // Every game's agent is made the same way: one made now shows the rules fit.
        factory.agent(setup.topology.clone(), None)?;
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

    /// The agent for a player told `briefing`: on its grid when the size is told (with each
    /// cell's chance of a pit where the deal puts pits in some cells only), or learning the
    /// walls when it is hidden.
    fn agent_for(&self, briefing: &Briefing) -> Result<GridAgent, AgentError> {
        let unfit = || AgentError::Unfit("a grid agent plays grid games only".into());
        let prior = briefing.grid_prior().ok_or_else(unfit)?;
        let pit_prob = self.setup.pit_prob;
        let Some(size) = briefing.grid_size() else {
            let insight = Insight::of(self.explain);
            return Ok(GridAgent::learning_size(
                Some(self.rules.clone()),
                insight,
                prior,
                pit_prob,
            )?
            .with_strategy(self.strategy)
            .with_depth(self.depth));
        };
        let topology = if self.setup.topology.grid_size() == Some(size) {
            self.setup.topology.clone()
        } else {
            Topology::grid(size.0, size.1)
                .map(Arc::new)
                .map_err(|e| AgentError::Unfit(e.to_string()))?
        };
        // The uniform deal puts pits anywhere: the strategy's one chance says it all.
        let chances = (prior == GridPrior::Course)
            .then(|| prior.pit_chances(size, (size.0, size.0), (size.1, size.1), pit_prob));
        self.agent(topology, chances)
    }

    /// An agent on `topology`, a grid of the setup's, with each cell's own chance of a pit if
    /// given.
    fn agent(
        &self,
        topology: Arc<Topology>,
        chances: Option<Vec<f64>>,
    ) -> Result<GridAgent, AgentError> {
        let grounding = self.grounding(topology)?;
        let insight = Insight::of(self.explain);
        let mut agent = GridAgent::with_grounding(grounding, insight)?
            .with_strategy(self.strategy)
            .with_prior_pit(self.setup.pit_prob);
        if let Some(chances) = chances {
            agent = agent.with_pit_chances(chances);
        }
        Ok(agent.with_depth(self.depth))
    }
}

impl AgentFactory<GridSession> for GridFactory {
    fn make(
        &self,
        briefing: &Briefing,
        _: Dice,
    ) -> Result<Box<dyn Agent<GridSession>>, AgentError> {
        Ok(Box::new(self.agent_for(briefing)?))
    }
}

/// Makes the uniform random players of a grid batch (compass moves or the textbook's).
struct UniformFactory;

impl AgentFactory<GridSession> for UniformFactory {
    fn make(&self, _: &Briefing, dice: Dice) -> Result<Box<dyn Agent<GridSession>>, AgentError> {
        Ok(Box::new(super::random::UniformAgent::grid(dice)))
    }
}

impl AgentFactory<AimaSession> for UniformFactory {
    fn make(&self, _: &Briefing, dice: Dice) -> Result<Box<dyn Agent<AimaSession>>, AgentError> {
        Ok(Box::new(super::random::UniformAgent::headed(dice)))
    }
}

impl Roster for GridSession {
    const AGENTS: &'static [AgentKind] = &[
        AgentKind::Risk,
        AgentKind::Logic,
        AgentKind::Optimal,
        AgentKind::Random,
    ];

    fn prepare(
        kind: AgentKind,
        setup: &crate::grid::GridSetup,
        options: &AgentOptions,
    ) -> Result<Box<dyn AgentFactory<GridSession>>, AgentError> {
        if kind == AgentKind::Random {
            return Ok(Box::new(UniformFactory));
        }
        if kind == AgentKind::Optimal {
            return Ok(Box::new(OptimalFactory::prepare(
                setup,
                options,
                Moves::AnyDirection,
            )?));
        }
        Ok(Box::new(GridFactory::prepare(
            kind,
            setup,
            options,
            Self::FACTS,
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
        let grid = self.agent_for(briefing)?;
        Ok(Box::new(HeadedAgent::new(grid)))
    }
}

impl Roster for AimaSession {
    const AGENTS: &'static [AgentKind] = &[
        AgentKind::Risk,
        AgentKind::Logic,
        AgentKind::Optimal,
        AgentKind::Random,
    ];

    fn prepare(
        kind: AgentKind,
        setup: &crate::grid::GridSetup,
        options: &AgentOptions,
    ) -> Result<Box<dyn AgentFactory<AimaSession>>, AgentError> {
        if kind == AgentKind::Random {
            return Ok(Box::new(UniformFactory));
        }
        let setup = crate::grid::GridSetup {
            scoring: Scoring::Aima,
            ..setup.clone()
        };
        if kind == AgentKind::Optimal {
            return Ok(Box::new(OptimalFactory::prepare(
                &setup,
                options,
                Moves::Heading,
            )?));
        }
        Ok(Box::new(GridFactory::prepare(
            kind,
            &setup,
            options,
            Self::FACTS,
            Self::AGENTS,
        )?))
    }
}

struct OptimalFactory {
    solver: Arc<OptimalSolver>,
    explain: bool,
    topology: Arc<Topology>,
}

impl OptimalFactory {
    /// One solver for the whole batch, under rules of movement `moves`: its values are solved
    /// (or read from the cache folder) once, on the first decision, and shared read-only by
    /// every game and thread.
    fn prepare(
        setup: &crate::grid::GridSetup,
        options: &AgentOptions,
        moves: Moves,
    ) -> Result<OptimalFactory, AgentError> {
        if setup.varies() {
            return Err(AgentError::Unfit(
                "the optimal agent solves one grid size exactly, not a range".into(),
            ));
        }
        let model =
            Model::for_topology(&setup.topology, setup.pit_prob, setup.scoring)?.with_moves(moves);
        let mut solver = OptimalSolver::new(model);
        if let Some(dir) = &options.cache {
            solver = solver.with_cache(dir.clone());
        }
        Ok(OptimalFactory {
            solver: Arc::new(solver),
            explain: options.explain,
            topology: setup.topology.clone(),
        })
    }

    /// Refuses a game of another size than the one solved.
    fn fits(&self, briefing: &Briefing) -> Result<(), AgentError> {
        if briefing.grid_size() != self.topology.grid_size() {
            return Err(AgentError::Unfit(
                "the optimal agent was solved for another grid size".into(),
            ));
        }
        Ok(())
    }
}

impl AgentFactory<AimaSession> for OptimalFactory {
    fn make(
        &self,
        briefing: &Briefing,
        _: Dice,
    ) -> Result<Box<dyn Agent<AimaSession>>, AgentError> {
        self.fits(briefing)?;
        Ok(Box::new(HeadedOptimalAgent::new(
            self.solver.clone(),
            self.explain,
        )))
    }

    fn report(&self) -> Option<String> {
        self.solver.cache_event().map(|e| e.to_string())
    }

    fn ready(&self) {
        self.solver.game_value();
    }
}

impl AgentFactory<GridSession> for OptimalFactory {
    fn make(
        &self,
        briefing: &Briefing,
        _: Dice,
    ) -> Result<Box<dyn Agent<GridSession>>, AgentError> {
        self.fits(briefing)?;
        Ok(Box::new(OptimalAgent::new(
            self.solver.clone(),
            self.explain,
        )))
    }

    fn report(&self) -> Option<String> {
        self.solver.cache_event().map(|e| e.to_string())
    }

    fn ready(&self) {
        self.solver.game_value();
    }
}

struct CaveFactory {
    config: CaveAgentConfig,
}

impl AgentFactory<ClassicSession> for CaveFactory {
    fn make(
        &self,
        briefing: &Briefing,
        _: Dice,
    ) -> Result<Box<dyn Agent<ClassicSession>>, AgentError> {
        if briefing.places() != self.config.rooms {
            return Err(AgentError::Unfit(format!(
                "the map has {} rooms, the game {}",
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
        Ok(Box::new(CaveAgent::new(self.config.clone())?))
    }
}

struct RandomFactory;

impl AgentFactory<ClassicSession> for RandomFactory {
    fn make(&self, _: &Briefing, dice: Dice) -> Result<Box<dyn Agent<ClassicSession>>, AgentError> {
        Ok(Box::new(RandomAgent::new(dice)))
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
            // Which options fit which agent is the spec's to refuse (crate::game_spec); an agent
            // prepared here plays what it is given.
            AgentKind::Logic if setup.variant != Variant::Event => Err(AgentError::Unfit(
                "the logic agent plays the tournament rules (variant event) only".to_string(),
            )),
            AgentKind::Logic => {
                let depth = options.depth.unwrap_or(1);
                let mut config =
                    CaveAgentConfig::for_map(&setup.map, options.map_known).with_depth(depth);
                if options.explain {
                    config = config.explained();
                }
                if let Some(n) = options.rollouts.filter(|_| options.map_known) {
                    config.policy.rollouts = n;
                }
                let factory = CaveFactory { config };
                factory.agent()?;
                Ok(Box::new(factory))
            }
            AgentKind::Random => Ok(Box::new(RandomFactory)),
            other => Err(unfit(other, Self::FACTS, Self::AGENTS)),
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
    let factory = CaveFactory { config };
    factory.agent().map_err(|e| e.to_string())
}

struct MazeFactory {
    map: Arc<crate::cave::CaveMap>,
    groundings: super::maze::MazeGroundings,
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
                "the map has {} caves, the game {}",
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
            return Ok(Box::new(
                DiscoveredMazeAgent::new(self.map.len()).explained(self.explain),
            ));
        }
        let insight = Insight::of(self.explain);
        Ok(Box::new(MazeAgent::sharing(
            self.groundings.clone(),
            insight,
        )?))
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
            return Err(unfit(kind, Self::FACTS, Self::AGENTS));
        }
        let factory = MazeFactory {
            map: setup.map.clone(),
            groundings: super::maze::MazeGroundings::new(setup.map.clone()),
            explain: options.explain,
            map_known: options.map_known,
        };
        factory.agent()?;
        Ok(Box::new(factory))
    }
}
