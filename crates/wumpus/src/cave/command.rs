//! What a player may type in a cave game: `move`, `shoot` (classic cave) or `toss` (maze), and
//! `help`, `quit`, `load FILE`, `save FILE`.
//!
//! Words in any case, with one-letter forms: `m 3` / `move 3`, `s 4 5 6` / `shoot 4 5 6`
//! (commas also separate rooms: `s 4,5,6`), `t 2` / `toss 2`. In the classic cave numbers are
//! rooms as the map numbers them; in the maze they are tunnels, 1 to 3. Anything else is refused
//! with the reason, never guessed at. [`parse_command`] reads the text; [`classic_action`] turns
//! a parsed classic command into an [`Action`] on a given map, refusing rooms the map does not
//! have.

use super::classic::{Action, ArrowPath, ArrowPathError, MAX_ARROW_ROOMS};
use super::map::{CaveMap, TUNNELS};
use super::maze::MazeAction;
use crate::command::{self, Refusal, Shared, Typed};

/// Which game the command is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// The classic cave: move to a room, shoot along rooms.
    Classic,
    /// The `caves.dat` maze: move and toss through a tunnel.
    Maze,
}

/// A command from the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaveCommand {
    /// Classic: walk to the room with this number.
    MoveTo(usize),
    /// Classic: shoot through these rooms (1 to 5).
    Shoot(Vec<usize>),
    /// Maze: walk through this tunnel (1 to 3).
    Move(usize),
    /// Maze: toss a grenade through this tunnel (1 to 3).
    Toss(usize),
    /// Print the commands.
    Help,
    /// Ask the agent what it would do, and why.
    Hint,
    /// Leave the game.
    Quit,
    /// Start a new game on the hazards in a file.
    Load(String),
    /// Save this game's hazards, as dealt, to a file.
    Save(String),
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// Nothing was entered.
    #[error("enter a command (type 'help' for the list)")]
    Empty,
    /// The first word is no command.
    #[error("'{0}' is not a command (type 'help' for the list)")]
    Unknown(String),
    /// A command of the other game.
    #[error("{} is not a command here: {why}", crate::files::quoted(.word))]
    OtherGame {
        /// The word typed.
        word: String,
        /// What to do instead.
        why: &'static str,
    },
    /// A command that needs a number got none.
    #[error("{command} needs {what}, e.g. '{example}'")]
    Missing {
        /// The command.
        command: &'static str,
        /// What it needs.
        what: &'static str,
        /// An example.
        example: &'static str,
    },
    /// A word that should be a number.
    #[error("'{0}' is not a number")]
    NotANumber(String),
    /// Too many words.
    #[error("{command} takes {takes}, but '{extra}' follows")]
    ExtraWords {
        /// The command.
        command: &'static str,
        /// What it takes.
        takes: &'static str,
        /// The first extra word.
        extra: String,
    },
    /// More than five rooms for an arrow.
    #[error("an arrow flies through at most {max} rooms, not {0}", max = MAX_ARROW_ROOMS)]
    TooManyRooms(usize),
    /// A tunnel number out of range.
    #[error("there is no tunnel {0}: tunnels are numbered 1 to {max}", max = TUNNELS)]
    NoSuchTunnel(usize),
    /// A room the map does not have.
    #[error("there is no room {room}: rooms are numbered {first} to {last}")]
    NoSuchRoom {
        /// The number typed.
        room: usize,
        /// The first room's number.
        first: usize,
        /// The last room's number.
        last: usize,
    },
}

/// The help text of the classic cave.
pub const CLASSIC_HELP: &str = "\
Commands (any case; one-letter forms in brackets):
  move ROOM (m ROOM)          walk through a tunnel to ROOM, e.g. 'm 5'
  shoot ROOM... (s ROOM...)   shoot a crooked arrow through 1 to 5 rooms, e.g. 's 5 6 7'
  hint                        what the reasoning agent would do, why, and the odds
  load FILE                   start a new game on the hazards in FILE
  save FILE                   save this game's hazards (as dealt) to FILE
  help                        show this list
  quit                        leave the game
You can walk only through a tunnel out of your room; a room you cannot reach costs nothing.
An arrow flies to each room you name if a tunnel joins it (either way), else down a random
tunnel. It must not double straight back (5 6 5, or back into your room after one step).
You have 5 arrows; a miss wakes the wumpus. Killing it scores 100 minus your moves; the 100th
move, your own arrow, a pit, the wumpus or the fifth miss ends the game with 0.";

/// The help text of the maze.
pub const MAZE_HELP: &str = "\
Commands (any case; one-letter forms in brackets):
  move TUNNEL (m TUNNEL)      walk through tunnel 1, 2 or 3, e.g. 'm 2'
  toss TUNNEL (t TUNNEL)      toss a grenade through tunnel 1, 2 or 3, e.g. 't 1'
  hint                        what the reasoning agent would do, why, and the odds
  load FILE                   start a new game on the hazards in FILE
  save FILE                   save this game's hazards (as dealt) to FILE
  help                        show this list
  quit                        leave the game
Kill every wumpus before your grenades run out. A blast startles the wumpi next to it.";

/// Reads one line of player input for a game under `rules`.
pub fn parse_command(line: &str, rules: Rules) -> Result<CaveCommand, CommandError> {
    let Some(typed) = Typed::read(line) else {
        return Err(CommandError::Empty);
    };
    let (first, verb) = (typed.first, &typed.verb);
    let words: Vec<&str> = typed
        .rest
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    if let Some(shared) = command::shared(&typed, &words) {
        return match shared {
            Ok(Shared::Help) => Ok(CaveCommand::Help),
            Ok(Shared::Hint) => Ok(CaveCommand::Hint),
            Ok(Shared::Quit) => Ok(CaveCommand::Quit),
            Ok(Shared::Load(file)) => Ok(CaveCommand::Load(file)),
            Ok(Shared::Save(file)) => Ok(CaveCommand::Save(file)),
            Err(Refusal::ExtraWords { command, extra }) => Err(CommandError::ExtraWords {
                command,
                takes: "no argument",
                extra,
            }),
            Err(Refusal::MissingFile(command)) => Err(CommandError::Missing {
                command,
                what: "a file name",
                example: if command == "load" {
                    "load hazards.txt"
                } else {
                    "save hazards.txt"
                },
            }),
        };
    }
    let number = |w: &str| {
        w.parse::<usize>()
            .map_err(|_| CommandError::NotANumber(w.to_string()))
    };
    let one =
        |command: &'static str, what: &'static str, example: &'static str| match words.as_slice() {
            [] => Err(CommandError::Missing {
                command,
                what,
                example,
            }),
            [w] => number(w),
            [_, extra, ..] => Err(CommandError::ExtraWords {
                command,
                takes: what,
                extra: extra.to_string(),
            }),
        };
    let tunnel = |command: &'static str, example: &'static str| {
        let t = one(command, "one tunnel number", example)?;
        if (1..=TUNNELS).contains(&t) {
            Ok(t)
        } else {
            Err(CommandError::NoSuchTunnel(t))
        }
    };
    match (verb.as_str(), rules) {
        ("move" | "m", Rules::Classic) => {
            one("move", "one room number", "move 5").map(CaveCommand::MoveTo)
        }
        ("move" | "m", Rules::Maze) => tunnel("move", "move 2").map(CaveCommand::Move),
        ("shoot" | "s", Rules::Classic) => {
            if words.is_empty() {
                return Err(CommandError::Missing {
                    command: "shoot",
                    what: "1 to 5 room numbers",
                    example: "shoot 5 6 7",
                });
            }
            if words.len() > MAX_ARROW_ROOMS {
                return Err(CommandError::TooManyRooms(words.len()));
            }
            let rooms = words.iter().map(|w| number(w)).collect::<Result<_, _>>()?;
            Ok(CaveCommand::Shoot(rooms))
        }
        ("toss" | "t", Rules::Maze) => tunnel("toss", "toss 1").map(CaveCommand::Toss),
        ("shoot" | "s", Rules::Maze) => Err(CommandError::OtherGame {
            word: first.to_string(),
            why: "in the maze you toss grenades through a tunnel: 'toss 1' (or 't 1')",
        }),
        ("toss" | "t", Rules::Classic) => Err(CommandError::OtherGame {
            word: first.to_string(),
            why: "in the classic cave you shoot arrows through rooms: 'shoot 5 6' (or 's 5 6')",
        }),
        _ => Err(CommandError::Unknown(first.to_string())),
    }
}

/// Turns a classic command into an action on `map`, or `None` for a command that is not a game
/// action (help, quit, load, save, and the maze's commands).
pub fn classic_action(
    command: &CaveCommand,
    map: &CaveMap,
) -> Option<Result<Action, CommandError>> {
    let room = |n: usize| {
        map.room(n).ok_or(CommandError::NoSuchRoom {
            room: n,
            first: map.first_number(),
            last: map.len() - 1 + map.first_number(),
        })
    };
    match command {
        CaveCommand::MoveTo(n) => Some(room(*n).map(Action::Move)),
        CaveCommand::Shoot(numbers) => Some((|| {
            let rooms = numbers.iter().map(|&n| room(n)).collect::<Result<_, _>>()?;
            ArrowPath::new(rooms)
                .map(Action::Shoot)
                .map_err(|e| match e {
                    ArrowPathError::Empty => CommandError::Missing {
                        command: "shoot",
                        what: "1 to 5 room numbers",
                        example: "shoot 5 6 7",
                    },
                    ArrowPathError::TooLong(n) => CommandError::TooManyRooms(n),
                })
        })()),
        _ => None,
    }
}

/// Turns a maze command into an action, or `None` for a command that is not a game action.
pub fn maze_action(command: &CaveCommand) -> Option<MazeAction> {
    match command {
        CaveCommand::Move(t) => Some(MazeAction::Move(*t)),
        CaveCommand::Toss(t) => Some(MazeAction::Toss(*t)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::map::parse_map;
    use crate::topology::Place;
    use CaveCommand as C;

    #[test]
    fn classic_commands_in_any_case_and_short() {
        let cases = [
            ("m 3", C::MoveTo(3)),
            ("MOVE 3", C::MoveTo(3)),
            ("  Move   12 ", C::MoveTo(12)),
            ("s 4 5 6", C::Shoot(vec![4, 5, 6])),
            ("shoot 4", C::Shoot(vec![4])),
            ("SHOOT 4,5, 6", C::Shoot(vec![4, 5, 6])),
            ("S 1 2 3 4 5", C::Shoot(vec![1, 2, 3, 4, 5])),
            ("help", C::Help),
            ("QUIT", C::Quit),
            ("Hint", C::Hint),
            ("load my hazards.txt", C::Load("my hazards.txt".into())),
            ("Save h.txt", C::Save("h.txt".into())),
        ];
        for (text, want) in cases {
            assert_eq!(parse_command(text, Rules::Classic), Ok(want), "{text}");
        }
    }

    #[test]
    fn maze_commands_name_tunnels() {
        assert_eq!(parse_command("m 3", Rules::Maze), Ok(C::Move(3)));
        assert_eq!(parse_command("T 1", Rules::Maze), Ok(C::Toss(1)));
        assert_eq!(parse_command("toss 2", Rules::Maze), Ok(C::Toss(2)));
        assert_eq!(
            parse_command("m 4", Rules::Maze),
            Err(CommandError::NoSuchTunnel(4))
        );
        assert_eq!(
            parse_command("t 0", Rules::Maze),
            Err(CommandError::NoSuchTunnel(0))
        );
    }

    #[test]
    fn invalid_input_is_refused_with_a_reason() {
        let bad = |text: &str, rules| parse_command(text, rules).unwrap_err();
        assert_eq!(bad("", Rules::Classic), CommandError::Empty);
        assert!(matches!(
            bad("jump 3", Rules::Classic),
            CommandError::Unknown(_)
        ));
        assert!(matches!(
            bad("m3", Rules::Classic),
            CommandError::Unknown(_)
        ));
        assert!(matches!(
            bad("m", Rules::Classic),
            CommandError::Missing { .. }
        ));
        assert!(matches!(
            bad("s", Rules::Classic),
            CommandError::Missing { .. }
        ));
        assert!(matches!(
            bad("m x", Rules::Classic),
            CommandError::NotANumber(_)
        ));
        assert!(matches!(
            bad("m -1", Rules::Classic),
            CommandError::NotANumber(_)
        ));
        assert!(matches!(
            bad("m 3 4", Rules::Classic),
            CommandError::ExtraWords { .. }
        ));
        assert_eq!(
            bad("s 1 2 3 4 5 6", Rules::Classic),
            CommandError::TooManyRooms(6)
        );
        assert!(matches!(
            bad("t 1", Rules::Classic),
            CommandError::OtherGame { .. }
        ));
        assert!(matches!(
            bad("s 1", Rules::Maze),
            CommandError::OtherGame { .. }
        ));
        assert!(matches!(
            bad("quit now", Rules::Maze),
            CommandError::ExtraWords { .. }
        ));
        assert!(matches!(
            bad("save", Rules::Maze),
            CommandError::Missing { .. }
        ));
    }

    #[test]
    fn classic_actions_use_the_maps_numbers() {
        let map = parse_map(include_str!("../../../../worlds/cave-standard.txt")).unwrap();
        assert_eq!(
            classic_action(&C::MoveTo(1), &map),
            Some(Ok(Action::Move(Place::new(0))))
        );
        assert_eq!(
            classic_action(&C::MoveTo(21), &map),
            Some(Err(CommandError::NoSuchRoom {
                room: 21,
                first: 1,
                last: 20
            }))
        );
        assert!(matches!(
            classic_action(&C::Shoot(vec![2, 0]), &map),
            Some(Err(CommandError::NoSuchRoom { room: 0, .. }))
        ));
        assert_eq!(classic_action(&C::Help, &map), None);
        let caves = parse_map(include_str!("../../../../worlds/caves.dat")).unwrap();
        assert_eq!(
            classic_action(&C::MoveTo(0), &caves),
            Some(Ok(Action::Move(Place::new(0))))
        );
        assert_eq!(maze_action(&C::Toss(2)), Some(MazeAction::Toss(2)));
        assert_eq!(maze_action(&C::Quit), None);
    }
}
