//! The grid agent with the board's size hidden (the course tournament's rules): it plays on the
//! largest board its prior allows and learns each wall from a bump.
//!
//! The agent reasons on a model grid as large as the sizes still possible. A world on the real
//! board is a world on the model with nothing beyond the real walls, and it gives the same
//! percepts in every real cell, so whatever the knowledge base proves on the model holds on
//! the real board: a cell proven safe is safe, or lies beyond a wall, where stepping is a bump
//! and nothing worse. A bump where the model has a cell fixes that side of the board; the
//! agent then rebuilds itself on the smaller model and takes in everything it did and
//! perceived again, so its knowledge is the same as if it had started there. The look-ahead's
//! odds are the exact mixture over the sizes still possible (`lookahead::sizes`); besides, each
//! cell's marginal chance of a pit over those sizes ([`GridPrior::pit_chances`]) is kept as the
//! look-ahead's per-cell prior, which the mixture supersedes whenever sizes are given.
//!
//! It must never learn the size from anything but its own moves and bumps: the rebuilt agent is
//! made from what the briefing said and the agent's own history, never from the world.

use super::lookahead::SizeHypothesis;
use super::{GridAgent, Insight, Strategy};
use crate::game::GridPrior;
use crate::grid::{Action, Percepts};
use crate::kb::rules::Rules;
use crate::kb::KbError;
use crate::topology::{Direction, Topology};
use std::sync::Arc;

/// What the agent did and perceived, in order: enough to rebuild its knowledge on another model.
#[derive(Clone, Copy, Debug)]
enum Event {
    Turned(Direction),
    Observed(Option<Action>, Percepts),
}

/// How the agent was made, to make it again on a smaller model.
#[derive(Clone)]
struct Recipe {
    rules: Arc<Rules>,
    insight: Insight,
    strategy: Strategy,
    depth: u32,
    facing: Option<Direction>,
    budget: Option<u32>,
}

/// What the agent knows of the board's size, and what it needs to rebuild itself.
#[derive(Clone)]
pub(super) struct HiddenSize {
    prior: GridPrior,
    pit_prob: f64,
    /// The rows the board may have, lowest and highest.
    rows: (usize, usize),
    /// The columns the board may have, lowest and highest.
    cols: (usize, usize),
    history: Vec<Event>,
    /// Taken from the agent at its first observation, once it is fully made.
    recipe: Option<Recipe>,
}

impl HiddenSize {
    fn new(prior: GridPrior, pit_prob: f64) -> HiddenSize {
        let sizes = prior.sizes();
        let span = |side: fn(&(usize, usize)) -> usize| {
            let lo = sizes.iter().map(|s| side(&s.0)).min().unwrap_or(1);
            let hi = sizes.iter().map(|s| side(&s.0)).max().unwrap_or(1);
            (lo, hi)
        };
        HiddenSize {
            prior,
            pit_prob,
            rows: span(|s| s.0),
            cols: span(|s| s.1),
            history: Vec::new(),
            recipe: None,
        }
    }

    /// The model grid: the most rows and columns still possible.
    fn model(&self) -> (usize, usize) {
        (self.rows.1, self.cols.1)
    }

    fn pit_chances(&self) -> Vec<f64> {
        self.prior
            .pit_chances(self.model(), self.rows, self.cols, self.pit_prob)
    }

    /// The sizes still possible, for the look-ahead.
    fn sizes(&self) -> Vec<SizeHypothesis> {
        SizeHypothesis::within(
            &self.prior,
            self.model(),
            self.rows,
            self.cols,
            self.pit_prob,
        )
    }
}

impl GridAgent {
    /// An agent for a game whose size is hidden: made on the model grid of `prior`'s largest
    /// rows and columns, with the prior's chance of a pit in each cell (`pit_prob` where the
    /// deal may put one).
    pub fn learning_size(
        rules: Option<Arc<Rules>>,
        insight: Insight,
        prior: GridPrior,
        pit_prob: f64,
    ) -> Result<GridAgent, KbError> {
        let hidden = HiddenSize::new(prior, pit_prob);
        let (rows, cols) = hidden.model();
        let topology =
            Topology::grid(rows, cols).map_err(|e| KbError::Unsupported(e.to_string()))?;
        let mut agent = GridAgent::new(Arc::new(topology), rules, insight)?;
        agent.foresight.pit_chances = Some(Arc::new(hidden.pit_chances()));
        agent.foresight.sizes = Some(Arc::new(hidden.sizes()));
        agent.hidden = Some(Box::new(hidden));
        Ok(agent)
    }

    /// True when the agent is not told the board's size.
    pub fn learns_size(&self) -> bool {
        self.hidden.is_some()
    }

    /// What the agent knows of the board's size: the rows and the columns it may have (lowest,
    /// highest), or `None` when it was told the size.
    pub fn size_bounds(&self) -> Option<((usize, usize), (usize, usize))> {
        self.hidden.as_ref().map(|h| (h.rows, h.cols))
    }

    /// Records a quarter turn for a rebuild (with the size hidden).
    pub(super) fn remember_turn(&mut self, facing: Direction) {
        if let Some(mut h) = self.hidden.take() {
            self.take_recipe(&mut h);
            h.history.push(Event::Turned(facing));
            self.hidden = Some(h);
        }
    }

    fn take_recipe(&self, h: &mut HiddenSize) {
        if h.recipe.is_none() {
            h.recipe = Some(Recipe {
                rules: self.kb.rules().clone(),
                insight: self.settings.insight,
                strategy: self.settings.strategy,
                depth: self.foresight.lookahead.as_ref().map_or(1, |(_, d)| *d),
                facing: self.status.facing,
                budget: self.settings.action_budget,
            });
        }
    }

    /// [`GridAgent::observe_percepts`] with the size hidden: takes the observation in, learns
    /// what the move or bump tells of the walls, and rebuilds on a smaller model when a wall
    /// turned up inside the model.
    pub(super) fn observe_learning_size(
        &mut self,
        mut h: Box<HiddenSize>,
        last: Option<Action>,
        percepts: &Percepts,
    ) -> Result<Vec<super::Conclusion>, KbError> {
        self.take_recipe(&mut h);
        h.history.push(Event::Observed(last, *percepts));
        let conclusions = self.observe_known(last, percepts)?;
        let (row, col) = self.topology.coords(self.status.position);
        let (rows, cols) = (h.rows, h.cols);
        // Standing here shows the board reaches this far.
        h.rows.0 = h.rows.0.max(row + 1);
        h.cols.0 = h.cols.0.max(col + 1);
        if let Some(Action::Move(dir)) = last {
            if percepts.bump {
                // A wall beyond this cell: the board ends here on that side.
                match dir {
                    Direction::North => h.rows = (row + 1, row + 1),
                    Direction::East => h.cols = (col + 1, col + 1),
                    _ => {}
                }
            }
        }
        if h.model() != (rows.1, cols.1) {
            return self.rebuild(h);
        }
        if (h.rows, h.cols) != (rows, cols) {
            self.foresight.set_cell_chances(h.pit_chances(), h.sizes());
        }
        self.hidden = Some(h);
        Ok(conclusions)
    }

    /// Makes the agent again on `h`'s model and takes in its history; returns what the last
    /// observation proved.
    fn rebuild(&mut self, h: Box<HiddenSize>) -> Result<Vec<super::Conclusion>, KbError> {
        let recipe = h.recipe.clone().expect("taken at the first observation");
        let (rows, cols) = h.model();
        let topology =
            Topology::grid(rows, cols).map_err(|e| KbError::Unsupported(e.to_string()))?;
        let mut agent = GridAgent::new(Arc::new(topology), Some(recipe.rules), recipe.insight)?
            .with_strategy(recipe.strategy);
        agent.foresight.pit_chances = Some(Arc::new(h.pit_chances()));
        agent.foresight.sizes = Some(Arc::new(h.sizes()));
        if let Some(facing) = recipe.facing {
            agent = agent.headed(facing);
        }
        agent = agent.with_depth(recipe.depth);
        if let Some(budget) = recipe.budget {
            agent = agent.with_action_budget(budget);
        }
        let mut conclusions = Vec::new();
        for event in &h.history {
            match *event {
                Event::Turned(facing) => agent.turned(facing),
                Event::Observed(last, percepts) => {
                    conclusions = agent.observe_known(last, &percepts)?;
                }
            }
        }
        agent.hidden = Some(h);
        *self = agent;
        Ok(conclusions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{GridGame, GridWorld};

    #[test]
    fn bumps_teach_the_walls_and_the_agent_rebuilds_on_the_board_they_leave() {
        // A 4-row, 5-column board; the agent assumes the course's sizes (up to 7x7).
        let topology = Arc::new(Topology::grid(4, 5).unwrap());
        let world = GridWorld::new(topology, &[], (2, 1), (3, 0)).unwrap();
        let mut game = GridGame::new(world);
        let mut agent =
            GridAgent::learning_size(None, Insight::Decisions, GridPrior::Course, 0.2).unwrap();
        agent
            .observe_percepts(None, &game.start().percepts)
            .unwrap();
        assert_eq!(agent.size_bounds(), Some(((4, 7), (4, 7))));
        assert_eq!(agent.topology().grid_size(), Some((7, 7)));
        let mut walk = |agent: &mut GridAgent, dir: Direction| {
            let action = Action::Move(dir);
            let percepts = game.act(action).percepts;
            agent.observe_percepts(Some(action), &percepts).unwrap();
            percepts.bump
        };
        for _ in 0..4 {
            assert!(!walk(&mut agent, Direction::East));
        }
        // Standing in column 4 shows at least 5 columns; the wall beyond is learned by a bump.
        assert_eq!(agent.size_bounds(), Some(((4, 7), (5, 7))));
        assert!(walk(&mut agent, Direction::East));
        assert_eq!(agent.size_bounds(), Some(((4, 7), (5, 5))));
        assert_eq!(agent.topology().grid_size(), Some((7, 5)));
        for _ in 0..3 {
            assert!(!walk(&mut agent, Direction::North));
        }
        assert!(walk(&mut agent, Direction::North));
        assert_eq!(agent.size_bounds(), Some(((4, 4), (5, 5))));
        assert_eq!(agent.topology().grid_size(), Some((4, 5)));
        // Rebuilt on the board the walls leave, it knows where it is and what it walked.
        assert_eq!(agent.topology().coords(agent.position()), (3, 4));
        assert_eq!(
            agent.view(agent.topology().cell(0, 2).unwrap()),
            super::super::CellView::Visited
        );
        // On the 4x4 block, with the size known to be 4x5, pits may lie in columns 0 to 3 only.
        let chances = agent.foresight.pit_chances.as_ref().unwrap();
        assert_eq!(chances[2 * 5 + 3], 0.2);
        assert_eq!(chances[2 * 5 + 4], 0.0);
    }
}
