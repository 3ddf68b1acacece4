//! The logic agent for the grid Wumpus World: it moves only where the knowledge base proves it
//! safe, so it never dies.
//!
//! Each turn the agent (1) works out where it is from its own last action and the bump
//! percept, (2) tells the knowledge base what it perceives at a cell the first time it stands
//! there, (3) asks about the frontier (unvisited cells next to visited ones), but only about
//! cells whose constraints changed since it last asked (the knowledge base hands back the
//! cells whose watched atoms changed, so a turn costs what changed, not the whole frontier),
//! and (4) decides by fixed priorities:
//! grab a glint; with the gold, go home and climb; walk to the nearest proven-safe unvisited
//! cell; shoot when a kill or a miss would prove new cells safe; otherwise go home and climb.
//!
//! When logic runs out, the risk agent weighs its risks in `agent::grid::risk`.
//!
//! Beside its knowledge base the agent keeps a few parts, each holding one concern: how it was
//! made to play (`Settings`) and where it is and what it carries (`Status`), both here; what
//! it knows of each cell (`map`); the cells in doubt and which to examine (`frontier`); what
//! it set out to do (`Plan`, in `decide`); the look-ahead's state (`foresight`); and, with the
//! size hidden, what it knows of the size (`hidden`).
//!
//! Invariant: the agent holds no hidden state of the world, only its knowledge base and what it
//! did. Every cell it steps into was visited before or proven safe by the solver.

use super::common::{self, Insight};
use super::{Conclusion, Fact, Reason, Rule};
use crate::grid::{Action, Percepts, Scoring};
use crate::kb::ground::{Atom, GroundLit};
use crate::kb::odds::Prior;
use crate::kb::rules::{parse_rules, Rules, GRID_RULES};
use crate::kb::{Grounding, KbError, KnowledgeBase, Proofs};
use crate::planner;
use crate::topology::{Direction, Link, Place, Topology};
use std::collections::VecDeque;
use std::sync::{Arc, OnceLock};

mod cell_list;
mod decide;
mod foresight;
mod frontier;
pub(crate) mod headed;
mod hidden;
mod interface;
pub mod lookahead;
mod map;
mod observe;
pub mod odds;
mod risk;
use decide::Plan;
use foresight::Foresight;
use frontier::Frontier;
pub use headed::HeadedAgent;
use lookahead::Lookahead;
use map::Map;
use risk::Gamble;
pub use risk::{Candidate, Odds, ShotCandidate};

/// The predicates of the grid rules the agent uses.
#[derive(Clone, Copy, Debug)]
struct Vocabulary {
    pit: usize,
    wumpus: usize,
    breeze: usize,
    stench: usize,
    visited: usize,
    unharmed: usize,
    missed: usize,
}

impl Vocabulary {
    fn of(rules: &Rules) -> Result<Vocabulary, KbError> {
        let words = common::Vocabulary::of(
            rules,
            ["pit", "wumpus"],
            ["breeze", "stench", "visited", "unharmed", "missed"],
            None,
            KbError::Vocabulary,
        )?;
        let [pit, wumpus] = words.hidden;
        let [breeze, stench, visited, unharmed, missed] = words.percepts;
        Ok(Vocabulary {
            pit,
            wumpus,
            breeze,
            stench,
            visited,
            unharmed,
            missed,
        })
    }
}

/// The best win rate any player can expect on a `rows`×`cols` grid at pit probability 0.2, where
/// it is known exactly: the optimum over every policy of the real game, computed by
/// `examples/grid_bound.rs` (`-- R C wins 0.2`; table and method in `docs/agents.md`). A win
/// counts the same under either scoring, so the value holds for both. `None` elsewhere.
pub fn best_win_rate(rows: usize, cols: usize, pit_prob: f64) -> Option<f64> {
    if pit_prob != 0.2 {
        return None;
    }
    // The grid and its transpose are the same game seen in a mirror.
    let (a, b) = (rows.min(cols), rows.max(cols));
    match (a, b) {
        (3, 3) => Some(0.5941),
        (3, 4) => Some(0.5688),
        (4, 4) => Some(0.5365),
        (3, 5) => Some(0.5391),
        (4, 5) => Some(0.5078),
        (5, 5) => Some(0.4775),
        _ => None,
    }
}

/// The built-in grid rules, parsed once.
pub fn default_rules() -> Arc<Rules> {
    static RULES: OnceLock<Arc<Rules>> = OnceLock::new();
    RULES
        .get_or_init(|| Arc::new(parse_rules(GRID_RULES).expect("kb/grid.kb is valid")))
        .clone()
}

/// One question the agent asks about a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Question {
    NoPit = 0,
    Pit = 1,
    NoWumpus = 2,
    Wumpus = 3,
}

/// What the agent believes of a cell, for maps and traces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellView {
    /// The agent has stood here.
    Visited,
    /// Proven free of pit and live wumpus.
    Safe,
    /// Proven to hold a pit.
    Pit,
    /// Proven to hold the live wumpus.
    Wumpus,
    /// Not known.
    Unknown,
}

/// What the agent's priorities chose, with the odds the risk agent weighed: the agent puts it
/// in the one [`Decision`](super::Decision) when asked to decide.
#[derive(Clone, Debug, PartialEq)]
struct Chosen {
    /// The action.
    pub action: Action,
    /// Why.
    pub reason: Reason,
    /// When the agent weighed risks: the candidates it weighed and the value of climbing out.
    pub odds: Option<Odds>,
}

/// How an agent plays when logic runs out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Strategy {
    /// Never take a risk: go home and climb out.
    Logic,
    /// Weigh exact odds and step where the expected final score beats climbing out.
    Risk {
        /// The world's pit probability, the prior of the odds.
        pit_prob: f64,
        /// The scoring in force, which prices death and gold.
        scoring: Scoring,
    },
}

/// How the agent was made to play: the words of its rules, whether it explains its
/// conclusions, how it plays when logic runs out, and the actions it may spend. Set before the
/// first observation; play must never change it.
#[derive(Clone, Copy, Debug)]
struct Settings {
    /// The predicates of the rules it asks and tells about.
    words: Vocabulary,
    /// Whether conclusions come with the observations they rest on.
    insight: Insight,
    strategy: Strategy,
    /// The actions (the arrow counting 10) after which the game ends, where it does (the
    /// tournament's score floor under the textbook's rules).
    action_budget: Option<u32>,
    /// The chance of a pit in a cell the deal gives, when the agent is told it: its knowledge
    /// then carries the exact odds of the cells next to where it has been.
    prior_pit: Option<f64>,
}

/// The most open cells whose odds an agent's knowledge counts.
pub const MOST_ODDS: usize = 48;

/// Where the agent is and what it has: its cell, the way it faces, the gold and the arrow,
/// the actions spent, whether the scream was heard, whether the gold glints here. All of it
/// follows from the agent's own actions and the percepts that followed; it must never hold
/// anything of the world the agent was not shown.
#[derive(Clone, Copy, Debug)]
struct Status {
    position: Place,
    /// The way the agent faces under the textbook's rules (`None`: compass moves, no
    /// heading): its routes then count turns, each an action.
    facing: Option<Direction>,
    has_gold: bool,
    has_arrow: bool,
    /// True while no scream has been heard.
    wumpus_alive: bool,
    glint_here: bool,
    /// The actions taken so far.
    moves: u32,
}

/// The logic agent for the grid.
pub struct GridAgent {
    /// What it was told, and what it can prove from it.
    kb: KnowledgeBase,
    /// The grid it reasons on.
    topology: Arc<Topology>,
    settings: Settings,
    status: Status,
    /// What it knows of each cell.
    map: Map,
    /// The cells in doubt next to where it walked, and which to examine.
    frontier: Frontier,
    /// What it set out to do, and the decision given and not yet taken.
    plan: Plan,
    /// The look-ahead and the priors it counts with.
    foresight: Foresight,
    /// With the board's size hidden, what the agent knows of it ([`hidden`]).
    hidden: Option<Box<hidden::HiddenSize>>,
}

impl GridAgent {
    /// An agent at `0,0` of `topology` (a grid) reasoning with `rules` (the built-in rules
    /// when `None`).
    pub fn new(
        topology: Arc<Topology>,
        rules: Option<Arc<Rules>>,
        insight: Insight,
    ) -> Result<GridAgent, KbError> {
        let rules = rules.unwrap_or_else(default_rules);
        GridAgent::with_grounding(
            Grounding::new(rules, topology, Some(Place::new(0)))?,
            insight,
        )
    }

    /// An agent on a grounding shared with other games on the same grid (see
    /// [`Grounding`]); its start must be `0,0`.
    pub fn with_grounding(
        grounding: Arc<Grounding>,
        insight: Insight,
    ) -> Result<GridAgent, KbError> {
        let proofs = match insight {
            Insight::Decisions => Proofs::Fast,
            Insight::Explained => Proofs::Explained,
        };
        GridAgent::on(KnowledgeBase::from_grounding(grounding, proofs), insight)
    }

    /// An agent reasoning with `kb`, fresh for a game on a grid whose start is `0,0`.
    fn on(kb: KnowledgeBase, insight: Insight) -> Result<GridAgent, KbError> {
        let words = Vocabulary::of(kb.rules())?;
        let topology = kb.topology().clone();
        let n = topology.len();
        Ok(GridAgent {
            kb,
            topology,
            settings: Settings {
                words,
                insight,
                strategy: Strategy::Logic,
                action_budget: None,
                prior_pit: None,
            },
            status: Status {
                position: Place::new(0),
                facing: None,
                has_gold: false,
                has_arrow: true,
                wumpus_alive: true,
                glint_here: false,
                moves: 0,
            },
            map: Map::new(n),
            frontier: Frontier::new(n),
            plan: Plan::new(),
            foresight: Foresight::default(),
            hidden: None,
        })
    }

    /// The same agent playing by `strategy` when logic runs out.
    pub fn with_strategy(mut self, strategy: Strategy) -> GridAgent {
        self.settings.strategy = strategy;
        self
    }

    /// The same agent looking `depth` steps ahead when it gambles (1: one step, the default).
    /// Only the risk agent gambles, and only on grids of up to [`lookahead::MAX_CELLS`]
    /// cells; elsewhere it looks one step ahead. Call it after [`GridAgent::with_strategy`]
    /// and before the first observation.
    pub fn with_depth(mut self, depth: u32) -> GridAgent {
        self.foresight.lookahead = None;
        self.foresight.sight = None;
        if let Strategy::Risk { pit_prob, scoring } = self.settings.strategy {
            if depth > 1 {
                if let Some(mut l) = Lookahead::new(&self.topology, pit_prob, scoring) {
                    if self.status.facing.is_some() {
                        l = l.headed();
                    }
                    if let Some(chances) = &self.foresight.pit_chances {
                        l = l.with_pit_chances(chances.to_vec());
                    }
                    if let Some(sizes) = &self.foresight.sizes {
                        l = l.with_sizes(sizes.to_vec());
                    }
                    self.foresight.sight = Some(l.blank());
                    self.foresight.lookahead = Some((Arc::new(l), depth));
                }
            }
        }
        self
    }

    /// The same agent playing with a heading, first facing `facing` (the textbook's rules): it
    /// still decides in compass steps and shots, but chooses its routes, shooting places and
    /// risks by their cost in actions counting the quarter turns, and it is told each turn
    /// taken ([`GridAgent::turned`]). Whoever drives it turns each step into turns and
    /// `Forward`.
    pub fn headed(mut self, facing: Direction) -> GridAgent {
        self.status.facing = Some(facing);
        // The look-ahead then prices its walks with the turns too.
        match self.foresight.lookahead.as_ref().map(|(_, depth)| *depth) {
            Some(depth) => self.with_depth(depth),
            None => self,
        }
    }

    /// The same agent in a game that ends once `budget` actions are spent, the arrow counting
    /// 10 (the textbook tournament's score floor of −1000): it sets out on no walk, shot or
    /// risk after which it could not walk home and climb out within the budget.
    pub fn with_action_budget(mut self, budget: u32) -> GridAgent {
        self.settings.action_budget = Some(budget);
        self
    }

    /// The same agent told the deal's chance of a pit in a cell, for the odds its knowledge
    /// gives ([`crate::agent::Knowledge::odds`]).
    pub fn with_prior_pit(mut self, pit_prob: f64) -> GridAgent {
        self.settings.prior_pit = Some(pit_prob);
        self
    }

    /// The exact odds of each open cell (not visited, not proven either way), when it was told
    /// the deal's chance of a pit: on a board of at most `4 *` [`MOST_ODDS`] cells, every open
    /// cell while those next to where the agent has been are fewer than [`MOST_ODDS`]; else
    /// those next to where the agent has been while they are that few (beyond, counting them
    /// would slow every step of a big board).
    pub fn frontier_odds(&mut self) -> Vec<crate::agent::PlaceOdds> {
        self.open_odds(MOST_ODDS)
    }

    /// [`GridAgent::frontier_odds`] with `most` for [`MOST_ODDS`]. A cell no percept reaches
    /// (open, next to no visited cell, and not on a missed arrow's line) is named by no
    /// clause but the deal's one wumpus, which names every cell alike; so, where every cell
    /// has the same prior chance of a pit and the size is known, all such cells have the same
    /// odds, and one of them is counted for all.
    fn open_odds(&mut self, most: usize) -> Vec<crate::agent::PlaceOdds> {
        let Some(pit_prob) = self.settings.prior_pit else {
            return Vec::new();
        };
        let is_open = |agent: &Self, p: Place| {
            let c = &agent.map.cells[p.index()];
            !c.visited
                && !agent.is_safe(p)
                && !c.proven[Question::Pit as usize]
                && (!agent.status.wumpus_alive || agent.map.wumpus_at != Some(p))
        };
        let every = self.map.cells.len();
        let mut near: Vec<Place> = self
            .frontier
            .places
            .iter()
            .copied()
            .filter(|&p| is_open(self, p))
            .collect();
        // A missed arrow's line is named by its own clauses: each of its cells is counted.
        if every <= 4 * most {
            near.extend((0..every).map(Place::new).filter(|&p| {
                self.map.cells[p.index()].missed
                    && !self.frontier.listed[p.index()]
                    && is_open(self, p)
            }));
        }
        let mut far: Vec<Place> = Vec::new();
        if every <= 4 * most {
            far = (0..every)
                .map(Place::new)
                .filter(|&p| {
                    let c = &self.map.cells[p.index()];
                    is_open(self, p) && !self.frontier.listed[p.index()] && !c.missed
                })
                .collect();
        }
        let alike = self.foresight.pit_chances.is_none() && self.foresight.sizes.is_none();
        // How many of `open` are counted: all, or all but the far cells after the first.
        let counted = if !far.is_empty() && alike && near.len() < most {
            near.len() + 1
        } else if near.len() + far.len() <= most {
            near.len() + far.len()
        } else {
            far.clear();
            near.len()
        };
        if counted == 0 || counted > most {
            return Vec::new();
        }
        let mut open = near;
        open.extend(far);
        let Ok(mut odds) = self.hazard_odds(&open[..counted], pit_prob) else {
            return Vec::new();
        };
        // Every cell beyond the first far one has the first's odds.
        while odds.len() < open.len() {
            let last = odds[counted - 1];
            odds.push(last);
        }
        let mut out: Vec<crate::agent::PlaceOdds> = open
            .into_iter()
            .zip(odds)
            .map(|(place, (pit, wumpus))| crate::agent::PlaceOdds {
                place,
                pit,
                wumpus,
                bats: 0.0,
                death: 1.0 - (1.0 - pit) * (1.0 - wumpus),
            })
            .collect();
        // A small board's odds come in cell order.
        if every <= 4 * most {
            out.sort_by_key(|o| o.place.index());
        }
        out
    }

    /// The same agent with each cell's own prior chance of a pit (by cell index), where the
    /// deal puts pits in some cells only: its odds count with them (the look-ahead's; what it
    /// proves rests on what it perceives alone). Call it before [`GridAgent::with_depth`].
    pub fn with_pit_chances(mut self, chances: Vec<f64>) -> GridAgent {
        self.foresight.pit_chances = Some(Arc::new(chances));
        self
    }

    /// The way the agent faces, under the textbook's rules.
    pub fn facing(&self) -> Option<Direction> {
        self.status.facing
    }

    /// Takes in a quarter turn just taken (the textbook's rules): an action spent, now facing
    /// `facing`. A turn shows nothing new, so the knowledge base is not asked anything.
    pub fn turned(&mut self, facing: Direction) {
        self.remember_turn(facing);
        self.status.moves += 1;
        self.status.facing = Some(facing);
    }

    /// Where the agent believes it is (it tracks this from its own moves and bumps).
    pub fn position(&self) -> Place {
        self.status.position
    }

    /// The grid the agent reasons on: the game's, or with the size hidden, the model of the
    /// largest board still possible.
    pub fn topology(&self) -> &Arc<Topology> {
        &self.topology
    }

    /// The knowledge base, for statistics and export.
    pub fn kb(&self) -> &KnowledgeBase {
        &self.kb
    }

    /// True while no scream has been heard.
    pub fn wumpus_alive(&self) -> bool {
        self.status.wumpus_alive
    }

    /// What the agent believes of `place`.
    pub fn view(&self, place: Place) -> CellView {
        let c = &self.map.cells[place.index()];
        if c.visited {
            CellView::Visited
        } else if self.is_safe(place) {
            CellView::Safe
        } else if c.proven[Question::Pit as usize] {
            CellView::Pit
        } else if self.status.wumpus_alive && self.map.wumpus_at == Some(place) {
            CellView::Wumpus
        } else {
            CellView::Unknown
        }
    }

    /// The exact probability of a pit and of the live wumpus at each of `places`, given what
    /// the agent knows, with pits dealt independently with probability `pit_prob` and the
    /// wumpus uniform over the cells other than the start.
    pub fn hazard_odds(
        &mut self,
        places: &[Place],
        pit_prob: f64,
    ) -> Result<Vec<(f64, f64)>, KbError> {
        let rules = self.kb.rules().clone();
        let prior = Prior::uniform(&rules).bernoulli(self.settings.words.pit, pit_prob);
        let mut odds = Vec::with_capacity(places.len());
        for &p in places {
            let pit = self
                .kb
                .probability(&[(self.atom(self.settings.words.pit, p), true)], &prior)?;
            let wumpus = if self.status.wumpus_alive {
                self.kb
                    .probability(&[(self.atom(self.settings.words.wumpus, p), true)], &prior)?
            } else {
                0.0
            };
            odds.push((pit, wumpus));
        }
        Ok(odds)
    }

    /// Every cell proven safe so far (visited ones included), in cell order.
    pub fn proven_safe(&mut self) -> Vec<Place> {
        self.map.safe_cells.sorted().to_vec()
    }

    /// Every cell visited so far, in cell order.
    pub fn visited(&mut self) -> Vec<Place> {
        self.map.visited_cells.sorted().to_vec()
    }

    /// Every cell proven to hold a pit (with explanations on; else those found incidentally).
    pub fn proven_pits(&mut self) -> Vec<Place> {
        self.map.pit_cells.sorted().to_vec()
    }

    /// The cell proven to hold the live wumpus, if any.
    pub fn proven_wumpus(&self) -> Option<Place> {
        self.map.wumpus_at.filter(|_| self.status.wumpus_alive)
    }
}

/// Where [`GridAgent::walk_to`] goes.
#[derive(Clone, Copy, Debug)]
enum Goal {
    /// The nearest proven-safe cell not yet visited.
    SafeUnvisited,
    /// This cell.
    At(Place),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{GridGame, GridWorld};
    use crate::rng::seeded;

    impl GridAgent {
        /// True when examining `cell` now would ask nothing and announce nothing: what a walk
        /// over the whole frontier would find for every cell not waiting in `to_examine`.
        fn quiet(&mut self, cell: Place) -> bool {
            let explained = self.settings.insight == Insight::Explained;
            let c = self.map.cells[cell.index()];
            let no_pit = c.proven[Question::NoPit as usize];
            let mut asked = vec![Question::NoPit];
            if self.status.wumpus_alive && (no_pit || explained) {
                asked.push(Question::NoWumpus);
            }
            if explained && !no_pit {
                asked.push(Question::Pit);
            }
            let settled = asked.into_iter().all(|q| {
                let i = q as usize;
                let atom = self.question_lit(q, cell).0;
                c.proven[i] || (c.asked_at[i] != 0 && !self.kb.changed_since(atom, c.asked_at[i]))
            });
            settled && (c.announced_safe || !self.is_safe(cell))
        }
    }

    #[test]
    fn one_solver_per_component_decides_as_one_solver_does() {
        // The knowledge base moves to one solver per component once the formula is big.
        // Decisions rest on answers alone, so an agent whose knowledge base keeps one solver
        // must play every game the same way. (Not one with explanations on: it asks more
        // questions, which mention more atoms, and the risk agent's odds, which count over
        // them, can then break a near tie the other way.)
        let mut split_games = 0;
        for seed in 0..300u64 {
            if split_games == 12 {
                break;
            }
            let size = 24 + (seed % 3) as usize * 8;
            let pit_prob = [0.05, 0.08, 0.12][(seed / 3 % 3) as usize];
            let topology = Arc::new(Topology::grid(size, size).unwrap());
            let world = GridWorld::random(topology.clone(), pit_prob, &mut seeded(seed));
            let strategy = alternate_strategy(seed, pit_prob);
            let grounding = Grounding::new(default_rules(), topology.clone(), Some(Place::new(0)));
            let kbs = [
                KnowledgeBase::from_grounding(grounding.clone().unwrap(), Proofs::Fast),
                KnowledgeBase::from_grounding_unsplit(grounding.unwrap(), Proofs::Fast),
            ];
            let mut games = kbs.map(|kb| {
                let agent = GridAgent::on(kb, Insight::Decisions)
                    .unwrap()
                    .with_strategy(strategy);
                (GridGame::new(world.clone()), agent)
            });
            let mut percepts = [games[0].0.start().percepts, games[1].0.start().percepts];
            let mut last = None;
            while games[0].0.outcome().is_none() {
                let mut actions = Vec::new();
                for (i, (game, agent)) in games.iter_mut().enumerate() {
                    agent.observe_percepts(last, &percepts[i]).unwrap();
                    let action = agent.chosen().action;
                    percepts[i] = game.act(action).percepts;
                    actions.push(action);
                }
                assert_eq!(actions[0], actions[1], "seed {seed}");
                last = Some(actions[0]);
            }
            assert!(games[1].0.outcome().is_some());
            assert!(!games[1].1.kb().is_split());
            split_games += usize::from(games[0].1.kb().is_split());
        }
        assert_eq!(split_games, 12, "too few games grew big enough to split");
    }

    /// Even seeds play the logic agent, odd ones the risk agent (standard scoring).
    fn alternate_strategy(seed: u64, pit_prob: f64) -> Strategy {
        if seed % 2 == 0 {
            Strategy::Logic
        } else {
            Strategy::Risk {
                pit_prob,
                scoring: Scoring::Standard,
            }
        }
    }

    #[test]
    fn the_look_ahead_sees_the_knowledge_bases_odds_and_never_steps_into_a_proven_death() {
        // What the look-ahead tracks must fix the same posterior as the knowledge base: at
        // every gamble the sight's odds of each candidate (which the agent then uses) equal
        // the exact odds counted by the knowledge base, and the cell chosen can be survived.
        let mut gambles = 0;
        for seed in 1_000_000..1_000_400u64 {
            let (rows, cols) = [(3, 3), (4, 4), (3, 5), (5, 5)][(seed % 4) as usize];
            let scoring = [Scoring::Standard, Scoring::Aima][(seed / 4 % 2) as usize];
            let topology = Arc::new(Topology::grid(rows, cols).unwrap());
            let world = GridWorld::random(topology.clone(), 0.2, &mut seeded(seed));
            let mut game = GridGame::new(world);
            let mut agent = GridAgent::new(topology, None, Insight::Decisions)
                .unwrap()
                .with_strategy(Strategy::Risk {
                    pit_prob: 0.2,
                    scoring,
                })
                .with_depth(2);
            let mut percepts = game.start().percepts;
            let mut last = None;
            while game.outcome().is_none() {
                agent.observe_percepts(last, &percepts).unwrap();
                let decision = agent.chosen();
                if let Some(odds) = &decision.odds {
                    gambles += 1;
                    // As deep as the budget let it search every option: 1 or 2.
                    assert!((1..=2).contains(&odds.depth), "seed {seed}");
                    // The agent took its odds from the sight; the knowledge base counts its
                    // own.
                    let places: Vec<Place> = odds.candidates.iter().map(|c| c.place).collect();
                    let counted = agent.hazard_odds(&places, 0.2).unwrap();
                    for (c, &(pit, wumpus)) in odds.candidates.iter().zip(&counted) {
                        assert!(
                            (pit - c.pit).abs() < 1e-9,
                            "seed {seed}: pit at {:?}",
                            c.place
                        );
                        assert!(
                            (wumpus - c.wumpus).abs() < 1e-9,
                            "seed {seed}: wumpus at {:?}",
                            c.place
                        );
                    }
                    if decision.reason.rule == Rule::Gamble {
                        let target = decision.reason.target.unwrap();
                        let chosen = odds.candidates.iter().find(|c| c.place == target).unwrap();
                        assert!(chosen.pit < 1.0 && chosen.wumpus < 1.0, "seed {seed}");
                    }
                }
                percepts = game.act(decision.action).percepts;
                last = Some(decision.action);
            }
        }
        assert!(gambles > 100, "only {gambles} gambles");
    }

    #[test]
    fn every_frontier_cell_left_unexamined_has_nothing_new() {
        for seed in 0..1000u64 {
            let (rows, cols) = (3 + (seed % 7) as usize, 3 + (seed / 7 % 7) as usize);
            let pit_prob = [0.05, 0.12, 0.2, 0.3][(seed % 4) as usize];
            let insight = if seed % 3 == 0 {
                Insight::Explained
            } else {
                Insight::Decisions
            };
            let strategy = alternate_strategy(seed, pit_prob);
            let topology = Arc::new(Topology::grid(rows, cols).unwrap());
            let world = GridWorld::random(topology.clone(), pit_prob, &mut seeded(seed));
            let mut game = GridGame::new(world);
            let mut agent = GridAgent::new(topology, None, insight)
                .unwrap()
                .with_strategy(strategy);
            let mut percepts = game.start().percepts;
            let mut last = None;
            while game.outcome().is_none() {
                agent.observe_percepts(last, &percepts).unwrap();
                // Cells earlier in the order that changed during the pass wait for the next
                // turn, as they would in a walk over the whole frontier.
                let waiting = agent.frontier.to_examine.clone();
                for cell in agent.frontier.places.clone() {
                    if agent.in_frontier_now(cell)
                        && !waiting.contains(&agent.frontier.order[cell.index()])
                    {
                        assert!(
                            agent.quiet(cell),
                            "seed {seed}: {cell:?} was left with news"
                        );
                    }
                }
                let live = agent
                    .frontier
                    .places
                    .iter()
                    .filter(|&&p| agent.in_frontier_now(p))
                    .count();
                assert_eq!(live, agent.frontier.live, "seed {seed}");
                let decision = agent.chosen();
                percepts = game.act(decision.action).percepts;
                last = Some(decision.action);
            }
        }
    }

    #[test]
    fn a_cell_no_percept_reaches_has_the_odds_counted_for_it_alone() {
        // Every open cell counted one by one, against the odds where one far cell is counted
        // for all of them; on boards up to 8x8, with shots that miss among the strategies.
        let mut far_steps = 0;
        for seed in 0..60u64 {
            let (rows, cols) = (4 + (seed % 5) as usize, 4 + (seed / 5 % 5) as usize);
            let pit_prob = [0.1, 0.2, 0.3][(seed % 3) as usize];
            let strategy = alternate_strategy(seed, pit_prob);
            let topology = Arc::new(Topology::grid(rows, cols).unwrap());
            let world = GridWorld::random(topology.clone(), pit_prob, &mut seeded(seed));
            let mut game = GridGame::new(world);
            let mut agent = GridAgent::new(topology, None, Insight::Decisions)
                .unwrap()
                .with_strategy(strategy)
                .with_prior_pit(pit_prob);
            let mut percepts = game.start().percepts;
            let mut last = None;
            while game.outcome().is_none() {
                agent.observe_percepts(last, &percepts).unwrap();
                let shown = agent.open_odds(MOST_ODDS);
                let far = shown
                    .iter()
                    .filter(|o| !agent.frontier.listed[o.place.index()])
                    .count();
                far_steps += usize::from(far > 1);
                let places: Vec<Place> = shown.iter().map(|o| o.place).collect();
                let counted = agent.hazard_odds(&places, pit_prob).unwrap();
                for (o, &(pit, wumpus)) in shown.iter().zip(&counted) {
                    assert!(
                        (o.pit - pit).abs() < 1e-9 && (o.wumpus - wumpus).abs() < 1e-9,
                        "seed {seed}: {:?} shown {} {}, counted {pit} {wumpus}",
                        o.place,
                        o.pit,
                        o.wumpus
                    );
                }
                // On these boards (at most 64 cells) every open cell carries its odds.
                let open = (0..rows * cols)
                    .map(Place::new)
                    .filter(|&p| {
                        let c = &agent.map.cells[p.index()];
                        !c.visited
                            && !agent.is_safe(p)
                            && !c.proven[Question::Pit as usize]
                            && (!agent.status.wumpus_alive || agent.map.wumpus_at != Some(p))
                    })
                    .count();
                let near = places
                    .iter()
                    .filter(|p| agent.frontier.listed[p.index()])
                    .count();
                if near < MOST_ODDS {
                    assert_eq!(shown.len(), open, "seed {seed}: every open cell");
                }
                let decision = agent.chosen();
                percepts = game.act(decision.action).percepts;
                last = Some(decision.action);
            }
        }
        assert!(far_steps > 100, "only {far_steps} steps with far cells");
    }
}
