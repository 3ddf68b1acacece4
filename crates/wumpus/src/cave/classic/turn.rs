//! What the classic cave's game and its player say to each other: the [`Variant`] of the
//! rules, the [`Action`]s a player takes (an [`ArrowPath`] for a shot), the [`Status`] it is
//! told between turns, and the [`Turn`] that answers each action: a typed [`TurnResult`] and
//! the [`Event`]s in words, and the [`Ending`] with its score.
//!
//! Plain values with their protocol lines and words: nothing here holds the hidden layout or
//! draws a random number, so a player may hold any of them.

use crate::topology::Place;
use serde::Serialize;
use std::fmt;

/// A room of the cave (0-based; the map turns it into the number a player sees).
pub type Room = Place;

/// The hunter's 100th survived move ends the game.
pub const MOVE_LIMIT: u32 = 100;

/// The most rooms an arrow can be told to fly through.
pub const MAX_ARROW_ROOMS: usize = 5;

/// Which rules the classic cave is played by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// The event host's rules (seed 002): walking into the wumpus is death.
    #[default]
    Event,
    /// Gregory Yob's 1973 rules where they differ: walking into the wumpus wakes it; it stays
    /// and eats the hunter with chance 1/4, otherwise it moves away.
    Yob,
}

impl Variant {
    /// The variant's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Event => "event",
            Variant::Yob => "yob",
        }
    }
}

/// The rooms an arrow is told to fly through: 1 to [`MAX_ARROW_ROOMS`] of them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArrowPath(Vec<Room>);

/// Why a list of rooms is no arrow path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArrowPathError {
    /// No rooms.
    #[error("an arrow must be told at least one room")]
    Empty,
    /// More than five rooms.
    #[error("an arrow flies through at most {max} rooms, not {0}", max = MAX_ARROW_ROOMS)]
    TooLong(usize),
}

impl ArrowPath {
    /// A path of 1 to 5 rooms.
    pub fn new(rooms: Vec<Room>) -> Result<ArrowPath, ArrowPathError> {
        match rooms.len() {
            0 => Err(ArrowPathError::Empty),
            n if n > MAX_ARROW_ROOMS => Err(ArrowPathError::TooLong(n)),
            _ => Ok(ArrowPath(rooms)),
        }
    }

    /// A one-room path.
    pub fn one(room: Room) -> ArrowPath {
        ArrowPath(vec![room])
    }

    /// The rooms, in order.
    pub fn rooms(&self) -> &[Room] {
        &self.0
    }
}

/// One action of the hunter.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Walk through the tunnel to this room.
    Move(Room),
    /// Shoot a crooked arrow along this path.
    Shoot(ArrowPath),
}

/// What the hunter knows at the start of a turn: everything an agent is given.
///
/// It maps one to one onto the bot protocol line
/// `status ROOM PIT BATS WUMPUS out R R R in R R` (see [`Status::protocol_line`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Status {
    /// The hunter's room.
    pub room: Room,
    /// Where tunnels 1, 2 and 3 lead: the only rooms the hunter can walk to.
    pub outs: Vec<Room>,
    /// The rooms with a tunnel into this one, one entry a tunnel (by source room, then
    /// tunnel); an arrow can fly to these too.
    pub ins: Vec<Room>,
    /// A pit is in a room joined to this one (either way): "I feel a draft".
    pub pit: bool,
    /// Bats are in a room joined to this one: "I hear bats".
    pub bats: bool,
    /// The wumpus is within the map's warning distance: "I smell a wumpus".
    pub wumpus: bool,
    /// Arrows left.
    pub arrows: u8,
    /// Moves made so far (a move with a bat flight counts once; shots are free).
    pub moves: u32,
}

impl Status {
    /// The status as a bot protocol line, rooms 0-based as the event host gives them to bots,
    /// warnings as `0` or `1`: `status 4 0 1 0 out 3 5 13 in 3 5 13`.
    pub fn protocol_line(&self) -> String {
        let rooms = |list: &[Room]| {
            list.iter()
                .map(|r| r.index().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "status {} {} {} {} out {} in {}",
            self.room.index(),
            u8::from(self.pit),
            u8::from(self.bats),
            u8::from(self.wumpus),
            rooms(&self.outs),
            rooms(&self.ins)
        )
    }
}

/// How a lost game was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LossCause {
    /// Fell into a pit.
    Pit,
    /// Eaten by the wumpus.
    Wumpus,
    /// Hit by the hunter's own arrow.
    OwnArrow,
    /// The fifth arrow missed.
    OutOfArrows,
    /// The 100th move.
    Exhaustion,
}

impl LossCause {
    /// Every cause, in report order.
    pub const ALL: [LossCause; 5] = [
        LossCause::Pit,
        LossCause::Wumpus,
        LossCause::OwnArrow,
        LossCause::OutOfArrows,
        LossCause::Exhaustion,
    ];

    /// The cause's name in reports: `pit`, `wumpus`, `own_arrow`, `out_of_arrows`,
    /// `exhaustion`.
    pub fn name(self) -> &'static str {
        match self {
            LossCause::Pit => "pit",
            LossCause::Wumpus => "wumpus",
            LossCause::OwnArrow => "own_arrow",
            LossCause::OutOfArrows => "out_of_arrows",
            LossCause::Exhaustion => "exhaustion",
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// The wumpus is dead.
    Won {
        /// `100 − moves`.
        score: u32,
    },
    /// The hunter lost; the score is 0.
    Lost(LossCause),
}

impl Ending {
    /// The final score.
    pub fn score(self) -> u32 {
        match self {
            Ending::Won { score } => score,
            Ending::Lost(_) => 0,
        }
    }

    /// The protocol's end line: `end won SCORE` or `end lost 0`.
    pub fn protocol_line(self) -> String {
        match self {
            Ending::Won { score } => format!("end won {score}"),
            Ending::Lost(_) => "end lost 0".to_string(),
        }
    }
}

/// The result of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveResult {
    /// The hunter walked into the room.
    Moved,
    /// Bats carried the hunter to another room (and the hunter survived the landing).
    Snatched,
    /// No out-tunnel leads there: refused, no move counted.
    NotAnExit,
    /// The game is over.
    Ended(Ending),
}

/// The result of a shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShotResult {
    /// The arrow missed; the wumpus woke; an arrow is gone.
    Missed,
    /// The path doubles straight back: refused, nothing spent.
    TooCrooked,
    /// The game is over.
    Ended(Ending),
}

/// The result of one action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TurnResult {
    /// A move's result.
    Move(MoveResult),
    /// A shot's result.
    Shot(ShotResult),
}

impl TurnResult {
    /// How the game ended, if this action ended it.
    pub fn ending(self) -> Option<Ending> {
        match self {
            TurnResult::Move(MoveResult::Ended(e)) | TurnResult::Shot(ShotResult::Ended(e)) => {
                Some(e)
            }
            _ => None,
        }
    }

    /// The protocol's word for the result (`moved`, `snatched`, `not_an_exit`, `missed`,
    /// `too_crooked`) or its end line (`end won 97`, `end lost 0`).
    pub fn protocol_line(self) -> String {
        match self {
            TurnResult::Move(MoveResult::Moved) => "moved".into(),
            TurnResult::Move(MoveResult::Snatched) => "snatched".into(),
            TurnResult::Move(MoveResult::NotAnExit) => "not_an_exit".into(),
            TurnResult::Shot(ShotResult::Missed) => "missed".into(),
            TurnResult::Shot(ShotResult::TooCrooked) => "too_crooked".into(),
            TurnResult::Move(MoveResult::Ended(e)) | TurnResult::Shot(ShotResult::Ended(e)) => {
                e.protocol_line()
            }
        }
    }
}

/// Something the hunter is told happened, in the order it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// The room asked for is not through an out-tunnel.
    NotAnExit,
    /// Bats carried the hunter off (once a flight).
    Snatched,
    /// Yob's rules: the hunter bumped into the wumpus and woke it.
    BumpedWumpus,
    /// The hunter fell into a pit.
    FellInPit,
    /// The wumpus ate the hunter who walked (or was dropped) into its room.
    Eaten,
    /// The arrow path doubles straight back.
    TooCrooked,
    /// The arrow missed and woke the wumpus.
    Missed,
    /// The arrow killed the wumpus.
    KilledWumpus,
    /// The arrow flew into the hunter's room.
    ShotSelf,
    /// The woken wumpus walked into the hunter's room.
    EatenAfterMiss,
    /// The fifth arrow missed.
    OutOfArrows,
    /// The 100th move.
    Exhausted,
}

impl Event {
    /// The sentence a human player reads (the event host's wording where it has one).
    pub fn text(self) -> &'static str {
        match self {
            Event::NotAnExit => {
                "BONK! That's not a possible move: no tunnel leads there from here."
            }
            Event::Snatched => "ZAP -- Super Bat snatch! Elsewhereville for you!",
            Event::BumpedWumpus => "... OOPS! Bumped a wumpus!",
            Event::FellInPit => "YYYIIIIEEEE . . . Fell in a pit.",
            Event::Eaten => "TSK TSK TSK - Wumpus got you!",
            Event::TooCrooked => "Arrows aren't that crooked - try another room.",
            Event::Missed => {
                "SWISH! Missed. The wumpus didn't like that. He may have moved to a quieter room."
            }
            Event::KilledWumpus => "AHA! You got the wumpus!",
            Event::ShotSelf => "LOOK OUT! Thunk! You shot yourself.",
            Event::EatenAfterMiss => "CLANG! A groggy wumpus just walked in and ate you!",
            Event::OutOfArrows => {
                "WHIZZ! Oh no! Out of arrows. At night the ice weasels come for you..."
            }
            Event::Exhausted => "OOF! You collapse from exhaustion.",
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// The answer to one action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The typed result.
    pub result: TurnResult,
    /// What the hunter is told, in order.
    pub events: Vec<Event>,
}
