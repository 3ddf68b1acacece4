//! The classic cave and the `caves.dat` maze through the one game interface ([`Session`]):
//! [`ClassicSession`] wraps a [`ClassicGame`], [`MazeSession`] a [`MazeGame`], each dealt from
//! its setup (the map, its name for people, and the classic cave's variant).

use super::classic::{
    Action, ClassicGame, Ending as ClassicEnding, Event, LossCause, MoveResult, ShotResult, Status,
    TurnResult, Variant, MOVE_LIMIT,
};
use super::command::{self, CaveCommand, Rules, CLASSIC_HELP, MAZE_HELP};
use super::map::{CaveMap, MapFormat};
use super::maze::{MazeAction, MazeEnding, MazeEvent, MazeGame, MazeLoss, MazeResult, MazeView};
use crate::game::{
    Board, Briefing, Command, Ending, Exit, Files, GameError, Hidden, Observation, Percept,
    BuiltInMap, MapShape, NewFile, RuleFacts, RuleSet, Session, Words,
};
use crate::rng::seeded;
use crate::topology::Place;
use std::path::Path;
use std::sync::Arc;

/// A game that has taken this many actions without ending is stopped by the runner (the
/// rules end every game of a sensible player well before: 100 moves and 5 misses at most; only
/// refused actions can go on for ever).
pub const CLASSIC_ACTION_LIMIT: u32 = 10_000;

/// A maze game whose player has taken this many actions is stopped (the maze has no move
/// limit).
pub const MAZE_ACTION_LIMIT: u32 = 2_000;

/// What the games of a classic cave batch share.
#[derive(Clone, Debug)]
pub struct ClassicSetup {
    /// The map.
    pub map: Arc<CaveMap>,
    /// The map's name for people (its file, or `the standard dodecahedron`).
    pub map_name: String,
    /// The rules.
    pub variant: Variant,
}

/// What the hunter is shown after an action (and at the start): the action's result, what
/// happened, and the status of the turn that follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaveShown {
    /// The typed result of the last action (`None` at the start).
    pub result: Option<TurnResult>,
    /// What the hunter is told happened, in order.
    pub events: Vec<Event>,
    /// What the hunter knows now.
    pub status: Status,
}

/// A classic cave game in progress.
#[derive(Clone, Debug)]
pub struct ClassicSession {
    game: ClassicGame,
    map_name: Arc<str>,
}

impl ClassicSession {
    /// A session on `game`, its map called `map_name`.
    pub fn new(game: ClassicGame, map_name: &str) -> ClassicSession {
        ClassicSession {
            game,
            map_name: map_name.into(),
        }
    }

    /// The simulator.
    pub fn game(&self) -> &ClassicGame {
        &self.game
    }

    fn map(&self) -> &CaveMap {
        self.game.map()
    }

    /// How a player names a room, with its name on a `caves.dat` map.
    fn room_words(&self, room: Place) -> String {
        let map = self.map();
        match map.format() {
            MapFormat::CavesDat => format!("{} ({})", map.label(room), map.name(room)),
            MapFormat::Event => map.label(room).to_string(),
        }
    }

    /// The lines a person reads at the start of a turn.
    fn status_lines(&self, s: &Status) -> Vec<String> {
        let map = self.map();
        let list = |rooms: &[Place]| {
            rooms
                .iter()
                .map(|&r| map.label(r).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut lines = vec![format!(
            "You are in room {}. Tunnels lead to {}.",
            self.room_words(s.room),
            list(&s.outs)
        )];
        let visible = entries(s);
        if !visible.is_empty() {
            lines.push(format!(
                "You can also see (but cannot get to) {}.",
                list(&visible)
            ));
        }
        if s.pit {
            lines.push("I feel a draft.".into());
        }
        if s.bats {
            lines.push("I hear bats!".into());
        }
        if s.wumpus {
            lines.push("I smell a wumpus!".into());
        }
        lines.push(format!(
            "Arrows: {}. Moves: {} of {}.",
            s.arrows, s.moves, MOVE_LIMIT
        ));
        lines
    }
}

/// The rooms with a tunnel into the hunter's that the hunter cannot walk to, each once.
fn entries(s: &Status) -> Vec<Place> {
    let mut visible: Vec<Place> = Vec::new();
    for &r in &s.ins {
        if !s.outs.contains(&r) && !visible.contains(&r) {
            visible.push(r);
        }
    }
    visible
}

fn classic_ending(e: ClassicEnding) -> Ending {
    match e {
        ClassicEnding::Won { .. } => Ending::Won,
        ClassicEnding::Lost(LossCause::Pit) => Ending::Pit,
        ClassicEnding::Lost(LossCause::Wumpus) => Ending::Wumpus,
        ClassicEnding::Lost(LossCause::OwnArrow) => Ending::OwnArrow,
        ClassicEnding::Lost(LossCause::OutOfArrows) => Ending::OutOfArrows,
        ClassicEnding::Lost(LossCause::Exhaustion) => Ending::Exhaustion,
    }
}

fn loss_text(cause: LossCause) -> &'static str {
    match cause {
        LossCause::Pit => "a pit",
        LossCause::Wumpus => "the wumpus",
        LossCause::OwnArrow => "your own arrow",
        LossCause::OutOfArrows => "out of arrows",
        LossCause::Exhaustion => "exhaustion",
    }
}

/// A cave map's board: rooms by the labels of `label`.
fn cave_board(map: &CaveMap, label: impl Fn(Place) -> String) -> Board {
    Board::cave(map.topology(), label)
}

/// A command line read as `rules` reads it, turned into a game command by `action`.
fn meta<A>(command: CaveCommand) -> Command<A> {
    match command {
        CaveCommand::Help => Command::Help,
        CaveCommand::Hint => Command::Hint,
        CaveCommand::Quit => Command::Quit,
        CaveCommand::Load(f) => Command::Load(f),
        CaveCommand::Save(f) => Command::Save(f),
        CaveCommand::MoveTo(_)
        | CaveCommand::Shoot(_)
        | CaveCommand::Move(_)
        | CaveCommand::Toss(_) => unreachable!("game actions are read by the caller"),
    }
}

/// The classic cave's facts.
pub const CLASSIC_FACTS: RuleFacts = RuleFacts {
    title: "the classic cave",
    summary: "The classic Hunt the Wumpus cave: 20 rooms, pits, super bats, a wumpus that \
              wakes, crooked arrows.",
    goal: "shoot the wumpus with a crooked arrow",
    input: "rooms",
    shot: ["arrow", "arrows"],
    safe_means: "no pit, no live wumpus, no bats",
    scored: true,
    file: "hazards",
    file_holds_all: false,
    on_grid: false,
    tells_shots: true,
    tells_winnable: false,
    learner_scale: 0.01,
    default_map: Some(BuiltInMap {
        name: "the standard dodecahedron",
        text: super::STANDARD_MAP,
    }),
};

impl Session for ClassicSession {
    const RULES: RuleSet = RuleSet::Cave;
    const FACTS: &'static RuleFacts = &CLASSIC_FACTS;
    type Setup = ClassicSetup;
    type Action = Action;
    type Shown = CaveShown;

    fn setup(&self) -> ClassicSetup {
        ClassicSetup {
            map: self.game.map().clone(),
            map_name: self.map_name.to_string(),
            variant: self.game.variant(),
        }
    }

    fn deal(setup: &ClassicSetup, seed: u64) -> Result<ClassicSession, GameError> {
        let game =
            ClassicGame::new(setup.map.clone(), setup.variant, seed).map_err(GameError::rules)?;
        Ok(ClassicSession::new(game, &setup.map_name))
    }

    fn briefing(&self) -> Briefing {
        Briefing::rooms(self.game.map().len())
    }

    fn start(&self) -> CaveShown {
        CaveShown {
            result: None,
            events: Vec::new(),
            status: self.game.status(),
        }
    }

    fn act(&mut self, action: &Action) -> CaveShown {
        let turn = self.game.act(action);
        CaveShown {
            result: Some(turn.result),
            events: turn.events,
            status: self.game.status(),
        }
    }

    fn ending(&self) -> Option<Ending> {
        self.game.ending().map(classic_ending)
    }

    fn score(&self) -> Option<i64> {
        self.game.ending().map(|e| i64::from(e.score()))
    }

    fn moves(&self) -> u32 {
        self.game.moves()
    }

    fn shots(&self) -> u32 {
        self.game.shots()
    }

    fn action_limit(&self) -> u32 {
        CLASSIC_ACTION_LIMIT
    }

    fn observation(&self, shown: &CaveShown) -> Observation {
        let s = &shown.status;
        let percepts = [
            (s.pit, Percept::Draft),
            (s.bats, Percept::Bats),
            (s.wumpus, Percept::Stench),
        ]
        .into_iter()
        .filter_map(|(on, p)| on.then_some(p))
        .collect();
        Observation {
            at: Some(s.room),
            facing: None,
            percepts,
            messages: shown.events.iter().map(|e| e.text().to_string()).collect(),
            arrows: Some(u32::from(s.arrows)),
            moves: s.moves,
            exits: s
                .outs
                .iter()
                .enumerate()
                .map(|(i, &to)| Exit {
                    number: i + 1,
                    to: Some(to),
                })
                .collect(),
            entries: entries(s),
        }
    }

    fn refused(shown: &CaveShown) -> bool {
        matches!(
            shown.result,
            Some(TurnResult::Move(MoveResult::NotAnExit))
                | Some(TurnResult::Shot(ShotResult::TooCrooked))
        )
    }

    fn label(&self, place: Place) -> String {
        self.map().label(place).to_string()
    }

    fn board(&self) -> Board {
        let map = self.map();
        cave_board(map, |p| map.label(p).to_string())
    }

    fn hidden(&self) -> Hidden {
        let h = self.game.hazards();
        let label = |p: Place| self.label(p);
        let wumpus = vec![label(self.game.wumpus())];
        let won = matches!(self.game.ending(), Some(ClassicEnding::Won { .. }));
        Hidden {
            pits: h.pits().iter().map(|&p| label(p)).collect(),
            wumpus: if won { Vec::new() } else { wumpus.clone() },
            dead_wumpus: if won { wumpus } else { Vec::new() },
            bats: h.bats().iter().map(|&p| label(p)).collect(),
            gold: Vec::new(),
            start: Some(label(h.hunter())),
        }
    }

    fn action_text(&self, action: &Action) -> String {
        let map = self.map();
        match action {
            Action::Move(r) => format!("move {}", map.label(*r)),
            Action::Shoot(path) => {
                let rooms: Vec<String> = path
                    .rooms()
                    .iter()
                    .map(|&r| map.label(r).to_string())
                    .collect();
                format!("shoot {}", rooms.join(" "))
            }
        }
    }
}

impl Files for ClassicSession {
    /// A loaded layout starts the generator afresh from `seed`; a dealt game keeps drawing
    /// from the generator that dealt it, so `--seed` replays it exactly.
    fn load(setup: &ClassicSetup, path: &Path, seed: u64) -> Result<ClassicSession, GameError> {
        let hazards = super::read_classic_hazards(path, &setup.map)?;
        let game =
            ClassicGame::with_hazards(setup.map.clone(), hazards, setup.variant, seeded(seed));
        Ok(ClassicSession::new(game, &setup.map_name))
    }

    fn save(&self, path: &Path) -> Result<(), GameError> {
        Ok(super::save_classic_hazards(
            path,
            self.game.hazards(),
            self.map(),
        )?)
    }

    fn new_file(_: &ClassicSetup, seed: u64, shape: &MapShape) -> Result<NewFile, GameError> {
        new_map_file(MapFormat::Event, seed, shape)
    }

    fn plays_file(text: &str) -> bool {
        map_format(text) == Some(MapFormat::Event)
    }

    fn check_file(path: &Path) -> Result<String, crate::files::FileError> {
        check_map_file(path)
    }

    fn draw_file(
        path: &Path,
        hazards: Option<&Path>,
        seed: Option<u64>,
    ) -> Result<String, GameError> {
        let map = super::read_map(path)?;
        let tags = match (hazards, seed) {
            (Some(file), _) => Some(super::read_classic_hazards(file, &map)?.tags(&map)),
            (None, Some(seed)) => Some(
                super::ClassicHazards::deal(&map, &mut seeded(seed))
                    .map_err(GameError::rules)?
                    .tags(&map),
            ),
            (None, None) => None,
        };
        Ok(super::draw_map(&map, tags.as_ref()))
    }
}

/// The format of the map `text` holds, if it reads as a map.
fn map_format(text: &str) -> Option<MapFormat> {
    // A map that does not parse is still a map, told by its look: its errors are the map's.
    super::map::looks_like_cave_map(text).then(|| super::map::detect_format(text))
}

/// A random map in `format`, dealt from `seed` in `shape`.
fn new_map_file(format: MapFormat, seed: u64, shape: &MapShape) -> Result<NewFile, GameError> {
    let (tunnels, kind) = if shape.one_way {
        (super::Tunnels::OneWay, "one-way")
    } else {
        (super::Tunnels::TwoWay, "two-way")
    };
    let map = super::random_map(shape.rooms, tunnels, 1, format, &mut seeded(seed))
        .map_err(GameError::rules)?;
    Ok(NewFile {
        text: super::format_map(&map),
        words: format!("{}-room map, {kind} tunnels", shape.rooms),
        comments: false,
    })
}

/// What a map file holds, checked: its format, rooms and tunnels that go one way or to their
/// own room.
fn check_map_file(path: &Path) -> Result<String, crate::files::FileError> {
    let map = super::read_map(path)?;
    let (mut one_way, mut to_itself) = (0, 0);
    for room in map.rooms() {
        for &to in map.outs(room) {
            if to == room {
                to_itself += 1;
            } else if !map.outs(to).contains(&room) {
                one_way += 1;
            }
        }
    }
    Ok(format!(
        "{}, {} rooms, {one_way} one-way tunnels, {to_itself} tunnels to their own room",
        map.format().name(),
        map.len()
    ))
}

impl Words for ClassicSession {
    fn parse_command(&self, line: &str) -> Result<Command<Action>, String> {
        let parsed = command::parse_command(line, Rules::Classic).map_err(|e| e.to_string())?;
        match command::classic_action(&parsed, self.map()) {
            Some(action) => action.map(Command::Act).map_err(|e| e.to_string()),
            None => Ok(meta(parsed)),
        }
    }

    fn help(&self) -> &'static str {
        CLASSIC_HELP
    }

    fn title(&self) -> String {
        let rules = match self.game.variant() {
            Variant::Event => "tournament rules",
            Variant::Yob => "Yob's 1973 rules",
        };
        format!(
            "Hunt the Wumpus: the classic cave ({rules}) on {}, {} rooms",
            self.map_name,
            self.map().len()
        )
    }

    fn intro(&self) -> Vec<String> {
        Vec::new()
    }

    fn describe(&self, shown: &CaveShown) -> Vec<String> {
        let mut lines: Vec<String> = shown.events.iter().map(|e| e.text().to_string()).collect();
        if let Some(ending) = self.game.ending() {
            lines.push(match ending {
                ClassicEnding::Won { .. } => "You win!".to_string(),
                ClassicEnding::Lost(cause) => format!("You lose ({}).", loss_text(cause)),
            });
            lines.push(format!("Score: {}", ending.score()));
        } else if !Self::refused(shown) {
            // A refused action changed nothing: the status the player just read still holds.
            lines.extend(self.status_lines(&shown.status));
        }
        lines
    }
}

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
    default_map: Some(BuiltInMap {
        name: "the standard caves.dat",
        text: super::STANDARD_CAVES_DAT,
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
    /// As [`ClassicSession::load`]: the generator starts afresh from `seed`.
    fn load(setup: &MazeSetup, path: &Path, seed: u64) -> Result<MazeSession, GameError> {
        let hazards = super::read_maze_hazards(path, &setup.map)?;
        let game = MazeGame::with_hazards(setup.map.clone(), hazards, seeded(seed));
        Ok(MazeSession::new(game, &setup.map_name))
    }

    fn save(&self, path: &Path) -> Result<(), GameError> {
        Ok(super::save_maze_hazards(
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

    fn check_file(path: &Path) -> Result<String, crate::files::FileError> {
        check_map_file(path)
    }

    fn draw_file(
        path: &Path,
        hazards: Option<&Path>,
        seed: Option<u64>,
    ) -> Result<String, GameError> {
        let map = super::read_map(path)?;
        let tags = match (hazards, seed) {
            (Some(file), _) => Some(super::read_maze_hazards(file, &map)?.tags(&map)),
            (None, Some(seed)) => Some(
                super::MazeHazards::deal(&map, &mut seeded(seed))
                    .map_err(GameError::rules)?
                    .tags(&map),
            ),
            (None, None) => None,
        };
        Ok(super::draw_map(&map, tags.as_ref()))
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
