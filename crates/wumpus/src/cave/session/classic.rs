//! The classic cave through the one game interface: [`ClassicSession`] wraps a
//! [`ClassicGame`] dealt from its [`ClassicSetup`] (the map, its name for people, and the
//! variant), shows the hunter the game's status and events ([`CaveShown`]) in the event host's
//! words, and loads, saves and draws its hazard files.
//!
//! What the hunter is shown comes from the game's status and events alone; it must never
//! carry the hazards, which leave the session only through `hidden`, for reports.

use super::{check_map_text, map_format, meta, new_map_file};
use crate::cave::classic::{
    Action, ClassicGame, Ending as ClassicEnding, Event, LossCause, MoveResult, ShotResult, Status,
    TurnResult, Variant, MOVE_LIMIT,
};
use crate::cave::command::{self, Rules, CLASSIC_HELP};
use crate::cave::map::{CaveMap, MapFormat};
use crate::game::{
    Board, Briefing, BuiltInMap, Command, Ending, Exit, Files, GameError, Hidden, MapShape,
    NewFile, Observation, Percept, RuleFacts, RuleSet, Session, Words,
};
use crate::rng::seeded;
use crate::topology::Place;
use std::path::Path;
use std::sync::Arc;

/// A game that has taken this many actions without ending is stopped by the runner (the
/// rules end every game of a sensible player well before: 100 moves and 5 misses at most; only
/// refused actions can go on for ever).
pub const CLASSIC_ACTION_LIMIT: u32 = 10_000;

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
    // A kill scores 100 less the moves; a loss 0.
    best_score: 100,
    worst_score: 0,
    default_map: Some(BuiltInMap {
        name: "the standard dodecahedron",
        text: crate::cave::STANDARD_MAP,
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
        let hazards = crate::cave::read_classic_hazards(path, &setup.map)?;
        let game =
            ClassicGame::with_hazards(setup.map.clone(), hazards, setup.variant, seeded(seed));
        Ok(ClassicSession::new(game, &setup.map_name))
    }

    fn save(&self, path: &Path) -> Result<(), GameError> {
        Ok(crate::cave::save_classic_hazards(
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
            (Some(file), _) => Some(crate::cave::read_classic_hazards(file, &map)?.tags(&map)),
            (None, Some(seed)) => Some(
                crate::cave::ClassicHazards::deal(&map, &mut seeded(seed))
                    .map_err(GameError::rules)?
                    .tags(&map),
            ),
            (None, None) => None,
        };
        Ok(crate::cave::draw_map(&map, tags.as_ref()))
    }
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
