//! The bot protocol: how an external game host drives a player over lines of text, game after
//! game (`docs/bot-protocol.md`). Two rule sets speak it: the classic cave (this module) and
//! the `caves.dat` maze ([`maze`]).
//!
//! ```text
//! host: game 20                                        a new game with 20 rooms
//! host: status ROOM PIT BATS WUMPUS out R R R in R R   0-based rooms, warnings 0 or 1
//! bot:  move R            or   shoot R1 R2 ...
//! host: result moved | snatched | not_an_exit | missed | too_crooked
//! host: end won SCORE     or   end lost 0
//! ```
//!
//! A `status` follows every `result` while the game goes on; `end` replaces the result of the
//! action that ended the game. [`parse_host_line`] and [`parse_bot_line`] read the two sides'
//! lines into typed values, with errors that say what is wrong; [`BotSession`] plays the bot's
//! side with any [`BotPlayer`] (every [`ClassicAgent`] is one; [`maze::MazeBot`] is the
//! maze's), keeping the turns in order, and [`host_lines`] writes the host's side of a turn, so
//! the project's own simulator can drive a bot (the tests drive the `wumpus bot` binary so).

pub mod maze;

use super::agent::ClassicAgent;
use super::classic::{
    Action, ArrowPath, Ending, LossCause, MoveResult, ShotResult, Status, TurnResult,
    MAX_ARROW_ROOMS,
};
use super::map::MAX_ROOMS;
use crate::topology::Place;

/// A line from the host, in either rule set: `S` is what the player is shown, `R` an action's
/// result, `E` how a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line<S, R, E> {
    /// `game N` (`maze N`): a new game in a cave of `N` rooms (caves).
    Game(usize),
    /// `status ...`: what the player knows now; the bot answers with an action.
    Status(S),
    /// `result ...`: the result of the bot's last action, the game going on.
    Result(R),
    /// `end ...`: the game is over.
    End(E),
}

/// A line from the classic cave's host. The status's arrows and moves are not sent; they read
/// 0 here.
pub type HostLine = Line<Status, TurnResult, Ending>;

/// A line that breaks the protocol.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// The first word is not one the protocol knows.
    #[error("unknown line '{line}' (expected {expected})")]
    UnknownLine {
        /// The line.
        line: String,
        /// The first words the rule set's protocol knows.
        expected: &'static str,
    },
    /// The words after the first do not fit.
    #[error("malformed '{line}': {why}")]
    Malformed {
        /// The line.
        line: String,
        /// What is wrong.
        why: String,
    },
    /// A room number outside the cave.
    #[error("room {room} is not in a cave of {rooms} rooms (rooms are 0 to {})", rooms.saturating_sub(1))]
    NoSuchRoom {
        /// The room number.
        room: usize,
        /// The cave's size.
        rooms: usize,
    },
    /// A cave number outside the maze.
    #[error("cave {cave} is not in a maze of {caves} caves (caves are 0 to {})", caves.saturating_sub(1))]
    NoSuchCave {
        /// The cave number.
        cave: usize,
        /// The maze's size.
        caves: usize,
    },
    /// A result that cannot answer the action the bot took (`result killed` after a `move`).
    #[error("'{result}' does not answer '{action}'")]
    WrongResult {
        /// The result line.
        result: String,
        /// The bot's action.
        action: String,
    },
    /// A line that cannot come now (a status before any game, a result with no action).
    #[error("'{0}' comes out of turn")]
    OutOfTurn(String),
}

fn malformed(line: &str, why: impl Into<String>) -> ProtocolError {
    ProtocolError::Malformed {
        line: line.to_string(),
        why: why.into(),
    }
}

fn wrong_count(line: &str) -> ProtocolError {
    malformed(line, "wrong number of words")
}

fn number(line: &str, word: &str) -> Result<usize, ProtocolError> {
    word.parse()
        .map_err(|_| malformed(line, format!("'{word}' is not a number")))
}

fn flag(line: &str, word: &str) -> Result<bool, ProtocolError> {
    match word {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(malformed(line, format!("warning '{word}' is not 0 or 1"))),
    }
}

/// Reads one host line. Rooms are checked against `rooms` when a game is going on.
pub fn parse_host_line(line: &str, rooms: Option<usize>) -> Result<HostLine, ProtocolError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let room = |w: &str| -> Result<Place, ProtocolError> {
        let r = number(line, w)?;
        match rooms {
            Some(n) if r >= n => Err(ProtocolError::NoSuchRoom { room: r, rooms: n }),
            _ => Ok(Place::new(r)),
        }
    };
    match words.as_slice() {
        ["game", n] => {
            let n = number(line, n)?;
            if !(1..=MAX_ROOMS).contains(&n) {
                return Err(malformed(
                    line,
                    format!("a cave has 1 to {MAX_ROOMS} rooms, not {n}"),
                ));
            }
            Ok(HostLine::Game(n))
        }
        ["status", here, pit, bats, wumpus, rest @ ..] => {
            let (outs, ins) = match rest {
                ["out", tail @ ..] => {
                    let split = tail
                        .iter()
                        .position(|&w| w == "in")
                        .ok_or_else(|| malformed(line, "expected 'in' after the out-tunnels"))?;
                    (&tail[..split], &tail[split + 1..])
                }
                _ => return Err(malformed(line, "expected 'out' after the warnings")),
            };
            if outs.is_empty() {
                return Err(malformed(line, "a room has at least one out-tunnel"));
            }
            Ok(HostLine::Status(Status {
                room: room(here)?,
                outs: outs.iter().map(|w| room(w)).collect::<Result<_, _>>()?,
                ins: ins.iter().map(|w| room(w)).collect::<Result<_, _>>()?,
                pit: flag(line, pit)?,
                bats: flag(line, bats)?,
                wumpus: flag(line, wumpus)?,
                arrows: 0,
                moves: 0,
            }))
        }
        ["result", word] => Ok(HostLine::Result(match *word {
            "moved" => TurnResult::Move(MoveResult::Moved),
            "snatched" => TurnResult::Move(MoveResult::Snatched),
            "not_an_exit" => TurnResult::Move(MoveResult::NotAnExit),
            "missed" => TurnResult::Shot(ShotResult::Missed),
            "too_crooked" => TurnResult::Shot(ShotResult::TooCrooked),
            other => return Err(malformed(line, format!("unknown result '{other}'"))),
        })),
        ["end", "won", score] => Ok(HostLine::End(Ending::Won {
            score: number(line, score)? as u32,
        })),
        // The protocol does not say how a game was lost.
        ["end", "lost", _] => Ok(HostLine::End(Ending::Lost(LossCause::Wumpus))),
        [first, ..] if ["game", "status", "result", "end"].contains(first) => {
            Err(wrong_count(line))
        }
        _ => Err(ProtocolError::UnknownLine {
            line: line.trim().to_string(),
            expected: "game, status, result or end",
        }),
    }
}

/// The bot's line for `action`: `move R` or `shoot R1 R2 ...`, rooms 0-based.
pub fn bot_line(action: &Action) -> String {
    match action {
        Action::Move(r) => format!("move {}", r.index()),
        Action::Shoot(path) => {
            let rooms: Vec<String> = path.rooms().iter().map(|r| r.index().to_string()).collect();
            format!("shoot {}", rooms.join(" "))
        }
    }
}

/// Reads one bot line in a cave of `rooms` rooms.
pub fn parse_bot_line(line: &str, rooms: usize) -> Result<Action, ProtocolError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let room = |w: &str| -> Result<Place, ProtocolError> {
        let r = number(line, w)?;
        if r >= rooms {
            return Err(ProtocolError::NoSuchRoom { room: r, rooms });
        }
        Ok(Place::new(r))
    };
    match words.as_slice() {
        ["move", r] => Ok(Action::Move(room(r)?)),
        ["shoot", path @ ..] if (1..=MAX_ARROW_ROOMS).contains(&path.len()) => {
            let path: Vec<Place> = path.iter().map(|w| room(w)).collect::<Result<_, _>>()?;
            Ok(Action::Shoot(
                ArrowPath::new(path).map_err(|e| malformed(line, e.to_string()))?,
            ))
        }
        ["shoot", ..] => Err(malformed(
            line,
            format!("an arrow names 1 to {MAX_ARROW_ROOMS} rooms"),
        )),
        _ => Err(malformed(line, "expected 'move R' or 'shoot R1 R2 ...'")),
    }
}

/// The host's lines after a turn: `result WORD` then the new status while the game goes on,
/// or the `end` line.
pub fn host_lines(result: TurnResult, status: Option<&Status>) -> Vec<String> {
    match result.ending() {
        Some(ending) => vec![ending.protocol_line()],
        None => {
            let mut lines = vec![format!("result {}", result.protocol_line())];
            if let Some(s) = status {
                lines.push(s.protocol_line());
            }
            lines
        }
    }
}

/// A rule set's bot-side player: how its host lines read, and how it answers them. Every
/// [`ClassicAgent`] is one (the classic cave's lines); [`maze::MazeBot`] is the maze's.
pub trait BotPlayer {
    /// What a `status` line tells.
    type Status;
    /// What a `result` line tells.
    type Result;
    /// What an `end` line tells.
    type Ending;
    /// Reads one host line; room (cave) numbers are checked against `size` while a game of
    /// that size is going on.
    #[allow(clippy::type_complexity)]
    fn parse(
        line: &str,
        size: Option<usize>,
    ) -> Result<Line<Self::Status, Self::Result, Self::Ending>, ProtocolError>;
    /// The bot's line answering a status.
    fn answer(&mut self, status: &Self::Status) -> String;
    /// Takes in the result of the last answer; an error when it cannot answer that action.
    fn observe(&mut self, result: &Self::Result) -> Result<(), ProtocolError>;
}

impl<A: ClassicAgent> BotPlayer for A {
    type Status = Status;
    type Result = TurnResult;
    type Ending = Ending;

    fn parse(line: &str, size: Option<usize>) -> Result<HostLine, ProtocolError> {
        parse_host_line(line, size)
    }

    fn answer(&mut self, status: &Status) -> String {
        bot_line(&self.act(status))
    }

    fn observe(&mut self, result: &TurnResult) -> Result<(), ProtocolError> {
        ClassicAgent::observe(self, result);
        Ok(())
    }
}

/// The bot's side of the protocol, game after game, with a fresh player each game: it keeps
/// the turns in order (a status, the bot's answer, a result, the next status...) for any rule
/// set's [`BotPlayer`].
pub struct BotSession<P, F> {
    make_player: F,
    game: Option<(usize, P)>,
    awaiting_result: bool,
    games: u64,
}

impl<P: BotPlayer, E, F: FnMut(usize) -> Result<P, E>> BotSession<P, F> {
    /// A session that makes each game's player with `make_player(size)`.
    pub fn new(make_player: F) -> BotSession<P, F> {
        BotSession {
            make_player,
            game: None,
            awaiting_result: false,
            games: 0,
        }
    }

    /// Games begun so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Takes one host line; returns the bot's answer when one is due (after a status). Blank
    /// lines are ignored.
    pub fn line(&mut self, line: &str) -> Result<Option<String>, BotError<E>> {
        if line.trim().is_empty() {
            return Ok(None);
        }
        let size = self.game.as_ref().map(|(n, _)| *n);
        let out_of_turn = || BotError::Protocol(ProtocolError::OutOfTurn(line.trim().to_string()));
        match P::parse(line, size)? {
            Line::Game(n) => {
                let player = (self.make_player)(n).map_err(BotError::Agent)?;
                self.game = Some((n, player));
                self.awaiting_result = false;
                self.games += 1;
                Ok(None)
            }
            Line::Status(status) => match self.game.as_mut() {
                Some((_, player)) if !self.awaiting_result => {
                    let answer = player.answer(&status);
                    self.awaiting_result = true;
                    Ok(Some(answer))
                }
                _ => Err(out_of_turn()),
            },
            Line::Result(result) => match self.game.as_mut() {
                Some((_, player)) if self.awaiting_result => {
                    player.observe(&result)?;
                    self.awaiting_result = false;
                    Ok(None)
                }
                _ => Err(out_of_turn()),
            },
            Line::End(_) => {
                if self.game.take().is_none() {
                    return Err(out_of_turn());
                }
                self.awaiting_result = false;
                Ok(None)
            }
        }
    }
}

/// Why a bot session stopped.
#[derive(Debug, thiserror::Error)]
pub enum BotError<E> {
    /// The host broke the protocol.
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// The agent for a new game could not be made.
    #[error("cannot play this game: {0}")]
    Agent(E),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::agent::RandomAgent;
    use crate::cave::classic::{ClassicGame, Variant};
    use crate::cave::map::parse_map;
    use std::sync::Arc;

    #[test]
    fn host_lines_round_trip() {
        let status = Status {
            room: Place::new(4),
            outs: vec![Place::new(3), Place::new(5), Place::new(13)],
            ins: vec![Place::new(3), Place::new(13)],
            pit: false,
            bats: true,
            wumpus: false,
            arrows: 0,
            moves: 0,
        };
        let line = status.protocol_line();
        assert_eq!(line, "status 4 0 1 0 out 3 5 13 in 3 13");
        assert_eq!(
            parse_host_line(&line, Some(20)),
            Ok(HostLine::Status(status))
        );
        assert_eq!(parse_host_line("game 20", None), Ok(HostLine::Game(20)));
        assert_eq!(
            parse_host_line("result too_crooked", Some(20)),
            Ok(HostLine::Result(TurnResult::Shot(ShotResult::TooCrooked)))
        );
        assert_eq!(
            parse_host_line("end won 97", Some(20)),
            Ok(HostLine::End(Ending::Won { score: 97 }))
        );
        assert!(matches!(
            parse_host_line("end lost 0", Some(20)),
            Ok(HostLine::End(Ending::Lost(_)))
        ));
    }

    #[test]
    fn bad_lines_say_why() {
        let e = parse_host_line("status 4 0 1 0 out 3 5 13 in 3 25", Some(20)).unwrap_err();
        assert!(e.to_string().contains("room 25"), "{e}");
        let e = parse_host_line("status 4 0 2 0 out 3 in 3", Some(20)).unwrap_err();
        assert!(e.to_string().contains("not 0 or 1"), "{e}");
        let e = parse_host_line("status 4 0 1 0 3 5", Some(20)).unwrap_err();
        assert!(e.to_string().contains("'out'"), "{e}");
        let e = parse_host_line("game 0", None).unwrap_err();
        assert!(e.to_string().contains("1 to 100000 rooms"), "{e}");
        let e = parse_host_line("game 18446744073709551615", None).unwrap_err();
        assert!(e.to_string().contains("1 to 100000 rooms"), "{e}");
        let e = parse_host_line("hello", None).unwrap_err();
        assert!(matches!(e, ProtocolError::UnknownLine { .. }));
        let e = parse_host_line("result exploded", Some(20)).unwrap_err();
        assert!(e.to_string().contains("unknown result"), "{e}");
        assert!(parse_bot_line("shoot 1 2 3 4 5 6", 20).is_err());
        assert!(parse_bot_line("move 20", 20).is_err());
        assert_eq!(
            parse_bot_line("shoot 1 2", 20).map(|a| bot_line(&a)),
            Ok("shoot 1 2".to_string())
        );
    }

    #[test]
    fn a_session_plays_games_through_lines() {
        let map = Arc::new(parse_map(include_str!("../../worlds/cave-standard.txt")).unwrap());
        let mut bot = BotSession::new(|_| Ok::<_, ()>(RandomAgent::for_game(3)));
        for seed in 0..5 {
            let mut game = ClassicGame::new(map.clone(), Variant::Event, seed).unwrap();
            assert_eq!(bot.line("game 20").unwrap(), None);
            let mut lines = vec![game.status().protocol_line()];
            loop {
                let mut reply = None;
                for l in &lines {
                    if let Some(r) = bot.line(l).unwrap() {
                        reply = Some(r);
                    }
                }
                let Some(reply) = reply else { break };
                let action = parse_bot_line(&reply, 20).unwrap();
                let turn = game.act(&action);
                let status = game.status();
                lines = host_lines(turn.result, Some(&status));
                if turn.result.ending().is_some() {
                    assert_eq!(bot.line(&lines[0]).unwrap(), None);
                    break;
                }
            }
        }
        assert_eq!(bot.games(), 5);
        assert!(matches!(
            bot.line("result moved"),
            Err(BotError::Protocol(ProtocolError::OutOfTurn(_)))
        ));
    }
}
