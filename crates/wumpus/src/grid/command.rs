//! The grid game's typed commands: what a player may enter at the prompt.
//!
//! Full words and one-letter forms in any mix of case (`north`, `N`, `fire east`, `F E`,
//! `Fire e`); `load FILE` and `save FILE` have no one-letter forms, because `S aname.txt` would
//! be ambiguous with south. Anything else is refused with the reason, never guessed at: `fire`
//! with no direction, `firenorth`, `fn`, `F norbert`, `fire why` and `eat` are all invalid.

use super::game::Action;
use crate::command::{self, Refusal, Shared, Typed};
use crate::topology::Direction;

/// A command from the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A game action.
    Act(Action),
    /// Print the commands.
    Help,
    /// Ask the agent for the next action.
    Hint,
    /// Leave the game.
    Quit,
    /// Start a new game on the world in a file.
    Load(String),
    /// Save the current world to a file.
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
    /// `fire` with no direction.
    #[error("fire needs a direction: fire north, fire south, fire east or fire west (or F N, F S, F E, F W)")]
    MissingDirection,
    /// `fire` with a word that is not a direction.
    #[error("'{0}' is not a direction: use north, south, east or west (or N, S, E, W)")]
    BadDirection(String),
    /// Words after a command that takes none (or too many after `fire`).
    #[error("'{command}' takes {takes}, but '{extra}' follows")]
    ExtraWords {
        /// The command.
        command: String,
        /// What it takes.
        takes: &'static str,
        /// The first extra word.
        extra: String,
    },
    /// `load` or `save` without a file name.
    #[error("{0} needs a file name, e.g. '{0} world.txt'")]
    MissingFile(&'static str),
}

/// The help text listing every command and its format.
pub const HELP: &str = "\
Commands (any case; one-letter forms in brackets):
  north (N), south (S), east (E), west (W)   move one cell; north is row + 1, east is column + 1
  grab (G)                                   pick up the gold if it is here
  fire DIRECTION (F D)                       shoot your one arrow, e.g. 'fire north' or 'F N'
  climb (C)                                  climb out; works only at the start, 0,0
  hint                                       ask the agent what it would do, and why
  load FILE                                  start a new game on the world in FILE
  save FILE                                  save this game's world to FILE
  help                                       show this list
  quit                                       leave the game
Every action counts as a move. 'firenorth', 'fn' and 'fire' alone are not commands.";

/// Reads one line of player input.
pub fn parse_command(line: &str) -> Result<Command, CommandError> {
    let Some(typed) = Typed::read(line) else {
        return Err(CommandError::Empty);
    };
    let (first, verb) = (typed.first, &typed.verb);
    let rest: Vec<&str> = typed.rest.split_whitespace().collect();
    if let Some(shared) = command::shared(&typed, &rest) {
        return match shared {
            Ok(Shared::Help) => Ok(Command::Help),
            Ok(Shared::Hint) => Ok(Command::Hint),
            Ok(Shared::Quit) => Ok(Command::Quit),
            Ok(Shared::Load(file)) => Ok(Command::Load(file)),
            Ok(Shared::Save(file)) => Ok(Command::Save(file)),
            Err(Refusal::ExtraWords { command, extra }) => Err(CommandError::ExtraWords {
                command: command.to_string(),
                takes: "no argument",
                extra,
            }),
            Err(Refusal::MissingFile(keyword)) => Err(CommandError::MissingFile(keyword)),
        };
    }
    let no_args = |command: Command| match rest.first() {
        None => Ok(command),
        Some(extra) => Err(CommandError::ExtraWords {
            command: verb.clone(),
            takes: "no argument",
            extra: extra.to_string(),
        }),
    };
    match verb.as_str() {
        "north" | "n" => no_args(Command::Act(Action::Move(Direction::North))),
        "south" | "s" => no_args(Command::Act(Action::Move(Direction::South))),
        "east" | "e" => no_args(Command::Act(Action::Move(Direction::East))),
        "west" | "w" => no_args(Command::Act(Action::Move(Direction::West))),
        "grab" | "g" => no_args(Command::Act(Action::Grab)),
        "climb" | "c" => no_args(Command::Act(Action::Climb)),
        "fire" | "f" => match rest.as_slice() {
            [] => Err(CommandError::MissingDirection),
            [word] => Direction::parse(word)
                .map(|d| Command::Act(Action::Fire(d)))
                .ok_or_else(|| CommandError::BadDirection(word.to_string())),
            [_, extra, ..] => Err(CommandError::ExtraWords {
                command: verb.clone(),
                takes: "one direction",
                extra: extra.to_string(),
            }),
        },
        _ => Err(CommandError::Unknown(first.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Direction::*;

    #[test]
    fn full_words_and_letters_in_any_case() {
        let cases = [
            ("north", Action::Move(North)),
            ("N", Action::Move(North)),
            ("SoUtH", Action::Move(South)),
            ("e", Action::Move(East)),
            ("West", Action::Move(West)),
            ("G", Action::Grab),
            ("grab", Action::Grab),
            ("c", Action::Climb),
            ("CLIMB", Action::Climb),
            ("fire North", Action::Fire(North)),
            ("F N", Action::Fire(North)),
            ("f east", Action::Fire(East)),
            ("Fire w", Action::Fire(West)),
            ("  fire   south  ", Action::Fire(South)),
        ];
        for (text, action) in cases {
            assert_eq!(parse_command(text), Ok(Command::Act(action)), "{text}");
        }
    }

    #[test]
    fn seed_invalid_commands_are_refused_with_reasons() {
        assert_eq!(parse_command("fire"), Err(CommandError::MissingDirection));
        assert!(matches!(
            parse_command("firenorth"),
            Err(CommandError::Unknown(_))
        ));
        assert!(matches!(parse_command("fn"), Err(CommandError::Unknown(_))));
        assert_eq!(
            parse_command("F norbert"),
            Err(CommandError::BadDirection("norbert".into()))
        );
        assert_eq!(
            parse_command("fire why"),
            Err(CommandError::BadDirection("why".into()))
        );
        assert!(matches!(
            parse_command("eat"),
            Err(CommandError::Unknown(_))
        ));
        assert_eq!(parse_command("   "), Err(CommandError::Empty));
        assert!(matches!(
            parse_command("north 2"),
            Err(CommandError::ExtraWords { .. })
        ));
        assert!(matches!(
            parse_command("fire north east"),
            Err(CommandError::ExtraWords { .. })
        ));
        assert!(matches!(
            parse_command("S aname.txt"),
            Err(CommandError::ExtraWords { .. })
        ));
    }

    #[test]
    fn load_and_save_take_a_file() {
        assert_eq!(
            parse_command("load my world.txt"),
            Ok(Command::Load("my world.txt".into()))
        );
        assert_eq!(
            parse_command("SAVE w.txt"),
            Ok(Command::Save("w.txt".into()))
        );
        assert_eq!(
            parse_command("save"),
            Err(CommandError::MissingFile("save"))
        );
        assert!(matches!(
            parse_command("l w.txt"),
            Err(CommandError::Unknown(_))
        ));
        assert_eq!(parse_command("help"), Ok(Command::Help));
        assert_eq!(parse_command("QUIT"), Ok(Command::Quit));
        assert_eq!(parse_command("hint"), Ok(Command::Hint));
    }
}
