//! The bot protocols: how an external game host drives a player over lines of text, game after
//! game (`docs/bot-protocol.md`). Two rule sets speak one: the classic cave ([`cave`]) and
//! the `caves.dat` maze ([`maze`]).
//!
//! Each rule set's module reads its host's lines into typed values and writes the bot's, with
//! errors that say what is wrong; its bot ([`cave::ClassicBot`], [`maze::MazeBot`]) turns the
//! lines into what an agent is shown through the one game interface, so any
//! [`Agent`] of the rule set plays behind it. [`BotSession`] keeps the
//! turns in order, game after game, the same for both.

pub mod cave;
pub mod maze;

use crate::agent::{Agent, AgentKind, AgentOptions, Dice, Roster};
use crate::cave::{MazeSession, MazeSetup};
use crate::game::{Briefing, RuleSet};
use crate::game_spec::{GameSpec, SpecError};

/// What a bot's player is told when the host's `game N` (`maze N`) line starts a game: a
/// cave of `rooms` rooms (caves), nothing more. The host is the bot's only game.
pub fn host_briefing(rooms: usize) -> Briefing {
    Briefing::rooms(rooms)
}

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

/// A line that breaks the protocol.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// The first word is not one the protocol knows.
    #[error("unknown line {} (expected {expected})", crate::files::quoted(.line))]
    UnknownLine {
        /// The line.
        line: String,
        /// The first words the rule set's protocol knows.
        expected: &'static str,
    },
    /// The words after the first do not fit.
    #[error("malformed {}: {why}", crate::files::quoted(.line))]
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

pub(crate) fn malformed(line: &str, why: impl Into<String>) -> ProtocolError {
    ProtocolError::Malformed {
        line: line.to_string(),
        why: why.into(),
    }
}

pub(crate) fn wrong_count(line: &str) -> ProtocolError {
    malformed(line, "wrong number of words")
}

pub(crate) fn number(line: &str, word: &str) -> Result<usize, ProtocolError> {
    word.parse().map_err(|_| {
        malformed(
            line,
            format!("{} is not a number", crate::files::quoted(word)),
        )
    })
}

/// A new game's place count from its first line: 1 to the most rooms a map may have, or an
/// error saying so in `what`'s words (`a cave` has `rooms`).
pub(crate) fn game_size(
    line: &str,
    word: &str,
    what: &str,
    places: &str,
) -> Result<usize, ProtocolError> {
    let max = crate::cave::map::MAX_ROOMS;
    let n = number(line, word)?;
    if (1..=max).contains(&n) {
        Ok(n)
    } else {
        Err(malformed(
            line,
            format!("{what} has 1 to {max} {places}, not {n}"),
        ))
    }
}

pub(crate) fn flag(line: &str, word: &str) -> Result<bool, ProtocolError> {
    match word {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(malformed(
            line,
            format!("warning {} is not 0 or 1", crate::files::quoted(word)),
        )),
    }
}

/// A rule set's bot-side player: how its host lines read, and how it answers them. Every
/// [`cave::ClassicBot`] is the classic cave's, [`maze::MazeBot`] the maze's.
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

/// A rule set's words on the bot protocol, for [`AgentBot`]: how a status and the last result
/// become what a player is shown, how an action is written, and which results can answer it.
pub trait BotRules: crate::game::Session {
    /// What a `status` line tells.
    type Status;
    /// What a `result` line tells.
    type Result: Copy;
    /// What an `end` line tells.
    type Ending;
    /// What the bot keeps for a whole game to read statuses (the maze's map).
    type Context;
    /// Reads one host line (see [`BotPlayer::parse`]).
    #[allow(clippy::type_complexity)]
    fn parse_host(
        line: &str,
        size: Option<usize>,
    ) -> Result<Line<Self::Status, Self::Result, Self::Ending>, ProtocolError>;
    /// What the player is shown: the last action's result, then `status`.
    fn shown(
        context: &Self::Context,
        result: Option<Self::Result>,
        status: &Self::Status,
    ) -> Self::Shown;
    /// The bot's line for `action`.
    fn bot_line(action: &Self::Action) -> String;
    /// Refuses a result that cannot answer `last`, the bot's last action.
    fn check_result(last: Option<&Self::Action>, result: Self::Result)
        -> Result<(), ProtocolError>;
}

/// The bot's side of a game of any rule set with an agent: it hands each status, with the
/// result of its last action, to the agent as a player is shown them, and answers with the
/// agent's action.
pub struct AgentBot<S: BotRules> {
    agent: Box<dyn Agent<S>>,
    context: S::Context,
    last: Option<S::Action>,
    result: Option<S::Result>,
}

impl<S: BotRules> AgentBot<S> {
    /// A bot playing with `agent`, reading statuses with `context`.
    pub fn with_context(agent: Box<dyn Agent<S>>, context: S::Context) -> AgentBot<S> {
        AgentBot {
            agent,
            context,
            last: None,
            result: None,
        }
    }
}

impl<S: BotRules> BotPlayer for AgentBot<S> {
    type Status = S::Status;
    type Result = S::Result;
    type Ending = S::Ending;

    fn parse(
        line: &str,
        size: Option<usize>,
    ) -> Result<Line<S::Status, S::Result, S::Ending>, ProtocolError> {
        S::parse_host(line, size)
    }

    fn answer(&mut self, status: &S::Status) -> String {
        let shown = S::shown(&self.context, self.result.take(), status);
        // A contradiction leaves the agent playing on without its knowledge (it says so in
        // its reasons); the protocol has no way to report it.
        let _ = self.agent.observe(self.last.as_ref(), &shown);
        let action = self.agent.decide().action;
        let line = S::bot_line(&action);
        self.last = Some(action);
        line
    }

    fn observe(&mut self, result: &S::Result) -> Result<(), ProtocolError> {
        S::check_result(self.last.as_ref(), *result)?;
        self.result = Some(*result);
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

/// A bot a door drives a line at a time, whichever rule set it plays.
pub trait LineBot {
    /// Takes one host line; returns the bot's answer when one is due. An error says what is
    /// wrong (`cannot play this game: ...` for a game the agent cannot play).
    fn line(&mut self, line: &str) -> Result<Option<String>, String>;
}

impl<P: BotPlayer, E: std::fmt::Display, F: FnMut(usize) -> Result<P, E>> LineBot
    for BotSession<P, F>
{
    fn line(&mut self, line: &str) -> Result<Option<String>, String> {
        BotSession::line(self, line).map_err(|e| e.to_string())
    }
}

/// The rule sets a bot plays, the default first.
pub const RULES: &[RuleSet] = &[RuleSet::Cave, RuleSet::Maze];

/// The options a bot takes beyond its rule set.
pub const OPTIONS: &[&str] = &["map", "map_known"];

/// The bot of `spec`'s rule set (`docs/bot-protocol.md`), refused for a rule set with no bot
/// protocol and for options the bot does not take. The classic cave's agent is given the map
/// when `map` or `map_known` says so, and otherwise learns each room's tunnels by standing in
/// it; the maze's is always given its map (the standard caves.dat unless `map` names one), as
/// the host numbers caves.
pub fn for_spec(spec: &GameSpec) -> Result<Box<dyn LineBot>, SpecError> {
    spec.check_game_with(&[])?;
    if let Some((name, _)) = spec
        .given()
        .into_iter()
        .skip(1)
        .find(|(name, _)| !OPTIONS.contains(name))
    {
        return Err(SpecError::refused(format!(
            "the bot plays its rule set's reasoning agent as the host drives it: {{{name}}} \
             is not taken (the bot takes {{map}} and {{map_known}})"
        )));
    }
    match spec.rules {
        RuleSet::Cave => {
            let map = match spec.map.is_some() || spec.map_known == Some(true) {
                true => Some(spec.map_file()?.0),
                false => None,
            };
            Ok(Box::new(BotSession::new(move |rooms: usize| {
                crate::agent::roster::classic_bot_agent(rooms, map.as_ref())
                    .map(cave::ClassicBot::new)
            })))
        }
        RuleSet::Maze => {
            let (map, map_name) = spec.map_file()?;
            let setup = MazeSetup {
                map: map.clone(),
                map_name,
            };
            // A map the agent cannot play is refused before any line is read.
            let options = AgentOptions {
                map_known: true,
                ..AgentOptions::default()
            };
            let agents = MazeSession::prepare(AgentKind::Logic, &setup, &options)?;
            Ok(Box::new(BotSession::new(
                move |caves: usize| -> Result<_, String> {
                    let agent = agents
                        .make(&host_briefing(caves), Dice::fresh())
                        .map_err(|e| e.to_string())?;
                    maze::MazeBot::new(map.clone(), caves, agent)
                },
            )))
        }
        other => Err(SpecError::refused(format!(
            "the bot protocol is the classic cave's and the maze's, not {}'s: use \
             {{rules=cave}} or {{rules=maze}}",
            crate::game_spec::facts(other).title
        ))),
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
