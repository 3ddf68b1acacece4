//! The textbook's own rules (Russell and Norvig, *Artificial Intelligence: A Modern Approach*,
//! the Wumpus World of chapter 7): the grid Wumpus World played with a heading. The agent starts
//! at `0,0` facing east; its actions are `Forward`, `TurnLeft`, `TurnRight`, `Grab`, `Shoot`
//! and `Climb`, each costing 1 (turns too); the arrow flies the way the agent faces; walking
//! into a wall gives a bump and costs the action. Scoring is the textbook's (+1000 for climbing
//! out with the gold, −1000 for dying, −10 for the arrow), and as in the course tournament
//! (docs/rules.md), a game ends once the score drops below −1000.
//!
//! An [`AimaSession`] is a [`GridSession`] (the same world, dealing, percepts and scoring) with
//! a heading: `Forward` is a step the way the agent faces, `Shoot` a shot that way, and a turn
//! an action that changes only the heading. Where the textbook and its code disagree, and what
//! was chosen, is in `docs/rules.md`.

use super::game::{Action, Message, Scoring, Turn};
use super::session::{GridSession, GridSetup};
use crate::game::{
    Board, Briefing, Command, Ending, Files, Fixed, GameError, Hidden, MapShape, NewFile,
    Observation, Percept, RuleFacts, RuleSet, Session, Words,
};
use crate::topology::{Direction, Place};
use std::fmt;
use std::path::Path;

/// One of the textbook's six actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeadedAction {
    /// Step one cell the way the agent faces (a wall gives a bump and no step).
    Forward,
    /// A quarter turn to the left.
    TurnLeft,
    /// A quarter turn to the right.
    TurnRight,
    /// Pick up the gold if it is here.
    Grab,
    /// Shoot the one arrow the way the agent faces.
    Shoot,
    /// Climb out; works only at `0,0`.
    Climb,
}

impl HeadedAction {
    /// Every action, in the textbook's order.
    pub const ALL: [HeadedAction; 6] = [
        HeadedAction::Forward,
        HeadedAction::TurnLeft,
        HeadedAction::TurnRight,
        HeadedAction::Grab,
        HeadedAction::Shoot,
        HeadedAction::Climb,
    ];

    /// The action's name in a player's words: `forward`, `turn left`, ...
    pub fn words(self) -> &'static str {
        match self {
            HeadedAction::Forward => "forward",
            HeadedAction::TurnLeft => "turn left",
            HeadedAction::TurnRight => "turn right",
            HeadedAction::Grab => "grab",
            HeadedAction::Shoot => "shoot",
            HeadedAction::Climb => "climb",
        }
    }

    /// The compass action this is for a player facing `facing`; `None` for a turn, which
    /// changes only the heading.
    pub fn compass(self, facing: Direction) -> Option<Action> {
        match self {
            HeadedAction::Forward => Some(Action::Move(facing)),
            HeadedAction::Shoot => Some(Action::Fire(facing)),
            HeadedAction::Grab => Some(Action::Grab),
            HeadedAction::Climb => Some(Action::Climb),
            HeadedAction::TurnLeft | HeadedAction::TurnRight => None,
        }
    }

    /// The textbook actions that carry out a compass action from facing `facing`: the
    /// quarter turns to face its way (two lefts to turn about), then the step or the shot.
    pub fn carrying_out(action: Action, facing: Direction) -> Vec<HeadedAction> {
        let (way, last) = match action {
            Action::Move(d) => (d, HeadedAction::Forward),
            Action::Fire(d) => (d, HeadedAction::Shoot),
            Action::Grab => return vec![HeadedAction::Grab],
            Action::Climb => return vec![HeadedAction::Climb],
        };
        let mut out = Vec::with_capacity(3);
        if way == facing.right() {
            out.push(HeadedAction::TurnRight);
        } else if way != facing {
            out.extend(std::iter::repeat_n(
                HeadedAction::TurnLeft,
                facing.turns_to(way) as usize,
            ));
        }
        out.push(last);
        out
    }
}

impl fmt::Display for HeadedAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words())
    }
}

/// What the player is shown after an action: the grid's turn (percepts and messages) and the
/// way the player now faces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AimaShown {
    /// Percepts and messages, as on the grid.
    pub turn: Turn,
    /// The way the player faces.
    pub facing: Direction,
}

/// The score below which the course tournament ends a game.
pub const SCORE_FLOOR: i64 = -1000;

/// A game under the textbook's rules in progress.
#[derive(Clone, Debug)]
pub struct AimaSession {
    grid: GridSession,
    facing: Direction,
    /// True once the score dropped below [`SCORE_FLOOR`] with the game still going.
    floored: bool,
}

impl AimaSession {
    /// A game on the grid game `grid`, scored the textbook's way, the player facing east.
    pub fn new(grid: GridSession) -> AimaSession {
        AimaSession {
            grid: grid.rescored(Scoring::Aima),
            facing: Direction::East,
            floored: false,
        }
    }

    /// The grid game underneath.
    pub fn grid(&self) -> &GridSession {
        &self.grid
    }

    /// The way the player faces.
    pub fn facing(&self) -> Direction {
        self.facing
    }

    /// The score so far of a game still going: −1 an action, −10 for the arrow.
    fn running_score(&self) -> i64 {
        let game = self.grid.game();
        -(game.moves() as i64) - if game.fired() { 10 } else { 0 }
    }

    fn shown(&self, turn: Turn) -> AimaShown {
        AimaShown {
            turn,
            facing: self.facing,
        }
    }
}

/// The commands of the textbook's rules, for `help`.
pub const HELP: &str = "\
Commands (any case; one-letter forms in brackets):
  forward (F)        step one cell the way you face (a wall gives a bump)
  left (L)           turn left a quarter turn   (also: turnleft, turn left)
  right (R)          turn right a quarter turn  (also: turnright, turn right)
  grab (G)           pick up the gold if it is here
  shoot (S)          shoot your one arrow the way you face
  climb (C)          climb out; works only at the start, 0,0
  hint               ask the agent what it would do, and why
  load FILE          start a new game on the world in FILE
  save FILE          save this game's world to FILE
  help               show this list
  quit               leave the game
Every action costs 1, turns too; the arrow costs 10 more. North is row + 1, east column + 1.";

/// Reads a line in the textbook's actions; other commands are the grid's.
fn parse_headed(line: &str) -> Result<Command<HeadedAction>, String> {
    let words: Vec<String> = line
        .split_whitespace()
        .map(|w| w.to_ascii_lowercase())
        .collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let action = match words.as_slice() {
        ["forward" | "f"] => Some(HeadedAction::Forward),
        ["left" | "l" | "turnleft"] | ["turn", "left"] => Some(HeadedAction::TurnLeft),
        ["right" | "r" | "turnright"] | ["turn", "right"] => Some(HeadedAction::TurnRight),
        ["grab" | "g"] => Some(HeadedAction::Grab),
        ["shoot" | "s"] => Some(HeadedAction::Shoot),
        ["climb" | "c"] => Some(HeadedAction::Climb),
        _ => None,
    };
    if let Some(action) = action {
        return Ok(Command::Act(action));
    }
    if let Some(first) = words.first() {
        let known = [
            "forward",
            "f",
            "left",
            "l",
            "turnleft",
            "turn",
            "right",
            "r",
            "turnright",
            "grab",
            "g",
            "shoot",
            "s",
            "climb",
            "c",
        ];
        if known.contains(first) {
            return Err(format!(
                "'{}' takes no words after it here (type 'help' for the list)",
                line.trim()
            ));
        }
    }
    Ok(
        match super::command::parse_command(line).map_err(|e| e.to_string())? {
            super::Command::Act(a) => {
                return Err(format!(
                    "'{a}' is a compass move; under the textbook's rules you turn (left, right) \
                     and go forward (type 'help' for the list)"
                ))
            }
            super::Command::Help => Command::Help,
            super::Command::Hint => Command::Hint,
            super::Command::Quit => Command::Quit,
            super::Command::Load(f) => Command::Load(f),
            super::Command::Save(f) => Command::Save(f),
        },
    )
}

/// The textbook's rules' facts.
pub const AIMA_FACTS: RuleFacts = RuleFacts {
    title: "the textbook's (AIMA) Wumpus World",
    summary: "The textbook's (AIMA) Wumpus World: the grid with a heading; start at 0,0 facing \
              east; forward, turn left, turn right, grab, shoot (the way you face), climb; every \
              action -1, the arrow -10, +1000 out with the gold, -1000 for dying.",
    input: "heading",
    ..super::session::GRID_FACTS
};

impl Session for AimaSession {
    const RULES: RuleSet = RuleSet::Aima;
    const FACTS: &'static RuleFacts = &AIMA_FACTS;
    type Setup = GridSetup;
    type Action = HeadedAction;
    type Shown = AimaShown;

    fn setup(&self) -> GridSetup {
        GridSetup {
            scoring: Scoring::Aima,
            ..self.grid.setup()
        }
    }

    fn fixed(setup: &GridSetup) -> Fixed {
        setup.fixed()
    }

    fn deal(setup: &GridSetup, seed: u64) -> Result<AimaSession, GameError> {
        Ok(AimaSession::new(GridSession::deal(setup, seed)?))
    }

    fn briefing(&self) -> Briefing {
        self.grid.briefing()
    }

    fn start(&self) -> AimaShown {
        self.shown(self.grid.start())
    }

    fn act(&mut self, action: &HeadedAction) -> AimaShown {
        if self.ending().is_some() {
            return self.shown(Turn {
                percepts: Default::default(),
                messages: super::game::Messages::new(),
            });
        }
        let turn = match action {
            HeadedAction::Forward => self.grid.act(&Action::Move(self.facing)),
            HeadedAction::Shoot => self.grid.act(&Action::Fire(self.facing)),
            HeadedAction::Grab => self.grid.act(&Action::Grab),
            HeadedAction::Climb => self.grid.act(&Action::Climb),
            HeadedAction::TurnLeft => {
                self.facing = self.facing.left();
                self.grid.count_in_place(Message::TurnLeft)
            }
            HeadedAction::TurnRight => {
                self.facing = self.facing.right();
                self.grid.count_in_place(Message::TurnRight)
            }
        };
        if self.grid.ending().is_none() && self.running_score() < SCORE_FLOOR {
            self.floored = true;
        }
        self.shown(turn)
    }

    /// The grid's endings; a game whose score dropped below −1000 ends unfinished.
    fn ending(&self) -> Option<Ending> {
        self.grid
            .ending()
            .or(self.floored.then_some(Ending::Unfinished))
    }

    fn score(&self) -> Option<i64> {
        self.grid
            .score()
            .or(self.floored.then(|| self.running_score()))
    }

    fn score_so_far(&self) -> Option<i64> {
        // Past the score floor the session itself says the score.
        self.score().or_else(|| self.grid.score_so_far())
    }

    fn moves(&self) -> u32 {
        self.grid.moves()
    }

    fn shots(&self) -> u32 {
        self.grid.shots()
    }

    fn carries_gold(&self) -> Option<bool> {
        self.grid.carries_gold()
    }

    fn action_limit(&self) -> u32 {
        self.grid.action_limit()
    }

    fn winnable(&self) -> Option<bool> {
        self.grid.winnable()
    }

    /// The percepts in the textbook's order: stench, breeze, glitter, bump, scream.
    fn observation(&self, shown: &AimaShown) -> Observation {
        let mut o = self.grid.observation(&shown.turn);
        let order = |p: &Percept| match p {
            Percept::Stench => 0,
            Percept::Breeze => 1,
            Percept::Glitter => 2,
            Percept::Bump => 3,
            Percept::Scream => 4,
            _ => 5,
        };
        o.percepts.sort_by_key(order);
        o.facing = Some(shown.facing.name().to_string());
        o
    }

    fn refused(_shown: &AimaShown) -> bool {
        false
    }

    fn label(&self, place: Place) -> String {
        self.grid.label(place)
    }

    fn board(&self) -> Board {
        self.grid.board()
    }

    fn hidden(&self) -> Hidden {
        self.grid.hidden()
    }

    fn action_text(&self, action: &HeadedAction) -> String {
        action.words().to_string()
    }
}

impl Files for AimaSession {
    fn load(setup: &GridSetup, path: &Path, seed: u64) -> Result<AimaSession, GameError> {
        Ok(AimaSession::new(GridSession::load(setup, path, seed)?))
    }

    fn save(&self, path: &Path) -> Result<(), GameError> {
        self.grid.save(path)
    }

    fn new_file(setup: &GridSetup, seed: u64, shape: &MapShape) -> Result<NewFile, GameError> {
        GridSession::new_file(setup, seed, shape)
    }

    fn plays_file(text: &str) -> bool {
        GridSession::plays_file(text)
    }

    fn check_text(path: &Path, text: &str) -> Result<String, crate::files::FileError> {
        GridSession::check_text(path, text)
    }

    fn draw_file(
        path: &Path,
        hazards: Option<&Path>,
        seed: Option<u64>,
    ) -> Result<String, GameError> {
        GridSession::draw_file(path, hazards, seed)
    }
}

impl Words for AimaSession {
    fn parse_command(&self, line: &str) -> Result<Command<HeadedAction>, String> {
        parse_headed(line)
    }

    fn help(&self) -> &'static str {
        HELP
    }

    fn title(&self) -> String {
        let (rows, cols) = self.grid.game().world().size();
        format!("Wumpus World, the textbook's rules, {rows}x{cols}")
    }

    fn intro(&self) -> Vec<String> {
        let mut lines = self.grid.intro();
        lines.push(
            "You face east. Go forward, turn left or right, grab, shoot (the way you face) or \
             climb; every action costs 1, turns too; the arrow 10 more; +1000 for climbing out \
             with the gold, -1000 for dying."
                .to_string(),
        );
        lines
    }

    fn describe(&self, shown: &AimaShown) -> Vec<String> {
        let mut lines = self.grid.describe(&shown.turn);
        if self.ending() == Some(Ending::Unfinished) {
            lines.push("Your score dropped below -1000: the game is over.".to_string());
        } else if self.ending().is_none() {
            if let Some(last) = lines.last_mut() {
                if let Some(at) = last.strip_suffix('.') {
                    *last = format!("{at}, facing {}.", shown.facing);
                }
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{GridWorld, Outcome};
    use crate::topology::Topology;
    use std::sync::Arc;
    use HeadedAction::*;

    /// A 4x4 world: a pit at 0,2, the wumpus at 2,0, the gold at 1,1.
    fn example() -> AimaSession {
        let topo = Arc::new(Topology::grid(4, 4).unwrap());
        let world = GridWorld::new(topo, &[(0, 2)], (2, 0), (1, 1)).unwrap();
        AimaSession::new(GridSession::new(world, Scoring::Standard, 0.2))
    }

    fn at(s: &AimaSession) -> String {
        s.label(s.grid().game().player())
    }

    #[test]
    fn starts_at_the_corner_facing_east_and_turns_in_place() {
        let mut s = example();
        assert_eq!(s.start().facing, Direction::East);
        let shown = s.act(&TurnLeft);
        assert_eq!(shown.facing, Direction::North);
        assert_eq!(shown.turn.messages[..], [Message::TurnLeft]);
        assert_eq!(at(&s), "0,0");
        assert_eq!(s.act(&TurnRight).facing, Direction::East);
        assert_eq!(s.act(&TurnRight).facing, Direction::South);
        assert_eq!(s.act(&TurnRight).facing, Direction::West);
        assert_eq!(s.act(&TurnRight).facing, Direction::North);
        assert_eq!(s.moves(), 5, "every turn is an action");
    }

    #[test]
    fn forward_goes_the_way_faced_and_a_wall_bumps() {
        let mut s = example();
        let shown = s.act(&Forward);
        assert_eq!(at(&s), "0,1");
        assert!(shown.turn.percepts.breeze, "the pit at 0,2 is next door");
        s.act(&TurnRight); // south: the wall
        let bumped = s.act(&Forward);
        assert!(bumped.turn.percepts.bump);
        assert_eq!(at(&s), "0,1");
        assert_eq!(s.moves(), 3, "the bump costs its action");
        let o = s.observation(&bumped);
        assert_eq!(o.percepts, [Percept::Breeze, Percept::Bump]);
        assert_eq!(o.facing.as_deref(), Some("south"));
    }

    #[test]
    fn the_arrow_flies_the_way_faced() {
        // Facing east the arrow misses the wumpus at 2,0; facing north it kills it.
        let mut s = example();
        let miss = s.act(&Shoot);
        assert!(!miss.turn.percepts.scream);
        assert_eq!(s.shots(), 1);
        let mut s = example();
        s.act(&TurnLeft);
        let hit = s.act(&Shoot);
        assert!(hit.turn.percepts.scream);
        let o = s.observation(&hit);
        assert_eq!(o.percepts, [Percept::Scream]);
    }

    #[test]
    fn scoring_is_the_textbooks() {
        // Forward, turn left, forward (1,1: glitter), grab, turn left, forward, turn left,
        // forward (home), climb: 9 actions, +1000.
        let mut s = example();
        for a in [Forward, TurnLeft, Forward] {
            s.act(&a);
        }
        assert!(s.start().turn.percepts.glint);
        for a in [Grab, TurnLeft, Forward, TurnLeft, Forward, Climb] {
            s.act(&a);
        }
        assert_eq!(at(&s), "0,0");
        assert_eq!(s.grid().game().outcome(), Some(Outcome::Won));
        assert_eq!(s.ending(), Some(Ending::Won));
        assert_eq!(s.score(), Some(1000 - 9));
        // Dying: -1000, the actions, and the arrow.
        let mut s = example();
        for a in [Shoot, Forward, Forward] {
            s.act(&a);
        }
        assert_eq!(s.ending(), Some(Ending::Pit));
        assert_eq!(s.score(), Some(-1000 - 3 - 10));
        // Climbing out empty-handed at once: -1.
        let mut s = example();
        s.act(&Climb);
        assert_eq!(s.score(), Some(-1));
    }

    #[test]
    fn the_game_ends_when_the_score_drops_below_minus_1000() {
        let mut s = example();
        for _ in 0..1000 {
            s.act(&TurnLeft);
        }
        assert_eq!(s.ending(), None, "at -1000 the game goes on");
        s.act(&TurnLeft);
        assert_eq!(s.ending(), Some(Ending::Unfinished));
        assert_eq!(s.score(), Some(-1001));
        assert_eq!(
            s.act(&Forward).turn.messages[..],
            [],
            "nothing after the end"
        );
    }

    #[test]
    fn commands_are_the_textbooks_actions() {
        let s = example();
        assert_eq!(
            s.parse_command("Turn Left"),
            Ok(Command::Act(HeadedAction::TurnLeft))
        );
        assert_eq!(s.parse_command("f"), Ok(Command::Act(Forward)));
        assert_eq!(s.parse_command("S"), Ok(Command::Act(Shoot)));
        assert_eq!(s.parse_command("hint"), Ok(Command::Hint));
        assert!(s.parse_command("north").unwrap_err().contains("compass"));
        assert!(s.parse_command("forward 2").is_err());
        assert!(s.parse_command("jump").is_err());
    }

    #[test]
    fn compass_actions_are_carried_out_by_the_fewest_turns() {
        use Direction::*;
        assert_eq!(
            HeadedAction::carrying_out(Action::Move(East), East),
            [Forward]
        );
        assert_eq!(
            HeadedAction::carrying_out(Action::Move(North), East),
            [TurnLeft, Forward]
        );
        assert_eq!(
            HeadedAction::carrying_out(Action::Move(South), East),
            [TurnRight, Forward]
        );
        assert_eq!(
            HeadedAction::carrying_out(Action::Fire(West), East),
            [TurnLeft, TurnLeft, Shoot]
        );
        assert_eq!(HeadedAction::carrying_out(Action::Climb, West), [Climb]);
    }
}
