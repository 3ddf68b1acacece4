//! The `caves.dat` maze through the one game interface: [`MazeSession`] wraps a [`MazeGame`]
//! dealt from its [`MazeSetup`], shows the player seed 000's screen ([`MazeShown`]) and
//! names places as the game does, by cave name; it loads, saves and draws its hazard files.
//!
//! The player is told a cave's name and never its number: the label must never tell apart
//! caves that share a name (only `map_label`, for a player given the map, does).

use super::{check_map_text, map_format, meta, new_map_file, CLASSIC_FACTS};
use crate::cave::command::{self, Rules, MAZE_HELP};
use crate::cave::map::{CaveMap, MapFormat};
use crate::cave::maze::{
    MazeAction, MazeEnding, MazeEvent, MazeGame, MazeLoss, MazeResult, MazeView,
};
use crate::game::{
    Board, Briefing, BuiltInMap, Command, Ending, Exit, Files, GameError, Hidden, MapShape,
    NewFile, Observation, Percept, RuleFacts, RuleSet, Session, Words,
};
use crate::rng::seeded;
use crate::topology::Place;
use std::path::Path;
use std::sync::Arc;

/// A maze game whose player has taken this many actions is stopped (the maze has no move
/// limit).
pub const MAZE_ACTION_LIMIT: u32 = 2_000;

/// What the games of a maze batch share.
#[derive(Clone, Debug)]
pub struct MazeSetup {
    /// The map (a `caves.dat`).
    pub map: Arc<CaveMap>,
    /// The map's name for people.
    pub map_name: String,
}

/// What the player is shown after an action (and at the start) in the maze.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MazeShown {
    /// The typed result of the last action (`None` at the start).
    pub result: Option<MazeResult>,
    /// What the player is told happened, in order.
    pub events: Vec<MazeEvent>,
    /// What the player knows now.
    pub view: MazeView,
}

/// A maze game in progress.
#[derive(Clone, Debug)]
pub struct MazeSession {
    game: MazeGame,
    map_name: Arc<str>,
}

impl MazeSession {
    /// A session on `game`, its map called `map_name`.
    pub fn new(game: MazeGame, map_name: &str) -> MazeSession {
        MazeSession {
            game,
            map_name: map_name.into(),
        }
    }

    /// The simulator.
    pub fn game(&self) -> &MazeGame {
        &self.game
    }

    /// Seed 000's screen: the cave, its tunnels by name or "unknown", then the senses.
    fn view_lines(view: &MazeView) -> Vec<String> {
        let mut lines = vec![format!("You are currently in {}", view.name)];
        for (i, name) in view.tunnels.iter().enumerate() {
            let name = name.as_deref().unwrap_or("unknown");
            lines.push(format!("     ({}) {name}", i + 1));
        }
        if view.smell {
            lines.push("You smell a WUMPUS!".into());
        }
        if view.hear {
            lines.push("You hear the flapping of giant wings!".into());
        }
        if view.feel {
            lines.push("You feel a draft!".into());
        }
        lines
    }
}

/// Seed 000's opening words.
const MAZE_INTRO: &str = "HUNT THE WUMPUS: Your mission is to explore the maze of caves
and destroy all of the wumpi (without getting yourself killed). To move to an adjacent cave, enter 'M' and the tunnel number. To toss a grenade into a cave, enter 'T' and the tunnel number.";

/// The maze's facts.
pub const MAZE_FACTS: RuleFacts = RuleFacts {
    title: "the caves.dat maze",
    summary: "The caves.dat maze: named caves, several wumpi, grenades.",
    goal: "kill every wumpus with your grenades",
    input: "tunnels",
    shot: ["grenade", "grenades"],
    scored: false,
    tells_shots: false,
    // The maze pays 1 for a win.
    learner_scale: 1.0,
    best_score: 0,
    worst_score: 0,
    default_map: Some(BuiltInMap {
        name: "the standard caves.dat",
        text: crate::cave::STANDARD_CAVES_DAT,
    }),
    ..CLASSIC_FACTS
};

impl Session for MazeSession {
    const RULES: RuleSet = RuleSet::Maze;
    const FACTS: &'static RuleFacts = &MAZE_FACTS;
    type Setup = MazeSetup;
    type Action = MazeAction;
    type Shown = MazeShown;

    fn setup(&self) -> MazeSetup {
        MazeSetup {
            map: self.game.map().clone(),
            map_name: self.map_name.to_string(),
        }
    }

    fn deal(setup: &MazeSetup, seed: u64) -> Result<MazeSession, GameError> {
        let game = MazeGame::new(setup.map.clone(), seed).map_err(GameError::rules)?;
        Ok(MazeSession::new(game, &setup.map_name))
    }

    fn briefing(&self) -> Briefing {
        Briefing::rooms(self.game.map().len())
    }

    fn start(&self) -> MazeShown {
        MazeShown {
            result: None,
            events: Vec::new(),
            view: self.game.view(),
        }
    }

    fn act(&mut self, action: &MazeAction) -> MazeShown {
        let turn = self.game.act(*action);
        MazeShown {
            result: Some(turn.result),
            events: turn.events,
            view: self.game.view(),
        }
    }

    fn ending(&self) -> Option<Ending> {
        self.game.ending().map(|e| match e {
            MazeEnding::Won => Ending::Won,
            MazeEnding::Lost(MazeLoss::Pit) => Ending::Pit,
            MazeEnding::Lost(MazeLoss::Wumpus) => Ending::Wumpus,
            MazeEnding::Lost(MazeLoss::OutOfGrenades) => Ending::OutOfGrenades,
        })
    }

    /// The maze keeps no score.
    fn score(&self) -> Option<i64> {
        None
    }

    fn moves(&self) -> u32 {
        self.game.moves()
    }

    fn shots(&self) -> u32 {
        self.game.tosses()
    }

    fn action_limit(&self) -> u32 {
        MAZE_ACTION_LIMIT
    }

    fn observation(&self, shown: &MazeShown) -> Observation {
        let v = &shown.view;
        let percepts = [
            (v.feel, Percept::Draft),
            (v.hear, Percept::Bats),
            (v.smell, Percept::Stench),
        ]
        .into_iter()
        .filter_map(|(on, p)| on.then_some(p))
        .collect();
        let map = self.game.map();
        let here = self.game.player();
        Observation {
            // The player knows the cave by its name, which is how the maze labels places.
            at: Some(here),
            facing: None,
            percepts,
            messages: shown.events.iter().map(|e| e.text().to_string()).collect(),
            // Seed 000 never tells the player how many grenades are left.
            arrows: None,
            moves: self.game.moves(),
            exits: v
                .tunnels
                .iter()
                .enumerate()
                .map(|(i, name)| Exit {
                    number: i + 1,
                    to: name.as_ref().and_then(|_| map.tunnel(here, i + 1)),
                })
                .collect(),
            entries: Vec::new(),
        }
    }

    fn refused(shown: &MazeShown) -> bool {
        shown.result == Some(MazeResult::NoSuchTunnel)
    }

    /// The cave's name: all the game ever tells the player of where they are (five caves of
    /// `caves.dat` share "The Lost Caverns of the Wyrm", and the player cannot tell them apart).
    fn label(&self, place: Place) -> String {
        self.game.map().name(place)
    }

    fn map_label(&self, place: Place) -> String {
        let name = self.game.map().name(place);
        if self.namesakes(place) > 1 {
            format!("{name} (cave {})", self.game.map().label(place))
        } else {
            name
        }
    }

    fn namesakes(&self, place: Place) -> usize {
        let map = self.game.map();
        let name = map.name(place);
        map.rooms().filter(|&p| map.name(p) == name).count()
    }

    /// The maze by names: one place a name, a tunnel between two names where a cave of the
    /// one leads to a cave of the other, under fog (the game never shows its map).
    fn board(&self) -> Board {
        let map = self.game.map();
        let mut names: Vec<String> = Vec::new();
        let mut index = std::collections::HashMap::new();
        let of: Vec<usize> = map
            .rooms()
            .map(|p| {
                let name = map.name(p);
                *index.entry(name.clone()).or_insert_with(|| {
                    names.push(name);
                    names.len() - 1
                })
            })
            .collect();
        let links: Vec<(usize, usize)> = map
            .rooms()
            .flat_map(|p| {
                let of = &of;
                map.topology()
                    .neighbours(p)
                    .map(move |q| (of[p.index()], of[q.index()]))
            })
            .collect();
        let mut board = Board::graph(names, &links, None);
        board.fog = true;
        board
    }

    fn hidden(&self) -> Hidden {
        let h = self.game.hazards();
        let label = |p: Place| self.label(p);
        Hidden {
            pits: h.pits().iter().map(|&p| label(p)).collect(),
            wumpus: self.game.wumpi().into_iter().map(label).collect(),
            dead_wumpus: self.game.dead_wumpi().iter().map(|&p| label(p)).collect(),
            bats: h.bats().iter().map(|&p| label(p)).collect(),
            gold: Vec::new(),
            start: Some(label(h.player())),
        }
    }

    fn action_text(&self, action: &MazeAction) -> String {
        match action {
            MazeAction::Move(t) => format!("move {t}"),
            MazeAction::Toss(t) => format!("toss {t}"),
        }
    }
}

impl Files for MazeSession {
    /// As [`ClassicSession::load`](super::ClassicSession::load): the generator starts afresh
    /// from `seed`.
    fn load(setup: &MazeSetup, path: &Path, seed: u64) -> Result<MazeSession, GameError> {
        let hazards = crate::cave::read_maze_hazards(path, &setup.map)?;
        let game = MazeGame::with_hazards(setup.map.clone(), hazards, seeded(seed));
        Ok(MazeSession::new(game, &setup.map_name))
    }

    fn save(&self, path: &Path) -> Result<(), GameError> {
        Ok(crate::cave::save_maze_hazards(
            path,
            self.game.hazards(),
            self.game.map(),
        )?)
    }

    fn new_file(_: &MazeSetup, seed: u64, shape: &MapShape) -> Result<NewFile, GameError> {
        new_map_file(MapFormat::CavesDat, seed, shape)
    }

    fn plays_file(text: &str) -> bool {
        map_format(text) == Some(MapFormat::CavesDat)
    }

    fn check_text(path: &Path, text: &str) -> Result<String, crate::files::FileError> {
        check_map_text(path, text)
    }

    fn draw_file(
        path: &Path,
        hazards: Option<&Path>,
        seed: Option<u64>,
    ) -> Result<String, GameError> {
        let map = crate::cave::read_map(path)?;
        let tags = match (hazards, seed) {
            (Some(file), _) => Some(crate::cave::read_maze_hazards(file, &map)?.tags(&map)),
            (None, Some(seed)) => Some(
                crate::cave::MazeHazards::deal(&map, &mut seeded(seed))
                    .map_err(GameError::rules)?
                    .tags(&map),
            ),
            (None, None) => None,
        };
        Ok(crate::cave::draw_map(&map, tags.as_ref()))
    }
}

impl Words for MazeSession {
    fn parse_command(&self, line: &str) -> Result<Command<MazeAction>, String> {
        let parsed = command::parse_command(line, Rules::Maze).map_err(|e| e.to_string())?;
        match command::maze_action(&parsed) {
            Some(action) => Ok(Command::Act(action)),
            None => Ok(meta(parsed)),
        }
    }

    fn help(&self) -> &'static str {
        MAZE_HELP
    }

    fn title(&self) -> String {
        format!("The maze of caves on {}", self.map_name)
    }

    fn intro(&self) -> Vec<String> {
        vec![MAZE_INTRO.to_string()]
    }

    fn describe(&self, shown: &MazeShown) -> Vec<String> {
        let mut lines: Vec<String> = shown.events.iter().map(|e| e.text().to_string()).collect();
        match self.game.ending() {
            Some(MazeEnding::Won) => lines.push("YOU WIN".into()),
            Some(MazeEnding::Lost(_)) => lines.push("GAME OVER".into()),
            None if Self::refused(shown) => {}
            None => lines.extend(Self::view_lines(&shown.view)),
        }
        lines
    }

    /// Seed 000's prompt.
    fn prompt(&self) -> &'static str {
        "What do you want to do? "
    }
}
