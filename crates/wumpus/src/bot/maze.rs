//! The bot protocol of the `caves.dat` maze (`docs/bot-protocol.md`, "The maze").
//!
//! ```text
//! host: maze 20                                         a new game on the 20-cave map
//! host: status CAVE SMELL HEAR FEEL tunnels T1 T2 T3    warnings 0 or 1; Ti a cave or ?
//! bot:  move T            or   toss T                   a tunnel, 1 to 3
//! host: result moved | carried | no_such_tunnel | missed | killed
//! host: end won           or   end lost pit | wumpus | out_of_grenades
//! ```
//!
//! A status carries exactly what the game shows the player ([`MazeView`]) with cave numbers
//! for names: a name is sent as the number of the first cave in the map that bears it (the
//! five Lost Caverns share a name, so they are all sent as the first of them), and a tunnel's
//! cave is `?` until the player has been there. The bot is given the map, so it reads each
//! number back as that cave's name and nothing more: for caves that share a name, any of their
//! numbers means the same. [`MazeStatus::of_view`] and [`MazeStatus::view`] are the two
//! directions; [`parse_host_line`], [`parse_bot_line`] and [`host_lines`] mirror the classic
//! cave's; [`MazeBot`] is the bot's side for any maze agent in a
//! [`BotSession`](super::BotSession).

use super::{
    flag, game_size, malformed, number, wrong_count, AgentBot, BotRules, Line, ProtocolError,
};
use crate::agent::Agent;
use crate::cave::map::{CaveMap, TUNNELS};
use crate::cave::maze::{MazeAction, MazeEnding, MazeLoss, MazeResult, MazeView};
use crate::cave::MazeSession;
use crate::cave::MazeShown;
use crate::topology::Place;
use std::sync::Arc;

/// What a maze `status` line tells: the player's cave and each tunnel's cave by number (a
/// number standing for the cave's name), and the three warnings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MazeStatus {
    /// The player's cave.
    pub cave: Place,
    /// For tunnels 1, 2, 3: the cave it leads to if the player has been there.
    pub tunnels: [Option<Place>; TUNNELS],
    /// A wumpus is next to the player.
    pub smell: bool,
    /// Bats are next to the player.
    pub hear: bool,
    /// The pit is next to the player.
    pub feel: bool,
}

/// The number a name is sent as: the first cave of `map` that bears it.
fn name_number(map: &CaveMap, name: &str) -> Option<Place> {
    map.rooms().find(|&c| map.name(c) == name)
}

impl MazeStatus {
    /// The status the host sends for `view` on `map`: each name as the first cave bearing it.
    /// `None` when a name in the view is not on the map, or the view does not have one name
    /// for each tunnel (neither happens with the views of a [`MazeGame`](crate::cave::MazeGame)
    /// on that map).
    pub fn of_view(map: &CaveMap, view: &MazeView) -> Option<MazeStatus> {
        if view.tunnels.len() != TUNNELS {
            return None;
        }
        let mut tunnels = [None; TUNNELS];
        for (t, shown) in tunnels.iter_mut().zip(&view.tunnels) {
            if let Some(name) = shown {
                *t = Some(name_number(map, name)?);
            }
        }
        Some(MazeStatus {
            cave: name_number(map, &view.name)?,
            tunnels,
            smell: view.smell,
            hear: view.hear,
            feel: view.feel,
        })
    }

    /// The view the status stands for, the numbers read as the names of `map`'s caves. The
    /// caves must be on the map (as [`parse_host_line`] checks).
    pub fn view(&self, map: &CaveMap) -> MazeView {
        MazeView {
            name: map.name(self.cave),
            tunnels: self
                .tunnels
                .iter()
                .map(|t| t.map(|c| map.name(c)))
                .collect(),
            smell: self.smell,
            hear: self.hear,
            feel: self.feel,
        }
    }

    /// The status as a protocol line: `status 3 0 1 0 tunnels 2 ? 7`.
    pub fn protocol_line(&self) -> String {
        let bit = |b: bool| if b { "1" } else { "0" };
        let tunnels: Vec<String> = self
            .tunnels
            .iter()
            .map(|t| t.map_or("?".to_string(), |c| c.index().to_string()))
            .collect();
        format!(
            "status {} {} {} {} tunnels {}",
            self.cave.index(),
            bit(self.smell),
            bit(self.hear),
            bit(self.feel),
            tunnels.join(" ")
        )
    }
}

/// A line from the maze's host.
pub type HostLine = Line<MazeStatus, MazeResult, MazeEnding>;

/// The `result` word of a result that does not end the game.
fn result_word(result: MazeResult) -> Option<&'static str> {
    Some(match result {
        MazeResult::Moved => "moved",
        MazeResult::Carried => "carried",
        MazeResult::NoSuchTunnel => "no_such_tunnel",
        MazeResult::Missed => "missed",
        MazeResult::Killed => "killed",
        MazeResult::Ended(_) => return None,
    })
}

/// The `end` line of `ending`.
pub fn end_line(ending: MazeEnding) -> String {
    match ending {
        MazeEnding::Won => "end won".to_string(),
        MazeEnding::Lost(MazeLoss::Pit) => "end lost pit".to_string(),
        MazeEnding::Lost(MazeLoss::Wumpus) => "end lost wumpus".to_string(),
        MazeEnding::Lost(MazeLoss::OutOfGrenades) => "end lost out_of_grenades".to_string(),
    }
}

/// Reads one maze host line. Cave numbers are checked against `caves` when a game is going on.
pub fn parse_host_line(line: &str, caves: Option<usize>) -> Result<HostLine, ProtocolError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let cave = |w: &str| -> Result<Place, ProtocolError> {
        let c = number(line, w)?;
        match caves {
            Some(n) if c >= n => Err(ProtocolError::NoSuchCave { cave: c, caves: n }),
            _ => Ok(Place::new(c)),
        }
    };
    let tunnel = |w: &str| -> Result<Option<Place>, ProtocolError> {
        match w {
            "?" => Ok(None),
            _ => cave(w).map(Some),
        }
    };
    match words.as_slice() {
        ["maze", n] => Ok(Line::Game(game_size(line, n, "a maze", "caves")?)),
        ["status", here, smell, hear, feel, "tunnels", t1, t2, t3] => {
            Ok(Line::Status(MazeStatus {
                cave: cave(here)?,
                smell: flag(line, smell)?,
                hear: flag(line, hear)?,
                feel: flag(line, feel)?,
                tunnels: [tunnel(t1)?, tunnel(t2)?, tunnel(t3)?],
            }))
        }
        ["status", _, _, _, _, "tunnels", ..] => Err(malformed(
            line,
            format!("expected {TUNNELS} tunnels, each a cave number or ?"),
        )),
        ["status", _, _, _, _, ..] => Err(malformed(line, "expected 'tunnels' after the warnings")),
        ["result", word] => Ok(Line::Result(match *word {
            "moved" => MazeResult::Moved,
            "carried" => MazeResult::Carried,
            "no_such_tunnel" => MazeResult::NoSuchTunnel,
            "missed" => MazeResult::Missed,
            "killed" => MazeResult::Killed,
            other => return Err(malformed(line, format!("unknown result '{other}'"))),
        })),
        ["end", "won"] => Ok(Line::End(MazeEnding::Won)),
        ["end", "lost", cause] => Ok(Line::End(MazeEnding::Lost(match *cause {
            "pit" => MazeLoss::Pit,
            "wumpus" => MazeLoss::Wumpus,
            "out_of_grenades" => MazeLoss::OutOfGrenades,
            other => {
                return Err(malformed(
                    line,
                    format!("unknown loss '{other}' (pit, wumpus or out_of_grenades)"),
                ))
            }
        }))),
        ["end", other, ..] if !["won", "lost"].contains(other) => Err(malformed(
            line,
            format!("expected 'end won' or 'end lost CAUSE', not '{other}'"),
        )),
        [first, ..] if ["maze", "status", "result", "end"].contains(first) => {
            Err(wrong_count(line))
        }
        _ => Err(ProtocolError::UnknownLine {
            line: line.trim().to_string(),
            expected: "maze, status, result or end",
        }),
    }
}

/// The bot's line for `action`: `move T` or `toss T`.
pub fn bot_line(action: MazeAction) -> String {
    match action {
        MazeAction::Move(t) => format!("move {t}"),
        MazeAction::Toss(t) => format!("toss {t}"),
    }
}

/// Reads one maze bot line.
pub fn parse_bot_line(line: &str) -> Result<MazeAction, ProtocolError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let tunnel = |w: &str| -> Result<usize, ProtocolError> {
        match number(line, w)? {
            t @ 1..=TUNNELS => Ok(t),
            t => Err(malformed(line, format!("tunnel {t} is not 1, 2 or 3"))),
        }
    };
    match words.as_slice() {
        ["move", t] => Ok(MazeAction::Move(tunnel(t)?)),
        ["toss", t] => Ok(MazeAction::Toss(tunnel(t)?)),
        _ => Err(malformed(line, "expected 'move T' or 'toss T'")),
    }
}

/// The host's lines after a turn: `result WORD` then the status of `view` while the game goes
/// on, or the `end` line.
pub fn host_lines(map: &CaveMap, result: MazeResult, view: &MazeView) -> Vec<String> {
    match result_word(result) {
        None => match result {
            MazeResult::Ended(e) => vec![end_line(e)],
            _ => unreachable!("only an ending has no result word"),
        },
        Some(word) => {
            let mut lines = vec![format!("result {word}")];
            lines.extend(MazeStatus::of_view(map, view).map(|s| s.protocol_line()));
            lines
        }
    }
}

/// The bot's side of a maze game, with any maze agent: it reads statuses as views of its map
/// and checks each result against its last action.
pub type MazeBot = AgentBot<MazeSession>;

impl MazeBot {
    /// A bot for a `maze caves` game on `map`, playing with `agent`; refused (saying why)
    /// when the game's cave count is not the map's.
    pub fn new(
        map: Arc<CaveMap>,
        caves: usize,
        agent: Box<dyn Agent<MazeSession>>,
    ) -> Result<MazeBot, String> {
        if map.len() != caves {
            return Err(format!("the map has {} caves, the game {caves}", map.len()));
        }
        Ok(AgentBot::with_context(agent, map))
    }
}

impl BotRules for MazeSession {
    type Status = MazeStatus;
    type Result = MazeResult;
    type Ending = MazeEnding;
    type Context = Arc<CaveMap>;

    fn parse_host(line: &str, size: Option<usize>) -> Result<HostLine, ProtocolError> {
        parse_host_line(line, size)
    }

    fn shown(map: &Arc<CaveMap>, result: Option<MazeResult>, status: &MazeStatus) -> MazeShown {
        MazeShown {
            result,
            events: Vec::new(),
            view: status.view(map),
        }
    }

    fn bot_line(action: &MazeAction) -> String {
        bot_line(*action)
    }

    fn check_result(last: Option<&MazeAction>, result: MazeResult) -> Result<(), ProtocolError> {
        let fits = matches!(
            (last, result),
            (Some(_), MazeResult::NoSuchTunnel)
                | (
                    Some(MazeAction::Move(_)),
                    MazeResult::Moved | MazeResult::Carried
                )
                | (
                    Some(MazeAction::Toss(_)),
                    MazeResult::Missed | MazeResult::Killed
                )
        );
        if fits {
            Ok(())
        } else {
            Err(ProtocolError::WrongResult {
                result: format!("result {}", result_word(result).unwrap_or("?")),
                action: last.map_or("nothing".to_string(), |a| bot_line(*a)),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{BotError, BotSession};
    use super::*;
    use crate::agent::{AgentError, Conclusion, Decision, Knowledge, Reason, Rule};
    use crate::cave::map::parse_map;
    use crate::cave::MazeGame;

    fn caves() -> Arc<CaveMap> {
        Arc::new(parse_map(include_str!("../../../../worlds/caves.dat")).unwrap())
    }

    /// A grenade through tunnel 1, always (so every game ends: grenades run out).
    struct First;

    impl Agent<MazeSession> for First {
        fn observe(
            &mut self,
            _: Option<&MazeAction>,
            _: &MazeShown,
        ) -> Result<Vec<Conclusion>, AgentError> {
            Ok(Vec::new())
        }
        fn decide(&mut self) -> Decision<MazeAction> {
            Decision {
                action: MazeAction::Toss(1),
                reason: Reason {
                    rule: Rule::BestShot,
                    target: None,
                    steps: 0,
                    text: String::new(),
                },
                choices: Vec::new(),
                depth: None,
            }
        }
        fn knowledge(&mut self) -> Knowledge {
            Knowledge::default()
        }
    }

    #[test]
    fn statuses_carry_the_view_exactly() {
        let map = caves();
        for seed in 0..200 {
            let mut game = MazeGame::new(map.clone(), seed).unwrap();
            for t in [2, 3, 3, 1, 2, 1, 3] {
                let view = game.view();
                let status = MazeStatus::of_view(&map, &view).unwrap();
                let line = status.protocol_line();
                assert_eq!(
                    parse_host_line(&line, Some(20)),
                    Ok(Line::Status(status.clone()))
                );
                assert_eq!(status.view(&map), view, "{line}");
                if game.act(MazeAction::Move(t)).result != MazeResult::Moved {
                    break;
                }
            }
        }
        // The Lost Caverns are all sent as cave 15, and any of their numbers reads the same.
        let lost = parse_host_line("status 17 1 0 0 tunnels ? 16 ?", Some(20)).unwrap();
        let Line::Status(s) = lost else { panic!() };
        let view = s.view(&map);
        assert_eq!(
            MazeStatus::of_view(&map, &view).unwrap().protocol_line(),
            "status 15 1 0 0 tunnels ? 15 ?"
        );
    }

    #[test]
    fn lines_read_and_say_why_not() {
        assert_eq!(parse_host_line("maze 20", None), Ok(Line::Game(20)));
        assert_eq!(
            parse_host_line("end won", Some(20)),
            Ok(Line::End(MazeEnding::Won))
        );
        assert_eq!(
            parse_host_line("end lost out_of_grenades", Some(20)),
            Ok(Line::End(MazeEnding::Lost(MazeLoss::OutOfGrenades)))
        );
        assert_eq!(
            parse_host_line("result no_such_tunnel", Some(20)),
            Ok(Line::Result(MazeResult::NoSuchTunnel))
        );
        for (line, says) in [
            (
                "status 3 0 0 0 tunnels 1 2 20",
                "cave 20 is not in a maze of 20 caves",
            ),
            ("status 3 0 2 0 tunnels 1 2 ?", "not 0 or 1"),
            ("status 3 0 0 0 tunnels 1 2", "expected 3 tunnels"),
            ("status 3 0 0 0 out 1 2 3", "'tunnels'"),
            ("status 3 0 0", "wrong number of words"),
            ("result moved on", "wrong number of words"),
            ("result snatched", "unknown result"),
            ("end lost 0", "unknown loss"),
            ("end won 97", "wrong number of words"),
            ("end drawn", "expected 'end won'"),
            ("maze 0", "1 to 30 caves"),
            ("game 20", "expected maze, status, result or end"),
        ] {
            let e = parse_host_line(line, Some(20)).unwrap_err();
            assert!(e.to_string().contains(says), "{line}: {e}");
        }
        assert_eq!(parse_bot_line("toss 3"), Ok(MazeAction::Toss(3)));
        assert!(parse_bot_line("move 4").is_err());
        assert!(parse_bot_line("move 0").is_err());
        assert!(parse_bot_line("shoot 1").is_err());
    }

    #[test]
    fn a_session_plays_maze_games_and_checks_results() {
        let map = caves();
        let mut bot = BotSession::new(|n| MazeBot::new(map.clone(), n, Box::new(First)));
        for seed in 0..5 {
            let mut game = MazeGame::new(map.clone(), seed).unwrap();
            assert_eq!(bot.line("maze 20").unwrap(), None);
            let mut lines = vec![MazeStatus::of_view(&map, &game.view())
                .unwrap()
                .protocol_line()];
            loop {
                let mut reply = None;
                for l in &lines {
                    if let Some(r) = bot.line(l).unwrap() {
                        reply = Some(r);
                    }
                }
                let Some(reply) = reply else { break };
                let turn = game.act(parse_bot_line(&reply).unwrap());
                lines = host_lines(&map, turn.result, &game.view());
            }
            assert!(game.ending().is_some());
        }
        assert_eq!(bot.games(), 5);
        assert!(matches!(bot.line("maze 21"), Err(BotError::Agent(_))));
        bot.line("maze 20").unwrap();
        assert_eq!(
            bot.line("status 0 0 0 0 tunnels ? ? ?").unwrap().as_deref(),
            Some("toss 1")
        );
        assert!(matches!(
            bot.line("result moved"),
            Err(BotError::Protocol(ProtocolError::WrongResult { .. }))
        ));
    }
}
