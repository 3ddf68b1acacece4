//! The bot protocol of the classic cave (`docs/bot-protocol.md`):
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
//! lines into typed values; [`host_lines`] writes the host's side of a turn, so the project's
//! own simulator can drive a bot (the tests drive the `wumpus bot` binary so); [`ClassicBot`]
//! plays the bot's side with any classic-cave agent.

use super::{
    flag, game_size, malformed, number, wrong_count, AgentBot, BotRules, Line, ProtocolError,
};
use crate::agent::Agent;
use crate::cave::classic::{
    Action, ArrowPath, Ending, LossCause, MoveResult, ShotResult, Status, TurnResult,
    MAX_ARROW_ROOMS,
};
use crate::cave::{CaveShown, ClassicSession};
use crate::topology::Place;

/// A line from the classic cave's host. The status's arrows and moves are not sent; they read
/// 0 here.
pub type HostLine = Line<Status, TurnResult, Ending>;

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
        ["game", n] => Ok(HostLine::Game(game_size(line, n, "a cave", "rooms")?)),
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

/// The bot's side of a classic cave game, with any classic-cave agent.
pub type ClassicBot = AgentBot<ClassicSession>;

impl ClassicBot {
    /// A bot playing with `agent`.
    pub fn new(agent: Box<dyn Agent<ClassicSession>>) -> ClassicBot {
        AgentBot::with_context(agent, ())
    }
}

impl BotRules for ClassicSession {
    type Status = Status;
    type Result = TurnResult;
    type Ending = Ending;
    type Context = ();

    fn parse_host(line: &str, size: Option<usize>) -> Result<HostLine, ProtocolError> {
        parse_host_line(line, size)
    }

    fn shown(_: &(), result: Option<TurnResult>, status: &Status) -> CaveShown {
        CaveShown {
            result,
            events: Vec::new(),
            status: status.clone(),
        }
    }

    fn bot_line(action: &Action) -> String {
        bot_line(action)
    }

    fn check_result(_: Option<&Action>, _: TurnResult) -> Result<(), ProtocolError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::random::RandomAgent;
    use crate::bot::{BotError, BotSession};
    use crate::cave::classic::{ClassicGame, Variant};
    use crate::cave::map::parse_map;
    use crate::cave::map::MAX_ROOMS;
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
        assert!(
            e.to_string().contains(&format!("1 to {MAX_ROOMS} rooms")),
            "{e}"
        );
        let e = parse_host_line("game 18446744073709551615", None).unwrap_err();
        assert!(
            e.to_string().contains(&format!("1 to {MAX_ROOMS} rooms")),
            "{e}"
        );
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
        let map =
            Arc::new(parse_map(include_str!("../../../../worlds/cave-standard.txt")).unwrap());
        let mut bot = BotSession::new(|_| {
            Ok::<_, ()>(ClassicBot::new(Box::new(RandomAgent::new(
                crate::rng::Dice::for_game(3),
            ))))
        });
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
