//! The grid Wumpus World through the one game interface ([`Session`]): a [`GridGame`] with
//! the scoring in force, dealt from a [`GridSetup`].

use super::command::{parse_command as parse_grid_command, Command as GridCommand, HELP};
use super::game::{Action, GridGame, Outcome, Scoring, Turn};
use super::world::GridWorld;
use crate::game::{
    Board, Briefing, Command, Ending, Files, Fixed, GameError, GridPrior, Hidden, MapShape,
    NewFile, Observation, Percept, RuleFacts, RuleSet, Session, Words,
};
use crate::rng::seeded;
use crate::topology::{Place, Topology};
use std::path::Path;
use std::sync::Arc;

/// What the games of a grid batch share.
#[derive(Clone, Debug)]
pub struct GridSetup {
    /// The grid (with a range of sizes, the smallest of them).
    pub topology: Arc<Topology>,
    /// The chance that a cell other than the start holds a pit.
    pub pit_prob: f64,
    /// How a finished game is scored.
    pub scoring: Scoring,
    /// The sizes each game's size is drawn from, by the game's seed (`None`: every game on
    /// `topology`).
    pub sizes: Option<SizeRange>,
    /// How worlds are dealt.
    pub deal: Deal,
    /// Whether players are told the board's size: `Some(false)` hides it (they learn the walls
    /// by bumping), `None` leaves it to the source: hidden for the course's deal and the
    /// course's files, told otherwise.
    pub size_told: Option<bool>,
    /// The longest side a game of this setup may have, a world file's included: checked on
    /// the file's bytes as they are read, whenever a game is made (a door's own limit; the
    /// grid's own, [`crate::topology::MAX_GRID_SIDE`], otherwise).
    pub max_side: usize,
}

/// How a grid's worlds are dealt.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Deal {
    /// Seed 001's deal: every cell but the start a pit with the setup's chance, the wumpus and
    /// the gold uniform off the start, on the setup's size (or range of sizes).
    #[default]
    Uniform,
    /// The course tournament's ([`super::course`]): its 16 sizes in its proportion, the pits
    /// where its shells put them.
    Course,
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
            sizes: None,
            deal: Deal::Uniform,
            size_told: None,
            max_side: crate::topology::MAX_GRID_SIDE,
        })
    }

    /// Worlds dealt as the course tournament dealt them ([`Deal::Course`]).
    pub fn course(pit_prob: f64, scoring: Scoring) -> Result<GridSetup, GameError> {
        let mut setup = GridSetup::new(4, 4, pit_prob, scoring)?;
        setup.deal = Deal::Course;
        Ok(setup)
    }

    /// What players may assume of how this setup deals its worlds.
    pub fn prior(&self) -> GridPrior {
        match (self.deal, &self.sizes) {
            (Deal::Course, _) => GridPrior::Course,
            (Deal::Uniform, Some(range)) => GridPrior::Uniform {
                smallest: range.smallest,
                largest: range.largest,
            },
            (Deal::Uniform, None) => {
                let (rows, cols) = self.size();
                GridPrior::uniform(rows, cols)
            }
        }
    }

    /// True when players of this setup's dealt games are told the size.
    pub fn tells_size(&self) -> bool {
        self.size_told.unwrap_or(self.deal != Deal::Course)
    }

    /// True when games of this setup differ in size.
    pub fn varies(&self) -> bool {
        self.sizes.is_some() || self.deal == Deal::Course
    }

    /// The world of the game dealt from `rng`.
    pub fn deal_world(&self, rng: &mut impl rand::Rng) -> Result<GridWorld, GameError> {
        Ok(match self.deal {
            Deal::Course => super::course::deal_course_world(self.pit_prob, rng),
            Deal::Uniform => {
                let topology = self.draw_topology(rng)?;
                GridWorld::random(topology, self.pit_prob, rng)
            }
        })
    }

    /// Games whose sizes are drawn from `sizes`, each from its own seed.
    pub fn ranged(
        sizes: SizeRange,
        pit_prob: f64,
        scoring: Scoring,
    ) -> Result<GridSetup, GameError> {
        let (rows, cols) = sizes.smallest;
        let mut setup = GridSetup::new(rows, cols, pit_prob, scoring)?;
        if sizes.smallest != sizes.largest {
            Topology::grid(sizes.largest.0, sizes.largest.1)?;
            setup.sizes = Some(sizes);
        }
        Ok(setup)
    }

    /// The grid's size, rows then columns (with a range of sizes, the smallest).
    pub fn size(&self) -> (usize, usize) {
        self.topology.grid_size().expect("a grid")
    }

    /// The grid of the game dealt from `rng`: `topology`, or with a range of sizes, one drawn
    /// from `rng` first (so that a batch of one size draws nothing for its size).
    pub fn draw_topology(&self, rng: &mut impl rand::Rng) -> Result<Arc<Topology>, GameError> {
        match &self.sizes {
            None => Ok(self.topology.clone()),
            Some(range) => {
                let (rows, cols) = range.draw(rng);
                Ok(Arc::new(Topology::grid(rows, cols)?))
            }
        }
    }

    /// The grid of the game dealt from `seed` (what its agent is prepared for).
    pub fn topology_of(&self, seed: u64) -> Result<Arc<Topology>, GameError> {
        match self.deal {
            Deal::Course => Ok(self.deal_world(&mut seeded(seed))?.topology().clone()),
            Deal::Uniform => self.draw_topology(&mut seeded(seed)),
        }
    }

    /// What the setup fixes of its games: one size, when it deals only one (not a range, not
    /// the course's deal), and whether players are told it.
    pub fn fixed(&self) -> Fixed {
        Fixed {
            size: (!self.varies()).then(|| self.size()),
            size_told: Some(self.tells_size()),
        }
    }
}

/// The grid Wumpus World's facts.
pub const GRID_FACTS: RuleFacts = RuleFacts {
    title: "the grid Wumpus World",
    summary: "The grid Wumpus World: pits, a wumpus, gold, one arrow; compass moves; climb out \
              at 0,0.",
    goal: "find the gold, grab it, and climb out at 0,0",
    input: "compass",
    shot: ["arrow", "arrows"],
    safe_means: "no pit, no live wumpus",
    scored: true,
    file: "world",
    file_holds_all: true,
    on_grid: true,
    tells_shots: true,
    tells_winnable: true,
    learner_scale: 0.001,
    // A win's 1000 at best; dying costs 1000 under the textbook's scoring, and the arrow 10.
    best_score: 1000,
    worst_score: -1010,
    default_map: None,
};

/// A world file dealt from `seed` as a game of `setup` deals its world.
pub(crate) fn new_world_file(setup: &GridSetup, seed: u64) -> Result<NewFile, GameError> {
    let world = setup.deal_world(&mut seeded(seed))?;
    let (rows, cols) = world.size();
    let deal = match setup.deal {
        Deal::Course => ", as the course dealt them",
        Deal::Uniform => "",
    };
    Ok(NewFile {
        text: super::format_world(&world),
        words: format!(
            "{rows}x{cols} world{deal}, pit probability {}",
            setup.pit_prob
        ),
        comments: true,
    })
}

/// What a world file's text holds, checked: `5x5, 3 pits`.
fn check_world_text(path: &Path, text: &str) -> Result<String, crate::files::FileError> {
    let world = crate::files::parsed(path, text, super::parse_world)?;
    let (rows, cols) = world.size();
    let pits = world.pits().count();
    let word = crate::game::plural(pits as u64, "pit", "pits");
    Ok(format!("{rows}x{cols}, {pits} {word}"))
}

/// A hidden size the players' prior does not allow: they could not reason about the board.
#[derive(Debug, thiserror::Error)]
#[error(
    "a {}x{} board cannot be played with its size hidden: players assume {}",
    size.0,
    size.1,
    describe_prior(prior)
)]
pub struct HiddenSizeError {
    size: (usize, usize),
    prior: GridPrior,
}

fn describe_prior(prior: &GridPrior) -> String {
    match prior {
        GridPrior::Course => "the course's sizes (4x4 to 7x7)".into(),
        GridPrior::Uniform { smallest, largest } => format!(
            "the sizes {}x{} to {}x{}",
            smallest.0, smallest.1, largest.0, largest.1
        ),
    }
}

/// A range of grid sizes, from `smallest` to `largest`: when both ends are square (`4x4..7x7`)
/// each game is N×N with N uniform over the range; otherwise
/// rows and columns are drawn independently, each uniform over its own range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeRange {
    /// The smallest size, rows then columns.
    pub smallest: (usize, usize),
    /// The largest size, rows then columns.
    pub largest: (usize, usize),
}

impl SizeRange {
    /// The range from `smallest` to `largest`, or `None` when a side of `largest` is smaller
    /// than the same side of `smallest`.
    pub fn new(smallest: (usize, usize), largest: (usize, usize)) -> Option<SizeRange> {
        (smallest.0 <= largest.0 && smallest.1 <= largest.1)
            .then_some(SizeRange { smallest, largest })
    }

    /// True when every size of the range is square.
    pub fn square(&self) -> bool {
        self.smallest.0 == self.smallest.1 && self.largest.0 == self.largest.1
    }

    /// One size drawn from `rng`.
    pub fn draw(&self, rng: &mut impl rand::Rng) -> (usize, usize) {
        if self.square() {
            let n = rng.random_range(self.smallest.0..=self.largest.0);
            (n, n)
        } else {
            let rows = rng.random_range(self.smallest.0..=self.largest.0);
            let cols = rng.random_range(self.smallest.1..=self.largest.1);
            (rows, cols)
        }
    }
}

impl std::fmt::Display for SizeRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ((r0, c0), (r1, c1)) = (self.smallest, self.largest);
        write!(f, "{r0}x{c0}..{r1}x{c1}")
    }
}

/// A grid game in progress, scored as its setup says.
#[derive(Clone, Debug)]
pub struct GridSession {
    game: GridGame,
    scoring: Scoring,
    pit_prob: f64,
    winnable: bool,
    /// How the world was dealt, as players may assume.
    prior: GridPrior,
    /// Whether players are told the size.
    size_told: bool,
}

impl GridSession {
    /// A game on `world`, scored by `scoring`; `pit_prob` is the chance of a pit that
    /// players assume (the one it was dealt with, for a random world).
    pub fn new(world: GridWorld, scoring: Scoring, pit_prob: f64) -> GridSession {
        let winnable = world.winnable();
        let (rows, cols) = world.size();
        GridSession {
            game: GridGame::new(world),
            scoring,
            pit_prob,
            winnable,
            prior: GridPrior::uniform(rows, cols),
            size_told: true,
        }
    }

    /// The same game, dealt by `prior` (what players may assume), its size told to players or
    /// hidden from them. A hidden size must be one `prior` allows: players reason over its
    /// sizes only.
    pub fn dealt_by(self, prior: GridPrior, size_told: bool) -> Result<GridSession, GameError> {
        let size = self.game.world().size();
        if !size_told && !prior.allows(size) {
            return Err(GameError::rules(HiddenSizeError { size, prior }));
        }
        Ok(GridSession {
            prior,
            size_told,
            ..self
        })
    }

    /// The simulator.
    pub fn game(&self) -> &GridGame {
        &self.game
    }

    /// The scoring in force.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The same game scored by `scoring`.
    pub fn rescored(self, scoring: Scoring) -> GridSession {
        GridSession { scoring, ..self }
    }

    /// An action that changes nothing in the world but counts (a turn under the textbook's
    /// rules, which keep the heading themselves); see [`GridGame::count_in_place`].
    pub fn count_in_place(&mut self, message: super::game::Message) -> Turn {
        self.game.count_in_place(message)
    }
}

impl Session for GridSession {
    const RULES: RuleSet = RuleSet::Grid;
    const FACTS: &'static RuleFacts = &GRID_FACTS;
    type Setup = GridSetup;
    type Action = Action;
    type Shown = Turn;

    fn setup(&self) -> GridSetup {
        GridSetup {
            topology: self.game.world().topology().clone(),
            pit_prob: self.pit_prob,
            scoring: self.scoring,
            sizes: None,
            deal: if self.prior == GridPrior::Course {
                Deal::Course
            } else {
                Deal::Uniform
            },
            size_told: Some(self.size_told),
            max_side: crate::topology::MAX_GRID_SIDE,
        }
    }

    fn fixed(setup: &GridSetup) -> Fixed {
        setup.fixed()
    }

    fn deal(setup: &GridSetup, seed: u64) -> Result<GridSession, GameError> {
        let world = setup.deal_world(&mut seeded(seed))?;
        GridSession::new(world, setup.scoring, setup.pit_prob)
            .dealt_by(setup.prior(), setup.tells_size())
    }

    fn briefing(&self) -> Briefing {
        if self.size_told {
            let (rows, cols) = self.game.world().size();
            Briefing::grid(rows, cols, self.prior)
        } else {
            Briefing::grid_hidden(self.prior)
        }
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

    fn score_so_far(&self) -> Option<i64> {
        // What the rules charge as the game goes: a point an action, ten for the arrow.
        let charged = -(self.game.moves() as i64) - if self.game.fired() { 10 } else { 0 };
        Some(self.score().unwrap_or(charged))
    }

    fn moves(&self) -> u32 {
        self.game.moves()
    }

    fn shots(&self) -> u32 {
        self.game.fired() as u32
    }

    fn carries_gold(&self) -> Option<bool> {
        Some(self.game.has_gold())
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
}

impl Files for GridSession {
    fn load(setup: &GridSetup, path: &Path, _seed: u64) -> Result<GridSession, GameError> {
        // A world file holds its own size; nothing in the grid is random after the deal. A
        // course file was dealt by the course's deal; the project's own files by the uniform
        // one (with the size hidden, over the square sizes 4x4 to 7x7).
        let (world, course) = super::read_world_and_format(path, setup.max_side)?;
        let prior = if course {
            GridPrior::Course
        } else if setup.size_told == Some(false) {
            GridPrior::Uniform {
                smallest: (4, 4),
                largest: (7, 7),
            }
        } else {
            let (rows, cols) = world.size();
            GridPrior::uniform(rows, cols)
        };
        let told = setup.size_told.unwrap_or(!course);
        let session = GridSession::new(world, setup.scoring, setup.pit_prob);
        session.dealt_by(prior, told).map_err(|e| {
            GameError::File(crate::files::FileError::new(path, Some(1), e.to_string()))
        })
    }

    fn save(&self, path: &Path) -> Result<(), GameError> {
        Ok(super::save_world(path, self.game.world())?)
    }

    fn new_file(setup: &GridSetup, seed: u64, _: &MapShape) -> Result<NewFile, GameError> {
        new_world_file(setup, seed)
    }

    fn plays_file(text: &str) -> bool {
        !crate::cave::map::looks_like_cave_map(text)
    }

    fn check_text(path: &Path, text: &str) -> Result<String, crate::files::FileError> {
        check_world_text(path, text)
    }

    fn draw_file(path: &Path, _: Option<&Path>, _: Option<u64>) -> Result<String, GameError> {
        Ok(super::draw_world(&super::read_world(path)?))
    }
}

impl Words for GridSession {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_player_is_told_a_hidden_size() {
        // Every game of the course's deal briefs its player alike, whatever its size: the one
        // value an agent is made from cannot tell one board from another.
        let setup = GridSetup::course(0.2, Scoring::Aima).unwrap();
        assert!(!setup.tells_size());
        let mut sizes = std::collections::BTreeSet::new();
        for seed in 0..300 {
            let game = GridSession::deal(&setup, seed).unwrap();
            sizes.insert(game.game().world().size());
            let briefing = game.briefing();
            assert_eq!(briefing, Briefing::grid_hidden(GridPrior::Course));
            assert_eq!(briefing.grid_size(), None);
        }
        assert_eq!(sizes.len(), 16);
        // Told, each game's briefing names its own size; hidden on a uniform range, none does.
        let told = GridSetup {
            size_told: Some(true),
            ..setup
        };
        let game = GridSession::deal(&told, 7).unwrap();
        assert_eq!(
            game.briefing().grid_size(),
            Some(game.game().world().size())
        );
        let range = SizeRange::new((4, 4), (7, 7)).unwrap();
        let mut hidden = GridSetup::ranged(range, 0.2, Scoring::Aima).unwrap();
        hidden.size_told = Some(false);
        for seed in 0..20 {
            assert_eq!(
                GridSession::deal(&hidden, seed)
                    .unwrap()
                    .briefing()
                    .grid_size(),
                None
            );
        }
    }

    #[test]
    fn one_size_deals_as_the_world_generator_alone() {
        // A batch of one size draws no size: game `seed` is exactly the world its seed deals.
        let setup = GridSetup::new(5, 5, 0.2, Scoring::Standard).unwrap();
        for seed in 0..50 {
            let dealt = GridSession::deal(&setup, seed).unwrap();
            let alone = GridWorld::random(setup.topology.clone(), 0.2, &mut seeded(seed));
            assert_eq!(dealt.game().world().wumpus(), alone.wumpus());
            assert_eq!(dealt.game().world().gold(), alone.gold());
            let pits: Vec<Place> = dealt.game().world().pits().collect();
            assert_eq!(pits, alone.pits().collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_range_of_square_sizes_deals_square_sizes_from_each_seed() {
        let range = SizeRange::new((4, 4), (7, 7)).unwrap();
        let setup = GridSetup::ranged(range, 0.2, Scoring::Aima).unwrap();
        assert_eq!(setup.fixed().size, None, "a range fixes no one size");
        assert_eq!(setup.sizes.unwrap().to_string(), "4x4..7x7");
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let game = GridSession::deal(&setup, seed).unwrap();
            let size = game.game().world().size();
            assert_eq!(size.0, size.1, "square");
            assert!((4..=7).contains(&size.0));
            // The agent of game `seed` is prepared for the same grid.
            assert_eq!(setup.topology_of(seed).unwrap().grid_size(), Some(size));
            seen.insert(size.0);
        }
        assert_eq!(seen.len(), 4, "every size of the range turns up");
        // Non-square ends draw rows and columns apart; a reversed range is no range.
        let wide = SizeRange::new((2, 3), (3, 6)).unwrap();
        assert!(!wide.square());
        let mut rng = seeded(1);
        for _ in 0..100 {
            let (r, c) = wide.draw(&mut rng);
            assert!((2..=3).contains(&r) && (3..=6).contains(&c));
        }
        assert_eq!(SizeRange::new((5, 5), (4, 6)), None);
        assert_eq!(wide.to_string(), "2x3..3x6");
    }
}
