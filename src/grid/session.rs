//! The grid Wumpus World through the one game interface ([`Session`]): a [`GridGame`] with
//! the scoring in force, dealt from a [`GridSetup`].

use super::command::{parse_command as parse_grid_command, Command as GridCommand, HELP};
use super::game::{Action, GridGame, Outcome, Scoring, Turn};
use super::world::GridWorld;
use crate::game::{
    Board, Command, Ending, GameError, Hidden, Observation, Percept, RuleSet, Session,
};
use crate::rng::seeded;
use crate::topology::{Place, Topology};
use std::path::Path;
use std::sync::Arc;

/// What the games of a grid batch share.
#[derive(Clone, Debug)]
pub struct GridSetup {
    /// The grid.
    pub topology: Arc<Topology>,
    /// The chance that a cell other than the start holds a pit.
    pub pit_prob: f64,
    /// How a finished game is scored.
    pub scoring: Scoring,
}

impl GridSetup {
    /// A `rows × cols` grid.
    pub fn new(
        rows: usize,
        cols: usize,
        pit_prob: f64,
        scoring: Scoring,
    ) -> Result<GridSetup, GameError> {
        Ok(GridSetup {
            topology: Arc::new(Topology::grid(rows, cols)?),
            pit_prob,
            scoring,
        })
    }

    /// The grid's size, rows then columns.
    pub fn size(&self) -> (usize, usize) {
        self.topology.grid_size().expect("a grid")
    }
}

/// A grid game in progress, scored as its setup says.
#[derive(Clone, Debug)]
pub struct GridSession {
    game: GridGame,
    scoring: Scoring,
    pit_prob: f64,
    winnable: bool,
}

impl GridSession {
    /// A game on `world`, scored by `scoring`; `pit_prob` is the chance of a pit that
    /// players assume (the one it was dealt with, for a random world).
    pub fn new(world: GridWorld, scoring: Scoring, pit_prob: f64) -> GridSession {
        let winnable = world.winnable();
        GridSession {
            game: GridGame::new(world),
            scoring,
            pit_prob,
            winnable,
        }
    }

    /// The simulator.
    pub fn game(&self) -> &GridGame {
        &self.game
    }

    /// The scoring in force.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }
}

impl Session for GridSession {
    const RULES: RuleSet = RuleSet::Grid;
    const SCORED: bool = true;
    type Setup = GridSetup;
    type Action = Action;
    type Shown = Turn;

    fn setup(&self) -> GridSetup {
        GridSetup {
            topology: self.game.world().topology().clone(),
            pit_prob: self.pit_prob,
            scoring: self.scoring,
        }
    }

    fn parameters(setup: &GridSetup) -> serde_json::Map<String, serde_json::Value> {
        let (rows, cols) = setup.size();
        let mut m = serde_json::Map::new();
        m.insert("size".into(), format!("{rows}x{cols}").into());
        m.insert("pit_prob".into(), setup.pit_prob.into());
        m.insert("scoring".into(), setup.scoring.name().into());
        m
    }

    fn deal(setup: &GridSetup, seed: u64) -> Result<GridSession, GameError> {
        let world = GridWorld::random(setup.topology.clone(), setup.pit_prob, &mut seeded(seed));
        Ok(GridSession::new(world, setup.scoring, setup.pit_prob))
    }

    fn load(setup: &GridSetup, path: &Path, _seed: u64) -> Result<GridSession, GameError> {
        // A world file holds its own size; nothing in the grid is random after the deal.
        let world = super::read_world(path)?;
        Ok(GridSession::new(world, setup.scoring, setup.pit_prob))
    }

    fn save(&self, path: &Path) -> Result<(), GameError> {
        Ok(super::save_world(path, self.game.world())?)
    }

    fn start(&self) -> Turn {
        self.game.start()
    }

    fn act(&mut self, action: &Action) -> Turn {
        self.game.act(*action)
    }

    fn ending(&self) -> Option<Ending> {
        self.game.outcome().map(|o| match o {
            Outcome::Won => Ending::Won,
            Outcome::ClimbedOut => Ending::ClimbedOut,
            Outcome::FellIntoPit => Ending::Pit,
            Outcome::Eaten => Ending::Wumpus,
        })
    }

    fn score(&self) -> Option<i64> {
        self.game.score(self.scoring)
    }

    fn moves(&self) -> u32 {
        self.game.moves()
    }

    fn shots(&self) -> u32 {
        self.game.fired() as u32
    }

    /// More actions than any sensible play of the world needs.
    fn action_limit(&self) -> u32 {
        let cells = self.game.world().topology().len() as u64;
        (cells * 8 + 1000).min(u32::MAX as u64) as u32
    }

    fn winnable(&self) -> Option<bool> {
        Some(self.winnable)
    }

    fn observation(&self, shown: &Turn) -> Observation {
        let p = shown.percepts;
        let percepts = [
            (p.breeze, Percept::Breeze),
            (p.stench, Percept::Stench),
            (p.glint, Percept::Glitter),
            (p.bump, Percept::Bump),
            (p.scream, Percept::Scream),
        ]
        .into_iter()
        .filter_map(|(on, percept)| on.then_some(percept))
        .collect();
        Observation {
            at: Some(self.game.player()),
            facing: None,
            percepts,
            messages: shown
                .messages
                .iter()
                .map(|m| m.text().to_string())
                .collect(),
            arrows: Some(!self.game.fired() as u32),
            moves: self.game.moves(),
            exits: Vec::new(),
            entries: Vec::new(),
        }
    }

    fn refused(_shown: &Turn) -> bool {
        false
    }

    fn label(&self, place: Place) -> String {
        self.game.world().topology().label(place)
    }

    fn board(&self) -> Board {
        Board::grid(self.game.world().topology())
    }

    fn hidden(&self) -> Hidden {
        let world = self.game.world();
        let label = |p: Place| world.topology().label(p);
        let (wumpus, dead_wumpus) = if self.game.wumpus_alive() {
            (vec![label(world.wumpus())], Vec::new())
        } else {
            (Vec::new(), vec![label(world.wumpus())])
        };
        Hidden {
            pits: world.pits().map(label).collect(),
            wumpus,
            dead_wumpus,
            bats: Vec::new(),
            gold: vec![label(world.gold())],
            start: Some(label(world.start())),
        }
    }

    fn action_text(&self, action: &Action) -> String {
        action.to_string()
    }

    fn parse_command(&self, line: &str) -> Result<Command<Action>, String> {
        Ok(match parse_grid_command(line).map_err(|e| e.to_string())? {
            GridCommand::Act(a) => Command::Act(a),
            GridCommand::Help => Command::Help,
            GridCommand::Hint => Command::Hint,
            GridCommand::Quit => Command::Quit,
            GridCommand::Load(f) => Command::Load(f),
            GridCommand::Save(f) => Command::Save(f),
        })
    }

    fn help(&self) -> &'static str {
        HELP
    }

    fn title(&self) -> String {
        let (rows, cols) = self.game.world().size();
        format!("Wumpus World, {rows}x{cols}")
    }

    fn intro(&self) -> Vec<String> {
        vec![
            "Places are row,column: 0,0 is the south-west corner, where you start and climb \
             out; rows go north, columns east."
                .to_string(),
        ]
    }

    fn describe(&self, shown: &Turn) -> Vec<String> {
        let line: Vec<&str> = shown.messages.iter().map(|m| m.text()).collect();
        let mut lines = vec![line.join(" ")];
        match self.score() {
            Some(score) => lines.push(format!("Score: {score}")),
            // Seed 001's game leaves the player to track where they are; a person playing
            // here is told (docs/rules.md), on a line of its own after the game's words.
            None => lines.push(format!("You are at {}.", self.label(self.game.player()))),
        }
        lines
    }
}
