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
//! Invariant: the agent holds no hidden state of the world, only its knowledge base and what it
//! did. Every cell it steps into was visited before or proven safe by the solver.

use super::lookahead::{Lookahead, Sight};
use super::{Conclusion, Fact, Reason, Rule};
use crate::grid::{Action, Percepts, Scoring};
use crate::kb::ground::{Atom, GroundLit};
use crate::kb::odds::Prior;
use crate::kb::rules::{parse_rules, require, PredKind, Rules, GRID_RULES};
use crate::kb::{Grounding, KbError, KnowledgeBase, Proofs};
use crate::planner;
use crate::topology::{Direction, Link, Place, Topology};
use std::collections::VecDeque;
use std::sync::{Arc, OnceLock};

mod risk;
use risk::Gamble;
pub use risk::{Candidate, Odds, ShotCandidate};

/// How much the agent works out each turn beyond what it needs to decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Insight {
    /// Only what decisions need (safe cells, the wumpus when shooting matters): fastest.
    Decisions,
    /// Also every provable pit and wumpus, with the observations behind each conclusion: for
    /// `trace` and `hint`.
    Explained,
}

impl Insight {
    /// [`Insight::Explained`] when explanations are asked for, else [`Insight::Decisions`].
    pub fn of(explain: bool) -> Insight {
        if explain {
            Insight::Explained
        } else {
            Insight::Decisions
        }
    }
}

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
        let found = require(
            rules,
            &[
                ("pit", PredKind::Hidden, true),
                ("wumpus", PredKind::Hidden, true),
                ("breeze", PredKind::Percept, true),
                ("stench", PredKind::Percept, true),
                ("visited", PredKind::Percept, true),
                ("unharmed", PredKind::Percept, true),
                ("missed", PredKind::Percept, true),
            ],
        )
        .map_err(|e| KbError::Vocabulary(e.message))?;
        Ok(Vocabulary {
            pit: found["pit"],
            wumpus: found["wumpus"],
            breeze: found["breeze"],
            stench: found["stench"],
            visited: found["visited"],
            unharmed: found["unharmed"],
            missed: found["missed"],
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

/// What the agent knows of one cell.
#[derive(Clone, Copy, Debug, Default)]
struct CellKnowledge {
    visited: bool,
    /// Proven answers, by [`Question`].
    proven: [bool; 4],
    /// When each unproven question was last asked (0: never).
    asked_at: [u64; 4],
    /// True once the cell has been announced safe in a conclusion.
    announced_safe: bool,
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

/// A chosen action and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
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

/// The logic agent for the grid.
pub struct GridAgent {
    kb: KnowledgeBase,
    words: Vocabulary,
    topology: Arc<Topology>,
    insight: Insight,
    position: Place,
    has_gold: bool,
    has_arrow: bool,
    wumpus_alive: bool,
    glint_here: bool,
    cells: Vec<CellKnowledge>,
    /// Unvisited cells next to visited ones and not announced safe, in the order they joined,
    /// plus some that have since been visited or announced (dropped in bulk once they are
    /// half the list, so that leaving costs nothing per turn); read it through
    /// [`GridAgent::in_frontier_now`].
    frontier: Vec<Place>,
    /// How many of `frontier` are still in it.
    frontier_live: usize,
    in_frontier: Vec<bool>,
    /// Each cell's place in the order cells joined the frontier, from 1 (0: never joined),
    /// up to the highest cell that joined: grown on demand, so that a big grid mostly
    /// unexplored costs little here.
    order: Vec<u32>,
    /// Every cell that ever joined the frontier, by its `order` − 1.
    by_order: Vec<Place>,
    /// Frontier cells (by order) that may have something new to ask or announce: new ones,
    /// and those whose watched atoms changed. Every other frontier cell would ask nothing
    /// (its answers cannot have changed), so walking it in order does what walking the whole
    /// frontier did.
    to_examine: std::collections::BTreeSet<u32>,
    /// Scratch for the tokens (cell indices) the knowledge base hands back.
    fired: Vec<u32>,
    /// The route finder, with its tables kept between the many searches of a game.
    searcher: planner::Searcher,
    /// Cells proven safe (visited or announced), in cell order: proven safety never ends, and
    /// every safe cell is visited or announced in the turn it became safe, so this is what a
    /// scan of every cell would find, at the cost of the cells found.
    safe_cells: std::collections::BTreeSet<Place>,
    /// Cells proven to hold a pit, in cell order.
    pit_cells: std::collections::BTreeSet<Place>,
    wumpus_at: Option<Place>,
    plan: VecDeque<Action>,
    plan_goal: Option<(Rule, Place, String)>,
    pending: Option<Decision>,
    strategy: Strategy,
    moves: u32,
    /// The way the agent faces under the textbook's rules (`None`: compass moves, no
    /// heading): its routes then count turns, each an action.
    facing: Option<Direction>,
    /// The actions (the arrow counting 10) after which the game ends, where it does (the
    /// tournament's score floor under the textbook's rules).
    action_budget: Option<u32>,
    /// The look-ahead deeper than one step, and what it has seen (`--depth` above 1).
    lookahead: Option<(Arc<Lookahead>, u32)>,
    sight: Option<Sight>,
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
            words,
            topology,
            insight,
            position: Place::new(0),
            has_gold: false,
            has_arrow: true,
            wumpus_alive: true,
            glint_here: false,
            cells: vec![CellKnowledge::default(); n],
            frontier: Vec::new(),
            frontier_live: 0,
            in_frontier: vec![false; n],
            order: Vec::new(),
            by_order: Vec::new(),
            to_examine: std::collections::BTreeSet::new(),
            fired: Vec::new(),
            searcher: planner::Searcher::new(),
            safe_cells: std::collections::BTreeSet::from([Place::new(0)]),
            pit_cells: std::collections::BTreeSet::new(),
            wumpus_at: None,
            plan: VecDeque::new(),
            plan_goal: None,
            pending: None,
            strategy: Strategy::Logic,
            moves: 0,
            facing: None,
            action_budget: None,
            lookahead: None,
            sight: None,
        })
    }

    /// The same agent playing by `strategy` when logic runs out.
    pub fn with_strategy(mut self, strategy: Strategy) -> GridAgent {
        self.strategy = strategy;
        self
    }

    /// The same agent looking `depth` steps ahead when it gambles (1: one step, the default).
    /// Only the risk agent gambles, and only on grids of up to [`super::lookahead::MAX_CELLS`]
    /// cells; elsewhere it looks one step ahead. Call it after [`GridAgent::with_strategy`]
    /// and before the first observation.
    pub fn with_depth(mut self, depth: u32) -> GridAgent {
        self.lookahead = None;
        self.sight = None;
        if let Strategy::Risk { pit_prob, scoring } = self.strategy {
            if depth > 1 {
                if let Some(mut l) = Lookahead::new(&self.topology, pit_prob, scoring) {
                    if self.facing.is_some() {
                        l = l.headed();
                    }
                    self.sight = Some(l.blank());
                    self.lookahead = Some((Arc::new(l), depth));
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
        self.facing = Some(facing);
        // The look-ahead then prices its walks with the turns too.
        match self.lookahead.as_ref().map(|(_, depth)| *depth) {
            Some(depth) => self.with_depth(depth),
            None => self,
        }
    }

    /// The same agent in a game that ends once `budget` actions are spent, the arrow counting
    /// 10 (the textbook tournament's score floor of −1000): it sets out on no walk, shot or
    /// risk after which it could not walk home and climb out within the budget.
    pub fn with_action_budget(mut self, budget: u32) -> GridAgent {
        self.action_budget = Some(budget);
        self
    }

    /// The way the agent faces, under the textbook's rules.
    pub fn facing(&self) -> Option<Direction> {
        self.facing
    }

    /// Takes in a quarter turn just taken (the textbook's rules): an action spent, now facing
    /// `facing`. A turn shows nothing new, so the knowledge base is not asked anything.
    pub fn turned(&mut self, facing: Direction) {
        self.moves += 1;
        self.facing = Some(facing);
    }

    /// Where the agent believes it is (it tracks this from its own moves and bumps).
    pub fn position(&self) -> Place {
        self.position
    }

    /// The knowledge base, for statistics and export.
    pub fn kb(&self) -> &KnowledgeBase {
        &self.kb
    }

    /// True while no scream has been heard.
    pub fn wumpus_alive(&self) -> bool {
        self.wumpus_alive
    }

    /// Takes in what happened: the action just taken (`None` before the first) and the
    /// percepts that followed. Returns what became proven, with reasons when explanations are
    /// on.
    pub fn observe(
        &mut self,
        last: Option<Action>,
        percepts: &Percepts,
    ) -> Result<Vec<Conclusion>, KbError> {
        if last != self.pending.as_ref().map(|d| d.action) || last.is_none() {
            // The player did something other than what was planned (or the game began).
            self.plan.clear();
        }
        self.pending = None;
        if last.is_some() {
            self.moves += 1;
        }
        match last {
            Some(Action::Move(dir)) if !percepts.bump => {
                if let Some(next) = self.topology.follow(self.position, Link::Step(dir)) {
                    self.position = next;
                }
            }
            Some(Action::Grab) if self.glint_here => self.has_gold = true,
            Some(Action::Fire(dir)) if self.has_arrow => {
                self.has_arrow = false;
                if let (Some((l, _)), Some(s)) = (&self.lookahead, &mut self.sight) {
                    l.shot(s, self.position.index(), dir, percepts.scream);
                }
                if percepts.scream {
                    self.wumpus_alive = false;
                    self.wumpus_at = None;
                    // Every cell proven pit-free is now safe, and no wumpus question is asked
                    // any more: look at the whole frontier once.
                    for &p in &self.frontier {
                        let c = &self.cells[p.index()];
                        if !c.visited && !c.announced_safe {
                            self.to_examine.insert(self.order[p.index()]);
                        }
                    }
                } else if self.wumpus_alive {
                    for cell in self.topology.ray(self.position, dir) {
                        self.kb.tell(self.words.missed, Some(cell), true)?;
                    }
                }
                self.plan.clear();
            }
            _ => {}
        }
        self.glint_here = percepts.glint;
        let here = self.position;
        if !self.cells[here.index()].visited {
            if self.in_frontier[here.index()] && !self.cells[here.index()].announced_safe {
                self.frontier_live -= 1;
            }
            self.cells[here.index()].visited = true;
            if let (Some((l, _)), Some(s)) = (&self.lookahead, &mut self.sight) {
                l.visit(s, here.index(), percepts.breeze, percepts.stench);
            }
            self.safe_cells.insert(here);
            self.in_frontier[here.index()] = false;
            let w = self.words;
            self.kb.tell(w.visited, Some(here), true)?;
            if self.wumpus_alive {
                self.kb.tell(w.unharmed, Some(here), true)?;
            }
            self.kb.tell(w.breeze, Some(here), percepts.breeze)?;
            self.kb.tell(w.stench, Some(here), percepts.stench)?;
            for n in self.topology.neighbours(here) {
                if !self.cells[n.index()].visited && !self.in_frontier[n.index()] {
                    self.in_frontier[n.index()] = true;
                    self.frontier.push(n);
                    self.frontier_live += 1;
                    self.by_order.push(n);
                    let order = self.by_order.len() as u32;
                    if n.index() >= self.order.len() {
                        let len = (n.index() + 1).max(2 * self.order.len());
                        self.order.resize(len, 0);
                    }
                    self.order[n.index()] = order;
                    self.to_examine.insert(order);
                }
            }
        }
        // A cell announced safe stays safe: nothing more is asked about it, and the shot and
        // the gamble look only at cells not proven safe, so it leaves the frontier (on a big
        // open grid this keeps the shot's and the gamble's work to the cells still in doubt).
        // Leavers are dropped in bulk, keeping the order, once they are half the list.
        if self.frontier.len() > 2 * self.frontier_live + 16 {
            let cells = &self.cells;
            self.frontier.retain(|p| {
                let c = &cells[p.index()];
                !c.visited && !c.announced_safe
            });
        }
        self.update_knowledge()
    }

    /// True when `place` is in the frontier: unvisited, next to a visited cell, and not
    /// announced safe.
    fn in_frontier_now(&self, place: Place) -> bool {
        let c = &self.cells[place.index()];
        self.in_frontier[place.index()] && !c.visited && !c.announced_safe
    }

    /// Moves the cells whose watched atoms changed into `to_examine`.
    fn collect_changes(&mut self) {
        let mut fired = std::mem::take(&mut self.fired);
        self.kb.take_changed(&mut fired);
        for &token in &fired {
            let place = Place::new(token as usize);
            if self.in_frontier_now(place) {
                self.to_examine.insert(self.order[place.index()]);
            }
        }
        fired.clear();
        self.fired = fired;
    }

    fn atom(&self, pred: usize, place: Place) -> Atom {
        self.kb.atom(pred, Some(place))
    }

    fn question_lit(&self, q: Question, place: Place) -> GroundLit {
        // The literal whose impossibility proves the answer.
        match q {
            Question::NoPit => (self.atom(self.words.pit, place), true),
            Question::Pit => (self.atom(self.words.pit, place), false),
            Question::NoWumpus => (self.atom(self.words.wumpus, place), true),
            Question::Wumpus => (self.atom(self.words.wumpus, place), false),
        }
    }

    /// Asks `q` about `place` unless the answer is known or cannot have changed.
    fn ask(&mut self, q: Question, place: Place) -> Result<bool, KbError> {
        let i = q as usize;
        let cell = self.cells[place.index()];
        if cell.proven[i] {
            return Ok(true);
        }
        let lit = self.question_lit(q, place);
        if cell.asked_at[i] != 0 && !self.kb.changed_since(lit.0, cell.asked_at[i]) {
            return Ok(false);
        }
        let proven = !self.kb.possible(&[lit])?;
        let cell = &mut self.cells[place.index()];
        if proven {
            cell.proven[i] = true;
            if q == Question::Pit {
                self.pit_cells.insert(place);
            }
        } else {
            let now = self.kb.now();
            cell.asked_at[i] = now;
            // Be told when the answer can change, so the cell is not re-examined before.
            self.kb.watch(lit.0, place.index() as u32, now);
        }
        Ok(proven)
    }

    fn is_safe(&self, place: Place) -> bool {
        safe_in(&self.cells, self.wumpus_alive, place)
    }

    /// The shortest walk over safe cells from where the agent stands to the nearest `goal`
    /// (exactly [`planner::nearest`]'s route, from the agent's reusable searcher).
    fn walk_to(&mut self, goal: Goal) -> Option<planner::Route> {
        let (cells, alive) = (&self.cells, self.wumpus_alive);
        if let Some(facing) = self.facing {
            // With a heading the nearest goal is the cheapest in actions, turns counted.
            return planner::nearest_headed(
                &self.topology,
                self.position,
                facing,
                |p| safe_in(cells, alive, p),
                |(p, _)| match goal {
                    Goal::SafeUnvisited => !cells[p.index()].visited && safe_in(cells, alive, p),
                    Goal::At(place) => p == place,
                },
            )
            .map(|(route, _)| route);
        }
        self.searcher.nearest(
            &self.topology,
            self.position,
            |p| safe_in(cells, alive, p),
            |p| match goal {
                Goal::SafeUnvisited => !cells[p.index()].visited && safe_in(cells, alive, p),
                Goal::At(place) => p == place,
            },
        )
    }

    /// Actions left before the budget runs out, where there is one.
    fn budget_left(&self) -> Option<u32> {
        let spent = self.moves + if self.has_arrow { 0 } else { 10 };
        self.action_budget.map(|b| b.saturating_sub(spent))
    }

    /// The cost in actions of following `route` from here (turns counted, with a heading),
    /// and the way the agent then faces.
    fn route_cost(&self, route: &planner::Route) -> (u32, Option<Direction>) {
        let Some(mut facing) = self.facing else {
            return (route.len() as u32, None);
        };
        let mut cost = 0;
        for link in &route.links {
            if let Link::Step(d) = *link {
                cost += facing.turns_to(d) + 1;
                facing = d;
            }
        }
        (cost, Some(facing))
    }

    /// True when `cost` more actions, ending at `place` (facing `facing`, with a heading),
    /// still leave the walk home over safe cells and the climb within the budget; always true
    /// without a budget.
    fn affordable(&self, cost: u32, place: Place, facing: Option<Direction>) -> bool {
        let Some(left) = self.budget_left() else {
            return true;
        };
        let start = Place::new(0);
        let (cells, alive) = (&self.cells, self.wumpus_alive);
        let safe = |p| safe_in(cells, alive, p);
        let home = match facing {
            Some(f) => planner::nearest_headed(&self.topology, place, f, safe, |(p, _)| p == start)
                .map(|(_, c)| c),
            None => planner::distances(&self.topology, place, safe)[start.index()],
        };
        // The walk home, then the climb: one action more.
        home.is_some_and(|home| cost + home < left)
    }

    /// Re-derives what can have changed about the frontier.
    ///
    /// This visits, in frontier order, the cells to examine: those new to the frontier and those
    /// whose watched atoms changed, including changes made by the questions of this very
    /// pass (mentioning a wumpus atom extends the counter), which is what a walk over the
    /// whole frontier would find asking. Cells met earlier in the order that change during
    /// the pass wait for the next turn, as they would in such a walk.
    fn update_knowledge(&mut self) -> Result<Vec<Conclusion>, KbError> {
        self.kb.check_consistent()?;
        let mut learned = Vec::new();
        let explained = self.insight == Insight::Explained;
        self.collect_changes();
        let mut cursor = 0u32;
        while let Some(&order) = self.to_examine.range(cursor..).next() {
            self.to_examine.remove(&order);
            cursor = order + 1;
            let cell = self.by_order[order as usize - 1];
            if !self.in_frontier_now(cell) {
                continue;
            }
            self.examine(cell, explained, &mut learned)?;
            self.collect_changes();
        }
        if self.wumpus_alive && self.wumpus_at.is_none() {
            if let Some(w) = self.locate_wumpus()? {
                self.wumpus_at = Some(w);
                learned.push(self.conclude(w, Fact::Wumpus)?);
            }
        }
        if !learned.iter().all(|c| c.fact == Fact::Pit) {
            // New safe ground or a located wumpus can make a shorter plan.
            self.plan.clear();
        }
        Ok(learned)
    }

    /// Asks what can have changed about frontier cell `cell` and announces what it proves.
    fn examine(
        &mut self,
        cell: Place,
        explained: bool,
        learned: &mut Vec<Conclusion>,
    ) -> Result<(), KbError> {
        let no_pit = self.ask(Question::NoPit, cell)?;
        if self.wumpus_alive && (no_pit || explained) {
            self.ask(Question::NoWumpus, cell)?;
        }
        if explained && !no_pit && self.ask_new(Question::Pit, cell)? {
            learned.push(self.conclude(cell, Fact::Pit)?);
        }
        if self.is_safe(cell) && !self.cells[cell.index()].announced_safe {
            self.cells[cell.index()].announced_safe = true;
            self.frontier_live -= 1;
            self.safe_cells.insert(cell);
            learned.push(self.conclude(cell, Fact::Safe)?);
        }
        Ok(())
    }

    /// Asks `q` and says whether it became proven just now.
    fn ask_new(&mut self, q: Question, place: Place) -> Result<bool, KbError> {
        let before = self.cells[place.index()].proven[q as usize];
        Ok(!before && self.ask(q, place)?)
    }

    /// Finds the wumpus's cell if the knowledge base proves it. In any model of the knowledge
    /// base the wumpus stands on exactly one cell, so only that cell can be proven to hold it:
    /// one question suffices. (When the model leaves it among the cells no clause mentions,
    /// it is proven nowhere, unless exactly one such cell is left.)
    fn locate_wumpus(&mut self) -> Result<Option<Place>, KbError> {
        let wumpus = self.words.wumpus;
        self.kb.check_consistent()?;
        let candidate = match self.kb.true_in_model(wumpus).as_slice() {
            [Some(p)] => Some(*p),
            [] => self.kb.sole_unmentioned(wumpus),
            _ => None,
        };
        match candidate {
            Some(p) if self.ask(Question::Wumpus, p)? => Ok(Some(p)),
            _ => Ok(None),
        }
    }

    fn conclude(&mut self, place: Place, fact: Fact) -> Result<Conclusion, KbError> {
        let because = if self.insight == Insight::Explained {
            let lits: Vec<GroundLit> = match fact {
                Fact::Pit => vec![self.question_lit(Question::Pit, place)],
                Fact::Wumpus => vec![self.question_lit(Question::Wumpus, place)],
                Fact::Bats => Vec::new(),
                Fact::Safe => {
                    let mut l = vec![self.question_lit(Question::NoPit, place)];
                    if self.wumpus_alive {
                        l.push(self.question_lit(Question::NoWumpus, place));
                    }
                    l
                }
            };
            let mut ids = Vec::new();
            for lit in lits {
                ids.extend(self.kb.explain(&[lit])?.unwrap_or_default());
            }
            ids.sort_unstable();
            ids.dedup();
            let mut words: Vec<String> = ids.iter().map(|&i| self.describe(i)).collect();
            if fact == Fact::Safe && !self.wumpus_alive {
                words.push("the wumpus is dead".to_string());
            }
            words
        } else {
            Vec::new()
        };
        Ok(Conclusion {
            place,
            fact,
            because,
        })
    }

    /// An observation in a player's words.
    fn describe(&self, index: usize) -> String {
        let obs = self.kb.observations()[index];
        let at = obs
            .place
            .map(|p| self.topology.label(p))
            .unwrap_or_default();
        let w = self.words;
        match (obs.pred, obs.present) {
            (p, true) if p == w.breeze => format!("breeze at {at}"),
            (p, false) if p == w.breeze => format!("no breeze at {at}"),
            (p, true) if p == w.stench => format!("stench at {at}"),
            (p, false) if p == w.stench => format!("no stench at {at}"),
            (p, _) if p == w.visited => format!("{at} was walked into safely"),
            (p, _) if p == w.unharmed => format!("no wumpus met at {at}"),
            (p, _) if p == w.missed => format!("the arrow flew through {at} without a scream"),
            _ => self.kb.describe(&obs),
        }
    }

    /// What the agent believes of `place`.
    pub fn view(&self, place: Place) -> CellView {
        let c = &self.cells[place.index()];
        if c.visited {
            CellView::Visited
        } else if self.is_safe(place) {
            CellView::Safe
        } else if c.proven[Question::Pit as usize] {
            CellView::Pit
        } else if self.wumpus_alive && self.wumpus_at == Some(place) {
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
        let prior = Prior::uniform(&rules).bernoulli(self.words.pit, pit_prob);
        let mut odds = Vec::with_capacity(places.len());
        for &p in places {
            let pit = self
                .kb
                .probability(&[(self.atom(self.words.pit, p), true)], &prior)?;
            let wumpus = if self.wumpus_alive {
                self.kb
                    .probability(&[(self.atom(self.words.wumpus, p), true)], &prior)?
            } else {
                0.0
            };
            odds.push((pit, wumpus));
        }
        Ok(odds)
    }

    /// Every cell proven safe so far (visited ones included), in cell order.
    pub fn proven_safe(&self) -> Vec<Place> {
        self.safe_cells.iter().copied().collect()
    }

    /// Every cell proven to hold a pit (with explanations on; else those found incidentally).
    pub fn proven_pits(&self) -> Vec<Place> {
        self.pit_cells.iter().copied().collect()
    }

    /// The cell proven to hold the live wumpus, if any.
    pub fn proven_wumpus(&self) -> Option<Place> {
        self.wumpus_at.filter(|_| self.wumpus_alive)
    }

    /// Chooses the next action. The agent assumes the action will be taken; if another is
    /// taken instead, [`GridAgent::observe`] notices and replans. Asking again before the next
    /// observation gives the same decision.
    pub fn decide(&mut self) -> Decision {
        if let Some(decision) = &self.pending {
            return decision.clone();
        }
        let decision = self.choose();
        self.pending = Some(decision.clone());
        decision
    }

    fn choose(&mut self) -> Decision {
        if self.glint_here && !self.has_gold {
            self.plan.clear();
            return self.single(
                Action::Grab,
                Rule::GrabGold,
                "the gold glints here: grab it",
            );
        }
        if !self.plan.is_empty() {
            return self.next_planned();
        }
        let start = Place::new(0);
        if self.has_gold {
            return self.go_home(Rule::ReturnWithGold, "carrying the gold");
        }
        // Explore: the nearest proven-safe cell not yet visited.
        let route = self.walk_to(Goal::SafeUnvisited);
        if let Some(route) = route {
            let target = route.goal();
            let (cost, facing) = self.route_cost(&route);
            if !self.affordable(cost, target, facing) {
                return self.go_home(
                    Rule::ReturnEmptyHanded,
                    "the actions left before the game ends would not bring it back from the \
                     nearest unexplored cell",
                );
            }
            let what = format!(
                "explore {}, the nearest proven-safe unvisited cell",
                self.topology.label(target)
            );
            return self.follow(route, None, Rule::Explore, what);
        }
        if let Some(decision) = self.plan_shot() {
            return decision;
        }
        let mut weighed = None;
        if let Strategy::Risk { pit_prob, scoring } = self.strategy {
            // A failure to count (never expected) falls back to the safe choice below.
            match self.gamble(pit_prob, scoring) {
                Ok(Gamble::Take(decision)) => return decision,
                Ok(Gamble::Climb(odds)) => weighed = odds,
                Err(_) => {}
            }
        }
        let mut decision = if self.position == start {
            self.single(
                Action::Climb,
                Rule::Climb,
                "no proven-safe cell is left to explore: climb out",
            )
        } else {
            self.go_home(
                Rule::ReturnEmptyHanded,
                "no proven-safe cell is left to explore",
            )
        };
        // What climbing out was weighed against, for trace and hint to show.
        decision.odds = weighed;
        decision
    }

    fn single(&mut self, action: Action, rule: Rule, text: &str) -> Decision {
        self.plan.clear();
        self.plan_goal = None;
        Decision {
            action,
            reason: Reason {
                rule,
                target: None,
                steps: 0,
                text: text.to_string(),
            },
            odds: None,
        }
    }

    fn go_home(&mut self, rule: Rule, why: &str) -> Decision {
        let start = Place::new(0);
        if self.position == start {
            return self.single(Action::Climb, Rule::Climb, &format!("{why}: climb out"));
        }
        let route = self
            .walk_to(Goal::At(start))
            .expect("the way back over visited cells is always open");
        let what = format!("{why}: walk home to 0,0 and climb out");
        self.follow(route, Some(Action::Climb), rule, what)
    }

    /// Starts following `route`, then `last` (a shot or a climb) if given; `what` says what
    /// the plan is for.
    fn follow(
        &mut self,
        route: planner::Route,
        last: Option<Action>,
        rule: Rule,
        what: String,
    ) -> Decision {
        self.plan = route
            .links
            .iter()
            .map(|link| match link {
                Link::Step(d) => Action::Move(*d),
                Link::Tunnel(_) => unreachable!("grid routes follow steps"),
            })
            .chain(last)
            .collect();
        self.plan_goal = Some((rule, route.goal(), what));
        self.next_planned()
    }

    /// The plan's next action, with the steps still to go in its reason.
    fn next_planned(&mut self) -> Decision {
        let to_go = self
            .plan
            .iter()
            .filter(|a| matches!(a, Action::Move(_)))
            .count();
        let action = self.plan.pop_front().expect("a plan with an action left");
        let (rule, target, what) = self.plan_goal.clone().expect("a plan has a goal");
        let text = match to_go {
            0 => what,
            1 => format!("{what} (1 step to go)"),
            n => format!("{what} ({n} steps to go)"),
        };
        Decision {
            action,
            reason: Reason {
                rule,
                target: Some(target),
                steps: to_go,
                text,
            },
            odds: None,
        }
    }

    /// A shot that proves new cells safe whether it kills or misses, from the nearest cell it
    /// can be fired from. Targets are cells proven pit-free where the wumpus may be.
    fn plan_shot(&mut self) -> Option<Decision> {
        if !self.has_arrow || !self.wumpus_alive {
            return None;
        }
        let targets: Vec<Place> = match self.wumpus_at {
            Some(w) if self.cells[w.index()].proven[Question::NoPit as usize] => vec![w],
            Some(_) => Vec::new(),
            None => self
                .frontier
                .iter()
                .copied()
                .filter(|&p| {
                    let c = &self.cells[p.index()];
                    self.in_frontier_now(p)
                        && c.proven[Question::NoPit as usize]
                        && !c.proven[Question::NoWumpus as usize]
                })
                .collect(),
        };
        if targets.is_empty() {
            return None;
        }
        let (dist, headed) = match self.facing {
            // With a heading, a firing place costs the walk there and the turns to face the
            // target.
            Some(facing) => (
                planner::Distances::Dense(Vec::new()),
                Some(planner::headed_costs(
                    &self.topology,
                    self.position,
                    facing,
                    |p| self.is_safe(p),
                    |_| false,
                )),
            ),
            None => (
                planner::distances(&self.topology, self.position, |p| self.is_safe(p)),
                None,
            ),
        };
        let is_target: std::collections::HashSet<Place> = targets.iter().copied().collect();
        // Candidate firing cells: walkable cells in line with a target.
        let mut best: Option<(usize, u32, Place, Direction)> = None;
        for &t in &targets {
            for dir in Direction::ALL {
                let back = dir.opposite();
                for from in self.topology.ray(t, back) {
                    let cost = match &headed {
                        Some(h) => h.to(from, dir),
                        None => dist[from.index()],
                    };
                    let Some(d) = cost else {
                        continue;
                    };
                    let opened = self
                        .topology
                        .ray(from, dir)
                        .into_iter()
                        .filter(|c| is_target.contains(c))
                        .count();
                    let better = match best {
                        None => true,
                        Some((o, bd, bp, _)) => {
                            opened > o || (opened == o && (d < bd || (d == bd && from < bp)))
                        }
                    };
                    if better {
                        best = Some((opened, d, from, dir));
                    }
                }
            }
        }
        let (opened, cost, from, dir) = best?;
        // The shot is an action and costs 10 more.
        if !self.affordable(cost + 11, from, self.facing.map(|_| dir)) {
            return None;
        }
        let (rule, what) = match self.wumpus_at {
            Some(w) => (
                Rule::ShootWumpus,
                format!("the wumpus is proven at {}", self.topology.label(w)),
            ),
            None => (
                Rule::ProbeShot,
                format!(
                    "{opened} pit-free cell{} may hold the wumpus; a kill or a miss proves {} safe",
                    if opened == 1 { "" } else { "s" },
                    if opened == 1 { "it" } else { "them" }
                ),
            ),
        };
        let route = match &headed {
            Some(h) => h.route(from, dir)?,
            None => self.walk_to(Goal::At(from))?,
        };
        // With a heading the textbook's words: the arrow flies the way the player faces.
        let fire = if self.facing.is_some() {
            "shoot facing"
        } else {
            "fire"
        };
        let what = format!("{what}: {fire} {dir} from {}", self.topology.label(from));
        Some(self.follow(route, Some(Action::Fire(dir)), rule, what))
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

/// Whether `place` is safe by `cells` (visited, or proven free of pit and of the wumpus while
/// it lives); a free function so that the planner's closures can borrow the cells alone.
fn safe_in(cells: &[CellKnowledge], wumpus_alive: bool, place: Place) -> bool {
    let c = &cells[place.index()];
    c.visited
        || (c.proven[Question::NoPit as usize]
            && (!wumpus_alive || c.proven[Question::NoWumpus as usize]))
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
            let explained = self.insight == Insight::Explained;
            let c = self.cells[cell.index()];
            let no_pit = c.proven[Question::NoPit as usize];
            let mut asked = vec![Question::NoPit];
            if self.wumpus_alive && (no_pit || explained) {
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
                    agent.observe(last, &percepts[i]).unwrap();
                    let action = agent.decide().action;
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
                agent.observe(last, &percepts).unwrap();
                let decision = agent.decide();
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
                agent.observe(last, &percepts).unwrap();
                // Cells earlier in the order that changed during the pass wait for the next
                // turn, as they would in a walk over the whole frontier.
                let waiting = agent.to_examine.clone();
                for cell in agent.frontier.clone() {
                    if agent.in_frontier_now(cell) && !waiting.contains(&agent.order[cell.index()])
                    {
                        assert!(
                            agent.quiet(cell),
                            "seed {seed}: {cell:?} was left with news"
                        );
                    }
                }
                let live = agent
                    .frontier
                    .iter()
                    .filter(|&&p| agent.in_frontier_now(p))
                    .count();
                assert_eq!(live, agent.frontier_live, "seed {seed}");
                let decision = agent.decide();
                percepts = game.act(decision.action).percepts;
                last = Some(decision.action);
            }
        }
    }
}
